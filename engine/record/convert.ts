/** Between record@1 and the engine: setup from a record, commands from a record turn. */
import type { MeepleKind } from '../features/board.js';
import type { Command } from '../game/commands.js';
import { DEFAULT_RULES, DEFAULT_TILE_SET, defaultStart, type ExpansionOptions, type GameSetup, type Rules } from '../game/setup.js';
import type { GameState } from '../game/state.js';
import type { GameRecord, RecordTurn } from './schema.js';

export function setupFromRecord(r: GameRecord): GameSetup {
  const rules: Rules = {
    tinyCity: r.rules?.tinyCity ?? DEFAULT_RULES.tinyCity,
    innCathedralIncomplete: r.rules?.innCathedralIncomplete ?? DEFAULT_RULES.innCathedralIncomplete,
    farmers: r.rules?.farmers ?? DEFAULT_RULES.farmers,
    towerCapture: r.rules?.towerCapture ?? DEFAULT_RULES.towerCapture,
  };
  return {
    expansions: r.expansions,
    rules,
    players: r.players.map((p) => ({ name: p.name, color: p.color })),
    start: r.start
      ? r.start.map((s) => ({ tile: s.tile, at: [s.at[0], s.at[1]], rot: s.rot, ...(s.piece ? { piece: s.piece } : {}) }))
      : defaultStart(r.expansions, r.tileSet?.edition ?? DEFAULT_TILE_SET.edition),
    tileSet: { ...DEFAULT_TILE_SET, ...r.tileSet },
    ...(r.options ? { options: r.options as ExpansionOptions } : {}),
  };
}

/** The commands one record turn stands for, in the order the corpus README gives. */
export function commandsForTurn(turn: RecordTurn, state: GameState): Command[] {
  const p = turn.player;
  const out: Command[] = [];
  for (const r of turn.ransoms ?? []) {
    const kind: MeepleKind = r.meeple ?? state.players[r.prisonerOf]?.prisoners.find((x) => x.owner === r.payer)?.kind ?? 'normal';
    out.push({ type: 'payRansom', player: r.payer, prisonerOf: r.prisonerOf, kind });
  }
  const tournaments = turn.tournament === undefined ? [] : Array.isArray(turn.tournament) ? turn.tournament : [turn.tournament];
  for (const t of tournaments) {
    out.push({ type: 'resolveTournament', player: p });
    for (const r of t.reveals) out.push({ type: 'revealEmblem', owner: r.player, at: r.at, on: r.on, value: r.value });
  }
  const draws = state.jc !== null || state.sd !== null;
  const drawn = turn.tile ?? turn.discarded;
  if (draws && drawn) out.push({ type: 'drawTile', player: p, tile: drawn });
  for (const s of turn.siege ?? []) {
    out.push({ type: 'resolveSiegeSymbol', player: p, post: s.post });
    for (const r of s.removals ?? []) out.push({ type: 'removeMeepleForAttack', owner: r.player, at: r.at, on: r.on, ...(r.meeple ? { kind: r.meeple } : {}) });
  }
  for (const t of turn.prizeTiles ?? []) {
    if ('discarded' in t) out.push({ type: 'discardPrizeTile', player: p, tile: t.tile });
    else out.push({ type: 'placePrizeTile', player: p, tile: t.tile, at: t.at, rot: t.rot });
  }
  if (turn.tournamentTile) out.push({ type: 'placeTournamentTile', player: p, at: turn.tournamentTile.at, rot: turn.tournamentTile.rot });
  if (turn.skip) {
    out.push({ type: 'skipTurn', player: p });
    return out;
  }
  if (turn.tile === null) {
    if (turn.discarded) {
      out.push({ type: 'discardTile', player: p, tile: turn.discarded });
      return out;
    }
    if (!turn.prizeTiles?.length) return out;
  } else {
    out.push({ type: 'placeTile', player: p, tile: turn.tile, at: [turn.at![0], turn.at![1]], rot: turn.rot! });
  }
  if (turn.nominate) out.push({ type: 'nominate', player: p, at: turn.nominate.at, on: turn.nominate.on });
  const a = turn.action;
  if (a) {
    if ('towerPiece' in a) {
      const c = a.capture;
      out.push({
        type: 'placeTowerFloor',
        player: p,
        at: a.towerPiece,
        ...(c ? { capture: { player: c.player, at: c.at, on: c.on, ...(c.meeple ? { kind: c.meeple } : {}), ...(c.exchangeFor ? { exchangeFor: c.exchangeFor } : {}) } } : {}),
      });
    } else if ('tower' in a) {
      out.push({ type: 'closeTower', player: p, kind: a.meeple, at: a.tower });
    } else if ('returnAbbot' in a) {
      out.push({ type: 'returnAbbot', player: p, at: a.returnAbbot });
    } else {
      out.push({ type: 'placeMeeple', player: p, kind: a.meeple, on: a.on });
    }
  }
  if (turn.post) out.push({ type: 'placeAtDefencePost', player: p, post: turn.post.post, space: turn.post.space });
  out.push({ type: 'endTurn', player: p });
  return out;
}
