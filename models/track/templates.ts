/**
 * Enrolled appearance of the table's tile set: each tile type drawn in the set's art style, or the
 * table's own picture of it once it has one (`usePicture`), as a small crop of one grid cell at each
 * quarter turn. The tracker scores legal readings against these, the issue-4 model beside them
 * (see docs/tracking.md).
 */
import type { TileCatalog } from '../../engine/catalog/registry.js';
import type { Rotation } from '../../engine/geometry/segments.js';
import { rasterise } from '../render/rasterise.js';
import { styleByName } from '../render/styles.js';
import { tileSvg } from '../render/svg.js';
import { PITCH_MM, TILE_MM } from '../scene/render.js';
import type { Rgba } from '../synth/image.js';

export const CROP_PX = 32;

/** Cell crop: RGB floats, CROP_PX², covering one pitch (46 mm) around the cell centre. */
export type CellCrop = Float32Array;

/**
 * A picture of one laid tile as the camera saw it, cut the way the model reads a cell: the cell plus
 * `margin` of the pitch on every side, square, RGB, the tile turned `rot` in it (as played).
 */
export interface TilePicture {
  readonly tileId: string;
  readonly rot: Rotation;
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
  readonly margin?: number;
  /**
   * Where figures stood on the tile (tile units of the picture's frame, 0–1, and a radius): left
   * out of the template, so a picture of a copy with a figure on it still serves.
   */
  readonly hidden?: readonly { readonly x: number; readonly y: number; readonly r: number }[];
  /** Per picture pixel, 0 where it is to be left out (a stored picture's alpha: `pictureAlpha`). */
  readonly alpha?: Uint8Array;
}

/** The picture's pixels to keep (255) or leave out (0), from its hidden figures: stored as its PNG's alpha. */
export function pictureAlpha(p: TilePicture): Uint8Array {
  const a = p.alpha ? Uint8Array.from(p.alpha) : new Uint8Array(p.width * p.height).fill(255);
  const k = (TILE_MM / (PITCH_MM * (1 + 2 * (p.margin ?? PICTURE_MARGIN)))) * p.width;
  for (const h of p.hidden ?? [])
    for (let v = 0; v < p.height; v++)
      for (let u = 0; u < p.width; u++) {
        const x = (u + 0.5 - p.width / 2) / k + 0.5, y = (v + 0.5 - p.height / 2) / k + 0.5;
        if (Math.hypot(x - h.x, y - h.y) < h.r) a[v * p.width + u] = 0;
      }
  return a;
}

/** The model's crop convention (cell-crops.ts `modelCrop`): 10 % of the pitch beyond the cell on every side. */
export const PICTURE_MARGIN = 0.1;

export class TileTemplates {
  private readonly cache = new Map<string, CellCrop>();
  private readonly raw = new Map<string, CellCrop>();
  private readonly looks = new Map<string, string>();
  /** Tile types whose template comes from the table's own picture rather than a drawing. */
  private readonly pictured = new Set<string>();
  private constructor(private readonly faces: Map<string, { w: number; data: Uint8Array }>) {}

  /**
   * Uses the camera's picture of a laid tile as that type's template from now on: the table's own
   * printed art, where the drawings only stand in for it (they are drawn in a chosen style, which a
   * printed edition never quite is). The tile's face is cut from the picture and turned back to the
   * catalog frame; the first picture of a type stays (a later one could carry a figure).
   */
  usePicture(p: TilePicture): boolean {
    if (this.pictured.has(p.tileId) || !this.faces.has(p.tileId)) return false;
    if (p.width !== p.height || p.data.length !== p.width * p.height * 3) throw new Error(`picture of ${p.tileId}: ${p.width}×${p.height} with ${p.data.length} bytes is not a square RGB picture`);
    const W = FACE_FROM_PICTURE_PX;
    const data = new Uint8Array(W * W * 4);
    // Tile units (±0.5) to picture pixels.
    const k = (TILE_MM / (PITCH_MM * (1 + 2 * (p.margin ?? PICTURE_MARGIN)))) * p.width;
    const turns = (p.rot / 90) % 4;
    const keep = pictureAlpha(p);
    for (let fy = 0; fy < W; fy++)
      for (let fx = 0; fx < W; fx++) {
        let x = (fx + 0.5) / W - 0.5, y = (fy + 0.5) / W - 0.5;
        // Catalog frame to the picture's: the tile lies turned `rot` clockwise there.
        for (let t = 0; t < turns; t++) [x, y] = [-y, x];
        const o = (fy * W + fx) * 4;
        bilinearRgb(p.data, p.width, x * k + p.width / 2 - 0.5, y * k + p.width / 2 - 0.5, data, o);
        // Transparent: not compared (cellFromFace).
        const pu = Math.min(p.width - 1, Math.max(0, Math.round(x * k + p.width / 2 - 0.5))), pv = Math.min(p.width - 1, Math.max(0, Math.round(y * k + p.width / 2 - 0.5)));
        data[o + 3] = keep[pv * p.width + pu]!;
      }
    scaleToLuma(data, meanLuma(this.faces.get(p.tileId)!.data));
    this.faces.set(p.tileId, { w: W, data });
    for (const m of [this.cache, this.raw, this.looks]) for (const key of [...m.keys()]) if (key.startsWith(`${p.tileId}/`)) m.delete(key);
    this.pictured.add(p.tileId);
    return true;
  }

  /** Whether the template of `id` is the table's own picture of it. */
  fromPicture(id: string): boolean {
    return this.pictured.has(id);
  }

  static async enroll(catalog: TileCatalog, styleName: string): Promise<TileTemplates> {
    const style = styleByName(styleName);
    const faces = new Map<string, { w: number; data: Uint8Array }>();
    for (const t of catalog.all()) {
      const r = await rasterise(tileSvg(t, style, { variant: 1 }), 64);
      faces.set(t.id, { w: r.width, data: r.data });
    }
    return new TileTemplates(faces);
  }

  has(id: string): boolean {
    return this.faces.has(id);
  }

  /** The template of tile `id` turned q quarter turns clockwise, null when not enrolled. */
  get(id: string, q: number): CellCrop | null {
    const key = `${id}/${q}`;
    let c = this.cache.get(key);
    if (c) return c;
    const f = this.faces.get(id);
    if (!f) return null;
    c = cellFromFace(f, q);
    this.raw.set(key, c);
    c = this.asSeen(id, c);
    this.cache.set(key, c);
    return c;
  }

  /**
   * Which tiles look alike: the same key for (id, q) pairs whose drawings are pixel-identical (the
   * provisional 2025 land tiles share their art with base tiles). A camera cannot tell them apart.
   */
  look(id: string, q: number): string {
    const key = `${id}/${q}`;
    let l = this.looks.get(key);
    if (l === undefined) {
      const c = this.get(id, q)!;
      let h = 2166136261;
      for (let i = 0; i < c.length; i++) h = Math.imul(h ^ (Number.isNaN(c[i]!) ? 999 : Math.round(c[i]!)), 16777619);
      this.looks.set(key, (l = String(h >>> 0)));
    }
    return l;
  }

  /** The template with a figure drawn at (u, v) (crop units), `size` the figure's edge in crop units. */
  withFigure(id: string, q: number, figure: Rgba, u: number, v: number, size: number): CellCrop | null {
    if (!this.get(id, q)) return null;
    const c = Float32Array.from(this.raw.get(`${id}/${q}`)!);
    const half = (size * CROP_PX) / 2;
    const cu = u * CROP_PX, cv = v * CROP_PX;
    for (let y = Math.max(0, Math.floor(cv - half)); y < Math.min(CROP_PX, Math.ceil(cv + half)); y++)
      for (let x = Math.max(0, Math.floor(cu - half)); x < Math.min(CROP_PX, Math.ceil(cu + half)); x++) {
        const fx = Math.floor(((x + 0.5 - (cu - half)) / (2 * half)) * figure.width);
        const fy = Math.floor(((y + 0.5 - (cv - half)) / (2 * half)) * figure.height);
        if (fx < 0 || fy < 0 || fx >= figure.width || fy >= figure.height) continue;
        const p = (fy * figure.width + fx) * 4;
        const a = figure.data[p + 3]! / 255;
        const o = (y * CROP_PX + x) * 3;
        if (Number.isNaN(c[o]!)) continue;
        for (let k = 0; k < 3; k++) c[o + k] = c[o + k]! * (1 - a) + figure.data[p + k]! * a;
      }
    return this.asSeen(id, c);
  }

  /**
   * A template as the camera sees a cell (`softened`). A picture is often sharper than the game
   * camera's view (a teach frame shows a tile larger than a game does): its colour is also brought to
   * the camera's coarser chroma, with or without a figure on it alike.
   */
  private asSeen(id: string, c: CellCrop): CellCrop {
    const s = softened(c);
    return this.pictured.has(id) ? chromaSoftened(s, PICTURE_CHROMA_RADIUS) : s;
  }
}

/** A face (catalog frame, RGBA) as a cell crop turned q quarter turns: the gap around the tile NaN. */
function cellFromFace(f: { w: number; data: Uint8Array }, q: number): CellCrop {
  const c = new Float32Array(CROP_PX * CROP_PX * 3);
  const s = TILE_MM / PITCH_MM;
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++) {
      // Board-frame point in tile units, then back to the catalog frame.
      let x = ((u + 0.5) / CROP_PX - 0.5) / s, y = ((v + 0.5) / CROP_PX - 0.5) / s;
      for (let k = 0; k < q; k++) [x, y] = [y, -x];
      const o = (v * CROP_PX + u) * 3;
      if (Math.abs(x) >= 0.5 || Math.abs(y) >= 0.5) {
        c[o] = c[o + 1] = c[o + 2] = NaN; // the gap: not compared
        continue;
      }
      const fx = Math.min(f.w - 1, Math.floor((x + 0.5) * f.w)), fy = Math.min(f.w - 1, Math.floor((y + 0.5) * f.w));
      const p = (fy * f.w + fx) * 4;
      if (f.data[p + 3] === 0) c[o] = c[o + 1] = c[o + 2] = NaN; // hidden in the table's picture
      else { c[o] = f.data[p]!; c[o + 1] = f.data[p + 1]!; c[o + 2] = f.data[p + 2]!; }
    }
  return c;
}

/** Mean luma of a face's shown pixels (RGBA; alpha 0 left out). */
function meanLuma(rgba: Uint8Array): number {
  let s = 0, n = 0;
  for (let o = 0; o < rgba.length; o += 4) {
    if (rgba[o + 3] === 0) continue;
    s += LUMA[0] * rgba[o]! + LUMA[1] * rgba[o + 1]! + LUMA[2] * rgba[o + 2]!;
    n++;
  }
  return n ? s / n : 0;
}

/**
 * A picture's face brought to the luma of the type's drawing (one gain for all three channels, so
 * its colours stay the print's). `matchTemplate` measures a fit in the template's units (the crop is
 * scaled to the template), so a picture taken in dim light fits every cell by the square of its
 * dimness better than a bright one: a teach frame at half the light made one Inns & Cathedrals picture
 * the best fit of most new tiles in a game (docs/teach.md). The drawing stands for the type's own
 * brightness under a standard light.
 */
function scaleToLuma(rgba: Uint8Array, target: number): void {
  const now = meanLuma(rgba);
  if (!(now > 0) || !(target > 0)) return;
  const g = target / now;
  for (let o = 0; o < rgba.length; o += 4)
    for (let k = 0; k < 3; k++) rgba[o + k] = Math.min(255, Math.round(rgba[o + k]! * g));
}

/** Face resolution cut from a picture: the picture's own tile area is about 52 px. */
const FACE_FROM_PICTURE_PX = 52;

function bilinearRgb(src: Uint8Array, w: number, x: number, y: number, out: Uint8Array, o: number): void {
  const cx = Math.max(0, Math.min(w - 1, x)), cy = Math.max(0, Math.min(w - 1, y));
  const x0 = Math.floor(cx), y0 = Math.floor(cy);
  const x1 = Math.min(w - 1, x0 + 1), y1 = Math.min(w - 1, y0 + 1);
  const ax = cx - x0, ay = cy - y0;
  for (let c = 0; c < 3; c++) {
    const top = src[(y0 * w + x0) * 3 + c]! * (1 - ax) + src[(y0 * w + x1) * 3 + c]! * ax;
    const bottom = src[(y1 * w + x0) * 3 + c]! * (1 - ax) + src[(y1 * w + x1) * 3 + c]! * ax;
    out[o + c] = Math.round(top * (1 - ay) + bottom * ay);
  }
}

const INNER = 3;
/** Drift searched, pixels each way (±2 mm of tile drift plus calibration residue at 32 px per 46 mm). */
const SHIFT = 2;

/**
 * Distance between a crop and a template: per-channel gain matched (light and white balance), mean
 * squared difference over the tile's inner area, best over ±1 px shifts (tile drift). Also returns
 * the shift so a caller can look at what is left over (a figure).
 */
export function matchTemplate(crop: CellCrop, tpl: CellCrop, shift = SHIFT): { d: number; sx: number; sy: number; gain: [number, number, number] } {
  let best = { d: Infinity, sx: 0, sy: 0, gain: [1, 1, 1] as [number, number, number] };
  for (let sy = -shift; sy <= shift; sy++)
    for (let sx = -shift; sx <= shift; sx++) {
      const sc = [0, 0, 0], st = [0, 0, 0];
      for (let v = INNER; v < CROP_PX - INNER; v++)
        for (let u = INNER; u < CROP_PX - INNER; u++) {
          const t = (v * CROP_PX + u) * 3, c = ((v + sy) * CROP_PX + (u + sx)) * 3;
          if (Number.isNaN(tpl[t]!)) continue;
          for (let k = 0; k < 3; k++) { sc[k] += crop[c + k]!; st[k] += tpl[t + k]!; }
        }
      const gain: [number, number, number] = [st[0]! / (sc[0]! || 1), st[1]! / (sc[1]! || 1), st[2]! / (sc[2]! || 1)];
      let d = 0, n = 0;
      for (let v = INNER; v < CROP_PX - INNER; v++)
        for (let u = INNER; u < CROP_PX - INNER; u++) {
          const t = (v * CROP_PX + u) * 3, c = ((v + sy) * CROP_PX + (u + sx)) * 3;
          if (Number.isNaN(tpl[t]!)) continue;
          for (let k = 0; k < 3; k++) { const e = (crop[c + k]! * gain[k]! - tpl[t + k]!) / 255; d += e * e; }
          n++;
        }
      d /= n || 1;
      if (d < best.d) best = { d, sx, sy, gain };
    }
  return best;
}

/** Pixels (crop coordinates) that differ strongly from the template: a figure standing there. */
export function residualBlob(crop: CellCrop, tpl: CellCrop, m: { sx: number; sy: number; gain: [number, number, number] }, threshold = 110): { count: number; u: number; v: number } {
  let count = 0, su = 0, sv = 0;
  for (let v = INNER; v < CROP_PX - INNER; v++)
    for (let u = INNER; u < CROP_PX - INNER; u++) {
      const t = (v * CROP_PX + u) * 3, c = ((v + m.sy) * CROP_PX + (u + m.sx)) * 3;
      if (Number.isNaN(tpl[t]!)) continue;
      let e = 0;
      for (let k = 0; k < 3; k++) e += Math.abs(crop[c + k]! * m.gain[k]! - tpl[t + k]!);
      if (e > threshold) { count++; su += u + 0.5; sv += v + 0.5; }
    }
  return { count, u: count ? su / count / CROP_PX : 0, v: count ? sv / count / CROP_PX : 0 };
}

/** Mean chromaticity (r, g shares) of a crop's inner area: tells a tile from the bare table under any light level. */
export function chroma(crop: CellCrop): [number, number] {
  let r = 0, g = 0, n = 0;
  for (let v = 6; v < CROP_PX - 6; v++)
    for (let u = 6; u < CROP_PX - 6; u++) {
      const o = (v * CROP_PX + u) * 3;
      const s = crop[o]! + crop[o + 1]! + crop[o + 2]! + 1;
      r += crop[o]! / s; g += crop[o + 1]! / s; n++;
    }
  return [r / n, g / n];
}

/**
 * A picture's template has its chroma blurred over (2r+1)² crop pixels on top of `softened`: a game
 * cell is 25–40 camera pixels wide and the camera's JPEG keeps chroma at half resolution, about two
 * crop pixels per chroma sample, where a teach frame's picture keeps it nearly sharp (small saturated
 * parts — the second edition's blue roofs — stayed blue in taught pictures and came out dark in the
 * game's crops). bench:tracking:printed, taught row: 75.2 → 79.4 % of moves exact, 0 wrong; the
 * first-edition tuning row 84.8 → 85.2 %, 13 → 12 wrong; one board picture per type 90.8 → 91.2 %.
 */
const PICTURE_CHROMA_RADIUS = 1;

/** Chroma (each channel less the pixel's luma) box-blurred over (2r+1)² pixels, luma kept; the gap (NaN) left alone. */
function chromaSoftened(c: CellCrop, r: number): CellCrop {
  const n = CROP_PX * CROP_PX;
  const y = new Float32Array(n);
  for (let i = 0; i < n; i++) y[i] = LUMA[0] * c[i * 3]! + LUMA[1] * c[i * 3 + 1]! + LUMA[2] * c[i * 3 + 2]!;
  const chroma = new Float64Array(c.length);
  for (let o = 0; o < c.length; o++) chroma[o] = c[o]! - y[Math.floor(o / 3)]!;
  const blurred = boxBlurred(chroma, r, new Float64Array(c.length));
  const out = new Float32Array(c.length);
  for (let o = 0; o < c.length; o++) out[o] = y[Math.floor(o / 3)]! + blurred[o]!;
  return out;
}

/** A 3×3 box blur that leaves the gap (NaN) alone: the camera's optics and JPEG soften every edge. */
function softened(c: CellCrop): CellCrop {
  return boxBlurred(c, 1, new Float32Array(c.length));
}

/** Each channel box-blurred over the (2r+1)² pixels around, the gap (NaN) neither blurred nor blurred into. */
function boxBlurred<T extends Float32Array | Float64Array>(c: Float32Array | Float64Array, r: number, out: T): T {
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++)
      for (let k = 0; k < 3; k++) {
        const o = (v * CROP_PX + u) * 3 + k;
        if (Number.isNaN(c[o]!)) { out[o] = NaN; continue; }
        let s = 0, n = 0;
        for (let j = -r; j <= r; j++)
          for (let i = -r; i <= r; i++) {
            const uu = u + i, vv = v + j;
            if (uu < 0 || vv < 0 || uu >= CROP_PX || vv >= CROP_PX) continue;
            const x = c[(vv * CROP_PX + uu) * 3 + k]!;
            if (Number.isNaN(x)) continue;
            s += x; n++;
          }
        out[o] = s / n;
      }
  return out;
}

/** Distance at a given shift and gain (the tile's own), so figure hypotheses are compared alike. */
export function distanceAt(crop: CellCrop, tpl: CellCrop, m: { sx: number; sy: number; gain: [number, number, number] }): number {
  let d = 0, n = 0;
  for (let v = INNER; v < CROP_PX - INNER; v++)
    for (let u = INNER; u < CROP_PX - INNER; u++) {
      const t = (v * CROP_PX + u) * 3, c = ((v + m.sy) * CROP_PX + (u + m.sx)) * 3;
      if (Number.isNaN(tpl[t]!)) continue;
      for (let k = 0; k < 3; k++) { const e = (crop[c + k]! * m.gain[k]! - tpl[t + k]!) / 255; d += e * e; }
      n++;
    }
  return d / (n || 1);
}

/**
 * Pixels (template coordinates) where any of the `variants` differs from `base`, grown by one pixel:
 * where figure hypotheses disagree. The rest of the tile says nothing about the figure.
 */
export function differenceMask(base: CellCrop, variants: readonly CellCrop[], eps = 4): Uint8Array {
  const hit = new Uint8Array(CROP_PX * CROP_PX);
  for (const t of variants)
    for (let i = 0; i < hit.length; i++) {
      if (hit[i] || Number.isNaN(base[i * 3]!)) continue;
      for (let k = 0; k < 3; k++) if (Math.abs(t[i * 3 + k]! - base[i * 3 + k]!) > eps) { hit[i] = 1; break; }
    }
  const grown = new Uint8Array(hit.length);
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++) {
      if (!hit[v * CROP_PX + u]) continue;
      for (let j = -1; j <= 1; j++)
        for (let i = -1; i <= 1; i++) {
          const uu = u + i, vv = v + j;
          if (uu >= 0 && vv >= 0 && uu < CROP_PX && vv < CROP_PX && !Number.isNaN(base[(vv * CROP_PX + uu) * 3]!)) grown[vv * CROP_PX + uu] = 1;
        }
    }
  return grown;
}

type Match = { sx: number; sy: number; gain: [number, number, number] };

/**
 * Visits each masked template pixel that is on the tile and inside the crop at the tile's shift,
 * with its template and crop offsets; returns how many were visited.
 */
function eachMaskedPixel(tpl: CellCrop, m: Match, mask: Uint8Array, visit: (t: number, c: number) => void): number {
  let n = 0;
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++) {
      if (!mask[v * CROP_PX + u]) continue;
      const cu = u + m.sx, cv = v + m.sy;
      if (cu < 0 || cv < 0 || cu >= CROP_PX || cv >= CROP_PX) continue;
      const t = (v * CROP_PX + u) * 3;
      if (Number.isNaN(tpl[t]!)) continue;
      visit(t, (cv * CROP_PX + cu) * 3);
      n++;
    }
  return n;
}

/** Cell pixels along the tile's sides left out of `pictureDetailMasks` (2 of 32: about 3 mm). */
const PICTURE_DETAIL_BORDER = 2;

/**
 * Where two pictures of twin types differ (a pennant, a garden: the print of twins is one
 * illustration with a mark added), each in its own template's pixels: the two aligned at the best
 * shift and light (`matchTemplate`), the pixels whose luma differs most — the top `share` of the
 * tile, and at least `floor` levels (two pictures of one tile cut from different cards differ by
 * their noise everywhere, by less). The tile's outer band of PICTURE_DETAIL_BORDER pixels is left
 * out: a card cut a millimetre off shows the table along a side of its picture, which is no mark.
 * Null where nothing differs that much.
 */
export function pictureDetailMasks(a: CellCrop, b: CellCrop, share = 0.04, floor = 20): { a: Uint8Array; b: Uint8Array } | null {
  const m = matchTemplate(b, a);
  const diffs: { u: number; v: number; d: number }[] = [];
  const all = new Uint8Array(CROP_PX * CROP_PX);
  const lo = (CROP_PX * (1 - TILE_MM / PITCH_MM)) / 2 + PICTURE_DETAIL_BORDER, hi = CROP_PX - lo;
  for (let v = 0; v < CROP_PX; v++) for (let u = 0; u < CROP_PX; u++) if (u + 0.5 > lo && u + 0.5 < hi && v + 0.5 > lo && v + 0.5 < hi) all[v * CROP_PX + u] = 1;
  eachMaskedPixel(a, m, all, (t, c) => {
    if (Number.isNaN(b[c]!)) return;
    let y = 0;
    for (let k = 0; k < 3; k++) y += LUMA[k]! * (b[c + k]! * m.gain[k]! - a[t + k]!);
    diffs.push({ u: (t / 3) % CROP_PX, v: Math.floor(t / 3 / CROP_PX), d: Math.abs(y) });
  });
  if (!diffs.length) return null;
  const sorted = diffs.map((x) => x.d).sort((p, q) => q - p);
  const bar = Math.max(floor, sorted[Math.max(0, Math.floor(share * sorted.length) - 1)]!);
  const ma = new Uint8Array(CROP_PX * CROP_PX), mb = new Uint8Array(CROP_PX * CROP_PX);
  let n = 0;
  for (const { u, v, d } of diffs) {
    if (d < bar) continue;
    ma[v * CROP_PX + u] = 1;
    mb[(v + m.sy) * CROP_PX + (u + m.sx)] = 1;
    n++;
  }
  return n ? { a: ma, b: mb } : null;
}

/**
 * Mean squared difference over the masked template pixels (the whole crop, edges included: a figure
 * near a tile's side stands there), at the tile's own shift and light.
 */
export function maskedDistance(crop: CellCrop, tpl: CellCrop, m: Match, mask: Uint8Array): number {
  let d = 0;
  const n = eachMaskedPixel(tpl, m, mask, (t, c) => {
    for (let k = 0; k < 3; k++) { const e = (crop[c + k]! * m.gain[k]! - tpl[t + k]!) / 255; d += e * e; }
  });
  return d / (n || 1);
}

/**
 * Like `maskedDistance` for a template that is `base` plus a drawn figure, with the figure's
 * strength fitted (least squares, clamped to [aMin, aMax]): at 25–40 px per tile, blur and the
 * camera's chroma subsampling wash a figure out to about half its drawn contrast. `aMin` keeps a
 * figure hypothesis from fading into "no figure" where none stands.
 */
export function maskedFigureDistance(crop: CellCrop, base: CellCrop, tpl: CellCrop, m: Match, mask: Uint8Array, aMin = 0.3, aMax = 1.2): { d: number; a: number } {
  let rp = 0, pp = 0, rr = 0;
  const n = eachMaskedPixel(tpl, m, mask, (t, c) => {
    for (let k = 0; k < 3; k++) {
      const r = (crop[c + k]! * m.gain[k]! - base[t + k]!) / 255, p = (tpl[t + k]! - base[t + k]!) / 255;
      rp += r * p; pp += p * p; rr += r * r;
    }
  });
  const a = Math.min(aMax, Math.max(aMin, pp > 0 ? rp / pp : 0));
  return { d: (rr - 2 * a * rp + a * a * pp) / (n || 1), a };
}

/** Rec. 601 luma weights (what JPEG's YCbCr uses). */
const LUMA = [0.299, 0.587, 0.114] as const;

/**
 * Like `maskedDistance`, in luma only. The camera's 4:2:0 subsampling keeps luma at full resolution
 * and smears chroma over 2×2 pixels: a mark a few pixels wide (the prize tiles' coats of arms) keeps
 * its outline in luma, while its colour bleeds into the pixels around it (see docs/tracking.md).
 */
export function maskedLumaDistance(crop: CellCrop, tpl: CellCrop, m: Match, mask: Uint8Array): number {
  let d = 0;
  const n = eachMaskedPixel(tpl, m, mask, (t, c) => {
    let y = 0;
    for (let k = 0; k < 3; k++) y += LUMA[k]! * (crop[c + k]! * m.gain[k]! - tpl[t + k]!);
    d += (y / 255) ** 2;
  });
  return d / (n || 1);
}
