import { describe, expect, it } from 'vitest';
import { MODEL_MIN_CELL_PX } from '../../models/track/cell-crops.js';
import { cellSidePx, smallCellsHint, SMALL_CELL_PX } from '../../renderer/src/lib/cell-size.js';
import type { CameraCellView } from '../../electron/contract/camera.js';

/** A grid of n × n cells of `side` px, a little turned, starting at (40, 30). */
function grid(n: number, side: number): CameraCellView[] {
  const c = Math.cos(0.1) * side, s = Math.sin(0.1) * side;
  const at = (i: number, j: number): [number, number] => [40 + i * c - j * s, 30 + i * s + j * c];
  const cells: CameraCellView[] = [];
  for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) cells.push({ x, y, laid: true, quad: [at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)] });
  return cells;
}

describe('the size of the cells in the camera’s picture', () => {
  it('is the median cell side, none without a grid', () => {
    expect(cellSidePx(grid(3, 24))).toBeCloseTo(24, 6);
    expect(cellSidePx([])).toBeNull();
    // One far-off cell does not move the median.
    const g = grid(3, 44);
    g[0] = { ...g[0]!, quad: [[0, 0], [200, 0], [200, 200], [0, 200]] };
    expect(cellSidePx(g)).toBeCloseTo(44, 6);
  });

  it('tells the table when the tiles are under the size the tile model reads, with the frame size', () => {
    expect(SMALL_CELL_PX).toBe(MODEL_MIN_CELL_PX);
    expect(smallCellsHint(grid(4, 23.6), [640, 480])).toBe('The tiles are about 24 px across in the camera’s picture (640×480). Below 30 px the camera reads fewer printed tiles by itself and asks about more: a larger frame size, or the camera nearer the table, lets it read them.');
    expect(smallCellsHint(grid(4, 30), [1280, 960])).toBeNull();
    expect(smallCellsHint([], [640, 480])).toBeNull();
  });
});
