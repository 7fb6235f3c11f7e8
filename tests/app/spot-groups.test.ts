import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { tileView } from '../../electron/services/session/view.js';
import { TILE, figureSpot } from '../../renderer/src/lib/board-art.js';
import { CLICK_CLEAR, SPOT_SPACING, placeSpotGroups, spotCentres } from '../../renderer/src/lib/spot-groups.js';

/** Every figure that could stand on each feature of a tile: a meeple and a big one, an abbot where one may. */
function everySpot(features: readonly { name: string; kind: string }[]) {
  // A tower foundation holds tower pieces, a river and a fortress no figure (the engine offers no spot there).
  return features.filter((f) => !['tower', 'river', 'fortress'].includes(f.kind)).flatMap((f) => [
    { kind: 'normal', on: f.name },
    { kind: 'big', on: f.name },
    ...(f.kind === 'cloister' || f.kind === 'garden' ? [{ kind: 'abbot', on: f.name }] : []),
  ]);
}

describe('figure spots drawn on a tile (the board, the tile shown under the pointer)', () => {
  const catalog = TileCatalog.standard();

  it('every spot of every tile type at every turn lies on its tile, beside its feature, its middle (where a click lands) under no other spot', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const tile of catalog.all()) {
      for (const [q, v] of catalog.views(tile.id).entries()) {
        const view = tileView(v, 3, 7);
        const groups = placeSpotGroups(everySpot(view.features), (on) => figureSpot(view, on), TILE);
        for (const g of groups) {
          const [fx, fy] = figureSpot(view, g.on);
          // Moved at most 40 units, and then kept on the tile (a pair near a side: 11 units more).
          if (Math.hypot(g.x - fx, g.y - fy) > 52) problems.push(`${tile.id} q${q} ${g.on}: drawn ${Math.hypot(g.x - fx, g.y - fy).toFixed(0)} units from its feature`);
        }
        const centres = groups.flatMap((g) => spotCentres(g.group.length, g.x, g.y).map((c) => ({ on: g.on, c })));
        for (const { on, c } of centres) {
          checked++;
          if (c[0] < 10 || c[0] > TILE - 10 || c[1] < 10 || c[1] > TILE - 10) problems.push(`${tile.id} q${q} ${on}: off the tile at ${c.join(',')}`);
        }
        for (let i = 0; i < centres.length; i++)
          for (let j = i + 1; j < centres.length; j++) {
            const d = Math.hypot(centres[i]!.c[0] - centres[j]!.c[0], centres[i]!.c[1] - centres[j]!.c[1]);
            if (d < CLICK_CLEAR - 0.01) problems.push(`${tile.id} q${q}: ${centres[i]!.on} and ${centres[j]!.on} ${d.toFixed(1)} apart`);
          }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
  });

  it('an enclosed field and its garden in the middle of four cities (IC_H_G) get spots of their own on the tile', () => {
    const view = tileView(catalog.view('IC_H_G', 0), 1, 2);
    const list = everySpot(view.features);
    const groups = placeSpotGroups(list, (on) => figureSpot(view, on), TILE);
    const middle = groups.filter((g) => g.on === 'field1' || g.on === 'GARDEN');
    expect(middle).toHaveLength(2);
    // Both drawn about the tile's middle, one moved, neither beyond the tile.
    expect(figureSpot(view, 'field1')).toEqual(figureSpot(view, 'GARDEN'));
    expect(middle[0]!.x !== middle[1]!.x || middle[0]!.y !== middle[1]!.y).toBe(true);
    for (const g of middle) expect(g.y).toBeLessThanOrEqual(TILE - 12);
  });

  it('a feature whose spot is clear keeps the spot its drawing gives it', () => {
    const view = tileView(catalog.view('BASE_D', 1), 0, 0);
    const groups = placeSpotGroups([{ kind: 'normal', on: view.features[0]!.name }], (on) => figureSpot(view, on), TILE);
    expect([groups[0]!.x, groups[0]!.y]).toEqual([...figureSpot(view, view.features[0]!.name)]);
  });
});
