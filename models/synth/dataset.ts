/**
 * Writes a synthetic crop set to disk for the Python trainer: `<name>.u8` (N×S×S×3 RGB),
 * `<name>.labels.i16` (N×LABEL_COLUMNS) and `<name>.json`. JPEG compression is applied to
 * 16×16 mosaics of crops (8×8 blocks never straddle two crops, since S is a multiple of 8).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { between, mixSeed, rng } from '../render/random.js';
import { synthCrop, type Crop, type CropOptions, type SynthWorld } from './crop.js';

/** present, tileIndex, q, class, seg12 ×12, meeple, colour, meepleSegment, meepleKind */
export const LABEL_COLUMNS = 20;

export function labelRow(c: Crop): number[] {
  const l = c.labels;
  return [l.present ? 1 : 0, l.tileIndex, l.q, l.present ? l.tileIndex * 4 + l.q : -1, ...l.seg12, l.meeple ? 1 : 0, l.meepleColour, l.meepleSegment, l.meepleKind];
}

const GRID = 16;

/** JPEG-compresses crops in place, a mosaic at a time, with a quality drawn per mosaic. */
export async function jpegInPlace(images: Uint8Array, count: number, size: number, seed: number, prob = 0.85): Promise<void> {
  const per = GRID * GRID;
  const W = GRID * size;
  const r = rng(seed);
  for (let m = 0; m * per < count; m++) {
    const quality = Math.round(between(r, 35, 95));
    if (r() > prob) continue;
    const n = Math.min(per, count - m * per);
    const mosaic = Buffer.alloc(W * W * 3);
    for (let k = 0; k < n; k++) {
      const gx = (k % GRID) * size;
      const gy = Math.floor(k / GRID) * size;
      const src = (m * per + k) * size * size * 3;
      for (let y = 0; y < size; y++) mosaic.set(images.subarray(src + y * size * 3, src + (y + 1) * size * 3), ((gy + y) * W + gx) * 3);
    }
    const jpg = await sharp(mosaic, { raw: { width: W, height: W, channels: 3 } }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
    const back = await sharp(jpg).raw().toBuffer();
    for (let k = 0; k < n; k++) {
      const gx = (k % GRID) * size;
      const gy = Math.floor(k / GRID) * size;
      const dst = (m * per + k) * size * size * 3;
      for (let y = 0; y < size; y++) images.set(back.subarray(((gy + y) * W + gx) * 3, ((gy + y) * W + gx + size) * 3), dst + y * size * 3);
    }
  }
}

export interface CropSet {
  readonly images: Uint8Array;
  readonly labels: Int16Array;
  readonly count: number;
  readonly size: number;
}

/**
 * A far camera's crop as the tracker gets it: the scene seen at `drawnAt` pixels across, the frame
 * JPEG-compressed at that scale (a webcam's MJPEG: its 8 × 8 blocks and half-resolution chroma span
 * a third of a 24 px tile), then scaled up to the crop's size as the tracker's rectification does
 * (bilinear). Compressed at the crop's own size, as the mosaics are, the blocks are three times finer
 * than the camera's: a first-edition recording at 640×480 read 85 of 101 tiles with its frames at
 * JPEG quality 60, 97 at 95.
 */
export async function cameraScaleJpeg(rgb: Uint8Array, size: number, drawnAt: number, quality: number): Promise<Uint8Array> {
  const jpg = await sharp(rgb, { raw: { width: size, height: size, channels: 3 } }).resize(drawnAt, drawnAt, { kernel: 'cubic' }).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
  return new Uint8Array(await sharp(jpg).resize(size, size, { kernel: 'linear' }).raw().toBuffer());
}

/**
 * `cameraJpeg`: the share of the crops drawn below `size` that are compressed at their own scale
 * (`cameraScaleJpeg`, quality 35–95 as the mosaics) instead of in a mosaic. 0 (the default): the
 * recipe's crops before it, byte for byte.
 */
export async function makeCropSet(world: SynthWorld, count: number, seed: number, options: CropOptions, jpeg = true, cameraJpeg = 0): Promise<CropSet> {
  const S = options.size;
  const images = new Uint8Array(count * S * S * 3);
  const labels = new Int16Array(count * LABEL_COLUMNS);
  const atCameraScale = new Map<number, Uint8Array>();
  const r = rng(mixSeed(seed, CAMERA_SALT));
  for (let i = 0; i < count; i++) {
    const c = synthCrop(world, mixSeed(seed, i), options);
    images.set(c.rgb, i * S * S * 3);
    labels.set(labelRow(c), i * LABEL_COLUMNS);
    if (jpeg && cameraJpeg > 0 && c.drawnAt < S) {
      const quality = Math.round(between(r, 35, 95));
      if (r() < cameraJpeg) atCameraScale.set(i, await cameraScaleJpeg(c.rgb, S, c.drawnAt, quality));
    }
  }
  if (jpeg) await jpegInPlace(images, count, S, mixSeed(seed, JPEG_SALT));
  for (const [i, rgb] of atCameraScale) images.set(rgb, i * S * S * 3);
  return { images, labels, count, size: S };
}

const JPEG_SALT = 0x4a504547;
const CAMERA_SALT = 0x43414d4a;

export function writeCropSet(dir: string, name: string, set: CropSet, meta: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.u8`), set.images);
  writeFileSync(join(dir, `${name}.labels.i16`), Buffer.from(set.labels.buffer, set.labels.byteOffset, set.labels.byteLength));
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...meta, count: set.count, size: set.size, labelColumns: LABEL_COLUMNS }, null, 1));
}
