/**
 * An appearance descriptor for enrolled exemplars: the tile's own pixels, small. The embedding
 * knows the tiles the model was trained on as the renderer draws them; a table's printed art can
 * look quite different, and all copies of a tile type share their art, so comparing a crop with
 * the table's enrolled crop of that type directly is the strongest evidence enrollment can give.
 *
 * The descriptor is the crop's tile area averaged down to 24 × 24 cells (about 1.9 mm of a 45 mm
 * tile each) plus one cell of the margin on every side, with a local mean (a 9 × 9 box) taken off so
 * that light gradients and shadows drop out. Two descriptors compare by normalised
 * cross-correlation, each colour channel normalised on its own so that a white-balance shift drops
 * out too, at the best of the nine alignments up to one cell apart: a real tile sits up to 2 mm off
 * its cell and the rectified crops of two copies never line up exactly, and matching at 16 × 16
 * without that search confused far more tiles (on synthetic held-out crops: 71 % of crops
 * matched their own exemplar best, 95 % with the search at 24 × 24).
 */
export const APPEARANCE_SIDE = 24;
/** Cells of alignment searched each way. */
const SHIFT = 1;
/** Box radius of the local mean, in cells. */
const LOCAL = 4;
const G = APPEARANCE_SIDE + 2 * SHIFT;
const SHIFTS: readonly (readonly [number, number])[] = (() => {
  const out: [number, number][] = [];
  for (let dy = -SHIFT; dy <= SHIFT; dy++) for (let dx = -SHIFT; dx <= SHIFT; dx++) out.push([dx, dy]);
  return out;
})();
const CENTRE = SHIFTS.findIndex(([dx, dy]) => dx === 0 && dy === 0);
const GRID_LEN = G * G * 3;
/** Per alignment and channel: the window's mean, then its scale (1 / √(3·Σ(v − mean)²)). */
export const APPEARANCE_LENGTH = GRID_LEN + SHIFTS.length * 6;

export function appearanceOf(px: Uint8Array, S: number, margin = 0.1): Float32Array {
  const R = APPEARANCE_SIDE;
  const inner = S / (1 + 2 * margin);
  const cell = inner / R;
  const off = (S - inner) / 2 - SHIFT * cell;
  const cells = new Float64Array(GRID_LEN);
  const counts = new Float64Array(G * G);
  for (let y = 0; y < S; y++) {
    const gy = Math.floor((y + 0.5 - off) / cell);
    if (gy < 0 || gy >= G) continue;
    for (let x = 0; x < S; x++) {
      const gx = Math.floor((x + 0.5 - off) / cell);
      if (gx < 0 || gx >= G) continue;
      const c = gy * G + gx;
      const s = (y * S + x) * 3;
      cells[c * 3] += px[s]!;
      cells[c * 3 + 1] += px[s + 1]!;
      cells[c * 3 + 2] += px[s + 2]!;
      counts[c]! += 1;
    }
  }
  for (let c = 0; c < G * G; c++) for (let ch = 0; ch < 3; ch++) cells[c * 3 + ch]! /= Math.max(1, counts[c]!);
  // Local mean by an integral image per channel.
  const W = G + 1;
  const integral = new Float64Array(W * W * 3);
  for (let y = 0; y < G; y++)
    for (let x = 0; x < G; x++)
      for (let ch = 0; ch < 3; ch++) {
        integral[((y + 1) * W + x + 1) * 3 + ch] =
          cells[(y * G + x) * 3 + ch]! + integral[(y * W + x + 1) * 3 + ch]! + integral[((y + 1) * W + x) * 3 + ch]! - integral[(y * W + x) * 3 + ch]!;
      }
  const out = new Float32Array(APPEARANCE_LENGTH);
  for (let y = 0; y < G; y++) {
    const y0 = Math.max(0, y - LOCAL), y1 = Math.min(G, y + LOCAL + 1);
    for (let x = 0; x < G; x++) {
      const x0 = Math.max(0, x - LOCAL), x1 = Math.min(G, x + LOCAL + 1);
      const n = (y1 - y0) * (x1 - x0);
      for (let ch = 0; ch < 3; ch++) {
        const box = integral[(y1 * W + x1) * 3 + ch]! - integral[(y0 * W + x1) * 3 + ch]! - integral[(y1 * W + x0) * 3 + ch]! + integral[(y0 * W + x0) * 3 + ch]!;
        out[(y * G + x) * 3 + ch] = cells[(y * G + x) * 3 + ch]! - box / n;
      }
    }
  }
  // Each alignment's window statistics, so that a comparison is one pass of products.
  SHIFTS.forEach(([dx, dy], k) => {
    for (let ch = 0; ch < 3; ch++) {
      let sum = 0;
      let sq = 0;
      for (let y = 0; y < R; y++)
        for (let x = 0; x < R; x++) {
          const v = out[((y + SHIFT + dy) * G + x + SHIFT + dx) * 3 + ch]!;
          sum += v;
          sq += v * v;
        }
      const mean = sum / (R * R);
      const varSum = sq - R * R * mean * mean;
      out[GRID_LEN + k * 6 + ch] = mean;
      out[GRID_LEN + k * 6 + 3 + ch] = varSum > 1e-9 ? 1 / Math.sqrt(3 * varSum) : 0;
    }
  });
  return out;
}

/**
 * How well a crop (`query`) matches an exemplar: the normalised cross-correlation (-1…1) of the
 * exemplar's tile area with the crop's at the best of the alignments searched. Descriptors of
 * another length (made by an older version) give null.
 */
export function appearanceSimilarity(query: ArrayLike<number>, exemplar: ArrayLike<number>): number | null {
  if (query.length !== APPEARANCE_LENGTH || exemplar.length !== APPEARANCE_LENGTH) return null;
  const R = APPEARANCE_SIDE;
  const eBase = GRID_LEN + CENTRE * 6;
  let best = -Infinity;
  for (let k = 0; k < SHIFTS.length; k++) {
    const [dx, dy] = SHIFTS[k]!;
    const dot = [0, 0, 0];
    for (let y = 0; y < R; y++) {
      let q = ((y + SHIFT + dy) * G + SHIFT + dx) * 3;
      let e = ((y + SHIFT) * G + SHIFT) * 3;
      for (let x = 0; x < R; x++, q += 3, e += 3) {
        dot[0] += query[q]! * exemplar[e]!;
        dot[1] += query[q + 1]! * exemplar[e + 1]!;
        dot[2] += query[q + 2]! * exemplar[e + 2]!;
      }
    }
    const qBase = GRID_LEN + k * 6;
    let s = 0;
    for (let ch = 0; ch < 3; ch++) {
      s += query[qBase + 3 + ch]! * exemplar[eBase + 3 + ch]! * (dot[ch]! - R * R * query[qBase + ch]! * exemplar[eBase + ch]!);
    }
    if (s > best) best = s;
  }
  return best;
}
