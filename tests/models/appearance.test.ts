import { beforeAll, describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { appearanceContrast, appearanceOf, appearanceSimilarity, appearanceSimilarityMasked, occlusionMask } from '../../models/appearance.js';
import { turnRgb } from '../../models/turn.js';
import { HELD_OUT_STYLE } from '../../models/render/styles.js';
import { DEFAULT_CROP, synthCrop, type SynthWorld } from '../../models/synth/crop.js';
import { makeWorld, renderFaces, renderSprites } from '../../models/synth/world.js';
import type { TileFace } from '../../models/synth/crop.js';

const catalog = TileCatalog.classic();
const ids = ['BASE_V', 'IC_A', 'BASE_D', 'BASE_E', 'IC_G'];
const tiles = ids.map((id) => catalog.get(id)!);
let world: SynthWorld;
let faces: TileFace[] = [];

beforeAll(async () => {
  faces = await renderFaces(tiles, [HELD_OUT_STYLE], [7]);
  world = makeWorld(tiles, await renderSprites(), faces);
});

function crop(k: number, q: number, seed: number): Uint8Array {
  const face = faces[k]!;
  return synthCrop({ ...world, centreFace: () => face }, seed, { ...DEFAULT_CROP, severity: 0.6, meepleProb: 0, handProb: 0, centreQ: q, forcePresent: true }).rgb;
}

describe('appearance descriptor for enrolled exemplars', () => {
  it('ignores a white-balance shift and a light gradient', () => {
    const px = crop(0, 0, 11);
    const shifted = new Uint8Array(px.length);
    for (let i = 0; i < px.length; i += 3) {
      const x = (i / 3) % 64;
      const light = 0.8 + 0.4 * (x / 63);
      shifted[i] = Math.min(255, px[i]! * 1.15 * light);
      shifted[i + 1] = Math.min(255, px[i + 1]! * light);
      shifted[i + 2] = Math.min(255, px[i + 2]! * 0.85 * light);
    }
    expect(appearanceSimilarity(appearanceOf(px, 64), appearanceOf(shifted, 64))!).toBeGreaterThan(0.9);
  });

  it('matches another camera view of the same printed tile better than any other tile or turn', () => {
    for (let k = 0; k < ids.length; k++) {
      const exemplar = appearanceOf(crop(k, 0, 100 + k), 64);
      const same = appearanceSimilarity(exemplar, appearanceOf(crop(k, 0, 200 + k), 64))!;
      for (let j = 0; j < ids.length; j++) {
        if (j === k) continue;
        expect(same, `${ids[k]} against ${ids[j]}`).toBeGreaterThan(appearanceSimilarity(exemplar, appearanceOf(crop(j, 0, 300 + j), 64))!);
      }
      // Turning the exemplar's pixels gives the exemplar of the turned tile.
      const turned = appearanceOf(turnRgb(crop(k, 0, 100 + k), 64, 1), 64);
      expect(appearanceSimilarity(turned, appearanceOf(crop(k, 1, 400 + k), 64))!, ids[k]).toBeGreaterThan(appearanceSimilarity(turned, appearanceOf(crop(k, 0, 400 + k), 64))!);
    }
  });

  it('finds the tile when it sits up to 2 mm off its cell (alignment search)', () => {
    // The same view moved by 2 px (≈ 1.7 mm of a 45 mm tile at 64 px with the 10 % margin).
    const moved = (px: Uint8Array, dx: number, dy: number) => {
      const out = new Uint8Array(px.length);
      for (let y = 0; y < 64; y++)
        for (let x = 0; x < 64; x++) {
          const sx = Math.min(63, Math.max(0, x - dx)), sy = Math.min(63, Math.max(0, y - dy));
          for (let c = 0; c < 3; c++) out[(y * 64 + x) * 3 + c] = px[(sy * 64 + sx) * 3 + c]!;
        }
      return out;
    };
    for (let k = 0; k < ids.length; k++) {
      const px = crop(k, 0, 500 + k);
      const exemplar = appearanceOf(px, 64);
      for (const [dx, dy] of [[2, 0], [0, -2], [-2, 2]] as const) {
        const sim = appearanceSimilarity(appearanceOf(moved(px, dx, dy), 64), exemplar)!;
        expect(sim, `${ids[k]} moved ${dx},${dy}`).toBeGreaterThan(0.8);
      }
    }
  });

  it('does not compare with a descriptor of another version', () => {
    const a = appearanceOf(crop(0, 0, 11), 64);
    expect(appearanceSimilarity(a, new Float32Array(16 * 16 * 3))).toBeNull();
  });

  it('tells two look-alike exemplars apart where they differ', () => {
    // Two "types" whose art differs only in a small mark (a pennant-sized blue square, ≈ 5 mm), the
    // same print otherwise: the whole-tile match hardly tells which a crop is, the contrast does.
    const mark = (px: Uint8Array, colour: readonly number[], side = 6, at = [36, 20]) => {
      const out = px.slice();
      for (let y = at[1]!; y < at[1]! + side; y++) for (let x = at[0]!; x < at[0]! + side; x++) out.set(colour, (y * 64 + x) * 3);
      return out;
    };
    const blue = [40, 70, 210];
    for (let k = 0; k < ids.length; k++) {
      const withMark = appearanceOf(mark(crop(k, 0, 600 + k), blue), 64);
      const without = appearanceOf(crop(k, 0, 700 + k), 64);
      const marked = appearanceOf(mark(crop(k, 0, 800 + k), blue), 64);
      const plain = appearanceOf(crop(k, 0, 900 + k), 64);
      const gap = Math.abs(appearanceSimilarity(marked, withMark)! - appearanceSimilarity(marked, without)!);
      const contrast = appearanceContrast(marked, withMark, without)!;
      expect(contrast, ids[k]).toBeGreaterThan(0.4);
      expect(contrast, ids[k]).toBeGreaterThan(3 * gap);
      expect(appearanceContrast(plain, withMark, without)!, ids[k]).toBeLessThan(-0.3);
    }
    expect(appearanceContrast(appearanceOf(crop(0, 0, 11), 64), new Float32Array(5), new Float32Array(5))).toBeNull();
  });

  it('leaves out what no exemplar explains (fingers over the tile), not the small mark a look-alike lacks', () => {
    // Two fingers reaching in from the top edge, skin-coloured with a darker outline.
    const fingers = (px: Uint8Array) => {
      const out = px.slice();
      for (const x0 of [18, 31])
        for (let y = 0; y < 34; y++)
          for (let x = x0; x < x0 + 11; x++) {
            const edge = x === x0 || x === x0 + 10 || y === 33;
            out.set(edge ? [150, 100, 80] : [226, 176, 146], (y * 64 + x) * 3);
          }
      return out;
    };
    let leadPlain = 0;
    let leadMasked = 0;
    for (let k = 0; k < ids.length; k++) {
      const own = appearanceOf(crop(k, 0, 1000 + k), 64);
      const others = ids.map((_, j) => appearanceOf(crop(j, 0, 1100 + j), 64)).filter((_, j) => j !== k);
      const query = appearanceOf(fingers(crop(k, 0, 1200 + k)), 64);
      const mask = occlusionMask(query, [own, others[0]!, others[1]!]);
      expect(mask, ids[k]).not.toBeNull();
      const masked = appearanceSimilarityMasked(query, own, mask!)!;
      const plain = appearanceSimilarity(query, own)!;
      expect(masked, ids[k]).toBeGreaterThan(plain + 0.02);
      leadPlain += plain - Math.max(...others.map((o) => appearanceSimilarity(query, o)!));
      leadMasked += masked - Math.max(...others.map((o) => appearanceSimilarityMasked(query, o, mask!)!));
    }
    // Over the five tiles, the right exemplar's lead over the best wrong one grows.
    expect(leadMasked).toBeGreaterThan(leadPlain + 0.1);
    // A pennant-sized mark (≈ 5 mm, cells 15–17 × 7–9 of the grid) that one of the best readings'
    // exemplars has and another lacks is explained, so it stays in.
    const mark = (px: Uint8Array) => {
      const out = px.slice();
      for (let y = 20; y < 26; y++) for (let x = 36; x < 42; x++) out.set([40, 70, 210], (y * 64 + x) * 3);
      return out;
    };
    for (let k = 0; k < ids.length; k++) {
      const exemplars = [appearanceOf(mark(crop(k, 0, 1400 + k)), 64), appearanceOf(crop(k, 0, 1500 + k), 64)];
      const mask = occlusionMask(appearanceOf(mark(crop(k, 0, 1300 + k)), 64), exemplars);
      const G = Math.sqrt(mask?.length ?? 0);
      for (let y = 7; y <= 9; y++) for (let x = 15; x <= 17; x++) expect(mask?.[(y + 1) * G + x + 1] ?? 0, `${ids[k]} cell ${x},${y}`).toBe(0);
    }
    expect(occlusionMask(appearanceOf(crop(0, 0, 11), 64), [])).toBeNull();
    expect(appearanceSimilarityMasked(appearanceOf(crop(0, 0, 11), 64), new Float32Array(5), new Uint8Array(26 * 26))).toBeNull();
  });
});
