/**
 * Grid accuracy on rendered drifted boards (the scenes of tests/calibration/grid.test.ts plus two
 * more seeds): corner error of every tile's found quad against the truth, as `name: value unit`.
 */
import { loadCv } from '../calibration/cv.js';
import { frameToMat } from '../calibration/frame.js';
import { distance } from '../calibration/geometry.js';
import { cellKey, solveGrid, type Cell, type Lattice } from '../calibration/lattice.js';
import { poseCorners } from '../calibration/refine.js';
import { cameraHomography, drawTile, driftedBoard, emptyTable, randomPose, rng, shoot } from '../tests/calibration/synthetic.js';
const cv = await loadCv();
const CELLS: Cell[] = [];
for (let x = -2; x <= 2; x++) for (let y = -1; y <= 1; y++) CELLS.push([x, y]);
CELLS.push([0, -2], [0, -3], [1, -3], [0, 2], [0, 3], [-3, 0], [3, 0], [3, 1], [-1, 2], [2, -2]);
const all: number[] = [];
for (const [gapMm, seed] of [[0, 11], [1, 12], [2, 13], [1, 21], [2, 22]] as const) {
  const latticeDeg = (rng(seed)() - 0.5) * 40;
  const tiles = driftedBoard(CELLS, { tileMm: 45, gapMm, shiftMm: 2, rotDeg: 3, seed, originMm: { x: 0, y: 0 }, latticeDeg });
  const table = emptyTable(cv, { x: -400, y: -400 }, { x: 400, y: 400 }, 3, seed);
  for (const t of tiles.values()) drawTile(cv, table, t);
  const pose = randomPose(rng(seed + 1), { x: 0, y: 0 }, { heightMm: 500 + rng(seed)() * 300, tiltDeg: 25 });
  const truth = cameraHomography(pose);
  const rgb = frameToMat(cv, shoot(cv, table, truth, pose.width, pose.height, { seed, noiseSigma: 3 }));
  const start = tiles.get('0,0')!;
  const prior: Lattice = { originMm: { x: start.centre.x + 1, y: start.centre.y - 1 }, angleDeg: latticeDeg + 1, pitchMm: 46, tileMm: 45 };
  const { cells } = solveGrid(cv, rgb, truth, prior, CELLS);
  const errs: number[] = [];
  for (const c of CELLS) {
    const t = tiles.get(cellKey(c))!, f = cells.get(cellKey(c))!;
    const want = poseCorners(t), got = poseCorners({ ...f.pose, widthMm: 45, heightMm: 45 });
    errs.push(Math.max(...want.map((p, k) => distance(p, got[k]!))));
  }
  all.push(...errs);
  errs.sort((a, b) => a - b);
  console.log(`grid gap ${gapMm} mm seed ${seed} corner max: ${errs.at(-1)!.toFixed(2)} mm`);
  rgb.delete(); table.mat.delete();
}
all.sort((a, b) => a - b);
console.log(`grid corner error median: ${all[all.length >> 1]!.toFixed(2)} mm`);
console.log(`grid corner error p90: ${all[Math.floor(all.length * 0.9)]!.toFixed(2)} mm`);
console.log(`grid corner error max: ${all.at(-1)!.toFixed(2)} mm`);
