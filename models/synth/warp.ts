/**
 * A smooth random bend of a whole tile face: the drawings' shapes are few and regular (a city is
 * one of a handful of outlines), the printed tiles' are each their own. A displacement field from a
 * coarse grid of random offsets, zero on the face's border so that every edge keeps its terrain
 * where it meets the edge, moves walls, roads and marks by a few pixels in smooth, varied ways.
 */
import { between, type Rng } from '../render/random.js';
import { sampleBilinear, type Rgba } from './image.js';

/** Control points per side, border included. */
const GRID = 5;

export function warpFace(img: Rgba, r: Rng, amplitudePx: number): Rgba {
  const { width: w, height: h } = img;
  // Offsets at the grid's points; the border's stay zero.
  const dx = new Float32Array(GRID * GRID), dy = new Float32Array(GRID * GRID);
  for (let j = 1; j < GRID - 1; j++)
    for (let i = 1; i < GRID - 1; i++) {
      dx[j * GRID + i] = between(r, -amplitudePx, amplitudePx);
      dy[j * GRID + i] = between(r, -amplitudePx, amplitudePx);
    }
  const field = (f: Float32Array, u: number, v: number): number => {
    const i = Math.min(GRID - 2, Math.floor(u)), j = Math.min(GRID - 2, Math.floor(v));
    const tu = u - i, tv = v - j;
    // Smoothstep weights: the field's slope is continuous across grid cells (no creases in a wall).
    const su = tu * tu * (3 - 2 * tu), sv = tv * tv * (3 - 2 * tv);
    const a = f[j * GRID + i]!, b = f[j * GRID + i + 1]!, c = f[(j + 1) * GRID + i]!, d = f[(j + 1) * GRID + i + 1]!;
    return (a * (1 - su) + b * su) * (1 - sv) + (c * (1 - su) + d * su) * sv;
  };
  const out = new Uint8Array(w * h * 4);
  const px = new Float32Array(4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const u = ((x + 0.5) / w) * (GRID - 1), v = ((y + 0.5) / h) * (GRID - 1);
      sampleBilinear(img, x + 0.5 + field(dx, u, v), y + 0.5 + field(dy, u, v), px);
      const o = (y * w + x) * 4;
      for (let k = 0; k < 4; k++) out[o + k] = Math.round(px[k]!);
    }
  return { width: w, height: h, data: out };
}
