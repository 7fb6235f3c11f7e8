/** Multi-cell pieces (tournament tile, fortress tiles): where each cell lands at a rotation. */
import { tiles2025 } from '../catalog/provisional2025.js';
import type { Rotation } from '../geometry/segments.js';

export interface CellPlacement {
  readonly tile: string;
  readonly at: readonly [number, number];
  readonly rot: Rotation;
}

/** The piece's cells turned `rot` clockwise, with the piece's top-left cell at `at`. */
export function pieceAt(piece: string, at: readonly [number, number], rot: Rotation): CellPlacement[] {
  const cells = tiles2025().pieces.get(piece);
  if (!cells) throw new Error(`unknown piece ${piece}`);
  let pts = cells.map((c) => [c.cell[0], c.cell[1]] as [number, number]);
  let h = Math.max(...pts.map((p) => p[1])) + 1;
  for (let q = 0; q < rot / 90; q++) {
    pts = pts.map(([c, r]) => [h - 1 - r, c]);
    h = Math.max(...pts.map((p) => p[1])) + 1;
  }
  return cells.map((c, i) => ({ tile: c.tile, at: [at[0] + pts[i]![0], at[1] + pts[i]![1]], rot }));
}
