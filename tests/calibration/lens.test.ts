import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { calibrateLens, charucoImage, CHARUCO_A4, detectCharuco, undistortFrame } from '../../calibration/lens.js';
import type { Frame } from '../../calibration/frame.js';
import { applyHomography, distance, fitHomography } from '../../calibration/geometry.js';
import { cameraHomography, emptyTable, rng, shoot, type CameraPose, type TableRaster } from './synthetic.js';

let cv: Cv;
let table: TableRaster;
const F = 800, W = 1280, H = 720, K1 = -0.22, K2 = 0.06;
const spec = CHARUCO_A4;
const boardW = spec.squaresX * spec.squareMm, boardH = spec.squaresY * spec.squareMm;

beforeAll(async () => {
  cv = await loadCv();
  const px = 5;
  table = emptyTable(cv, { x: -150, y: -150 }, { x: boardW + 150, y: boardH + 150 }, px, 3);
  const board = charucoImage(cv, spec, px);
  for (let y = 0; y < board.height; y++)
    for (let x = 0; x < board.width; x++) {
      const v = board.data[y * board.width + x]!;
      const i = ((y + 150 * px) * table.mat.cols + (x + 150 * px)) * 3;
      table.mat.data[i] = v; table.mat.data[i + 1] = v; table.mat.data[i + 2] = v;
    }
});
afterAll(() => table?.mat.delete());

/** Bends an ideal pinhole picture through a radial lens (k1, k2), as a real webcam would. */
function distort(frame: Frame): Frame {
  const mapX = new cv.Mat(H, W, cv.CV_32FC1), mapY = new cv.Mat(H, W, cv.CV_32FC1);
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      const xd = (u - W / 2) / F, yd = (v - H / 2) / F;
      let xu = xd, yu = yd;
      for (let it = 0; it < 12; it++) {
        const r2 = xu * xu + yu * yu;
        const s = 1 + K1 * r2 + K2 * r2 * r2;
        xu = xd / s; yu = yd / s;
      }
      mapX.data32F[v * W + u] = xu * F + W / 2;
      mapY.data32F[v * W + u] = yu * F + H / 2;
    }
  const src = new cv.Mat(H, W, cv.CV_8UC3); src.data.set(frame.data);
  const out = new cv.Mat();
  cv.remap(src, out, mapX, mapY, cv.INTER_LINEAR, cv.BORDER_REPLICATE);
  const f: Frame = { width: W, height: H, channels: 3, data: new Uint8Array(out.data) };
  for (const m of [mapX, mapY, src, out]) m.delete();
  return f;
}

function poseOf(pose: Partial<CameraPose>): CameraPose {
  return { heightMm: 330, tiltDeg: 25, tiltAzimuthDeg: 0, yawDeg: 0, target: { x: boardW / 2, y: boardH / 2 }, focalPx: F, width: W, height: H, ...pose };
}

function view(pose: CameraPose, seed: number): Frame {
  return distort(shoot(cv, table, cameraHomography(pose), W, H, { seed, noiseSigma: 2, blurSigma: 0.6 }));
}

/** Worst deviation of the board's detected corners from the best homography: 0 when straight. */
function bendPx(frame: Frame): number {
  const v = detectCharuco(cv, frame, spec);
  const h = fitHomography(cv, v.board, v.image)!;
  return Math.max(...v.board.map((p, i) => distance(applyHomography(h, p), v.image[i]!)));
}

describe('lens distortion from ChArUco captures', () => {
  it('recovers focal length and radial distortion, and undistorted views are straight again', () => {
    const r = rng(77);
    const poses = [0, 60, 120, 180, 240, 300].map((az) =>
      poseOf({ tiltDeg: 20 + r() * 20, tiltAzimuthDeg: az, yawDeg: r() * 360, heightMm: 280 + r() * 80, target: { x: boardW / 2 + (r() - 0.5) * 120, y: boardH / 2 + (r() - 0.5) * 80 } }),
    );
    const frames = poses.map((p, i) => view(p, i + 1));
    const res = calibrateLens(cv, frames, spec);
    expect(res.ok, res.ok ? '' : res.error.message).toBe(true);
    if (!res.ok) return;
    const lens = res.value;
    expect(lens.views).toBeGreaterThanOrEqual(5);
    expect(lens.rmsPx).toBeLessThan(0.5);
    expect(Math.abs(lens.intrinsics[0]! / F - 1)).toBeLessThan(0.02);
    expect(Math.abs(lens.intrinsics[2]! - W / 2)).toBeLessThan(10);
    expect(Math.abs(lens.distortion[0]! - K1)).toBeLessThan(0.03);
    // Undistorted with the recovered lens, every view of the flat board is a plane view again.
    const bends = frames.map(bendPx);
    for (const [i, f] of frames.entries()) {
      const after = bendPx(undistortFrame(cv, f, lens));
      expect(after, `view ${i}: bent ${bends[i]!.toFixed(2)} px before, ${after.toFixed(2)} px after`).toBeLessThan(Math.min(0.5, bends[i]!));
    }
  });

  it('too few usable captures is a result that says how many were found', () => {
    const blank: Frame = { width: W, height: H, channels: 1, data: new Uint8Array(W * H).fill(128) };
    const res = calibrateLens(cv, [blank, blank], spec);
    expect(!res.ok && res.error.kind).toBe('too-few-views');
    expect(!res.ok && res.error.message).toContain('0 of 2');
  });
});
