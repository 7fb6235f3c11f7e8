import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { decodeFrame, encodePng } from '../../calibration/frame.js';
import { applyHomography, invertHomography, type Homography } from '../../calibration/geometry.js';
import { homographyFromSheet } from '../../calibration/markers.js';
import { A4_SHEET, sheetBits, sheetSvg } from '../../calibration/sheet/index.js';
import { cameraHomography, randomPose, rasterSvg, rng, shoot, tableTexture, type TableRaster } from './synthetic.js';

let cv: Cv;
let table: TableRaster;
const layout = A4_SHEET;
const MARGIN_MM = 120;
const PX_PER_MM = 5;

beforeAll(async () => {
  cv = await loadCv();
  // The sheet lying on a wooden table, seen from above at 5 px/mm.
  const { widthMm: w, heightMm: h } = layout.paper;
  const sheet = await rasterSvg(cv, sheetSvg(layout, sheetBits(cv, layout)), w, h, PX_PER_MM);
  const mat = tableTexture(cv, Math.round((w + 2 * MARGIN_MM) * PX_PER_MM), Math.round((h + 2 * MARGIN_MM) * PX_PER_MM), 7);
  sheet.copyTo(mat.roi(new cv.Rect(MARGIN_MM * PX_PER_MM, MARGIN_MM * PX_PER_MM, sheet.cols, sheet.rows)));
  sheet.delete();
  table = { mat, pxPerMm: PX_PER_MM, originMm: { x: -MARGIN_MM, y: -MARGIN_MM } };
});
afterAll(() => table?.mat.delete());

/** Largest table-plane error (mm) over the sheet, sampled every 5 mm. */
function tableErrorMm(truth: Homography, estimate: Homography): number {
  const back = invertHomography(estimate);
  let worst = 0;
  for (let x = 0; x <= layout.paper.widthMm; x += 5)
    for (let y = 0; y <= layout.paper.heightMm; y += 5) {
      const q = applyHomography(back, applyHomography(truth, { x, y }));
      worst = Math.max(worst, Math.hypot(q.x - x, q.y - y));
    }
  return worst;
}

describe('table-plane homography from the marker sheet', () => {
  const r = rng(20261129);
  const centre = { x: layout.paper.widthMm / 2, y: layout.paper.heightMm / 2 };
  // The envelope's corners plus random poses: 40–90 cm up, 0–30° off vertical, any yaw.
  const poses = [
    randomPose(r, centre, { heightMm: 400, tiltDeg: 0 }),
    randomPose(r, centre, { heightMm: 900, tiltDeg: 0 }),
    randomPose(r, centre, { heightMm: 400, tiltDeg: 30 }),
    randomPose(r, centre, { heightMm: 900, tiltDeg: 30 }),
    randomPose(r, { x: centre.x + 40, y: centre.y - 30 }),
    randomPose(r, { x: centre.x - 30, y: centre.y + 50 }),
  ];

  it.each(poses.map((p, i) => [i, p] as const))('pose %i: recovered within 0.5 mm on the table plane', async (i, pose) => {
    const truth = cameraHomography(pose);
    const shot = shoot(cv, table, truth, pose.width, pose.height, { seed: i + 1, noiseSigma: 4, blurSigma: 0.9 });
    // Through a real encode/decode so the detector sees what a camera file would give it.
    const decoded = await decodeFrame(await encodePng(shot));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const res = homographyFromSheet(cv, decoded.value, layout);
    expect(res.ok, res.ok ? '' : res.error.message).toBe(true);
    if (!res.ok) return;
    expect(res.value.markerIds.length).toBeGreaterThanOrEqual(10);
    const err = tableErrorMm(truth, res.value.tableToImage);
    expect(err).toBeLessThan(0.5);
  });

  it('a frame with no sheet in it gives a no-markers result naming the sheet', () => {
    const pose = poses[0]!;
    const empty: TableRaster = { ...table, originMm: { x: 2000, y: 2000 } }; // camera looks at bare table
    const shot = shoot(cv, empty, cameraHomography(pose), 640, 480, { seed: 3 });
    const res = homographyFromSheet(cv, shot, layout);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.kind).toBe('no-markers');
      expect(res.error.message).toContain(layout.name);
    }
  });
});
