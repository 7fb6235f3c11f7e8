/** Multi-cell pieces (tournament tile, fortress tiles): where each cell lands at a rotation. */
import { tiles2025 } from '../catalog/provisional2025.js';
import type { Rotation } from '../geometry/segments.js';

export interface CellPlacement {
  readonly tile: string;
  readonly at: readonly [number, number];
  readonly rot: Rotation;
}

/** Each cell's offset from the top-left at a rotation, by piece and rotation (the pieces are static data). */
const shapes = new Map<string, readonly (readonly [number, number])[]>();

function shape(piece: string, rot: Rotation): readonly (readonly [number, number])[] {
  const key = `${piece}@${rot}`;
  let pts = shapes.get(key);
  if (pts) return pts;
  const cells = tiles2025().pieces.get(piece);
  if (!cells) throw new Error(`unknown piece ${piece}`);
  let turned = cells.map((c) => [c.cell[0], c.cell[1]] as [number, number]);
  let h = Math.max(...turned.map((p) => p[1])) + 1;
  for (let q = 0; q < rot / 90; q++) {
    turned = turned.map(([c, r]) => [h - 1 - r, c]);
    h = Math.max(...turned.map((p) => p[1])) + 1;
  }
  pts = turned;
  shapes.set(key, pts);
  return pts;
}

/** The piece's cells turned `rot` clockwise, with the piece's top-left cell at `at`. */
export function pieceAt(piece: string, at: readonly [number, number], rot: Rotation): CellPlacement[] {
  const pts = shape(piece, rot);
  const cells = tiles2025().pieces.get(piece)!;
  return cells.map((c, i) => ({ tile: c.tile, at: [at[0] + pts[i]![0], at[1] + pts[i]![1]], rot }));
}
