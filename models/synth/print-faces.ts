/**
 * Printed tile faces for training: the first-edition scans in models/train/print/ (c1-jcz, c1-wiki),
 * each drawn many times under a "print look" wide enough to span the editions (the first edition is
 * muted and brown, later ones brighter and more saturated), and garden tiles the first edition never
 * printed made from their garden-less sibling's print with the renderer's garden laid over it.
 *
 * Training and tuning material only: the second-edition scans (the test fixtures, the measure
 * of printed art) are never read here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { TileType } from '../../engine/catalog/types.js';
import { turnedSegments } from '../classes.js';
import { between, mixSeed, pick, rng, type Rng } from '../render/random.js';
import { rasterise } from '../render/rasterise.js';
import { TRAIN_STYLES } from '../render/styles.js';
import { gardenMarksSvg } from '../render/svg.js';
import type { TileFace } from './crop.js';
import { turnRgba, type Rgba } from './image.js';
import { warpFace } from './warp.js';
import { FACE_PX } from './world.js';

export const PRINT_DIR = fileURLToPath(new URL('../train/print/', import.meta.url));
/** The scan sets, each with its manifest (README in each folder). */
export const PRINT_SETS = ['c1-jcz', 'c1-wiki'] as const;

export interface PrintScan extends TileFace {
  readonly tileId: string;
  readonly file: string;
  readonly set: string;
}

interface ManifestEntry {
  readonly file: string;
  readonly id: string;
  readonly rotation: number;
}

/**
 * The square the tile fills in a small scan that sits on a pale margin with a grey drop shadow
 * (c1-wiki): the tile's pixels are coloured (grass, earth, water, roofs), the margin and the shadow
 * are near grey. Rows and columns where most pixels are coloured bound it; a scan with no such
 * margin gives its whole frame back.
 */
export function tileBox(rgb: Uint8Array, width: number, height: number): { left: number; top: number; size: number } {
  const coloured = (i: number) => {
    const r = rgb[i]!, g = rgb[i + 1]!, b = rgb[i + 2]!;
    const hi = Math.max(r, g, b), lo = Math.min(r, g, b);
    // Grey (margin, shadow) has almost no chroma; a near-black frame is part of some prints (IC_I).
    return hi - lo > 28 || hi < 60;
  };
  const rows = new Array<number>(height).fill(0), cols = new Array<number>(width).fill(0);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (coloured((y * width + x) * 3)) {
        rows[y]!++;
        cols[x]!++;
      }
  const span = (counts: number[], full: number) => {
    const enough = counts.map((c) => c > full * 0.5);
    const first = enough.indexOf(true);
    const last = enough.lastIndexOf(true);
    return first < 0 ? [0, counts.length - 1] : [first, last];
  };
  const [top, bottom] = span(rows, width);
  const [left, right] = span(cols, height);
  const size = Math.min(Math.max(right! - left! + 1, bottom! - top! + 1), width - left!, height - top!);
  return { left: left!, top: top!, size };
}

/** Every scan of a tile the model knows, at FACE_PX, with its quarter turns against the catalog. */
export async function loadPrintScans(tileIds: readonly string[], dir = PRINT_DIR, sets: readonly string[] = PRINT_SETS): Promise<PrintScan[]> {
  const out: PrintScan[] = [];
  for (const set of sets) {
    const manifest = JSON.parse(readFileSync(join(dir, set, 'manifest.json'), 'utf8')) as ManifestEntry[];
    for (const e of manifest) {
      const tileIndex = tileIds.indexOf(e.id);
      if (tileIndex < 0) continue;
      const path = join(dir, set, e.file);
      const { data, info } = await sharp(path).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const box = tileBox(new Uint8Array(data), info.width, info.height);
      const face = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
        .extract({ left: box.left, top: box.top, width: box.size, height: box.size })
        .resize(FACE_PX, FACE_PX, { fit: 'fill' })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      out.push({ tileId: e.id, file: e.file, set, tileIndex, baseQ: (e.rotation / 90) % 4, image: { width: face.info.width, height: face.info.height, data: new Uint8Array(face.data) } });
    }
  }
  return out;
}

/**
 * The same print under another edition's or another scan's look: tone curve, contrast, saturation
 * (up to well past the first edition's), a small hue turn, brightness and channel gains, sometimes a
 * softer or crisper print, sometimes the bevelled edge a die-cut tile shows. Alpha is kept.
 */
export function printLook(img: Rgba, r: Rng): Rgba {
  const gamma = between(r, 0.75, 1.3);
  const contrast = between(r, 0.85, 1.3);
  const saturation = between(r, 0.8, 1.7);
  const hue = (between(r, -10, 10) * Math.PI) / 180;
  const bright = between(r, 0.85, 1.25);
  const gains = [between(r, 0.9, 1.1), between(r, 0.9, 1.1), between(r, 0.9, 1.1)];
  const sharpness = r(); // < 0.3 softer, > 0.7 crisper
  const bevel = r() < 0.5 ? between(r, 1, 3) : 0;
  const { width: w, height: h } = img;
  const src = sharpness < 0.3 || sharpness > 0.7 ? filtered(img, sharpness < 0.3 ? 0.6 : -0.6) : img.data;
  const cosH = Math.cos(hue), sinH = Math.sin(hue);
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      let c = [0, 1, 2].map((k) => 0.5 + ((src[o + k]! / 255) ** gamma - 0.5) * contrast);
      const l = 0.299 * c[0]! + 0.587 * c[1]! + 0.114 * c[2]!;
      c = c.map((v) => l + (v - l) * saturation);
      // Hue turned in YIQ, where a turn keeps the luminance.
      const i = 0.596 * c[0]! - 0.274 * c[1]! - 0.322 * c[2]!;
      const q = 0.211 * c[0]! - 0.523 * c[1]! + 0.312 * c[2]!;
      const i2 = i * cosH - q * sinH, q2 = i * sinH + q * cosH;
      c = [l + 0.956 * i2 + 0.621 * q2, l - 0.272 * i2 - 0.647 * q2, l - 1.106 * i2 + 1.703 * q2];
      let edge = 1;
      if (bevel > 0) {
        const dLight = Math.min(x, y), dDark = Math.min(w - 1 - x, h - 1 - y);
        if (dLight < bevel) edge = 1.25;
        else if (dDark < bevel) edge = 0.7;
      }
      for (let k = 0; k < 3; k++) out[o + k] = Math.max(0, Math.min(255, Math.round(c[k]! * bright * gains[k]! * edge * 255)));
      out[o + 3] = img.data[o + 3]!;
    }
  return { width: w, height: h, data: out };
}

/** A 3×3 blur mixed in by `amount` (negative: the blur taken away, a crisper print). */
function filtered(img: Rgba, amount: number): Uint8Array {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      for (let k = 0; k < 4; k++) {
        let sum = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = Math.min(w - 1, Math.max(0, x + dx)), yy = Math.min(h - 1, Math.max(0, y + dy));
            sum += data[(yy * w + xx) * 4 + k]!;
          }
        const v = data[o + k]! + amount * (sum / 9 - data[o + k]!);
        out[o + k] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  return out;
}

/** Features as comparable strings, turned q quarter turns, gardens left out. */
function featureKey(tile: TileType, q: number): string {
  return tile.features
    .filter((f) => f.kind !== 'garden')
    .map((f) => `${f.kind}:${f.segments.map((s) => (s + 3 * q) % 12).sort((a, b) => a - b).join(',')}:${f.pennants}:${f.inn}:${f.cathedral}`)
    .sort()
    .join(';');
}

/**
 * For a tile with a garden: a tile without one that is the same tile otherwise, and the quarter
 * turns that bring it onto the garden tile, or null.
 */
export function gardenSibling(tile: TileType, tiles: readonly TileType[]): { sibling: TileType; q: number } | null {
  if (!tile.features.some((f) => f.kind === 'garden')) return null;
  const segs = tile.segments.join(',');
  const key = featureKey(tile, 0);
  for (const s of tiles) {
    if (s === tile || s.features.some((f) => f.kind === 'garden')) continue;
    if (s.riverSpring !== tile.riverSpring || s.riverLake !== tile.riverLake) continue;
    for (let q = 0; q < 4; q++) if (turnedSegments(s, q).join(',') === segs && featureKey(s, q) === key) return { sibling: s, q };
  }
  return null;
}

export interface PrintFaceOptions {
  /** Looks drawn per scan. */
  readonly copies: number;
  readonly seed: number;
  /** Share of copies bent by warp.ts (each print's shapes moved a little, as a redrawn edition moves them). */
  readonly warpShare?: number;
  /** Whether each copy gets its own print look (`printLook`); off only to inspect or test the rest. */
  readonly look?: boolean;
}

/**
 * Training faces from the scans: `copies` looks of each scan (by tile index), and for each garden
 * tile with no print of its own, its sibling's prints with a garden laid over in the renderer's
 * garden forms.
 */
export async function printFaces(tiles: readonly TileType[], scans: readonly PrintScan[], { copies, seed, warpShare = 0.5, look = true }: PrintFaceOptions): Promise<TileFace[][]> {
  const byTile: TileFace[][] = tiles.map(() => []);
  const looks = (image: Rgba, baseQ: number, tileIndex: number, salt: number) => {
    for (let c = 0; c < copies; c++) {
      const r = rng(mixSeed(seed, salt, c));
      const bent = r() < warpShare ? warpFace(image, r, 4) : image;
      byTile[tileIndex]!.push({ image: look ? printLook(bent, r) : bent, tileIndex, baseQ });
    }
  };
  scans.forEach((s, i) => looks(s.image, s.baseQ, s.tileIndex, i));
  for (let ti = 0; ti < tiles.length; ti++) {
    if (scans.some((s) => s.tileIndex === ti)) continue;
    const found = gardenSibling(tiles[ti]!, tiles);
    if (!found) continue;
    const siblingIndex = tiles.indexOf(found.sibling);
    const siblingScans = scans.filter((s) => s.tileIndex === siblingIndex);
    for (const [k, s] of siblingScans.entries()) {
      // The sibling's print in the garden tile's catalog frame.
      const base = turnRgba(s.image, (((found.q - s.baseQ) % 4) + 4) % 4);
      for (let c = 0; c < copies; c++) {
        const r = rng(mixSeed(seed, 0x6a4d, ti, k, c));
        const marks = await rasterise(gardenMarksSvg(tiles[ti]!, pick(r, TRAIN_STYLES), mixSeed(seed, ti, k, c), between(r, 0.9, 1.4), [between(r, -6, 6), between(r, -6, 6)]), FACE_PX);
        const bent = r() < warpShare ? warpFace(over(base, marks), r, 4) : over(base, marks);
        byTile[ti]!.push({ image: look ? printLook(bent, r) : bent, tileIndex: ti, baseQ: 0 });
      }
    }
  }
  return byTile;
}

/** `top` laid over `bottom` by its alpha (same size). */
function over(bottom: Rgba, top: Rgba): Rgba {
  const out = new Uint8Array(bottom.data);
  for (let i = 0; i < out.length; i += 4) {
    const a = top.data[i + 3]! / 255;
    for (let k = 0; k < 3; k++) out[i + k] = Math.round(top.data[i + k]! * a + bottom.data[i + k]! * (1 - a));
  }
  return { width: bottom.width, height: bottom.height, data: out };
}

/**
 * One first-edition scan per tile type, turned into the catalog frame, for drawing a table of
 * first-edition tiles (models/scene/generate.ts `faces`; bench:tracking:printed's first-edition row).
 */
export async function printFacesByTile(tileIds: readonly string[], set: string = PRINT_SETS[0]): Promise<Map<string, Rgba>> {
  const out = new Map<string, Rgba>();
  for (const s of await loadPrintScans(tileIds, PRINT_DIR, [set])) if (!out.has(s.tileId)) out.set(s.tileId, turnRgba(s.image, (4 - s.baseQ) % 4));
  return out;
}
