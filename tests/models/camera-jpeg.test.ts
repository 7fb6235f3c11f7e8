import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { DEFAULT_CROP, synthCrop, type TileFace } from '../../models/synth/crop.js';
import { cameraScaleJpeg, makeCropSet } from '../../models/synth/dataset.js';
import { makeWorld } from '../../models/synth/world.js';
import { mixSeed } from '../../models/render/random.js';

const tiles = TileCatalog.classic().all();
// Plain faces (one colour per tile) and blank sprites: the crops' geometry and compression, not their art.
const face = (tileIndex: number): TileFace => ({ image: { width: 1, height: 1, data: new Uint8Array([40 + (tileIndex * 37) % 200, 160, 60, 255]) }, tileIndex, baseQ: 0 });
const faces = tiles.map((_, i) => face(i));
const blank = { width: 1, height: 1, data: new Uint8Array(4) };
const world = makeWorld(tiles, [[], [], []].map(() => Array(6).fill(blank)), faces, faces);
const S = DEFAULT_CROP.size;

/** Mean colour difference between neighbouring squares of a red/blue checkerboard (its chroma contrast). */
function checkerContrast(rgb: Uint8Array, square: number): number {
  let sum = 0, n = 0;
  for (let y = square / 2; y < S - square; y += square)
    for (let x = square / 2; x < S - square; x += square) {
      const a = (Math.floor(y) * S + Math.floor(x)) * 3, b = (Math.floor(y) * S + Math.floor(x + square)) * 3;
      sum += Math.abs(rgb[a]! - rgb[b]!) + Math.abs(rgb[a + 2]! - rgb[b + 2]!);
      n++;
    }
  return sum / n;
}

describe("a far camera's crop", () => {
  it('draws crops down to lowResolutionFrom pixels across, 30 when absent', () => {
    const drawnAt = (from?: number) => Array.from({ length: 300 }, (_, seed) => synthCrop(world, seed, { ...DEFAULT_CROP, ...(from ? { lowResolutionFrom: from } : {}) }).drawnAt);
    const plain = drawnAt();
    expect(Math.min(...plain)).toBeGreaterThanOrEqual(30);
    expect(plain.filter((r) => r === S).length).toBeGreaterThan(100);
    const far = drawnAt(22);
    expect(Math.min(...far)).toBeGreaterThanOrEqual(22);
    expect(far.filter((r) => r < 30).length).toBeGreaterThan(10);
  });

  it("compresses at the camera's scale: half-resolution chroma there smears colour a crop-sized JPEG keeps", async () => {
    // Red and blue squares of 3 camera pixels at 24 pixels across: 8 crop pixels.
    const rgb = new Uint8Array(S * S * 3);
    for (let y = 0; y < S; y++) for (let x = 0; x < S; x++) {
      const red = (Math.floor(x / 8) + Math.floor(y / 8)) % 2 === 0;
      rgb.set(red ? [220, 40, 40] : [40, 40, 220], (y * S + x) * 3);
    }
    const atCrop = new Uint8Array(await sharp(rgb, { raw: { width: S, height: S, channels: 3 } }).jpeg({ quality: 95, chromaSubsampling: '4:2:0' }).toBuffer().then((j) => sharp(j).raw().toBuffer()));
    const atCamera = await cameraScaleJpeg(rgb, S, 24, 95);
    expect(atCamera.length).toBe(rgb.length);
    expect(checkerContrast(atCrop, 8)).toBeGreaterThan(300);
    expect(checkerContrast(atCamera, 8)).toBeLessThan(0.8 * checkerContrast(atCrop, 8));
    // And lower quality loses more.
    const worse = await cameraScaleJpeg(rgb, S, 24, 35);
    const err = (a: Uint8Array) => a.reduce((s, v, i) => s + Math.abs(v - rgb[i]!), 0);
    expect(err(worse)).toBeGreaterThan(err(atCamera));
  });

  it('leaves crops drawn at full size and every label as they were; only the far ones change', async () => {
    const before = await makeCropSet(world, 64, 4242, DEFAULT_CROP);
    const after = await makeCropSet(world, 64, 4242, DEFAULT_CROP, true, 1);
    expect(after.labels).toEqual(before.labels);
    let full = 0, far = 0;
    for (let i = 0; i < 64; i++) {
      const a = before.images.subarray(i * S * S * 3, (i + 1) * S * S * 3), b = after.images.subarray(i * S * S * 3, (i + 1) * S * S * 3);
      const same = a.every((v, k) => v === b[k]);
      if (synthCrop(world, mixSeed(4242, i), DEFAULT_CROP).drawnAt === S) { expect(same).toBe(true); full++; } else { expect(same).toBe(false); far++; }
    }
    expect(full).toBeGreaterThan(10);
    expect(far).toBeGreaterThan(10);
  });
});
