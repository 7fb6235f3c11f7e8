/**
 * The order of tiles when no draw is told (the tile laid is the draw): may a tile the game lacks have
 * been laid before the one read at a cell? Asked by the tracker before it plays a reading, and by the
 * camera service before it plays an open one (docs/tracking.md, "Order without a draw"). Apart from
 * the tracker (which loads OpenCV and the model) because the services' thread asks it too, on what
 * the tracker's worker last reported (electron/services/camera/tracker-client.ts).
 */
import type { Board } from '../../engine/features/board.js';
import { keyX, keyY, posKey } from '../../engine/geometry/position.js';

const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1]] as const;

/** What `earlierTileIn` weighs an open reading against: the session's game (or the tracker's). */
export interface EarlierTileState {
  readonly board: Pick<Board, 'holes' | 'tiles'>;
  readonly turn: { readonly drawn: string | null };
}

/** Cells holding a tile the game lacks (Tracker `unreadCells`). */
export interface UnreadCells {
  readonly ahead: ReadonlySet<number>;
  readonly firstSeen: ReadonlyMap<number, number>;
}

/**
 * With no draw told, a cell other than (x, y) holding a tile the game lacks that may have been laid
 * before the tile at (x, y), which was first seen changed at frame `seenAt`, or null: while there is
 * one, nothing says the tile at (x, y) is this turn's. Such a cell is one set apart (a tile the
 * table took back, or one seen at the camera's start) or one first seen changed no later than
 * (x, y) (a still scene between them missed, the services busy): only a cell beyond the board's
 * edge whose one neighbour with a new tile is (x, y) is known to come after it. The camera service
 * asks this of an open reading, against the session's game (`state`), before it plays it.
 */
export function earlierTileIn(cells: UnreadCells, x: number, y: number, seenAt: number, state: EarlierTileState): readonly [number, number] | null {
  // Only this turn's told draw says which new tile is this turn's: a table that told the draws of
  // earlier turns (a camera started late, a siege symbol) has the engine take an undrawn placement
  // as this turn's draw, so the tile laid first must still come first.
  if (state.turn.drawn !== null) return null;
  const { ahead, firstSeen } = cells;
  const h = posKey(x, y);
  const { holes, tiles } = state.board;
  const a = [...ahead].find((k) => k !== h && holes.has(k));
  if (a !== undefined) return [keyX(a), keyY(a)];
  const unread = (k: number) => ahead.has(k) || firstSeen.has(k);
  for (const [k, f] of firstSeen) {
    if (k === h || f > seenAt || tiles.some((t) => t.key === k)) continue;
    if (!holes.has(k)) {
      const beside = NEIGHBOURS.map(([dx, dy]) => posKey(keyX(k) + dx, keyY(k) + dy)).filter((n) => n === h || unread(n));
      if (beside.length === 1 && beside[0] === h) continue;
    }
    return [keyX(k), keyY(k)];
  }
  return null;
}
