import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { turnPixels, turnSourceIndex } from '../../models/turn.js';

describe('turning square pixels', () => {
  it('the source index table names, for each place, the pixel a clockwise turn brings there (turnPixels copies through it)', () => {
    // Destination (x, y) after q clockwise quarter turns shows the source pixel written out here.
    const source = (S: number, q: number, x: number, y: number): [number, number] =>
      [[x, y], [y, S - 1 - x], [S - 1 - x, S - 1 - y], [S - 1 - y, x]][q] as [number, number];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (S, q, seed) => {
        const px = new Uint8Array(S * S * 3).map((_, i) => (i * 97 + seed) & 255);
        const turned = turnPixels(px, S, 3, q);
        const from = turnSourceIndex(S, q);
        const n = ((q % 4) + 4) % 4;
        for (let y = 0; y < S; y++)
          for (let x = 0; x < S; x++) {
            const [sx, sy] = source(S, n, x, y);
            expect(from[y * S + x]).toBe(sy * S + sx);
            for (let c = 0; c < 3; c++) expect(turned[(y * S + x) * 3 + c]).toBe(px[(sy * S + sx) * 3 + c]);
          }
      }),
    );
  });

  it('four quarter turns give the picture back; a half turn reverses the pixel order', () => {
    const S = 5;
    const px = new Uint8Array(S * S).map((_, i) => i);
    expect(Array.from(turnPixels(turnPixels(turnPixels(turnPixels(px, S, 1, 1), S, 1, 1), S, 1, 1), S, 1, 1))).toEqual(Array.from(px));
    expect(Array.from(turnPixels(px, S, 1, 2))).toEqual(Array.from(px).reverse());
    expect(Array.from(turnSourceIndex(S, 2))).toEqual(Array.from(px).reverse());
  });
});
