/**
 * The River: river tiles are played first, the lake last; each continues the open end of the river;
 * the river never turns the same way twice in a row, nor three times with straights between
 * (rules digest §8); its open end must face free room.
 */
import type { TileType } from '../catalog/types.js';
import type { PlacedTile } from '../features/board.js';
import type { OrientedTile } from '../geometry/oriented.js';
import { formatPosition } from '../geometry/position.js';
import { SIDE_DELTA, SIDE_NAMES } from '../geometry/segments.js';
import type { ExpansionModule } from '../game/expansion.js';
import { riverTilesLeft, type GameState } from '../game/state.js';
import { addExpansionTiles } from '../game/supply.js';

export function isRiverTile(tile: TileType): boolean {
  return tile.features.some((f) => f.kind === 'river');
}

/** +1 right, -1 left, 0 straight, for a river entering by side `entry` and leaving by `exit`. */
function turnOf(entry: number, exit: number): number {
  const heading = (entry + 2) % 4;
  if (exit === (heading + 1) % 4) return 1;
  if (exit === (heading + 3) % 4) return -1;
  return 0;
}

function exitSide(view: OrientedTile, entry: number): number | undefined {
  return view.riverSides.find((s) => s !== entry);
}

export const riverModule: ExpansionModule = {
  id: 'river',

  setup(state) {
    addExpansionTiles(state, 'river');
    state.river = { openEnd: null, lastTurn: 0, sameTurns: 0, lastWasCurve: false, tileIds: [], left: { version: -1, count: 0, done: false } };
    if (state.setup.tileSet.riverStartTile === 'box') {
      const d = state.supply.get('BASE_D');
      if (d) state.supply.set('BASE_D', d - 1);
    }
  },

  // After every module's setup: other expansions shuffle their river tiles in too.
  afterSetup(state) {
    const tileIds = [...state.supply.keys()].filter((id) => isRiverTile(state.catalog.get(id)!));
    state.river = { ...state.river!, tileIds, left: { version: -1, count: 0, done: false } };
  },

  tileRule(state, tile) {
    const left = riverTilesLeft(state);
    if (left === 0) return null;
    if (!isRiverTile(tile)) return `the river comes first: ${left} river tile${left === 1 ? '' : 's'} must be placed before land tiles`;
    if (tile.riverLake && left > 1) return 'the lake is the last river tile';
    return null;
  },

  placementRule(state, view, x, y) {
    if (view.riverSides.length === 0) return null;
    const end = state.river?.openEnd;
    if (!end) return 'the river has no open end to continue';
    if (end.x !== x || end.y !== y) return `the river continues at ${formatPosition([end.x, end.y])}`;
    if (!view.riverSides.includes(end.side)) return `the river must enter by its ${SIDE_NAMES[end.side]} edge`;
    const exit = exitSide(view, end.side);
    if (exit === undefined) return null;
    const d = SIDE_DELTA[exit]!;
    if (state.board.at(x + d[0], y + d[1])) return 'the river would run into a placed tile';
    const turn = turnOf(end.side, exit);
    const r = state.river!;
    if (turn !== 0 && turn === r.lastTurn) {
      if (r.lastWasCurve) return 'the river may not turn the same way twice in a row';
      if (r.sameTurns >= 2) return 'the river may not turn the same way a third time';
    }
    return null;
  },

  afterTilePlaced(state: GameState, placed: PlacedTile) {
    const view = placed.view;
    const r = state.river;
    if (!r || view.riverSides.length === 0) return;
    const entry = r.openEnd && r.openEnd.x === placed.x && r.openEnd.y === placed.y ? r.openEnd.side : -1;
    const exit = entry < 0 ? view.riverSides[0] : exitSide(view, entry);
    if (exit === undefined) {
      r.openEnd = null;
      return;
    }
    const d = SIDE_DELTA[exit]!;
    r.openEnd = { x: placed.x + d[0], y: placed.y + d[1], side: (exit + 2) % 4 };
    const turn = entry < 0 ? 0 : turnOf(entry, exit);
    r.lastWasCurve = turn !== 0;
    if (turn !== 0) {
      r.sameTurns = turn === r.lastTurn ? r.sameTurns + 1 : 1;
      r.lastTurn = turn;
    }
  },
};
