/**
 * Synthetic overhead camera for the calibration tests and the benchmark: a pinhole camera above
 * the table plane, a top-down "table raster" in millimetres, and opencv's warpPerspective to take
 * the picture. Only geometry is simulated; the photoreal tile renderer lives in models/render/.
 */
import sharp from 'sharp';
import type { Cv, Mat } from '../../calibration/cv.js';
import type { Frame } from '../../calibration/frame.js';
import { matToFrame } from '../../calibration/frame.js';
import { multiplyHomography, invertHomography, scaleHomography, type Homography, type Point } from '../../calibration/geometry.js';

import { rng } from '../../engine/sim/rng.js';

export { rng };

export interface CameraPose {
  /** Height of the camera centre above the table, mm. */
  heightMm: number;
  /** Angle of the optical axis from vertical, degrees. */
  tiltDeg: number;
  /** Direction the tilt leans toward, degrees in the table plane. */
  tiltAzimuthDeg: number;
  /** Rotation of the image about the vertical, degrees. */
  yawDeg: number;
  /** Where the optical axis meets the table, mm. */
  target: Point;
  focalPx: number;
  width: number;
  height: number;
}

type M3 = number[][];
const mul = (a: M3, b: M3): M3 => a.map((r) => b[0]!.map((_, j) => r.reduce((s, v, k) => s + v * b[k]![j]!, 0)));
const rotZ = (a: number): M3 => [[Math.cos(a), -Math.sin(a), 0], [Math.sin(a), Math.cos(a), 0], [0, 0, 1]];
function rotAxis(ax: number[], a: number): M3 {
  const [x, y, z] = ax as [number, number, number];
  const c = Math.cos(a), s = Math.sin(a), t = 1 - c;
  return [
    [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
    [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
    [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
  ];
}

/**
 * Table mm → image px for a pinhole camera. World: x right, y down on the table, z into the table
 * (right-handed); the camera sits at z = -height looking along +z when untilted.
 */
export function cameraHomography(p: CameraPose): Homography {
  const d = Math.PI / 180;
  const axis = [Math.cos(p.tiltAzimuthDeg * d), Math.sin(p.tiltAzimuthDeg * d), 0];
  const rwc = mul(rotZ(p.yawDeg * d), rotAxis(axis, p.tiltDeg * d)); // camera axes in world
  const optical = [rwc[0]![2]!, rwc[1]![2]!, rwc[2]![2]!];
  const dist = p.heightMm / optical[2]!;
  const c = [p.target.x - optical[0]! * dist, p.target.y - optical[1]! * dist, -optical[2]! * dist];
  const r = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rwc[j]![i]!)); // world → camera
  const t = r.map((row) => -(row[0]! * c[0]! + row[1]! * c[1]! + row[2]! * c[2]!));
  const k: M3 = [[p.focalPx, 0, p.width / 2], [0, p.focalPx, p.height / 2], [0, 0, 1]];
  const h = mul(k, [[r[0]![0]!, r[0]![1]!, t[0]!], [r[1]![0]!, r[1]![1]!, t[1]!], [r[2]![0]!, r[2]![1]!, t[2]!]]);
  const flat = h.flat() as Homography;
  return flat.map((v) => v / flat[8]) as Homography;
}

/** A top-down picture of part of the table: `pxPerMm` pixels per millimetre, `originMm` at pixel 0,0. */
export interface TableRaster {
  mat: Mat; // CV_8UC3 RGB
  pxPerMm: number;
  originMm: Point;
}

/** A wood-like table: low-frequency blotches plus grain, brownish. */
export function tableTexture(cv: Cv, widthPx: number, heightPx: number, seed: number): Mat {
  const r = rng(seed);
  const small = new cv.Mat(24, 24, cv.CV_8UC3);
  for (let i = 0; i < small.data.length; i += 3) {
    const v = r();
    small.data[i] = 120 + v * 50;
    small.data[i + 1] = 85 + v * 40;
    small.data[i + 2] = 55 + v * 30;
  }
  const big = new cv.Mat();
  cv.resize(small, big, new cv.Size(widthPx, heightPx), 0, 0, cv.INTER_CUBIC);
  const grain = new cv.Mat(heightPx, widthPx, cv.CV_8UC3);
  cv.setRNGSeed(seed);
  cv.randu(grain, new cv.Mat(1, 1, cv.CV_64F, new cv.Scalar(0)), new cv.Mat(1, 1, cv.CV_64F, new cv.Scalar(24)));
  cv.add(big, grain, big);
  small.delete();
  grain.delete();
  return big;
}

/** Rasterises an SVG at `pxPerMm` (the SVG's user unit is 1 mm). */
export async function rasterSvg(cv: Cv, svg: string, widthMm: number, heightMm: number, pxPerMm: number): Promise<Mat> {
  const { data, info } = await sharp(Buffer.from(svg), { density: pxPerMm * 25.4 })
    .resize(Math.round(widthMm * pxPerMm), Math.round(heightMm * pxPerMm), { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const mat = new cv.Mat(info.height, info.width, cv.CV_8UC3);
  mat.data.set(data);
  return mat;
}

export interface ShotOptions {
  noiseSigma?: number;
  blurSigma?: number;
  seed?: number;
  /** Multiply brightness (a lighting change). */
  gain?: number;
}

/** Takes the picture: the table raster seen through `tableToImage`, blurred and noisy. */
export function shoot(cv: Cv, table: TableRaster, tableToImage: Homography, width: number, height: number, o: ShotOptions = {}): Frame {
  const srcToTable = invertHomography(scaleHomography(table.pxPerMm, table.originMm));
  const m = multiplyHomography(tableToImage, srcToTable);
  // Pre-blur so that minification does not alias (the lens and sensor would do the same).
  const pxPerMmImage = Math.sqrt(Math.abs(tableToImage[0] * tableToImage[4] - tableToImage[1] * tableToImage[3])) / Math.abs(tableToImage[8]);
  const shrink = table.pxPerMm / Math.max(pxPerMmImage, 1e-6);
  const src = new cv.Mat();
  if (shrink > 1.2) cv.GaussianBlur(table.mat, src, new cv.Size(0, 0), 0.45 * shrink);
  else table.mat.copyTo(src);
  const mm = cv.matFromArray(3, 3, cv.CV_64F, m);
  const out = new cv.Mat();
  cv.warpPerspective(src, out, mm, new cv.Size(width, height), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
  if ((o.blurSigma ?? 0.7) > 0) cv.GaussianBlur(out, out, new cv.Size(0, 0), o.blurSigma ?? 0.7);
  const sigma = o.noiseSigma ?? 3;
  const gain = o.gain ?? 1;
  if (sigma > 0 || gain !== 1) {
    const wide = new cv.Mat();
    out.convertTo(wide, cv.CV_16SC3, gain, 0);
    if (sigma > 0) {
      const noise = new cv.Mat(out.rows, out.cols, cv.CV_16SC3);
      cv.setRNGSeed(o.seed ?? 1);
      cv.randn(noise, new cv.Mat(1, 1, cv.CV_64F, new cv.Scalar(0)), new cv.Mat(1, 1, cv.CV_64F, new cv.Scalar(sigma)));
      cv.add(wide, noise, wide);
      noise.delete();
    }
    wide.convertTo(out, cv.CV_8UC3);
    wide.delete();
  }
  const frame = matToFrame(out);
  for (const x of [src, mm, out]) x.delete();
  return frame;
}

/** Random camera pose within the envelope: 40–90 cm up, up to 30° off vertical. */
export function randomPose(r: () => number, target: Point, over: Partial<CameraPose> = {}): CameraPose {
  return {
    heightMm: 400 + r() * 500,
    tiltDeg: r() * 30,
    tiltAzimuthDeg: r() * 360,
    yawDeg: r() * 360,
    target,
    focalPx: 1100,
    width: 1920,
    height: 1080,
    ...over,
  };
}

/** A flat synthetic tile: field colour, a road and a city cap, a thin dark cut edge. */
export interface SceneTile {
  /** Centre on the table, mm. */
  centre: Point;
  angleDeg: number;
  widthMm: number;
  heightMm: number;
  seed: number;
}

function rotated(t: SceneTile, u: number, v: number): Point {
  const a = (t.angleDeg * Math.PI) / 180;
  return { x: t.centre.x + u * Math.cos(a) - v * Math.sin(a), y: t.centre.y + u * Math.sin(a) + v * Math.cos(a) };
}

function fillPoly(cv: Cv, mat: Mat, ptsMm: Point[], raster: TableRaster, colour: number[]): void {
  const flat = ptsMm.flatMap((p) => [Math.round((p.x - raster.originMm.x) * raster.pxPerMm * 16), Math.round((p.y - raster.originMm.y) * raster.pxPerMm * 16)]);
  const poly = cv.matFromArray(ptsMm.length, 1, cv.CV_32SC2, flat);
  const polys = new cv.MatVector();
  polys.push_back(poly);
  // 4 fractional bits: sub-pixel accurate polygon edges.
  cv.fillPoly(mat, polys, new cv.Scalar(colour[0], colour[1], colour[2], 255), cv.LINE_AA, 4);
  polys.delete();
  poly.delete();
}

export function drawTile(cv: Cv, raster: TableRaster, t: SceneTile): void {
  const r = rng(t.seed);
  const hw = t.widthMm / 2, hh = t.heightMm / 2;
  const corners = (w: number, h: number): Point[] => [rotated(t, -w, -h), rotated(t, w, -h), rotated(t, w, h), rotated(t, -w, h)];
  fillPoly(cv, raster.mat, corners(hw, hh), raster, [40, 36, 30]); // the cut edge
  const field = [70 + r() * 40, 130 + r() * 40, 50 + r() * 30];
  fillPoly(cv, raster.mat, corners(hw - 0.4, hh - 0.4), raster, field);
  // A city cap on a random side and a road across: art that must not fool the edge finder.
  const side = Math.floor(r() * 4);
  const cap = [[-hw + 0.4, -hh + 0.4], [hw - 0.4, -hh + 0.4], [hw * 0.5, -hh * 0.35], [-hw * 0.5, -hh * 0.35]].map(([u, v]) => {
    const k = side;
    const [uu, vv] = k === 0 ? [u!, v!] : k === 1 ? [-v!, u!] : k === 2 ? [-u!, -v!] : [v!, -u!];
    return rotated(t, uu, vv);
  });
  fillPoly(cv, raster.mat, cap, raster, [190 + r() * 30, 150 + r() * 20, 90 + r() * 20]);
  const rw = 3;
  const road = side % 2 === 0
    ? [rotated(t, -hw + 0.4, hh * 0.3 - rw), rotated(t, hw - 0.4, hh * 0.3 - rw), rotated(t, hw - 0.4, hh * 0.3 + rw), rotated(t, -hw + 0.4, hh * 0.3 + rw)]
    : [rotated(t, -hh * 0.3 - rw, -hh + 0.4), rotated(t, -hh * 0.3 + rw, -hh + 0.4), rotated(t, -hh * 0.3 + rw, hh - 0.4), rotated(t, -hh * 0.3 - rw, hh - 0.4)];
  fillPoly(cv, raster.mat, road, raster, [225, 215, 185]);
}

/** A bare table raster covering [minMm, maxMm] at pxPerMm. */
export function emptyTable(cv: Cv, minMm: Point, maxMm: Point, pxPerMm: number, seed: number): TableRaster {
  const w = Math.round((maxMm.x - minMm.x) * pxPerMm), h = Math.round((maxMm.y - minMm.y) * pxPerMm);
  return { mat: tableTexture(cv, w, h, seed), pxPerMm, originMm: minMm };
}

/**
 * A board of square tiles on a lattice that drifts the way real tiles do: a nominal gap, a slow
 * drift across the board (up to `shiftMm` from the ideal lattice; neighbours move together), and
 * per-tile jitter in position and rotation. Cardboard tiles cannot overlap, so each tile's own
 * jitter is limited by the gap it has: a tile turned by θ grows by about 22.5 mm·θ on each side.
 * Returns the true poses.
 */
export function driftedBoard(cells: readonly (readonly [number, number])[], o: { tileMm: number; gapMm: number; shiftMm: number; rotDeg: number; seed: number; originMm: Point; latticeDeg: number }): Map<string, SceneTile> {
  const r = rng(o.seed);
  const pitch = o.tileMm + o.gapMm;
  const a = (o.latticeDeg * Math.PI) / 180;
  const k = [r(), r(), r(), r()].map((v) => (v - 0.5) * 2);
  const span = Math.max(1, ...cells.map(([x, y]) => Math.max(Math.abs(x), Math.abs(y))));
  const out = new Map<string, SceneTile>();
  for (const [cx, cy] of cells) {
    // Smooth field: rows slide along rows and columns along columns (a shear, which is how
    // touching tiles can drift without overlapping), reaching shiftMm at the board's edge.
    const fx = (o.shiftMm * (k[0]! * cy + 0.3 * k[1]! * Math.sign(cy) * (cy / span) ** 2 * span)) / span;
    const fy = (o.shiftMm * (k[2]! * cx + 0.3 * k[3]! * Math.sign(cx) * (cx / span) ** 2 * span)) / span;
    const maxRot = Math.min(o.rotDeg, ((o.gapMm * 0.8) / o.tileMm) * (180 / Math.PI));
    const rot = (r() * 2 - 1) * maxRot;
    const spare = Math.max(0, o.gapMm - (o.tileMm / 2) * Math.abs((rot * Math.PI) / 180) * 2) / 2;
    const lx = cx * pitch + fx + (r() * 2 - 1) * spare * 0.5;
    const ly = cy * pitch + fy + (r() * 2 - 1) * spare * 0.5;
    out.set(`${cx},${cy}`, {
      centre: { x: o.originMm.x + lx * Math.cos(a) - ly * Math.sin(a), y: o.originMm.y + lx * Math.sin(a) + ly * Math.cos(a) },
      angleDeg: o.latticeDeg + rot,
      widthMm: o.tileMm,
      heightMm: o.tileMm,
      seed: Math.floor(r() * 1e9),
    });
  }
  return out;
}

/** A plausible mid-game board: a cross of arms plus a filled block, 25 cells. */
export const MID_GAME_CELLS: (readonly [number, number])[] = [
  ...[-2, -1, 0, 1, 2].flatMap((x) => [-1, 0, 1].map((y) => [x, y] as const)),
  [0, -2], [0, -3], [1, -3], [0, 2], [0, 3], [-3, 0], [3, 0], [3, 1], [-1, 2], [2, -2],
];
