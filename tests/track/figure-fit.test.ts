import { describe, expect, it } from 'vitest';
import { CROP_PX, differenceMask, maskedDistance, maskedFigureDistance, type CellCrop } from '../../models/track/templates.js';
import { classifyOutcome } from '../../models/track/errors.js';

/** A flat tile colour with a square figure of `colour` mixed in at `strength` over (u0, v0)…(u0+w). */
function crop(strength: number, u0 = 10, v0 = 12, w = 6): CellCrop {
  const c = new Float32Array(CROP_PX * CROP_PX * 3);
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++) {
      const o = (v * CROP_PX + u) * 3;
      const fig = u >= u0 && u < u0 + w && v >= v0 && v < v0 + w ? strength : 0;
      const tile = [110, 170, 60], meeple = [200, 30, 30];
      for (let k = 0; k < 3; k++) c[o + k] = tile[k]! * (1 - fig) + meeple[k]! * fig;
    }
  return c;
}
const still = { sx: 0, sy: 0, gain: [1, 1, 1] as [number, number, number] };

describe('reading a figure by its fitted strength', () => {
  const base = crop(0), here = crop(1), there = crop(1, 20, 4);
  const mask = differenceMask(base, [here, there]);

  it('compares only where the hypotheses differ (the two footprints, grown by a pixel)', () => {
    const n = mask.reduce((a, b) => a + b, 0);
    expect(n).toBe(2 * 8 * 8);
  });

  it('finds a washed-out figure at about its strength, at the right spot', () => {
    const seen = crop(0.5);
    const atHere = maskedFigureDistance(seen, base, here, still, mask);
    const atThere = maskedFigureDistance(seen, base, there, still, mask);
    expect(atHere.a).toBeCloseTo(0.5, 2);
    expect(atHere.d).toBeLessThan(1e-6);
    expect(atThere.a).toBe(0.3); // nothing there: the floor
    expect(atThere.d).toBeGreaterThan(maskedDistance(seen, base, still, mask) - 1e-9);
  });

  it('a bare tile needs only the floor strength anywhere, and "no figure" fits best', () => {
    const bare = crop(0);
    const fit = maskedFigureDistance(bare, base, here, still, mask);
    expect(fit.a).toBe(0.3);
    expect(maskedDistance(bare, base, still, mask)).toBeLessThan(fit.d);
  });
});

describe('error classes of a replay', () => {
  const tile = { type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, 0], rot: 0 } as const;
  it('names what was wrong in a reading', () => {
    expect(classifyOutcome({ truth: tile, index: 3, result: 'exact', got: tile })).toBe('tile: exact');
    expect(classifyOutcome({ truth: tile, index: 3, result: 'wrong', got: { ...tile, rot: 90 } })).toBe('tile: wrong rotation, committed wrong');
    expect(classifyOutcome({ truth: tile, index: 3, result: 'unsure', got: { ...tile, tile: 'BASE_V' } })).toBe('tile: wrong type, unsure, left to the table');
    expect(classifyOutcome({ truth: tile, index: 3, result: 'missed' })).toBe('tile: not seen (the table entered it)');
    const fig = { type: 'placeMeeple', player: 0, kind: 'normal', on: 'N0' } as const;
    expect(classifyOutcome({ truth: fig, index: 4, result: 'unsure', got: { ...fig, on: 'E1' } })).toBe('figure: wrong feature, unsure, left to the table');
    expect(classifyOutcome({ truth: null, index: 5, result: 'extra', got: fig })).toBe('figure: seen where there was none (committed, taken back)');
  });
  it('a turn of a symmetric tile equal up to symmetry is no rotation error', () => {
    const road = { type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, 0], rot: 0 } as const;
    expect(classifyOutcome({ truth: road, index: 3, result: 'unsure', got: { ...road, rot: 180 } })).toBe('tile: right but unsure, left to the table');
  });
});
