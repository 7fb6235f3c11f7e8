/**
 * An appearance descriptor for enrolled exemplars: the tile's own pixels, small. The embedding
 * knows the tiles the model was trained on as the renderer draws them; a table's printed art can
 * look quite different, and all copies of a tile type share their art, so comparing a crop with
 * the table's enrolled crop of that type directly is the strongest evidence enrollment can give.
 *
 * The descriptor is the crop's tile area (inside the 10 % margin) averaged down to 16 × 16, with a
 * local mean (a 5 × 5 box) taken off so that light gradients and shadows drop out, each colour
 * channel normalised on its own so that a white-balance shift drops out too. Two descriptors
 * compare by their dot product (normalised cross-correlation, -1…1).
 */
export const APPEARANCE_SIDE = 16;
const LOCAL = 2; // box radius of the local mean, in descriptor cells

export function appearanceOf(px: Uint8Array, S: number, margin = 0.1): Float32Array {
  const A = APPEARANCE_SIDE;
  const inner = S / (1 + 2 * margin);
  const off = (S - inner) / 2;
  const cells = new Float32Array(A * A * 3);
  const counts = new Float32Array(A * A);
  const lo = Math.floor(off);
  const hi = Math.ceil(S - off);
  for (let y = lo; y < hi; y++) {
    const cy = Math.min(A - 1, Math.max(0, Math.floor(((y + 0.5 - off) / inner) * A)));
    for (let x = lo; x < hi; x++) {
      const cx = Math.min(A - 1, Math.max(0, Math.floor(((x + 0.5 - off) / inner) * A)));
      const c = cy * A + cx;
      const s = (y * S + x) * 3;
      cells[c * 3] += px[s]!;
      cells[c * 3 + 1] += px[s + 1]!;
      cells[c * 3 + 2] += px[s + 2]!;
      counts[c]! += 1;
    }
  }
  for (let c = 0; c < A * A; c++) for (let ch = 0; ch < 3; ch++) cells[c * 3 + ch]! /= Math.max(1, counts[c]!);
  const out = new Float32Array(A * A * 3);
  for (let y = 0; y < A; y++)
    for (let x = 0; x < A; x++)
      for (let ch = 0; ch < 3; ch++) {
        let sum = 0;
        let n = 0;
        for (let v = Math.max(0, y - LOCAL); v <= Math.min(A - 1, y + LOCAL); v++)
          for (let u = Math.max(0, x - LOCAL); u <= Math.min(A - 1, x + LOCAL); u++) {
            sum += cells[(v * A + u) * 3 + ch]!;
            n++;
          }
        out[(y * A + x) * 3 + ch] = cells[(y * A + x) * 3 + ch]! - sum / n;
      }
  for (let ch = 0; ch < 3; ch++) {
    let mean = 0;
    for (let i = ch; i < out.length; i += 3) mean += out[i]!;
    mean /= A * A;
    let norm = 0;
    for (let i = ch; i < out.length; i += 3) {
      out[i]! -= mean;
      norm += out[i]! * out[i]!;
    }
    const k = norm > 1e-9 ? 1 / Math.sqrt(3 * norm) : 0;
    for (let i = ch; i < out.length; i += 3) out[i]! *= k;
  }
  return out;
}

/** Normalised cross-correlation of two descriptors (both from appearanceOf). */
export function appearanceSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
