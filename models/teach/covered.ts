/**
 * What lay over a taught tile (issue 30, part 2): a figure standing on it, a hand's fingers. The box
 * prints every copy of a type alike, so where one copy's picture differs from its type's other
 * copies in a patch wider than an outline's misfit, something covered that copy there, and the part
 * is left out of its picture (the template's transparent pixels, `templates.ts pictureAlpha`). A
 * cell differs when it is like nothing near it on any other copy: with two copies that tells which
 * one is covered too, as the tile's own colours ring a figure on the copy it stands on while its
 * colours are nowhere near on the other. A type with one copy keeps its picture whole (nothing here
 * to tell a figure from the art). docs/teach.md.
 */
import { SHOWN_FACE, SHOWN_PX } from '../photo/read.js';

export interface CopyPicture {
  /** The rectified card picture (`SHOWN_PX` square RGB: the tile and its margin). */
  readonly rgb: Uint8Array;
  /** Clockwise turn of the tile in the picture. */
  readonly rotation: 0 | 90 | 180 | 270;
}

/** Cells across the tile's face that copies are compared in (a 45 mm face: 1.25 mm each). */
export const GRID = 36;
/**
 * A cell differs when its colour (each copy's own mean brightness divided out) is this far from
 * every cell of every other copy within SHIFT cells. SHIFT, COVERED_DIFF and MIN_CELLS were chosen
 * on the tuning art (`bench:teach --art c1-jcz --seed 31000|32000 --figure-prob 1`): 19 of 21 figures
 * left out, 0.1–0.4 % of bare copies' faces (0.35: 9 of 21 and 0–0.2 %; 0.25: 19 of 21 and 0.5–0.9 %).
 */
export const COVERED_DIFF = 0.3;
/** Cells of misfit tolerated: two copies' outlines each up to ~1.5 mm off (SHIFT · 1.25 mm). */
export const SHIFT = 2;
/** A covered part's core (what one erosion leaves) is at least this many cells (6, at 0.25: 16 of 21 figures). */
export const MIN_CELLS = 3;

/**
 * For each copy of one type, the picture's pixels to keep (255) or leave out (0), or null where
 * nothing is left out. `copies` are the same type's taught pictures; fewer than two: all null.
 */
export function coveredMasks(copies: readonly CopyPicture[]): (Uint8Array | null)[] {
  const side = SHOWN_PX, faceFrom = SHOWN_FACE.from, faceTo = SHOWN_FACE.to;
  if (copies.length < 2) return copies.map(() => null);
  const grids = copies.map((c) => faceGrid(c, side, faceFrom, faceTo));
  return copies.map((c, i) => {
    const differs = new Uint8Array(GRID * GRID);
    // A cell differs when it is like no other copy's near it: a bare copy is like the other bare ones.
    // The outermost cells are never a part's seed: a misfit outline shows the table or the bevel
    // there; a part reaching the side grows into them.
    for (let y = 1; y < GRID - 1; y++)
      for (let x = 1; x < GRID - 1; x++) {
        let best = Infinity;
        for (const [j, g] of grids.entries()) {
          if (j === i) continue;
          for (let dy = -SHIFT; dy <= SHIFT; dy++)
            for (let dx = -SHIFT; dx <= SHIFT; dx++) {
              const u = x + dx, v = y + dy;
              if (u < 0 || v < 0 || u >= GRID || v >= GRID) continue;
              best = Math.min(best, dist(grids[i]!, y * GRID + x, g, v * GRID + u));
            }
        }
        if (best > COVERED_DIFF) differs[y * GRID + x] = 1;
      }
    // Only what survives one erosion: the art's lines under a sub-cell misfit differ in long runs
    // one or two cells thick; a figure or a finger is a patch several cells across.
    const parts = largeParts(erode(differs));
    if (!parts.some((p) => p)) return null;
    return toPicture(grow(grow(parts)), c.rotation, side, faceFrom, faceTo);
  });
}

/**
 * The copy's face in the catalog frame, GRID² cells of mean RGB (4×4 samples each), divided by the
 * face's mean brightness: copies under another light, or another exposure, compare alike.
 */
function faceGrid(c: CopyPicture, side: number, faceFrom: number, faceTo: number): Float32Array {
  const g = new Float32Array(GRID * GRID * 3);
  const span = faceTo - faceFrom;
  const turns = c.rotation / 90;
  const S = 4;
  let sum = 0;
  for (let cy = 0; cy < GRID; cy++)
    for (let cx = 0; cx < GRID; cx++) {
      const o = (cy * GRID + cx) * 3;
      for (let sy = 0; sy < S; sy++)
        for (let sx = 0; sx < S; sx++) {
          let x = (cx + (sx + 0.5) / S) / GRID - 0.5, y = (cy + (sy + 0.5) / S) / GRID - 0.5;
          // Catalog frame to the picture's: the tile lies turned `rotation` clockwise there.
          for (let t = 0; t < turns; t++) [x, y] = [-y, x];
          const u = Math.min(side - 1, Math.max(0, Math.floor(faceFrom + (x + 0.5) * span)));
          const v = Math.min(side - 1, Math.max(0, Math.floor(faceFrom + (y + 0.5) * span)));
          const p = (v * side + u) * 3;
          for (let k = 0; k < 3; k++) g[o + k] = g[o + k]! + c.rgb[p + k]! / (S * S);
        }
      sum += (g[o]! + g[o + 1]! + g[o + 2]!) / 3;
    }
  const mean = Math.max(1, sum / (GRID * GRID));
  for (let k = 0; k < g.length; k++) g[k] = g[k]! / mean;
  return g;
}

function dist(a: Float32Array, i: number, b: Float32Array, j: number): number {
  const dr = a[i * 3]! - b[j * 3]!, dg = a[i * 3 + 1]! - b[j * 3 + 1]!, db = a[i * 3 + 2]! - b[j * 3 + 2]!;
  return Math.sqrt(dr * dr + dg * dg + db * db);
}

/** The cells whose eight neighbours all differ too. */
function erode(m: Uint8Array): Uint8Array {
  const out = new Uint8Array(m.length);
  for (let y = 1; y < GRID - 1; y++)
    for (let x = 1; x < GRID - 1; x++) {
      let all = true;
      for (let dy = -1; dy <= 1 && all; dy++) for (let dx = -1; dx <= 1 && all; dx++) if (!m[(y + dy) * GRID + x + dx]) all = false;
      if (all) out[y * GRID + x] = 1;
    }
  return out;
}

/** The cells of 4-connected parts of at least MIN_CELLS. */
function largeParts(m: Uint8Array): Uint8Array {
  const label = new Int32Array(m.length).fill(-1);
  const out = new Uint8Array(m.length);
  const stack: number[] = [];
  for (let s = 0; s < m.length; s++) {
    if (!m[s] || label[s]! >= 0) continue;
    const cells: number[] = [];
    label[s] = s;
    stack.push(s);
    while (stack.length) {
      const k = stack.pop()!;
      cells.push(k);
      const x = k % GRID, y = (k - x) / GRID;
      for (const [u, v] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
        if (u < 0 || v < 0 || u >= GRID || v >= GRID) continue;
        const n = v * GRID + u;
        if (m[n] && label[n]! < 0) { label[n] = s; stack.push(n); }
      }
    }
    if (cells.length >= MIN_CELLS) for (const k of cells) out[k] = 1;
  }
  return out;
}

/** One cell wider all round (twice: the erosion undone, then a figure's rim and shadow, which differ less than its body). */
function grow(m: Uint8Array): Uint8Array {
  const out = new Uint8Array(m.length);
  for (let y = 0; y < GRID; y++)
    for (let x = 0; x < GRID; x++) {
      if (!m[y * GRID + x]) continue;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const u = x + dx, v = y + dy;
          if (u >= 0 && v >= 0 && u < GRID && v < GRID) out[v * GRID + u] = 1;
        }
    }
  return out;
}

/** The catalog-frame cells left out, as the picture's alpha (its own turn, its margin kept). */
function toPicture(cells: Uint8Array, rotation: CopyPicture['rotation'], side: number, faceFrom: number, faceTo: number): Uint8Array {
  const a = new Uint8Array(side * side).fill(255);
  const span = faceTo - faceFrom;
  const turns = rotation / 90;
  for (let v = 0; v < side; v++)
    for (let u = 0; u < side; u++) {
      // Picture to tile units (0–1), then back through the tile's turn to the catalog frame.
      let x = (u + 0.5 - faceFrom) / span - 0.5, y = (v + 0.5 - faceFrom) / span - 0.5;
      if (Math.abs(x) >= 0.5 || Math.abs(y) >= 0.5) continue;
      for (let t = 0; t < turns; t++) [x, y] = [y, -x];
      const cx = Math.min(GRID - 1, Math.floor((x + 0.5) * GRID)), cy = Math.min(GRID - 1, Math.floor((y + 0.5) * GRID));
      if (cells[cy * GRID + cx]) a[v * side + u] = 0;
    }
  return a;
}
