import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { CROP_PX, differenceMask, maskedDistance, maskedLumaDistance, TileTemplates, type CellCrop } from '../../models/track/templates.js';

const LUMA = [0.299, 0.587, 0.114];

/**
 * What a camera's 4:2:0 JPEG does to a crop: luma kept per pixel, chroma (Cb, Cr) averaged over
 * 2×2 blocks. The gap around the tile (NaN in a template) becomes a table brown.
 */
function subsampledChroma(tpl: CellCrop): CellCrop {
  const px = (i: number) => [0, 1, 2].map((k) => (Number.isNaN(tpl[i * 3 + k]!) ? [120, 90, 60][k]! : tpl[i * 3 + k]!));
  const out = new Float32Array(tpl.length);
  for (let v = 0; v < CROP_PX; v += 2)
    for (let u = 0; u < CROP_PX; u += 2) {
      const block = [[u, v], [u + 1, v], [u, v + 1], [u + 1, v + 1]].map(([x, y]) => y! * CROP_PX + x!);
      let cb = 0, cr = 0;
      for (const i of block) {
        const [r, g, b] = px(i) as [number, number, number];
        const y = LUMA[0]! * r + LUMA[1]! * g + LUMA[2]! * b;
        cb += (b - y) / 4; cr += (r - y) / 4;
      }
      for (const i of block) {
        const [r, g, b] = px(i) as [number, number, number];
        const y = LUMA[0]! * r + LUMA[1]! * g + LUMA[2]! * b;
        // Back to RGB from the pixel's own luma and the block's chroma.
        const R = y + cr, B = y + cb, G = (y - LUMA[0]! * R - LUMA[2]! * B) / LUMA[1]!;
        out[i * 3] = R; out[i * 3 + 1] = G; out[i * 3 + 2] = B;
      }
    }
  return out;
}

describe('look-alike prize tiles compared where they differ, in luma', () => {
  it('a coat of arms whose colour the camera smeared is told apart better in luma than in RGB', async () => {
    const templates = await TileTemplates.enroll(TileCatalog.standard(), 'c3');
    const still = { sx: 0, sy: 0, gain: [1, 1, 1] as [number, number, number] };
    // Pairs that differ by one coat of arms (one or two shields, or none): the truth first.
    const pairs = [['JC-P-05', 'JC-P-09'], ['JC-P-09', 'JC-P-05'], ['JC-P-01', 'JC-P-07'], ['JC-P-03', 'JC-P-10'], ['JC-P-11', 'JC-P-06']] as const;
    for (const [truth, other] of pairs)
      for (let q = 0; q < 4; q++) {
        const a = templates.get(truth, q)!, b = templates.get(other, q)!;
        const mask = differenceMask(a, [b], 12);
        expect(mask.reduce((s, x) => s + x, 0), `${truth}/${other} differ somewhere`).toBeGreaterThan(0);
        const seen = subsampledChroma(a);
        // Luma is untouched by the subsampling: the true tile fits exactly and the look-alike does not.
        const lumaRight = maskedLumaDistance(seen, a, still, mask), lumaWrong = maskedLumaDistance(seen, b, still, mask);
        expect(lumaRight).toBeLessThan(1e-9);
        expect(lumaWrong).toBeGreaterThan(1e-4);
        // In RGB the smeared colour costs the true tile too: its lead over the look-alike is smaller.
        const rgbRight = maskedDistance(seen, a, still, mask), rgbWrong = maskedDistance(seen, b, still, mask);
        expect(rgbRight).toBeGreaterThan(1e-4);
        expect(lumaWrong / Math.max(lumaRight, 1e-12)).toBeGreaterThan(rgbWrong / rgbRight);
      }
  });
});
