/**
 * The random player's moves for the steps Jousts & Crests and Siege & Defense add to a turn:
 * tournaments and reveals, siege symbols and attack removals, prize tiles, nominations, defence-post
 * meeples and the placement laps. Every choice is uniform among the legal ones.
 */
import type { Command } from '../game/commands.js';
import type { GameState } from '../game/state.js';
import { countPlacementsIgnoringSupply, nthPlacementIgnoringSupply } from '../game/placement.js';
import {
  EMBLEM_VALUES, isRiverBend, nominatedMeeples, nominationCandidates, tournamentDue, tournamentTileSpots, tournamentTileWaiting,
} from '../expansions/jousts-crests.js';
import { attackable, POSTS, postOption } from '../expansions/siege-defense.js';

type Play = (c: Command) => void;
type Random = () => number;

function pick<T>(xs: readonly T[], random: Random): T {
  return xs[Math.floor(random() * xs.length)]!;
}

/** Hidden emblem values are the table's secret; the bot reveals any value its owner has not shown yet. */
function hiddenValue(state: GameState, player: number, random: Random): number {
  const left = [...EMBLEM_VALUES];
  for (const v of state.jc!.players[player]!.revealed) left.splice(left.indexOf(v), 1);
  return pick(left, random);
}

/** A due tournament, resolved with every reveal. */
export function playTournament(state: () => GameState, play: Play, random: Random): void {
  const s = state();
  if (!s.jc || !tournamentDue(s)) return;
  play({ type: 'resolveTournament', player: s.turn.player });
  for (let t = state().jc!.tournament; t; t = state().jc!.tournament) {
    const owner = t.participants[t.reveals.length]!;
    const m = pick(nominatedMeeples(state(), owner, t.category), random);
    play({ type: 'revealEmblem', owner, at: [m.x, m.y], on: m.on, value: hiddenValue(state(), owner, random) });
  }
}

/** Siege symbols of the drawn tile and the attacks they cause. */
export function playSiege(state: () => GameState, play: Play, random: Random): void {
  const s = state();
  if (!s.sd) return;
  while (state().sd!.pending.length > 0) {
    const symbol = state().sd!.pending[0]!;
    play({ type: 'resolveSiegeSymbol', player: s.turn.player, post: symbol === 'any' ? pick(POSTS, random) : symbol });
    for (let a = state().sd!.attack; a; a = state().sd!.attack) {
      const owner = a.removers[0]!;
      const st = state();
      const m = pick(st.meeples.filter((x) => x.player === owner && attackable(st, x, a.post)), random);
      play({ type: 'removeMeepleForAttack', owner, at: [m.x, m.y], on: m.on, kind: m.kind });
    }
  }
}

/** With The River, the tournament tile when the first bend is drawn. */
export function playTournamentTile(state: () => GameState, play: Play, random: Random): void {
  const s = state();
  if (!s.jc || s.turn.drawn === null || !tournamentTileWaiting(s) || !isRiverBend(s, s.turn.drawn)) return;
  const spots = tournamentTileSpots(s);
  if (spots.length === 0) return;
  const spot = pick(spots, random);
  play({ type: 'placeTournamentTile', player: s.turn.player, at: spot.at, rot: spot.rot });
}

/** Every prize tile the active player holds, each a random one of those left, placed at random. */
export function playPrizeTiles(state: () => GameState, play: Play, random: Random): void {
  const s = state();
  if (!s.jc) return;
  const player = s.turn.player;
  while (state().jc!.players[player]!.prizesHeld > 0) {
    const pool = [...state().jc!.prizePool].flatMap(([id, n]) => Array<string>(n).fill(id));
    const tile = pick(pool, random);
    // Uniform over placementsIgnoringSupply's list, without building it.
    const n = countPlacementsIgnoringSupply(state(), tile);
    if (n === 0) play({ type: 'discardPrizeTile', player, tile });
    else {
      const spot = nthPlacementIgnoringSupply(state(), tile, Math.floor(random() * n))!;
      play({ type: 'placePrizeTile', player, tile, at: spot.at, rot: spot.rot });
    }
  }
}

export function playNomination(state: () => GameState, play: Play, random: Random, rate: number): void {
  const s = state();
  if (!s.jc) return;
  const candidates = nominationCandidates(s);
  if (candidates.length === 0 || random() >= rate) return;
  const m = pick(candidates, random);
  play({ type: 'nominate', player: s.turn.player, at: [m.x, m.y], on: m.on });
}

export function playDefencePost(state: () => GameState, play: Play, random: Random, rate: number): void {
  const s = state();
  const option = postOption(s);
  if (!option || random() >= rate) return;
  play({ type: 'placeAtDefencePost', player: s.turn.player, post: option.post === 'any' ? pick(POSTS, random) : option.post, space: option.space });
}

/**
 * After the final tournament: the active player places their prize tiles and ends the turn, or skips.
 * Returns false once nobody holds a prize tile (the game can end).
 */
export function playLap(state: () => GameState, play: Play, random: Random): boolean {
  const s = state();
  if (!s.jc?.laps) return true;
  if (s.jc.players.every((p) => p.prizesHeld === 0)) return false;
  const player = s.turn.player;
  if (s.jc.players[player]!.prizesHeld === 0) {
    play({ type: 'skipTurn', player });
    return true;
  }
  playPrizeTiles(state, play, random);
  play({ type: 'endTurn', player });
  return true;
}

export function usesDraw(state: GameState): boolean {
  return state.jc !== null || state.sd !== null;
}

