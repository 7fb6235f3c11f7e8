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

/** A compared cell counts only if the crop is nearer one exemplar than this share of the two's difference there. */
const CONTRAST_KEEP = 0.5;

/** The alignment (index into the searched shifts) at which `query` matches `exemplar` best. */
function bestShift(query: ArrayLike<number>, exemplar: ArrayLike<number>): number {
  const R = APPEARANCE_SIDE;
  const eBase = GRID_LEN + CENTRE * 6;
  let best = -Infinity;
  let at = CENTRE;
  for (let k = 0; k < SHIFTS.length; k++) {
    const [dx, dy] = SHIFTS[k]!;
    let s = 0;
    for (let ch = 0; ch < 3; ch++) {
      let dot = 0;
      for (let y = 0; y < R; y++) {
        let q = ((y + SHIFT + dy) * G + SHIFT + dx) * 3 + ch;
        let e = ((y + SHIFT) * G + SHIFT) * 3 + ch;
        for (let x = 0; x < R; x++, q += 3, e += 3) dot += query[q]! * exemplar[e]!;
      }
      s += query[GRID_LEN + k * 6 + 3 + ch]! * exemplar[eBase + 3 + ch]! * (dot - R * R * query[GRID_LEN + k * 6 + ch]! * exemplar[eBase + ch]!);
    }
    if (s > best) {
      best = s;
      at = k;
    }
  }
  return at;
}

/** A descriptor's window at one alignment, each channel normalised (zero mean, the window's own scale). */
function normalisedWindow(d: ArrayLike<number>, k: number): Float64Array {
  const R = APPEARANCE_SIDE;
  const [dx, dy] = SHIFTS[k]!;
  const out = new Float64Array(R * R * 3);
  for (let y = 0; y < R; y++)
    for (let x = 0; x < R; x++)
      for (let ch = 0; ch < 3; ch++) {
        const v = d[((y + SHIFT + dy) * G + x + SHIFT + dx) * 3 + ch]!;
        out[(y * R + x) * 3 + ch] = (v - d[GRID_LEN + k * 6 + ch]!) * d[GRID_LEN + k * 6 + 3 + ch]!;
      }
  return out;
}



/**
 * Which of two exemplars a crop looks like where the two differ: +1 all `a`, −1 all `b`, about 0
 * when the crop is no nearer either. Look-alike tiles (a garden, a pennant more or less) match a crop
 * almost equally over the whole tile, so the whole-tile correlation hardly separates them; here every
 * cell's distances to the two are weighted by the square of how much the two differ there, so the
 * telling mark decides and the small differences two camera views of one print always have do not.
 * Everything is compared in `a`'s frame: `b` and the crop are each aligned to `a` first. A cell the
 * crop shows as neither (a hand over it) is left out; a figure standing right on the mark usually
 * makes the crop look like the tile without it, which the model's own scores and the tracker's
 * earlier frames have to carry. Null for descriptors of another length.
 */
export function appearanceContrast(query: ArrayLike<number>, a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (query.length !== APPEARANCE_LENGTH || a.length !== APPEARANCE_LENGTH || b.length !== APPEARANCE_LENGTH) return null;
  const R = APPEARANCE_SIDE;
  const za = normalisedWindow(a, CENTRE);
  const zb = normalisedWindow(b, bestShift(b, a));
  const zq = normalisedWindow(query, bestShift(query, a));
  const diff = new Float64Array(R * R);
  for (let c = 0; c < R * R; c++) {
    let s = 0;
    for (let ch = 0; ch < 3; ch++) s += (za[c * 3 + ch]! - zb[c * 3 + ch]!) ** 2;
    diff[c] = s;
  }
  let toA = 0;
  let toB = 0;
  for (let c = 0; c < R * R; c++) {
    if (diff[c] === 0) continue;
    let dA = 0;
    let dB = 0;
    for (let ch = 0; ch < 3; ch++) {
      dA += (zq[c * 3 + ch]! - za[c * 3 + ch]!) ** 2;
      dB += (zq[c * 3 + ch]! - zb[c * 3 + ch]!) ** 2;
    }
    // A cell the crop shows as neither (a hand or a figure over it) tells nothing.
    if (Math.min(dA, dB) > CONTRAST_KEEP * diff[c]!) continue;
    const w = diff[c]! * diff[c]!;
    toA += w * dA;
    toB += w * dB;
  }
  return toA + toB > 0 ? (toB - toA) / (toA + toB) : 0;
}
