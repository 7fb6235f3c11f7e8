/**
 * The public state of Jousts & Crests and Siege & Defense, field by field (see contract/snapshot.ts).
 * Emblem values are copied only from what the table has seen revealed: the engine never stores a
 * value before its reveal, and this builder copies no slice wholesale so that a future engine field
 * cannot leak onto the screens unreviewed.
 */
import { attackable, postOption } from '../../../engine/expansions/siege-defense.js';
import { crownCategory, nominatedMeeples, nominationCandidates, tournamentDue } from '../../../engine/expansions/jousts-crests.js';
import type { GameState } from '../../../engine/game/state.js';
import type { JcView, SdView } from '../../contract/snapshot.js';

const POSTS = ['knights', 'travelers', 'monks'] as const;

function spot(state: GameState, id: number): { x: number; y: number; on: string } | null {
  const m = state.meeples.find((x) => x.id === id);
  return m ? { x: m.x, y: m.y, on: m.on } : null;
}

export function jcView(state: GameState): JcView | null {
  const j = state.jc;
  if (!j) return null;
  const t = j.tournament;
  const next = t ? (t.participants[t.reveals.length] ?? null) : null;
  return {
    stacks: j.stacks.map((s) => ({ land: s.land, prizes: s.prizes })),
    current: j.current,
    finalPrizes: j.finalPrizes,
    crown: { spaces: [...j.options.crownSpaces], at: j.crown, category: crownCategory(j) },
    allowRenominate: j.options.allowRenominate,
    players: j.players.map((p) => ({
      emblems: p.emblems,
      revealed: [...p.revealed],
      prizesHeld: p.prizesHeld,
      keptEmblems: [...p.keptEmblems],
      box: [...p.box],
      boxHidden: p.boxHidden,
    })),
    // Which meeples carry an emblem: public (the emblem lies face down under the meeple), the value is not.
    nominated: state.meeples.filter((m) => j.nominated.has(m.id)).map((m) => ({ player: m.player, kind: m.kind, x: m.x, y: m.y, on: m.on })),
    nominable: nominationCandidates(state).map((m) => ({ x: m.x, y: m.y, on: m.on })),
    tournament: t
      ? {
          category: t.category,
          final: t.final,
          participants: [...t.participants],
          reveals: t.reveals.map((r) => ({ player: r.player, value: r.value, bonus: r.bonus, at: spot(state, r.meeple) })),
          next,
          nextMeeples: next === null ? [] : nominatedMeeples(state, next, t.category).map((m) => ({ x: m.x, y: m.y, on: m.on })),
        }
      : null,
    statues: j.statues.map((s) => ({ player: s.player, value: s.value, x: s.at[0], y: s.at[1], on: s.on })),
    prizeTypes: [...j.prizePool].filter(([, n]) => n > 0).map(([tile, count]) => ({ tile, count })).sort((a, b) => a.tile.localeCompare(b.tile)),
    tournamentsDone: j.tournamentsDone,
    tournamentDue: tournamentDue(state),
    laps: j.laps,
  };
}

export function sdView(state: GameState): SdView | null {
  const s = state.sd;
  if (!s) return null;
  const attackPost = s.attack?.post;
  const option = postOption(state);
  return {
    rowLength: s.rowLength,
    posts: POSTS.map((name) => ({ name, row: [...s.posts[name].row], space: [...s.posts[name].space], catapult: s.posts[name].catapult })),
    pending: [...s.pending],
    attack: s.attack
      ? {
          post: s.attack.post,
          removers: [...s.attack.removers],
          // The next remover's meeples the attack may take: every one of them is on the board, in view.
          targets: state.meeples
            .filter((m) => m.player === s.attack!.removers[0] && attackPost && attackable(state, m, attackPost))
            .map((m) => ({ kind: m.kind, x: m.x, y: m.y, on: m.on })),
        }
      : null,
    counterAttack: s.counterAttack,
    postOption: option ? { post: option.post, space: option.space } : null,
  };
}
