/**
 * Squares of the tiles' side found on colour edges alone (teach frames, docs/teach.md): where the
 * table is the colour of the tiles' fields (a green cloth, a pale green) or a shadow falls over
 * tiles, the masks leave no blob for them, but their outlines are still edges all round. Every
 * position and angle of a square of the side the side field gives there is scored by its weakest
 * side — the mean colour edge across that side — so that a square needs an edge all round (a
 * striped cloth or a road gives two sides, art inside a tile gives none straight), and the best
 * squares apart from one another and from the tiles already found are returned for the fit to the
 * side (outline.ts `fitToSide`) and the outline's checks.
 */
import type { Point, Quad } from '../../calibration/geometry.js';

/** Lab gradients (search pixels), lightness weighed `lWeight`: x and y for each channel. */
export interface LabGradients {
  readonly width: number;
  readonly height: number;
  readonly gx: readonly [Float32Array, Float32Array, Float32Array];
  readonly gy: readonly [Float32Array, Float32Array, Float32Array];
}

export function labGradients(lab: Uint8Array, W: number, H: number, lWeight: number): LabGradients {
  const gx = [new Float32Array(W * H), new Float32Array(W * H), new Float32Array(W * H)] as const;
  const gy = [new Float32Array(W * H), new Float32Array(W * H), new Float32Array(W * H)] as const;
  for (let y = 1; y < H - 1; y++)
    for (let x = 1; x < W - 1; x++) {
      const o = (y * W + x) * 3;
      for (let k = 0; k < 3; k++) {
        const w = k === 0 ? lWeight : 1;
        gx[k][y * W + x] = (lab[o + 3 + k]! - lab[o - 3 + k]!) * w;
        gy[k][y * W + x] = (lab[o + W * 3 + k]! - lab[o - W * 3 + k]!) * w;
      }
    }
  return { width: W, height: H, gx, gy };
}

/**
 * Points sampled along each side, and the offsets across it (search pixels) whose strongest edge
 * counts: the grid's step and 5° of angle leave a side up to about 3 px off the tile's edge
 * (tuning: ±1 px found 4 of 23 tiles without a card on c1-jcz seed 32000, ±3 px 9).
 */
const ALONG = 12;
const ACROSS = [-3, -2, -1, 0, 1, 2, 3];
/**
 * How much of the gradient along a side is taken off the edge across it (tuning, c1 sets: 1 and 0.5
 * find as many tiles, 0.5 keeps a side whose table's stripes meet the tile's edge at an angle).
 */
const ALONG_WEIGHT = 0.5;

/**
 * A square's weakest side: for each side, the mean over points along it of the strongest colour edge
 * across it (within ACROSS); the least of the four. `angle` in radians, `side` in search pixels.
 * Once a side falls below `enough` the rest are not looked at (the result is then below it too).
 */
export function squareEdgeScore(g: LabGradients, c: Point, angle: number, side: number, enough = 0): number {
  const { width: W, height: H, gx, gy } = g;
  const cs = Math.cos(angle), sn = Math.sin(angle), h = side / 2;
  let weakest = Infinity;
  for (let i = 0; i < 4; i++) {
    // Side i's outward normal in the square's frame: right, down, left, up.
    const nu = [1, 0, -1, 0][i]!, nv = [0, 1, 0, -1][i]!;
    const nx = nu * cs - nv * sn, ny = nu * sn + nv * cs;
    const tx = -ny, ty = nx;
    let sum = 0;
    for (let k = 0; k < ALONG; k++) {
      const t = -0.38 + (0.76 * k) / (ALONG - 1);
      const px = c.x + nx * h + tx * t * side, py = c.y + ny * h + ty * t * side;
      let best = 0;
      for (const d of ACROSS) {
        const xi = Math.round(px + nx * d), yi = Math.round(py + ny * d);
        if (xi < 1 || yi < 1 || xi >= W - 1 || yi >= H - 1) continue;
        const j = yi * W + xi;
        // Across the side less half of along it: a tile's edge runs along the side, a striped
        // table's or a wood grain's stripes cross a square's sides at an angle (or run along two only).
        const across = Math.abs(gx[0][j]! * nx + gy[0][j]! * ny) + Math.abs(gx[1][j]! * nx + gy[1][j]! * ny) + Math.abs(gx[2][j]! * nx + gy[2][j]! * ny);
        const along = Math.abs(gx[0][j]! * tx + gy[0][j]! * ty) + Math.abs(gx[1][j]! * tx + gy[1][j]! * ty) + Math.abs(gx[2][j]! * tx + gy[2][j]! * ty);
        const e = across - ALONG_WEIGHT * along;
        if (e > best) best = e;
      }
      sum += best;
    }
    weakest = Math.min(weakest, sum / ALONG);
    // Below what is asked for: the other sides cannot raise the least.
    if (weakest < enough || weakest === 0) break;
  }
  return weakest;
}

export interface EdgeSquare {
  readonly centre: Point;
  readonly angle: number;
  readonly side: number;
  readonly score: number;
  readonly corners: Quad;
}

/**
 * The squares (search pixels) whose weakest side is at least `minScore`, best first, each further
 * than `apart` sides from a better one and from every point of `taken` (the centres of the tiles
 * already found), wholly inside the frame. `sideAt` is the tiles' side where a square lies.
 */
export function edgeSquares(g: LabGradients, sideAt: (p: Point) => number, taken: readonly Point[], minScore: number, apart = 0.75): EdgeSquare[] {
  const { width: W, height: H } = g;
  const mid = sideAt({ x: W / 2, y: H / 2 });
  const step = Math.max(2, Math.round(mid / 10));
  const found: EdgeSquare[] = [];
  for (let y = step; y < H - step; y += step)
    for (let x = step; x < W - step; x += step) {
      const c = { x, y };
      const side = sideAt(c);
      // Wholly inside the frame at any angle; not over a tile already found.
      if (x < side * 0.72 || y < side * 0.72 || x > W - side * 0.72 || y > H - side * 0.72) continue;
      if (taken.some((t) => Math.hypot(t.x - x, t.y - y) < apart * side)) continue;
      let best: EdgeSquare | null = null;
      for (let deg = 0; deg < 90; deg += 5) {
        const a = (deg * Math.PI) / 180;
        const score = squareEdgeScore(g, c, a, side, Math.max(minScore, best?.score ?? 0));
        if (score >= minScore && (!best || score > best.score)) best = { centre: c, angle: a, side, score, corners: cornersOf(c, a, side) };
      }
      if (best) found.push(best);
    }
  found.sort((a, b) => b.score - a.score);
  const kept: EdgeSquare[] = [];
  for (const f of found) if (!kept.some((k) => Math.hypot(k.centre.x - f.centre.x, k.centre.y - f.centre.y) < apart * f.side)) kept.push(f);
  return kept;
}

function cornersOf(c: Point, a: number, side: number): Quad {
  const cs = Math.cos(a), sn = Math.sin(a), h = side / 2;
  return [[-h, -h], [h, -h], [h, h], [-h, h]].map(([u, v]) => ({ x: c.x + u! * cs - v! * sn, y: c.y + u! * sn + v! * cs })) as unknown as Quad;
}
