import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { attributeLogLikelihood, attributeTable } from '../../models/attributes.js';

// The names in the order models/train/train.py `attribute_names` gives them.
const SEG = ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'];
const NAMES = [
  'pennant', 'cloister', 'garden', 'inn', 'cathedral', 'towerFoundation',
  ...SEG.flatMap((a, i) => SEG.slice(i + 1).map((b) => `same:${a}-${b}`)),
  ...SEG.map((s) => `pennantCity:${s}`),
  ...SEG.map((s) => `innRoad:${s}`),
];

describe('tile attributes', () => {
  const catalog = TileCatalog.classic();
  const table = attributeTable(NAMES);
  const on = (id: string, q: number) => {
    const v = table.expected(catalog.get(id)!, q);
    return NAMES.filter((_, i) => v[i] === 1 && !NAMES[i]!.startsWith('same:'));
  };
  const joined = (id: string, q: number, a: string, b: string) => table.expected(catalog.get(id)!, q)[NAMES.indexOf(`same:${a}-${b}`)] === 1;

  it('reads the marks and the marked segments from the catalog, turned', () => {
    expect(on('BASE_A', 0)).toEqual(['cloister']);
    // IC_A: a road curve W-S with an inn; a quarter turn clockwise takes W to N and S to W.
    expect(on('IC_A', 0)).toEqual(['inn', 'innRoad:S1', 'innRoad:W1']);
    expect(on('IC_A', 1)).toEqual(['inn', 'innRoad:N1', 'innRoad:W1']);
    expect(on('TOWER_RRG', 0)).toEqual(['garden', 'towerFoundation']);
    expect(on('BASE_F', 0)).toEqual(['pennant', 'pennantCity:E0', 'pennantCity:E1', 'pennantCity:E2', 'pennantCity:W0', 'pennantCity:W1', 'pennantCity:W2']);
  });

  it('joins the segments one feature holds, and only those', () => {
    expect(joined('BASE_F', 0, 'E1', 'W1')).toBe(true); // the city across the tile
    expect(joined('BASE_F', 0, 'N1', 'S1')).toBe(false); // the two fields it parts
    expect(joined('BASE_K', 0, 'S1', 'W1')).toBe(true); // K's road curve goes on…
    expect(joined('BASE_L', 0, 'S1', 'W1')).toBe(false); // …L's roads end at the junction
  });

  it('turns a view’s attributes back into the crop frame for every tile and turn', () => {
    for (const tile of catalog.all()) {
      for (let q = 0; q < 4; q++) {
        const crop = table.expected(tile, q);
        for (let turn = 1; turn < 4; turn++) {
          const view = table.expected(tile, (q + turn) % 4);
          const at = table.viewIndex(turn);
          expect(Array.from(crop, (_, i) => view[at[i]!]), `${tile.id} q${q} turn ${turn}`).toEqual(Array.from(crop));
        }
      }
    }
  });

  it('scores the tile whose attributes the probabilities say above its look-alike', () => {
    const probs = Float32Array.from(table.expected(catalog.get('BASE_U_G')!, 0), (t) => (t ? 0.9 : 0.1));
    const withGarden = attributeLogLikelihood(probs, table.expected(catalog.get('BASE_U_G')!, 0));
    const without = attributeLogLikelihood(probs, table.expected(catalog.get('BASE_U')!, 0));
    expect(withGarden - without).toBeCloseTo(Math.log(0.9) - Math.log(0.1), 5);
  });

  it('refuses names it does not know, and names without a turned counterpart', () => {
    expect(() => attributeTable(['pennant', 'sparkle'])).toThrow(/sparkle/);
    expect(() => attributeTable(['same:N0-N1'])).toThrow(/turned counterpart same:E0-E1/);
  });
});
