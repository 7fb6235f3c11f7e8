import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv, type Mat } from '../../calibration/cv.js';
import { frameToMat } from '../../calibration/frame.js';
import { applyHomography, distance } from '../../calibration/geometry.js';
import { cellKey, solveGrid, type Lattice } from '../../calibration/lattice.js';
import { rectifyCell } from '../../calibration/rectify.js';
import { poseCorners } from '../../calibration/refine.js';
import { cameraHomography, drawTile, driftedBoard, emptyTable, MID_GAME_CELLS as CELLS, randomPose, rng, shoot, type TableRaster } from './synthetic.js';

let cv: Cv;
const cleanup: Mat[] = [];
beforeAll(async () => {
  cv = await loadCv();
});
afterAll(() => cleanup.forEach((m) => m.delete()));


function scene(gapMm: number, seed: number) {
  const latticeDeg = (rng(seed)() - 0.5) * 40;
  const tiles = driftedBoard(CELLS, { tileMm: 45, gapMm, shiftMm: 2, rotDeg: 3, seed, originMm: { x: 0, y: 0 }, latticeDeg });
  const table: TableRaster = emptyTable(cv, { x: -400, y: -400 }, { x: 400, y: 400 }, 3, seed);
  cleanup.push(table.mat);
  for (const t of tiles.values()) drawTile(cv, table, t);
  return { tiles, table, latticeDeg };
}

describe('grid on rendered boards with drifted tiles', () => {
  it.each([
    [0, 11],
    [1, 12],
    [2, 13],
  ])('gap %i mm: every tile found in its cell, its own quad within 2.5 mm, pitch within 0.3 mm', (gapMm, seed) => {
    const { tiles, table, latticeDeg } = scene(gapMm, seed);
    const pose = randomPose(rng(seed + 1), { x: 0, y: 0 }, { heightMm: 500 + rng(seed)() * 300, tiltDeg: 25 });
    const truth = cameraHomography(pose);
    const frame = shoot(cv, table, truth, pose.width, pose.height, { seed, noiseSigma: 3 });
    const rgb = frameToMat(cv, frame);
    cleanup.push(rgb);
    // The start piece as the calibration found it: a millimetre and a degree off.
    const start = tiles.get('0,0')!;
    const prior: Lattice = { originMm: { x: start.centre.x + 1, y: start.centre.y - 1 }, angleDeg: latticeDeg + 1, pitchMm: 46, tileMm: 45 };
    const { lattice, cells } = solveGrid(cv, rgb, truth, prior, CELLS);
    expect(cells.size).toBe(CELLS.length);
    const errors: number[] = [];
    for (const c of CELLS) {
      const t = tiles.get(cellKey(c))!;
      const found = cells.get(cellKey(c))!;
      const want = poseCorners({ ...t });
      const got = poseCorners({ ...found.pose, widthMm: 45, heightMm: 45 });
      errors.push(Math.max(...want.map((p, k) => distance(p, got[k]!))));
      if (process.env.GRID_DEBUG) console.log(cellKey(c), errors.at(-1)!.toFixed(2), `g${gapMm}`, (found.pose.centre.x - t.centre.x).toFixed(2), (found.pose.centre.y - t.centre.y).toFixed(2), (found.pose.angleDeg - t.angleDeg).toFixed(2), found.pose.widthMm.toFixed(2), found.pose.heightMm.toFixed(2), found.contrast.toFixed(1));
    }
    const worst = Math.max(...errors);
    // What the refit achieves today: each tile told apart from its neighbours (a wrong cell would
    // be ≥ 45 mm off) with a crop-usable quad. The precision aimed for is 0.8 mm for every tile;
    // today the median is ~0.4 mm but the worst tile reaches ~2 mm (a blurred gap's two edges),
    // see docs/calibration.md "Known gaps" and `npm run bench:grid`.
    expect(worst, `worst corner error ${worst.toFixed(2)} mm`).toBeLessThan(2.5);
    expect(Math.abs(lattice.pitchMm - (45 + gapMm))).toBeLessThan(0.3);

    // The recogniser's crop follows the tile's own quad: the crop of a tile is centred on its art.
    const crop = rectifyCell(cv, rgb, cells.get('1,0')!.imageQuad, 64);
    expect([crop.width, crop.height, crop.channels]).toEqual([64, 64, 3]);
    // Its border ring is the tile's dark cut edge, not the table: darker than the crop's middle.
    const lum = (x: number, y: number): number => crop.data[(y * 64 + x) * 3 + 1]!;
    let ring = 0, mid = 0;
    for (let i = 0; i < 64; i++) ring += lum(i, 0) + lum(i, 63) + lum(0, i) + lum(63, i);
    for (let i = 24; i < 40; i++) for (let j = 24; j < 40; j++) mid += lum(i, j);
    expect(ring / 256).toBeLessThan(mid / 256);
    void applyHomography;
  });
});
