/** Plain pixel buffers and sampling, shared by the synthesizer and the runner. */
import { turnPixels } from '../turn.js';

export interface Rgba {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array; // RGBA
}

/** Bilinear sample at (x, y) in pixel units; writes r,g,b,a (0..255 floats) into out. Outside = transparent. */
export function sampleBilinear(img: Rgba, x: number, y: number, out: Float32Array): void {
  const w = img.width;
  const h = img.height;
  const fx = x - 0.5;
  const fy = y - 0.5;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const tx = fx - x0;
  const ty = fy - y0;
  out[0] = out[1] = out[2] = out[3] = 0;
  const d = img.data;
  for (let j = 0; j < 2; j++) {
    const yy = Math.min(h - 1, Math.max(0, y0 + j));
    const wy = j ? ty : 1 - ty;
    for (let i = 0; i < 2; i++) {
      const xx = Math.min(w - 1, Math.max(0, x0 + i));
      const wgt = wy * (i ? tx : 1 - tx);
      const o = (yy * w + xx) * 4;
      out[0] += d[o]! * wgt;
      out[1] += d[o + 1]! * wgt;
      out[2] += d[o + 2]! * wgt;
      out[3] += d[o + 3]! * wgt;
    }
  }
}

/** Turns an RGBA image clockwise by q quarter turns (square images). */
export function turnRgba(img: Rgba, q: number): Rgba {
  if (((q % 4) + 4) % 4 === 0) return img;
  const { width: w, height: h } = img;
  if (w !== h) throw new Error('turnRgba needs a square image');
  return { width: w, height: h, data: turnPixels(img.data, w, 4, q) };
}
