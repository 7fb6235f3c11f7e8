/** The base game's turn: place a tile, maybe a meeple, score what is complete; final scoring. */
import type { MeepleOnBoard } from '../features/board.js';
import { formatPosition } from '../geometry/position.js';
import { isRotation, quarterTurns } from '../geometry/segments.js';
import type {
  Command, DiscardTile, DrawTile, EndTurn, PlaceMeeple, PlaceTile,
} from '../game/commands.js';
import type {
  GameEvent, MeeplePlaced, MeepleReturned, Scored, StartPlaced, TileDiscarded, TileDrawn, TilePlaced, TurnEnded,
} from '../game/events.js';
import type { ExpansionModule } from '../game/expansion.js';
import { hasLegalPlacement, placementProblem, tileProblem } from '../game/placement.js';
import type { GameState } from '../game/state.js';
import { addExpansionTiles } from '../game/supply.js';
import { fail, ok, type Result } from '../result.js';
import { fieldEvent, scoreFeatureEvents } from '../scoring/features.js';

const FEATURE_WORD: Record<string, string> = {
  road: 'road', city: 'city', field: 'field', cloister: 'cloister', garden: 'garden', tower: 'tower foundation', river: 'river',
};

export function placeOnBoard(state: GameState, tileId: string, x: number, y: number, rot: 0 | 90 | 180 | 270, piece?: string) {
  const view = state.catalog.view(tileId, quarterTurns(rot));
  let pieceIndex = -1;
  if (piece) {
    pieceIndex = state.pieces.indexOf(piece);
    if (pieceIndex < 0) pieceIndex = state.pieces.push(piece) - 1;
  }
  const placed = state.board.place(view, x, y, pieceIndex);
  const left = state.supply.get(tileId);
  if (left !== undefined && left > 0) state.supply.set(tileId, left - 1);
  for (const hook of state.pipeline.afterTilePlaced) hook(state, placed);
  return placed;
}

/**
 * Where the rules need the draw (Jousts & Crests' stacks, Siege & Defense's symbols: the modules with
 * an `afterTileDrawn` hook) and none is in this turn, the tile placed (or discarded) is the tile
 * drawn: its placement implies the draw, so the table tells the companion a turn once, by laying the
 * tile. The modules' `commandRule`s refuse it where something must come between the draw and the
 * placement (a siege symbol, a prize tile, the tournament tile); then the draw is entered by itself.
 */
function impliedDraw(state: GameState, player: number, tile: string): TileDrawn[] {
  if (state.turn.drawn !== null || state.pipeline.afterTileDrawn.length === 0) return [];
  return [{ type: 'tileDrawn', player, tile }];
}

function findMeeple(state: GameState, player: number, kind: string, at: readonly [number, number], on: string): number {
  return state.meeples.findIndex((m) => m.player === player && m.kind === kind && m.x === at[0] && m.y === at[1] && m.on === on);
}

/** Takes a meeple off the board (scored, captured, returned); the caller says where it goes. */
export function liftMeeple(state: GameState, player: number, kind: string, at: readonly [number, number], on: string): MeepleOnBoard {
  const i = findMeeple(state, player, kind, at, on);
  if (i < 0) throw new Error(`no ${kind} meeple of player ${player} at ${formatPosition(at)} ${on}`);
  const m = state.meeples[i]!;
  state.meeples.splice(i, 1);
  state.board.removeMeeple(m);
  for (const hook of state.pipeline.afterMeepleLifted) hook(state, m);
  return m;
}

export function putMeeple(state: GameState, player: number, kind: MeepleOnBoard['kind'], x: number, y: number, part: number, on: string): MeepleOnBoard {
  const m: MeepleOnBoard = { id: state.nextMeepleId++, player, kind, x, y, part, on };
  state.meeples.push(m);
  state.board.addMeeple(m);
  state.players[player]!.supply[kind]--;
  return m;
}

// Why a meeple may not stand somewhere, as a code: the words are only built when someone reads them
// (the legal-move listing asks about every figure on every feature of every tile placed).
const ALLOWED = 0;
const NO_FIGURE = 1;
const NO_SUPPLY = 2;
const NO_FARMERS = 3;
const WRONG_FEATURE = 4;
const OCCUPIED = 5;

/** A refusal code, or a module's reason (a meepleRule's own words). */
function meepleRefusal(state: GameState, player: number, kind: MeepleOnBoard['kind'], part: number): number | string {
  const figure = state.pipeline.figures.get(kind);
  if (!figure) return NO_FIGURE;
  if (state.players[player]!.supply[kind] <= 0) return NO_SUPPLY;
  const board = state.board;
  const fk = board.partFeature[part]!.kind;
  if (fk === 'field' && !state.setup.rules.farmers) return NO_FARMERS;
  if (!figure.on.includes(fk)) return WRONG_FEATURE;
  if (board.feature(part).meeples.length > 0) return OCCUPIED;
  const rules = state.pipeline.meepleRules;
  for (let i = 0; i < rules.length; i++) {
    const why = rules[i]!(state, player, kind, part);
    if (why) return why;
  }
  return ALLOWED;
}

/** May a meeple of this kind stand on that part of the tile just placed? */
export function meepleAllowed(state: GameState, player: number, kind: MeepleOnBoard['kind'], part: number): boolean {
  return meepleRefusal(state, player, kind, part) === ALLOWED;
}

/** Why a meeple of this kind may not stand on that part of the tile just placed, or null. */
export function meepleProblem(state: GameState, player: number, kind: MeepleOnBoard['kind'], part: number): string | null {
  const why = meepleRefusal(state, player, kind, part);
  if (typeof why === 'string') return why;
  const fk = state.board.partFeature[part]!.kind;
  const word = FEATURE_WORD[fk] ?? fk;
  switch (why) {
    case NO_FIGURE:
      return `there are no ${kind} meeples in this game`;
    case NO_SUPPLY:
      return `player ${player} has no ${kind} meeple in supply`;
    case NO_FARMERS:
      return 'farmers are not played in this game';
    case WRONG_FEATURE:
      return `a ${kind} meeple cannot stand on a ${word}`;
    case OCCUPIED:
      return `that ${word} is already occupied`;
    default:
      return null;
  }
}

/** Step 3: every road, city, cloister and garden the turn's tiles completed, with meeples on it. */
function scoreTurn(state: GameState): GameEvent[] {
  const board = state.board;
  const roots: number[] = [];
  for (const index of state.turn.placed) {
    const t = board.tiles[index]!;
    for (let i = 0; i < t.parts.length; i++) {
      const k = t.view.features[i]!.kind;
      if (k === 'road' || k === 'city') roots.push(board.find(t.parts[i]!));
    }
    // Cloisters and gardens on this tile or around it (few on any board: cheaper than 8 look-ups).
    for (const p of board.monasteries) {
      const m = board.tiles[board.partTile[p]!]!;
      if (Math.abs(m.x - t.x) <= 1 && Math.abs(m.y - t.y) <= 1) roots.push(p);
    }
  }
  const out: GameEvent[] = [];
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i]!;
    if (roots.indexOf(root) !== i) continue;
    if (board.feature(root).meeples.length === 0 || !board.isComplete(root)) continue;
    out.push(...scoreFeatureEvents(state, root, true, false));
  }
  return out;
}

function finalScores(state: GameState, events: readonly GameEvent[]): number[] {
  const totals = state.players.map((p) => p.score);
  for (const e of events) if (e.type === 'scored') for (const p of e.players) totals[p]! += e.points;
  return totals;
}

export const baseModule: ExpansionModule = {
  id: 'base',
  maxPlayers: 5,
  figures: [{ kind: 'normal', perPlayer: 7, on: ['road', 'city', 'field', 'cloister'] }],

  commands: {
    placeTile: {
      steps: ['tile'],
      decide(state, command: Command): Result<GameEvent[]> {
        const c = command as PlaceTile;
        const tile = state.catalog.get(c.tile);
        if (!tile) return fail(`unknown tile ${c.tile}`);
        if (!isRotation(c.rot)) return fail(`rotation ${String(c.rot)} is not 0, 90, 180 or 270`);
        if (state.turn.drawn !== null && state.turn.drawn !== c.tile) return fail(`the tile drawn this turn is ${state.turn.drawn}, not ${c.tile}`);
        const view = state.catalog.view(c.tile, quarterTurns(c.rot));
        const why = tileProblem(state, tile) ?? placementProblem(state, view, c.at[0], c.at[1]);
        if (why) return fail(`${c.tile} cannot go to ${formatPosition(c.at)} turned ${c.rot}: ${why}`);
        return ok([...impliedDraw(state, c.player, c.tile), { type: 'tilePlaced', player: c.player, tile: c.tile, at: [c.at[0], c.at[1]], rot: c.rot }]);
      },
    },
    discardTile: {
      steps: ['tile'],
      decide(state, command) {
        const c = command as DiscardTile;
        const tile = state.catalog.get(c.tile);
        if (!tile) return fail(`unknown tile ${c.tile}`);
        if (state.turn.drawn !== null && state.turn.drawn !== c.tile) return fail(`the tile drawn this turn is ${state.turn.drawn}, not ${c.tile}`);
        const why = tileProblem(state, tile);
        if (why) return fail(`${c.tile} cannot be discarded: ${why}`);
        if (hasLegalPlacement(state, c.tile)) return fail(`${c.tile} fits somewhere on the board, so it cannot be discarded`);
        return ok([...impliedDraw(state, c.player, c.tile), { type: 'tileDiscarded', player: c.player, tile: c.tile }]);
      },
    },
    drawTile: {
      steps: ['tile'],
      decide(state, command) {
        const c = command as DrawTile;
        if (state.turn.drawn !== null) return fail(`${state.turn.drawn} is already drawn this turn`);
        const tile = state.catalog.get(c.tile);
        if (!tile) return fail(`unknown tile ${c.tile}`);
        const why = tileProblem(state, tile);
        if (why) return fail(`${c.tile} cannot be drawn: ${why}`);
        return ok([{ type: 'tileDrawn', player: c.player, tile: c.tile }]);
      },
    },
    placeMeeple: {
      steps: ['action'],
      decide(state, command) {
        const c = command as PlaceMeeple;
        const t = state.board.tiles[state.turn.tile]!;
        const part = state.board.partAt(t.x, t.y, c.on);
        if (part === undefined) return fail(`the tile just placed (${t.view.tile.id}) has no feature at ${c.on}`);
        const why = meepleProblem(state, c.player, c.kind, part);
        if (why) return fail(`cannot place a ${c.kind} meeple on ${c.on}: ${why}`);
        const on = state.board.partFeature[part]!.name;
        return ok([{ type: 'meeplePlaced', player: c.player, kind: c.kind, at: [t.x, t.y], on }]);
      },
    },
    endTurn: {
      steps: ['action', 'actionDone'],
      decide(state, command) {
        const c = command as EndTurn;
        const out: GameEvent[] = [];
        for (const hook of state.pipeline.beforeScoring) out.push(...hook(state));
        out.push(...scoreTurn(state));
        let next = (c.player + 1) % state.players.length;
        for (const hook of state.pipeline.nextPlayer) next = hook(state, c.player) ?? next;
        out.push({ type: 'turnEnded', player: c.player, next });
        return ok(out);
      },
    },
    finishGame: {
      steps: ['tile'],
      decide(state) {
        const out: GameEvent[] = [];
        for (const hook of state.pipeline.finalScoring) out.push(...hook(state));
        out.push({ type: 'gameFinished', final: finalScores(state, out) });
        return ok(out);
      },
    },
  },

  reducers: {
    startPlaced(state, e) {
      const s = e as StartPlaced;
      placeOnBoard(state, s.tile, s.at[0], s.at[1], s.rot, s.piece);
    },
    tilePlaced(state, e) {
      const s = e as TilePlaced;
      const placed = placeOnBoard(state, s.tile, s.at[0], s.at[1], s.rot);
      state.turn.step = 'action';
      state.turn.tile = placed.index;
      state.turn.placed.push(placed.index);
    },
    tileDiscarded(state, e) {
      const s = e as TileDiscarded;
      state.supply.set(s.tile, (state.supply.get(s.tile) ?? 1) - 1);
      state.turn.drawn = null;
    },
    tileDrawn(state, e) {
      const s = e as TileDrawn;
      state.turn.drawn = s.tile;
      for (const hook of state.pipeline.afterTileDrawn) hook(state, s.tile);
    },
    meeplePlaced(state, e) {
      const s = e as MeeplePlaced;
      const part = state.board.partAt(s.at[0], s.at[1], s.on)!;
      putMeeple(state, s.player, s.kind, s.at[0], s.at[1], part, s.on);
      state.turn.step = 'actionDone';
    },
    meepleReturned(state, e) {
      const s = e as MeepleReturned;
      liftMeeple(state, s.player, s.kind, s.at, s.on);
      state.players[s.player]!.supply[s.kind]++;
    },
    scored(state, e) {
      const s = e as Scored;
      for (const p of s.players) {
        const ps = state.players[p]!;
        ps.score += s.points;
        ps.byKind[s.kind] = (ps.byKind[s.kind] ?? 0) + s.points;
      }
    },
    turnEnded(state, e) {
      const s = e as TurnEnded;
      const t = state.turn;
      t.number++;
      t.player = s.next;
      t.step = 'tile';
      t.tile = -1;
      t.placed.length = 0;
      t.drawn = null;
      t.ransomPaid = false;
    },
    gameFinished(state) {
      state.finished = true;
    },
  },

  setup(state) {
    addExpansionTiles(state, 'base');
  },

  finalScoring(state) {
    const board = state.board;
    const out: GameEvent[] = [];
    const seen = new Set<number>();
    for (const m of state.meeples) {
      if (m.part < 0) continue;
      const root = board.find(m.part);
      if (seen.has(root)) continue;
      seen.add(root);
      const kind = board.feature(root).kind;
      if (kind === 'field') {
        if (!state.setup.rules.farmers) continue;
        const e = fieldEvent(state, root);
        if (e) out.push(e);
      } else {
        out.push(...scoreFeatureEvents(state, root, board.isComplete(root), true));
      }
    }
    return out;
  },
};
