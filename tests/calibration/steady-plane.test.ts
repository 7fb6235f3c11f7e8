import { beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { applyHomography, fitHomography, multiplyHomography, type Homography, type Point } from '../../calibration/geometry.js';
import type { SheetHomography } from '../../calibration/markers.js';
import { markerCornersMm, type SheetLayout } from '../../calibration/sheet/layout.js';
import { steadyPlane } from '../../calibration/steady-plane.js';

// The generated recordings' table: four markers at the corners of a 1090 × 860 mm sheet, the board
// (±10 cells of 46 mm) between them, seen at about 0.55 px per mm.
const LAYOUT: SheetLayout = {
  name: 'table-corners', paper: { widthMm: 1090, heightMm: 860 }, dictionary: 'DICT_4X4_50', markerSizeMm: 60, scaleBarMm: 100,
  markers: [{ id: 0, xMm: -522, yMm: -476 }, { id: 1, xMm: 508, yMm: -476 }, { id: 2, xMm: 508, yMm: 324 }, { id: 3, xMm: -522, yMm: 324 }],
};
const CAMERA: Homography = [0.55, 0.01, 320, -0.01, 0.55, 250, 2e-6, 1e-6, 1];
const shift = (dx: number, dy: number): Homography => [1, 0, dx, 0, 1, dy, 0, 0, 1];

let cv: Cv;
beforeAll(async () => {
  cv = await loadCv();
});

/** The plane as solved from the markers `ids` seen through `camera`, their corners found with a little noise. */
function solved(camera: Homography, ids: number[], seed: number): SheetHomography {
  let s = seed;
  const noise = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.8;
  const table: Point[] = ids.flatMap((id) => markerCornersMm(LAYOUT, id)!);
  const image = table.map((p) => { const q = applyHomography(camera, p); return { x: q.x + noise(), y: q.y + noise() }; });
  return { tableToImage: fitHomography(cv, table, image)!, markerIds: ids, rmsPx: 0.3, searched: 'frame' };
}

/** Worst image distance between two planes over the board (±10 cells around the start tile). */
function boardError(a: Homography, b: Homography): number {
  let worst = 0;
  for (let x = -460; x <= 460; x += 46)
    for (let y = -460; y <= 300; y += 46) {
      const p = applyHomography(a, { x, y }), q = applyHomography(b, { x, y });
      worst = Math.max(worst, Math.hypot(p.x - q.x, p.y - q.y));
    }
  return worst;
}

describe('the table plane across still frames', () => {
  it('two markers on one side extrapolate badly; while they stay where the plane in use puts them, that plane stays', () => {
    const full = solved(CAMERA, [0, 1, 2, 3], 1);
    expect(boardError(full.tableToImage, CAMERA)).toBeLessThan(1);
    let worstAlone = 0;
    for (let seed = 2; seed < 12; seed++) {
      const side = solved(CAMERA, [1, 2], seed);
      worstAlone = Math.max(worstAlone, boardError(side.tableToImage, CAMERA));
      const kept = steadyPlane(full, side, LAYOUT);
      expect(kept).toBe(full);
    }
    // What the tracker used before: the two-marker plane alone, off by more than a pixel over the board.
    expect(worstAlone).toBeGreaterThan(1);
  });

  it('a plane from more markers replaces a steady one from fewer', () => {
    const side = solved(CAMERA, [1, 2], 3);
    const full = solved(CAMERA, [0, 1, 2, 3], 4);
    expect(steadyPlane(side, full, LAYOUT)).toBe(full);
    expect(steadyPlane(full, solved(CAMERA, [0, 1, 2], 5), LAYOUT)).toBe(full);
  });

  it('a bumped camera seen by as many markers as the plane in use: the new plane is taken', () => {
    const full = solved(CAMERA, [0, 1, 2, 3], 6);
    const bumped = multiplyHomography(shift(3, -2), CAMERA);
    const seen = solved(bumped, [0, 1, 2, 3], 7);
    const next = steadyPlane(full, seen, LAYOUT);
    expect(next).toBe(seen);
    expect(boardError(next.tableToImage, bumped)).toBeLessThan(1);
  });

  it('a bumped camera seen by fewer markers: the plane in use is moved onto them, not replaced', () => {
    const full = solved(CAMERA, [0, 1, 2, 3], 8);
    const turn = 0.006, c = Math.cos(turn), s = Math.sin(turn);
    const bumped = multiplyHomography([c, -s, 3, s, c, -2, 0, 0, 1], CAMERA);
    let worstAlone = 0;
    for (let seed = 9; seed < 19; seed++)
      for (const ids of [[1, 2], [2, 3], [1, 2, 3], [0, 1, 3]]) {
        const seen = solved(bumped, ids, seed);
        const next = steadyPlane(full, seen, LAYOUT);
        worstAlone = Math.max(worstAlone, boardError(seen.tableToImage, bumped));
        expect(boardError(next.tableToImage, bumped), `markers ${ids}, seed ${seed}`).toBeLessThan(1.5);
      }
    expect(worstAlone).toBeGreaterThan(1.5);
  });
});
