/**
 * Camera-geometry figures for the tracker, as `name: value unit` lines (medians of several runs).
 * Scenes are synthetic (tests/calibration/synthetic.ts): a 1080p overhead camera over a board.
 */
import { performance } from 'node:perf_hooks';
import { loadCv } from '../calibration/cv.js';
import { frameToMat } from '../calibration/frame.js';
import { applyHomography } from '../calibration/geometry.js';
import { homographyFromSheet } from '../calibration/markers.js';
import { StillScene, thumbnail } from '../calibration/motion.js';
import { rectifyCell } from '../calibration/rectify.js';
import { poseCorners } from '../calibration/refine.js';
import { refineCell, type Cell } from '../calibration/lattice.js';
import { A4_SHEET, sheetBits, sheetSvg } from '../calibration/sheet/index.js';
import { cameraHomography, drawTile, driftedBoard, emptyTable, rasterSvg, shoot } from '../tests/calibration/synthetic.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(fn: () => void, runs = RUNS): number {
  fn(); // warm-up (JIT, WASM tiering)
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    fn();
    t.push(performance.now() - s);
  }
  return median(t);
}
const line = (name: string, v: number, unit: string): void => console.log(`${name}: ${v.toFixed(v < 10 ? 2 : 1)} ${unit}`);

const cv = await loadCv();

// A 10×10 board, 1 mm gaps, drifted, seen from 80 cm at 1080p.
const cells: Cell[] = [];
for (let x = -5; x < 5; x++) for (let y = -5; y < 5; y++) cells.push([x, y]);
const tiles = driftedBoard(cells, { tileMm: 45, gapMm: 1, shiftMm: 2, rotDeg: 3, seed: 5, originMm: { x: 0, y: 0 }, latticeDeg: 2 });
const table = emptyTable(cv, { x: -600, y: -450 }, { x: 600, y: 450 }, 2.5, 5);
for (const t of tiles.values()) drawTile(cv, table, t);
const pose = { heightMm: 800, tiltDeg: 10, tiltAzimuthDeg: 30, yawDeg: 0, target: { x: -20, y: -20 }, focalPx: 1100, width: 1920, height: 1080 };
const h = cameraHomography(pose);
const frames = [1, 2, 3].map((seed) => shoot(cv, table, h, 1920, 1080, { seed }));

// Still check: thumbnail of a 1080p frame and the comparison with the window.
const still = new StillScene(4);
let k = 0;
line('still check', time(() => void still.push(thumbnail(cv, frames[k++ % frames.length]!)), RUNS * 4), 'ms');

// Full board: one frame → 100 rectified 64×64 crops from the tiles' quads.
const quads = [...tiles.values()].map((t) => poseCorners(t).map((p) => applyHomography(h, p)) as ReturnType<typeof poseCorners>);
line('full board 100 tiles', time(() => {
  const mat = frameToMat(cv, frames[0]!);
  for (const q of quads) rectifyCell(cv, mat, q, 64);
  mat.delete();
}), 'ms');

// One cell refound by its own edges (what a newly laid tile costs before recognition).
const rgb = frameToMat(cv, frames[0]!);
const lattice = { originMm: tiles.get('0,0')!.centre, pitchMm: 46, angleDeg: 2, tileMm: 45 };
line('cell refit', time(() => void refineCell(cv, rgb, h, lattice, [1, 1])), 'ms');
rgb.delete();

// Calibration from the marker sheet at 1080p.
const { widthMm: w, heightMm: hh } = A4_SHEET.paper;
const sheetMat = await rasterSvg(cv, sheetSvg(A4_SHEET, sheetBits(cv, A4_SHEET)), w, hh, 4);
const sheetFrame = shoot(cv, { mat: sheetMat, pxPerMm: 4, originMm: { x: 0, y: 0 } }, cameraHomography({ ...pose, heightMm: 600, target: { x: w / 2, y: hh / 2 } }), 1920, 1080, { seed: 9 });
line('sheet homography 1080p', time(() => {
  const r = homographyFromSheet(cv, sheetFrame, A4_SHEET);
  if (!r.ok) throw new Error(r.error.message);
}, Math.max(3, Math.floor(RUNS / 2))), 'ms');

// Game-level figures on held-out recordings (bench/tracking-game.ts, the tracking half of issue 5).
const { trackingGameLines } = await import('./tracking-game.js');
for (const l of await trackingGameLines()) console.log(l);
