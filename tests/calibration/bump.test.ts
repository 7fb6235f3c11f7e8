import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv, type Mat } from '../../calibration/cv.js';
import { frameToGrayMat, frameToMat } from '../../calibration/frame.js';
import { applyHomography, invertHomography, type Homography } from '../../calibration/geometry.js';
import { detectCameraMove, resolveAfterBump } from '../../calibration/bump.js';
import { solveGrid, type Cell } from '../../calibration/lattice.js';
import { cameraHomography, drawTile, driftedBoard, emptyTable, randomPose, rng, shoot, type CameraPose, type TableRaster } from './synthetic.js';

let cv: Cv;
const cleanup: Mat[] = [];
let table: TableRaster;
const CELLS: Cell[] = [];
for (let x = -2; x <= 2; x++) for (let y = -1; y <= 1; y++) CELLS.push([x, y]);
CELLS.push([0, -2], [0, 2], [3, 0], [-3, 0]);
let tiles: ReturnType<typeof driftedBoard>;

beforeAll(async () => {
  cv = await loadCv();
  tiles = driftedBoard(CELLS, { tileMm: 45, gapMm: 1.5, shiftMm: 2, rotDeg: 3, seed: 31, originMm: { x: 0, y: 0 }, latticeDeg: 4 });
  table = emptyTable(cv, { x: -400, y: -400 }, { x: 400, y: 400 }, 3, 31);
  cleanup.push(table.mat);
  for (const t of tiles.values()) drawTile(cv, table, t);
});
afterAll(() => cleanup.forEach((m) => m.delete()));

function take(pose: CameraPose, seed: number): { rgb: Mat; gray: Mat } {
  const f = shoot(cv, table, cameraHomography(pose), pose.width, pose.height, { seed, noiseSigma: 3 });
  const rgb = frameToMat(cv, f), gray = frameToGrayMat(cv, f);
  cleanup.push(rgb, gray);
  return { rgb, gray };
}

function boardError(truth: Homography, estimate: Homography): number {
  const back = invertHomography(estimate);
  let worst = 0;
  for (let x = -160; x <= 160; x += 20)
    for (let y = -110; y <= 110; y += 20) {
      const q = applyHomography(back, applyHomography(truth, { x, y }));
      worst = Math.max(worst, Math.hypot(q.x - x, q.y - y));
    }
  return worst;
}

describe('a bumped camera is noticed and re-solved from the known tiles', () => {
  const poseA = randomPose(rng(7), { x: 0, y: 0 }, { heightMm: 650, tiltDeg: 15 });
  const poseB: CameraPose = { ...poseA, target: { x: 18, y: -12 }, yawDeg: poseA.yawDeg + 3, tiltDeg: 19, heightMm: 680 };

  it('detects the move, ignores a still camera, and recovers the plane within 1 mm over the board', () => {
    const a = take(poseA, 1);
    const hA = cameraHomography(poseA);
    const start = tiles.get('0,0')!;
    const { cells } = solveGrid(cv, a.rgb, hA, { originMm: start.centre, angleDeg: 4, pitchMm: 46.5, tileMm: 45 }, CELLS);
    const known = [...cells.entries()].map(([key, c]) => ({ key, tableQuad: c.tableQuad }));
    const centres = [...cells.values()].map((c) => applyHomography(hA, c.pose.centre));

    const again = take(poseA, 2); // same camera, new sensor noise
    const still = detectCameraMove(cv, a.gray, again.gray, centres);
    expect(still.ok && still.value.moved).toBe(false);

    const b = take(poseB, 3);
    const bumped = detectCameraMove(cv, a.gray, b.gray, centres);
    expect(bumped.ok, bumped.ok ? '' : bumped.error.message).toBe(true);
    if (!bumped.ok) return;
    expect(bumped.value.moved).toBe(true);
    expect(bumped.value.shiftPx).toBeGreaterThan(10);

    const truthB = cameraHomography(poseB);
    // Carrying the old plane through the image motion alone is already close…
    const carried = boardError(truthB, [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => [0, 1, 2].reduce((s, k) => s + bumped.value.motion[i * 3 + k]! * hA[k * 3 + j]!, 0))) as Homography);
    const solved = resolveAfterBump(cv, b.rgb, hA, bumped.value.motion, known);
    expect(solved.ok).toBe(true);
    if (!solved.ok) return;
    const err = boardError(truthB, solved.value);
    expect(err, `re-solved ${err.toFixed(2)} mm, carried ${carried.toFixed(2)} mm`).toBeLessThan(1);
  });

  it('with no known tiles there is nothing to re-solve from, said plainly', () => {
    const res = resolveAfterBump(cv, new cv.Mat(10, 10, cv.CV_8UC3), [1, 0, 0, 0, 1, 0, 0, 0, 1], [1, 0, 0, 0, 1, 0, 0, 0, 1], []);
    expect(!res.ok && res.error.message).toContain('no known tiles');
  });
});
