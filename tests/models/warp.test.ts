import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { rng } from '../../models/render/random.js';
import { TRAIN_STYLES } from '../../models/render/styles.js';
import type { Rgba } from '../../models/synth/image.js';
import { warpFace } from '../../models/synth/warp.js';
import { FACE_PX, renderFaces } from '../../models/synth/world.js';

const catalog = TileCatalog.classic();
const tiles = ['BASE_S', 'BASE_B', 'BASE_K'].map((id) => catalog.get(id)!);

/** Mean absolute channel difference over the pixels where `where(x, y)` holds. */
function diff(a: Rgba, b: Rgba, where: (x: number, y: number) => boolean): number {
  let sum = 0, n = 0;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      if (!where(x, y)) continue;
      for (let k = 0; k < 3; k++) sum += Math.abs(a.data[(y * a.width + x) * 4 + k]! - b.data[(y * a.width + x) * 4 + k]!);
      n += 3;
    }
  return sum / n;
}

describe('warped training faces', () => {
  it('bend the interior, keep the border where the edges meet the neighbours, and repeat from their seed', async () => {
    const plain = await renderFaces(tiles, [TRAIN_STYLES[0]!], [1000], { vary: true, movePennants: false });
    const warped = await renderFaces(tiles, [TRAIN_STYLES[0]!], [1000], { vary: true, movePennants: false, warp: true });
    const again = await renderFaces(tiles, [TRAIN_STYLES[0]!], [1000], { vary: true, movePennants: false, warp: true });
    const border = (x: number, y: number) => Math.min(x, y, FACE_PX - 1 - x, FACE_PX - 1 - y) === 0;
    const interior = (x: number, y: number) => Math.min(x, y, FACE_PX - 1 - x, FACE_PX - 1 - y) >= 20;
    plain.forEach((p, i) => {
      const w = warped[i]!.image;
      expect(diff(p.image, w, border), `${tiles[i]!.id} border`).toBeLessThan(1);
      expect(diff(p.image, w, interior), `${tiles[i]!.id} interior`).toBeGreaterThan(3);
      expect(Buffer.from(again[i]!.image.data).equals(Buffer.from(w.data))).toBe(true);
      expect([w.width, w.height]).toEqual([FACE_PX, FACE_PX]);
    });
  });

  it('leave a face as it was when the bend is zero', async () => {
    const [face] = await renderFaces(tiles.slice(0, 1), [TRAIN_STYLES[0]!], [1000], { vary: true });
    expect(diff(face!.image, warpFace(face!.image, rng(1), 0), () => true)).toBe(0);
  });
});
