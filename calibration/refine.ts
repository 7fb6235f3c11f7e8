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
  /** The best-fitting rectangle (centre, rotation, measured size). */
  pose: PiecePose;
  /** The piece's own four sides, fitted line by line and intersected: its true quad on the table. */
  tableQuad: Quad;
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
export function refinePiece(cv: Cv, image: Mat, tableToImage: Homography, nominal: PiecePose, o: RefineOptions = {}): RefinedPiece {
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
    cv.warpPerspective(image, patch, m, new cv.Size(size, size), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    cv.Sobel(patch, gx, cv.CV_32F, 1, 0, 3);
    cv.Sobel(patch, gy, cv.CV_32F, 0, 1, 3);
    const gxd = gx.data32F as Float32Array;
    const gyd = gy.data32F as Float32Array;
    // Colour edges, channel by channel: a green field on a brown table can have the same grey.
    const ch = patch.channels() as number;
    let meanMag = 0;
    for (let k = 0; k < gxd.length; k++) meanMag += Math.abs(gxd[k]!) + Math.abs(gyd[k]!);
    meanMag /= gxd.length / ch;

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
          const k = (j * size + i) * ch;
          // Linear splatting keeps sub-pixel information in the profiles.
          if (Math.abs(v) < bandU) {
            let g = 0;
            for (let q = 0; q < ch; q++) g += Math.abs(gxd[k + q]! * c + gyd[k + q]! * s);
            splat(pu, u + mid, g);
          }
          if (Math.abs(u) < bandV) {
            let g = 0;
            for (let q = 0; q < ch; q++) g += Math.abs(-gxd[k + q]! * s + gyd[k + q]! * c);
            splat(pv, v + mid, g);
          }
        }
      }
      // Each side's edge is the innermost strong peak: beyond a gap lies the neighbour's edge,
      // which can be the stronger one (and at its own rotation), but ours is always the one
      // nearer the tile's centre. The rotation is the one that makes our four edges sharpest.
      const w = nominal.widthMm * r, h = nominal.heightMm * r, reach = searchMm * r;
      const e = {
        u0: innermostPeak(pu, mid - w / 2, reach, +1),
        u1: innermostPeak(pu, mid + w / 2, reach, -1),
        v0: innermostPeak(pv, mid - h / 2, reach, +1),
        v1: innermostPeak(pv, mid + h / 2, reach, -1),
      };
      // Innermost edges can only make the piece look smaller (a cut edge's inner line), never
      // larger, so they are trusted down to 1.2 mm under size.
      const fits = (span: number, want: number): boolean => span - want <= tol * r && want - span <= Math.max(tol, 1.2) * r;
      const okU = fits(e.u1 - e.u0, w), okV = fits(e.v1 - e.v0, h);
      const pu1 = okU ? { a: e.u0, b: e.u1 } : pairPeak(pu, w, tol * r, mid, reach);
      const pv1 = okV ? { a: e.v0, b: e.v1 } : pairPeak(pv, h, tol * r, mid, reach);
      const at = (p: Float64Array, x: number): number => p[Math.round(x)] ?? 0;
      const score = (at(pu, pu1.a) + at(pu, pu1.b)) / (2 * bandU) + (at(pv, pv1.a) + at(pv, pv1.b)) / (2 * bandV);
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
    const rect: PiecePose = { centre, angleDeg: nominal.angleDeg + best.angle, widthMm: (best.u1 - best.u0) / r, heightMm: (best.v1 - best.v0) / r };
    // Stage 2: each side as its own line, from edge positions measured slice by slice. Fitting
    // lines instead of scoring whole profiles per angle avoids a bias toward the patch's pixel
    // axes, and follows a side that is not quite where the rectangle says.
    const toPatch = (p: Point): Point => ({ x: (p.x - nominal.centre.x) * r + mid, y: (p.y - nominal.centre.y) * r + mid });
    const corners = poseCorners(rect).map(toPatch);
    const sample = (x: number, y: number, nx: number, ny: number): number => {
      const x0 = Math.floor(x), y0 = Math.floor(y);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= size || y0 + 1 >= size) return 0;
      const fx = x - x0, fy = y - y0;
      const g = (i: number, j: number): number => {
        let sum = 0;
        const k = (j * size + i) * ch;
        for (let q = 0; q < ch; q++) sum += Math.abs(gxd[k + q]! * nx + gyd[k + q]! * ny);
        return sum;
      };
      return (g(x0, y0) * (1 - fx) + g(x0 + 1, y0) * fx) * (1 - fy) + (g(x0, y0 + 1) * (1 - fx) + g(x0 + 1, y0 + 1) * fx) * fy;
    };
    const lines: { px: number; py: number; dx: number; dy: number }[] = [];
    const sideWeights: number[] = [];
    for (let side = 0; side < 4; side++) {
      const a0 = corners[side]!, a1 = corners[(side + 1) % 4]!;
      const len = Math.hypot(a1.x - a0.x, a1.y - a0.y);
      const tx = (a1.x - a0.x) / len, ty = (a1.y - a0.y) / len;
      const nx = ty, ny = -tx; // clockwise quad in y-down: (ty, −tx) points outward
      const pts: { t: number; d: number }[] = [];
      const reachPx = 1.5 * r, step = 0.25;
      const nSteps = Math.round((2 * reachPx) / step) + 1;
      const prof = new Float64Array(nSteps + 2);
      for (let k = 1; k <= 11; k++) {
        const t = (len * (0.08 + (0.84 * (k - 1)) / 10));
        prof.fill(0);
        for (let q = 0; q < nSteps; q++) {
          const d = -reachPx + q * step;
          for (const w of [-r, 0, r]) {
            const x = a0.x + tx * (t + w) + nx * d, y = a0.y + ty * (t + w) + ny * d;
            prof[q + 1]! += sample(x, y, nx, ny);
          }
        }
        // The peak nearest the rectangle's side (which already chose between our edge and a
        // neighbour's), among those not lost in noise.
        let strongest = 0;
        for (let q = 1; q <= nSteps; q++) strongest = Math.max(strongest, prof[q]!);
        if (strongest <= 0) continue;
        let pick = -1;
        for (let q = 1; q <= nSteps; q++) {
          if (prof[q]! >= 0.3 * strongest && prof[q]! >= prof[q - 1]! && prof[q]! >= prof[q + 1]!) {
            const d = -reachPx + (q - 1) * step;
            if (pick < 0 || Math.abs(d) < Math.abs(-reachPx + (pick - 1) * step)) pick = q;
          }
        }
        if (pick > 0) pts.push({ t, d: -reachPx + (subBin(prof, pick) - 1) * step });
      }
      const line = fitLine(pts);
      if (!line) return { pose: rect, tableQuad: poseCorners(rect), contrast: best.score / Math.max(meanMag, 1e-6) };
      // d = α + β t  →  a point and a direction in patch pixels.
      lines.push({ px: a0.x + nx * line.alpha, py: a0.y + ny * line.alpha, dx: tx + nx * line.beta, dy: ty + ny * line.beta });
      // A side seen cleanly (many slices on one straight line) says more about the rotation than
      // one where a neighbour's edge or the art pulled some slices away.
      sideWeights.push(line.n / (0.5 + line.rms) ** 2);
    }
    const fromPatch = (p: Point): Point => ({ x: (p.x - mid) / r + nominal.centre.x, y: (p.y - mid) / r + nominal.centre.y });
    const quad = [0, 1, 2, 3].map((k) => fromPatch(intersect(lines[(k + 3) % 4]!, lines[k]!))) as Quad;
    // Trust the side-by-side quad only where it agrees with the rectangle and the known size.
    const fitted = { ...poseFromQuad(quad), angleDeg: weightedAngle(lines, sideWeights) };
    const ok =
      quad.every((q, k) => Math.hypot(q.x - poseCorners(rect)[k]!.x, q.y - poseCorners(rect)[k]!.y) < 2) &&
      fitted.widthMm - nominal.widthMm <= tol && nominal.widthMm - fitted.widthMm <= Math.max(tol, 1.2) &&
      fitted.heightMm - nominal.heightMm <= tol && nominal.heightMm - fitted.heightMm <= Math.max(tol, 1.2);
    return { pose: ok ? fitted : rect, tableQuad: ok ? quad : poseCorners(rect), contrast: best.score / Math.max(meanMag, 1e-6) };
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

/** Least-squares line d = α + β t through the points, refitted once without outliers; with its rms. */
function fitLine(pts: { t: number; d: number }[]): { alpha: number; beta: number; rms: number; n: number } | undefined {
  const fit = (ps: typeof pts): { alpha: number; beta: number; rms: number; n: number } | undefined => {
    if (ps.length < 3) return undefined;
    const n = ps.length, mt = ps.reduce((s, p) => s + p.t, 0) / n, md = ps.reduce((s, p) => s + p.d, 0) / n;
    let stt = 0, std = 0;
    for (const p of ps) { stt += (p.t - mt) ** 2; std += (p.t - mt) * (p.d - md); }
    const beta = stt > 0 ? std / stt : 0;
    const alpha = md - beta * mt;
    const rms = Math.sqrt(ps.reduce((s, p) => s + (p.d - alpha - beta * p.t) ** 2, 0) / n);
    return { alpha, beta, rms, n };
  };
  const first = fit(pts);
  if (!first) return undefined;
  const resid = pts.map((p) => Math.abs(p.d - (first.alpha + first.beta * p.t)));
  const med = [...resid].sort((a, b) => a - b)[Math.floor(resid.length / 2)]!;
  return fit(pts.filter((_, i) => resid[i]! <= Math.max(0.4, 2.5 * med))) ?? first;
}

/** Rotation from the four fitted sides, each turned onto the first side's axis, weighted. */
function weightedAngle(lines: { dx: number; dy: number }[], weights: number[]): number {
  let cx = 0, cy = 0;
  lines.forEach((l, k) => {
    const ang = Math.atan2(l.dy, l.dx) - (k * Math.PI) / 2;
    cx += weights[k]! * Math.cos(ang);
    cy += weights[k]! * Math.sin(ang);
  });
  return (Math.atan2(cy, cx) * 180) / Math.PI;
}

function intersect(a: { px: number; py: number; dx: number; dy: number }, b: { px: number; py: number; dx: number; dy: number }): Point {
  const den = a.dx * b.dy - a.dy * b.dx;
  const t = ((b.px - a.px) * b.dy - (b.py - a.py) * b.dx) / den;
  return { x: a.px + t * a.dx, y: a.py + t * a.dy };
}

/** The rectangle closest to a quad: centre of the corners, mean side direction, mean side lengths. */
export function poseFromQuad(q: Quad): PiecePose {
  const centre = { x: q.reduce((s, p) => s + p.x, 0) / 4, y: q.reduce((s, p) => s + p.y, 0) / 4 };
  // Average the four side directions, each turned onto the first side's axis.
  let cx = 0, cy = 0;
  for (let k = 0; k < 4; k++) {
    const a = q[k]!, b = q[(k + 1) % 4]!;
    const ang = Math.atan2(b.y - a.y, b.x - a.x) - (k * Math.PI) / 2;
    cx += Math.cos(ang); cy += Math.sin(ang);
  }
  const d = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
  return {
    centre,
    angleDeg: (Math.atan2(cy, cx) * 180) / Math.PI,
    widthMm: (d(q[0], q[1]) + d(q[2], q[3])) / 2,
    heightMm: (d(q[1], q[2]) + d(q[3], q[0])) / 2,
  };
}

function windowMax(p: Float64Array, centre: number, reach: number): number {
  let m = 0;
  for (let i = Math.max(0, Math.floor(centre - reach)); i <= Math.min(p.length - 1, Math.ceil(centre + reach)); i++) m = Math.max(m, p[i]!);
  return m;
}

/**
 * The local maximum nearest the tile's centre among those at least half as strong as the window's
 * strongest. `inward` is +1 when the centre lies at higher indices.
 */
function innermostPeak(p: Float64Array, centre: number, reach: number, inward: 1 | -1): number {
  const lo = Math.max(1, Math.floor(centre - reach)), hi = Math.min(p.length - 2, Math.ceil(centre + reach));
  const strongest = windowMax(p, centre, reach);
  const start = inward === 1 ? hi : lo;
  for (let i = start; i >= lo && i <= hi; i -= inward) {
    if (p[i]! >= 0.5 * strongest && p[i]! >= p[i - 1]! && p[i]! >= p[i + 1]!) return subBin(p, i);
  }
  return centre;
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

