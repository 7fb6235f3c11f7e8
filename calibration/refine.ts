import type { Cv, Mat } from './cv.js';
import { applyHomography, invertHomography, multiplyHomography, scaleHomography, type Homography, type Point, type Quad } from './geometry.js';

/** A rectangle lying on the table: centre and rotation in table millimetres. */
export interface PiecePose {
  centre: Point;
  /** Rotation of the piece's x side from the table's x axis, degrees. */
  angleDeg: number;
  widthMm: number;
  heightMm: number;
}

export interface RefineOptions {
  /** How far the true edges may lie from the nominal ones, mm. */
  searchMm?: number;
  /** How far the true rotation may lie from the nominal one, degrees. */
  searchDeg?: number;
  /** Resolution of the top-down patch the edges are measured in. */
  pxPerMm?: number;
  /** How much the measured side may differ from the nominal size (print/cut tolerance), mm. */
  sizeToleranceMm?: number;
}

export interface RefinedPiece {
  pose: PiecePose;
  /** Mean edge strength along the four found sides relative to the patch's mean: > 2 is a clear edge. */
  contrast: number;
}

export function poseCorners(p: PiecePose): Quad {
  const a = (p.angleDeg * Math.PI) / 180;
  const c = Math.cos(a), s = Math.sin(a);
  const hw = p.widthMm / 2, hh = p.heightMm / 2;
  return ([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]] as const).map(([u, v]) => ({
    x: p.centre.x + u * c - v * s,
    y: p.centre.y + u * s + v * c,
  })) as Quad;
}

/**
 * Finds a rectangular piece's true edges near a nominal pose. The table around the piece is warped
 * to a top-down patch (so perspective is gone and sizes are millimetres), and for each candidate
 * rotation the gradient is projected onto the piece's two axes; the piece is where two parallel
 * edge lines lie one piece-width apart on both axes. Works on gaps (table between tiles) and on
 * touching tiles (the cut edge), and ignores the art inside, which does not form such pairs.
 */
export function refinePiece(cv: Cv, gray: Mat, tableToImage: Homography, nominal: PiecePose, o: RefineOptions = {}): RefinedPiece {
  const searchMm = o.searchMm ?? 4;
  const searchDeg = o.searchDeg ?? 4;
  const r = o.pxPerMm ?? 3;
  const tol = o.sizeToleranceMm ?? 1.5;
  const half = Math.max(nominal.widthMm, nominal.heightMm) / 2 + searchMm + 2;
  const size = Math.ceil(2 * half * r);
  // Patch pixel (i, j) ↔ table point nominal.centre + ((i, j) / r - half).
  const patchToTable = invertHomography(scaleHomography(r, { x: nominal.centre.x - half, y: nominal.centre.y - half }));
  const imageToPatch = invertHomography(multiplyHomography(tableToImage, patchToTable));
  const patch = new cv.Mat();
  const gx = new cv.Mat();
  const gy = new cv.Mat();
  const m = cv.matFromArray(3, 3, cv.CV_64F, imageToPatch);
  try {
    cv.warpPerspective(gray, patch, m, new cv.Size(size, size), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    cv.Sobel(patch, gx, cv.CV_32F, 1, 0, 3);
    cv.Sobel(patch, gy, cv.CV_32F, 0, 1, 3);
    const gxd = gx.data32F as Float32Array;
    const gyd = gy.data32F as Float32Array;
    let meanMag = 0;
    for (let k = 0; k < gxd.length; k++) meanMag += Math.abs(gxd[k]!) + Math.abs(gyd[k]!);
    meanMag /= gxd.length;

    const bins = Math.ceil(2 * half * r) + 1;
    const pu = new Float64Array(bins);
    const pv = new Float64Array(bins);
    const best = { score: -1, angle: 0, u0: 0, u1: 0, v0: 0, v1: 0 };
    const evaluate = (da: number): void => {
      const a = ((nominal.angleDeg + da) * Math.PI) / 180;
      const c = Math.cos(a), s = Math.sin(a);
      pu.fill(0);
      pv.fill(0);
      const bandU = (nominal.heightMm / 2 - 3) * r; // stay clear of the perpendicular sides
      const bandV = (nominal.widthMm / 2 - 3) * r;
      const mid = half * r;
      for (let j = 0; j < size; j++) {
        const y = j - mid;
        for (let i = 0; i < size; i++) {
          const x = i - mid;
          const u = x * c + y * s;
          const v = -x * s + y * c;
          const k = j * size + i;
          // Linear splatting keeps sub-pixel information in the profiles.
          if (Math.abs(v) < bandU) splat(pu, u + mid, Math.abs(gxd[k]! * c + gyd[k]! * s));
          if (Math.abs(u) < bandV) splat(pv, v + mid, Math.abs(-gxd[k]! * s + gyd[k]! * c));
        }
      }
      const pu1 = pairPeak(pu, nominal.widthMm * r, tol * r, mid, searchMm * r);
      const pv1 = pairPeak(pv, nominal.heightMm * r, tol * r, mid, searchMm * r);
      const score = pu1.score / (2 * bandU) + pv1.score / (2 * bandV);
      if (score > best.score) Object.assign(best, { score, angle: da, u0: pu1.a, u1: pu1.b, v0: pv1.a, v1: pv1.b });
    };
    for (let da = -searchDeg; da <= searchDeg + 1e-9; da += 0.5) evaluate(da);
    const coarse = best.angle;
    for (let da = coarse - 0.4; da <= coarse + 0.4 + 1e-9; da += 0.1) evaluate(da);

    const a = ((nominal.angleDeg + best.angle) * Math.PI) / 180;
    const c = Math.cos(a), s = Math.sin(a);
    const mid = half * r;
    const uc = ((best.u0 + best.u1) / 2 - mid) / r;
    const vc = ((best.v0 + best.v1) / 2 - mid) / r;
    const centre = { x: nominal.centre.x + uc * c - vc * s, y: nominal.centre.y + uc * s + vc * c };
    return {
      pose: { centre, angleDeg: nominal.angleDeg + best.angle, widthMm: (best.u1 - best.u0) / r, heightMm: (best.v1 - best.v0) / r },
      contrast: best.score / Math.max(meanMag, 1e-6),
    };
  } finally {
    for (const x of [patch, gx, gy, m]) x.delete();
  }
}

/**
 * In a 1-D edge profile, the pair of peaks (a, b) with b − a within tol of `span` and the pair's
 * centre within `reach` of `mid` that has the largest summed strength; a and b refined to sub-bin
 * positions by a parabola through each peak.
 */
function pairPeak(p: Float64Array, span: number, tol: number, mid: number, reach: number): { score: number; a: number; b: number } {
  let best = { score: -1, a: 0, b: 0 };
  const lo = Math.max(1, Math.floor(mid - span / 2 - reach));
  const hi = Math.min(p.length - 2, Math.ceil(mid - span / 2 + reach));
  for (let a = lo; a <= hi; a++) {
    const bLo = Math.max(a + 1, Math.ceil(a + span - tol));
    const bHi = Math.min(p.length - 2, Math.floor(a + span + tol));
    for (let b = bLo; b <= bHi; b++) {
      const score = p[a]! + p[b]!;
      if (score > best.score) best = { score, a, b };
    }
  }
  return { score: best.score, a: subBin(p, best.a), b: subBin(p, best.b) };
}

function splat(p: Float64Array, at: number, g: number): void {
  const i = Math.floor(at);
  if (i < 0 || i + 1 >= p.length) return;
  const w = at - i;
  p[i]! += g * (1 - w);
  p[i + 1]! += g * w;
}

function subBin(p: Float64Array, i: number): number {
  const l = p[i - 1] ?? 0, c = p[i]!, r = p[i + 1] ?? 0;
  const d = l - 2 * c + r;
  return d < 0 ? i + Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / d)) : i;
}

/** The piece's corners in image pixels. */
export function poseImageCorners(tableToImage: Homography, pose: PiecePose): Quad {
  return poseCorners(pose).map((p) => applyHomography(tableToImage, p)) as Quad;
}
