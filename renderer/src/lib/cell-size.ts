/**
 * How large the camera sees the table's cells, and what the table can do when they are small. Below
 * 30 px per cell the tracker asks the tile model only in narrow cases (models/track/cell-crops.ts
 * MODEL_MIN_CELL_PX; docs/tracking.md): printed tiles are read mostly by the table's own pictures,
 * and the camera asks about more of them (docs/tracking.md, "Measured").
 */
import type { CameraCellView } from '../../../electron/contract/camera.js';

export const SMALL_CELL_PX = 30;

/** The median over the grid's cells of a cell's mean side in the picture (px); null without a grid. */
export function cellSidePx(grid: readonly CameraCellView[]): number | null {
  const sides = grid
    .filter((c) => c.quad.length === 4)
    .map((c) => c.quad.reduce((s, p, i) => { const q = c.quad[(i + 1) % 4]!; return s + Math.hypot(q[0] - p[0], q[1] - p[1]); }, 0) / 4)
    .sort((a, b) => a - b);
  return sides.length ? sides[sides.length >> 1]! : null;
}

/** The line for the camera screen when the cells are small, else null. */
export function smallCellsHint(grid: readonly CameraCellView[], size: readonly [number, number] | null): string | null {
  const side = cellSidePx(grid);
  if (side === null || side >= SMALL_CELL_PX) return null;
  const frame = size ? ` (${size[0]}×${size[1]})` : '';
  return `The tiles are about ${Math.round(side)} px across in the camera’s picture${frame}. Below ${SMALL_CELL_PX} px the camera reads fewer printed tiles by itself and asks about more: a larger frame size, or the camera nearer the table, lets it read them.`;
}
