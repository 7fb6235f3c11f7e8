/** With The River, the tournament tile's river side enters at the first river bend (digest §1.4). */
import { formatPosition, posKey } from '../../geometry/position.js';
import { quarterTurns, ROTATIONS, SIDE_DELTA, type Rotation } from '../../geometry/segments.js';
import { pieceAt, type CellPlacement } from '../../game/pieces.js';
import type { GameState } from '../../game/state.js';

export const TOURNAMENT_RIVER_PIECE = 'JC-TOURNAMENT-RIVER';

/** With The River, the tournament tile waits for the first river bend (§1.4). */
export function tournamentTileWaiting(state: GameState): boolean {
  return state.river !== null && !state.pieces.includes(TOURNAMENT_RIVER_PIECE) && !state.pieces.includes('JC-TOURNAMENT');
}

export function isRiverBend(state: GameState, tile: string): boolean {
  const sides = state.catalog.view(tile, 0).riverSides;
  return sides.length === 2 && (sides[0]! + 2) % 4 !== sides[1];
}

/** The tournament tile's cells at `at`/`rot` in river-flow order, or why it cannot go there. */
export function tournamentTilePlacement(state: GameState, at: readonly [number, number], rot: Rotation): CellPlacement[] | string {
  const cells = pieceAt(TOURNAMENT_RIVER_PIECE, at, rot);
  const board = state.board;
  const mine = new Set(cells.map((c) => posKey(c.at[0], c.at[1])));
  for (const c of cells) {
    if (board.at(c.at[0], c.at[1])) return `${formatPosition(c.at)} already holds a tile`;
    const view = state.catalog.view(c.tile, quarterTurns(c.rot));
    for (let side = 0; side < 4; side++) {
      const d = SIDE_DELTA[side]!;
      const nx = c.at[0] + d[0];
      const ny = c.at[1] + d[1];
      if (mine.has(posKey(nx, ny))) continue;
      const n = board.at(nx, ny);
      if (n && n.view.sideCode[(side + 2) % 4] !== view.matchCode[side]) return `the cell at ${formatPosition(c.at)} does not match ${n.view.tile.id} at ${formatPosition([nx, ny])}`;
    }
  }
  const end = state.river?.openEnd;
  if (!end) return 'the river has no open end to continue';
  let cur: CellPlacement | undefined = cells.find((c) => c.at[0] === end.x && c.at[1] === end.y);
  if (!cur) return `the tournament tile must continue the river at ${formatPosition([end.x, end.y])}`;
  let entry = end.side;
  if (!state.catalog.view(cur.tile, quarterTurns(cur.rot)).riverSides.includes(entry)) return 'the tournament tile\'s river does not meet the open end of the river';
  const order: CellPlacement[] = [];
  while (cur && !order.includes(cur)) {
    order.push(cur);
    const view = state.catalog.view(cur.tile, quarterTurns(cur.rot));
    const exit = view.riverSides.find((x) => x !== entry);
    if (exit === undefined) break;
    const d = SIDE_DELTA[exit]!;
    const nx: number = cur.at[0] + d[0];
    const ny: number = cur.at[1] + d[1];
    if (!mine.has(posKey(nx, ny)) && board.at(nx, ny)) return 'the river would run into a placed tile';
    entry = (exit + 2) % 4;
    const next: CellPlacement | undefined = cells.find((c) => c.at[0] === nx && c.at[1] === ny);
    cur = next;
  }
  for (const c of cells) if (!order.includes(c)) order.push(c);
  return order;
}

/** Every legal (top-left, rotation) of the tournament tile continuing the river now. */
export function tournamentTileSpots(state: GameState): { at: [number, number]; rot: Rotation }[] {
  const end = state.river?.openEnd;
  if (!end) return [];
  const out: { at: [number, number]; rot: Rotation }[] = [];
  for (const rot of ROTATIONS) {
    for (const c of pieceAt(TOURNAMENT_RIVER_PIECE, [0, 0], rot)) {
      // Only a cell whose river meets the open end can lie there (tournamentTilePlacement's own test, first).
      if (!state.catalog.view(c.tile, quarterTurns(c.rot)).riverSides.includes(end.side)) continue;
      const at: [number, number] = [end.x - c.at[0], end.y - c.at[1]];
      if (typeof tournamentTilePlacement(state, at, rot) !== 'string') out.push({ at, rot });
    }
  }
  return out;
}
