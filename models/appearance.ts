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
  return bestAlignment(query, exemplar).similarity;
}

/** The alignment (index into the searched shifts) at which `query` matches `exemplar` best, and that match. */
function bestAlignment(query: ArrayLike<number>, exemplar: ArrayLike<number>): { k: number; similarity: number } {
  const R = APPEARANCE_SIDE;
  const eBase = GRID_LEN + CENTRE * 6;
  let best = { k: CENTRE, similarity: -Infinity };
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
    if (s > best.similarity) best = { k, similarity: s };
  }
  return best;
}

/** A compared cell counts only if the crop is nearer one exemplar than this share of the two's difference there. */
const CONTRAST_KEEP = 0.5;

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
  const zb = normalisedWindow(b, bestAlignment(b, a).k);
  const zq = normalisedWindow(query, bestAlignment(query, a).k);
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

/** Per cell of the crop's descriptor grid (G × G): how far the crop is from the exemplar there, aligned as they match best; NaN outside the compared window. */
function appearanceResidual(query: ArrayLike<number>, exemplar: ArrayLike<number>): Float64Array {
  const R = APPEARANCE_SIDE;
  const { k } = bestAlignment(query, exemplar);
  const [dx, dy] = SHIFTS[k]!;
  const zq = normalisedWindow(query, k);
  const ze = normalisedWindow(exemplar, CENTRE);
  const out = new Float64Array(G * G).fill(NaN);
  for (let y = 0; y < R; y++)
    for (let x = 0; x < R; x++) {
      let r = 0;
      for (let ch = 0; ch < 3; ch++) r += (zq[(y * R + x) * 3 + ch]! - ze[(y * R + x) * 3 + ch]!) ** 2;
      out[(y + SHIFT + dy) * G + x + SHIFT + dx] = r;
    }
  return out;
}

export interface OcclusionOptions {
  /** A cell is unexplained when its smallest residual is above this many times the median one. */
  readonly ratio?: number;
  /** …and above this share of an average cell's energy (a crop of a plain tile has a tiny median). */
  readonly floor?: number;
  /** Unexplained cells count only in 4-connected blobs of at least this many cells. */
  readonly minBlob?: number;
}

/**
 * The crop's cells that none of the given exemplars explains, as a mask over the descriptor grid
 * (1 = leave out), or null when there are none. The exemplars are the best few readings' closest
 * ones, so the mask does not depend on which reading is scored with it. A cell is unexplained when
 * its smallest residual is well above the median one (a crop of the same print matches its
 * exemplar closely almost everywhere), and counts only in a large blob: a garden or a pennant that
 * one look-alike has and another lacks is a few cells, and taking it out would erase the very mark
 * that tells them apart. What it finds, looked at on synthetic crops: the outline of a hand or a
 * figure (its smooth inside, after the local mean is taken off, often still matches) and the
 * neighbours' edges and the gap where they sit differently than in the exemplar's crop — both
 * pull every reading's match down and blur the difference between the right one and the rest.
 * Chosen on synthetic crops (docs/recognition.md), never on the scans.
 */
export function occlusionMask(query: ArrayLike<number>, exemplars: readonly ArrayLike<number>[], options: OcclusionOptions = {}): Uint8Array | null {
  const ratio = options.ratio ?? 5;
  const minBlob = options.minBlob ?? 12;
  const floor = (options.floor ?? 1) / (APPEARANCE_SIDE * APPEARANCE_SIDE);
  if (query.length !== APPEARANCE_LENGTH || exemplars.length === 0 || exemplars.some((e) => e.length !== APPEARANCE_LENGTH)) return null;
  const smallest = new Float64Array(G * G).fill(Infinity);
  for (const e of exemplars) {
    const r = appearanceResidual(query, e);
    for (let c = 0; c < G * G; c++) if (!Number.isNaN(r[c]!)) smallest[c] = Math.min(smallest[c]!, r[c]!);
  }
  const finite = [...smallest].filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const median = finite[Math.floor(finite.length / 2)]!;
  const mask = new Uint8Array(G * G);
  for (let c = 0; c < G * G; c++) if (Number.isFinite(smallest[c]!) && smallest[c]! > Math.max(ratio * median, floor)) mask[c] = 1;
  // Keep only the large blobs.
  const seen = new Uint8Array(G * G);
  let kept = 0;
  for (let c0 = 0; c0 < G * G; c0++) {
    if (!mask[c0] || seen[c0]) continue;
    const blob: number[] = [];
    const stack = [c0];
    seen[c0] = 1;
    while (stack.length) {
      const c = stack.pop()!;
      blob.push(c);
      const y = Math.floor(c / G), x = c % G;
      const next = [y > 0 ? c - G : -1, y < G - 1 ? c + G : -1, x > 0 ? c - 1 : -1, x < G - 1 ? c + 1 : -1];
      for (const n of next) if (n >= 0 && mask[n] && !seen[n]) { seen[n] = 1; stack.push(n); }
    }
    if (blob.length < minBlob) for (const c of blob) mask[c] = 0;
    else kept += blob.length;
  }
  return kept > 0 ? mask : null;
}

/**
 * appearanceSimilarity over the crop's cells a mask (occlusionMask) leaves in: each channel's
 * correlation over the kept cells, averaged, at the best alignment. With less than `minKept` of the
 * tile left there is too little to compare, and the whole-tile match is returned.
 */
export function appearanceSimilarityMasked(query: ArrayLike<number>, exemplar: ArrayLike<number>, mask: Uint8Array, minKept = 0.4): number | null {
  if (query.length !== APPEARANCE_LENGTH || exemplar.length !== APPEARANCE_LENGTH || mask.length !== G * G) return null;
  const R = APPEARANCE_SIDE;
  let best = -Infinity;
  for (const [dx, dy] of SHIFTS) {
    let s = 0;
    for (let ch = 0; ch < 3; ch++) {
      let sq = 0, se = 0, sqq = 0, see = 0, sqe = 0, n = 0;
      for (let y = 0; y < R; y++) {
        let qc = (y + SHIFT + dy) * G + SHIFT + dx;
        let e = ((y + SHIFT) * G + SHIFT) * 3 + ch;
        for (let x = 0; x < R; x++, qc++, e += 3) {
          if (mask[qc]) continue;
          const a = query[qc * 3 + ch]!, b = exemplar[e]!;
          sq += a; se += b; sqq += a * a; see += b * b; sqe += a * b;
          n++;
        }
      }
      if (n < minKept * R * R) return appearanceSimilarity(query, exemplar);
      const vq = sqq - (sq * sq) / n, ve = see - (se * se) / n;
      if (vq > 1e-12 && ve > 1e-12) s += (sqe - (sq * se) / n) / Math.sqrt(vq * ve) / 3;
    }
    if (s > best) best = s;
  }
  return best;
}
