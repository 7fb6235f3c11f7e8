import type { Cv } from './cv.js';

/** A point in table millimetres or image pixels (the name of the variable says which). */
export interface Point {
  x: number;
  y: number;
}

/** A quadrilateral in order top-left, top-right, bottom-right, bottom-left (clockwise on screen). */
export type Quad = [Point, Point, Point, Point];

/**
 * A 3×3 plane homography, row-major. In calibration/ a `Homography` named `tableToImage` maps
 * table millimetres to image pixels; its inverse maps pixels back to the table plane.
 */
export type Homography = [number, number, number, number, number, number, number, number, number];

export function applyHomography(h: Homography, p: Point): Point {
  const w = h[6] * p.x + h[7] * p.y + h[8];
  return { x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w };
}

export function multiplyHomography(a: Homography, b: Homography): Homography {
  const r = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      for (let k = 0; k < 3; k++) r[i * 3 + j]! += a[i * 3 + k]! * b[k * 3 + j]!;
  return normalise(r as Homography);
}

export function invertHomography(h: Homography): Homography {
  const [a, b, c, d, e, f, g, hh, i] = h;
  const A = e * i - f * hh;
  const B = -(d * i - f * g);
  const C = d * hh - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-300) throw new Error('singular homography');
  const inv: Homography = [
    A / det, -(b * i - c * hh) / det, (b * f - c * e) / det,
    B / det, (a * i - c * g) / det, -(a * f - c * d) / det,
    C / det, -(a * hh - b * g) / det, (a * e - b * d) / det,
  ];
  return normalise(inv);
}

function normalise(h: Homography): Homography {
  const s = h[8] !== 0 ? h[8] : 1;
  return h.map((v) => v / s) as Homography;
}

/** Scale (and shift) of the plane: maps p to (p - origin) * pxPerMm. */
export function scaleHomography(pxPerMm: number, origin: Point = { x: 0, y: 0 }): Homography {
  return [pxPerMm, 0, -origin.x * pxPerMm, 0, pxPerMm, -origin.y * pxPerMm, 0, 0, 1];
}

/**
 * Least-squares homography from point pairs (opencv's findHomography, plain DLT + LM refinement).
 * Returns undefined when the points are degenerate.
 */
export function fitHomography(cv: Cv, from: Point[], to: Point[], ransacPx = 0): Homography | undefined {
  if (from.length !== to.length || from.length < 4) return undefined;
  const src = cv.matFromArray(from.length, 1, cv.CV_64FC2, from.flatMap((p) => [p.x, p.y]));
  const dst = cv.matFromArray(to.length, 1, cv.CV_64FC2, to.flatMap((p) => [p.x, p.y]));
  const mask = new cv.Mat();
  let h: Cv;
  try {
    h = ransacPx > 0 ? cv.findHomography(src, dst, cv.RANSAC, ransacPx, mask) : cv.findHomography(src, dst);
    if (h.empty() || h.rows !== 3) return undefined;
    const out = Array.from(h.data64F as Float64Array) as Homography;
    if (out.some((v) => !Number.isFinite(v))) return undefined;
    return normalise(out);
  } finally {
    src.delete();
    dst.delete();
    mask.delete();
    h?.delete?.();
  }
}

export const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);

/** Twice the signed area; positive for clockwise order in y-down coordinates. */
function cross(o: Point, a: Point, b: Point): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** True for a strictly convex quad with no near-collinear corners (minimum corner angle in degrees). */
export function isGoodQuad(q: Point[], minAngleDeg = 10): boolean {
  if (q.length !== 4) return false;
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!, b = q[(i + 1) % 4]!, c = q[(i + 2) % 4]!;
    const z = cross(a, b, c);
    const s = Math.sign(z);
    if (s === 0 || (sign !== 0 && s !== sign)) return false;
    sign = s;
    const v1 = { x: a.x - b.x, y: a.y - b.y }, v2 = { x: c.x - b.x, y: c.y - b.y };
    const ang = Math.acos(Math.max(-1, Math.min(1, (v1.x * v2.x + v1.y * v2.y) / (Math.hypot(v1.x, v1.y) * Math.hypot(v2.x, v2.y)))));
    if ((ang * 180) / Math.PI < minAngleDeg || (ang * 180) / Math.PI > 180 - minAngleDeg) return false;
  }
  return true;
}

/**
 * Orders four points as top-left, top-right, bottom-right, bottom-left on screen (clockwise in
 * y-down coordinates), starting from the point nearest the image's top-left.
 */
export function orderQuad(points: Point[]): Quad {
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const cy = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sorted = [...points].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx));
  // atan2 ascending in y-down coordinates is clockwise on screen; start at the top-left-most.
  let start = 0;
  for (let i = 1; i < 4; i++) if (sorted[i]!.x + sorted[i]!.y < sorted[start]!.x + sorted[start]!.y) start = i;
  return [0, 1, 2, 3].map((k) => sorted[(start + k) % 4]!) as Quad;
}

/** The homography of the unit square onto `q` (corners in order). */
export function squareToQuadHomography(q: Quad): Homography {
  const [p0, p1, p2, p3] = q;
  const dx1 = p1.x - p2.x, dx2 = p3.x - p2.x, dx3 = p0.x - p1.x + p2.x - p3.x;
  const dy1 = p1.y - p2.y, dy2 = p3.y - p2.y, dy3 = p0.y - p1.y + p2.y - p3.y;
  const det = dx1 * dy2 - dx2 * dy1;
  const g = (dx3 * dy2 - dx2 * dy3) / det, h = (dx1 * dy3 - dx3 * dy1) / det;
  return [p1.x - p0.x + g * p1.x, p3.x - p0.x + h * p3.x, p0.x, p1.y - p0.y + g * p1.y, p3.y - p0.y + h * p3.y, p0.y, g, h, 1];
}
