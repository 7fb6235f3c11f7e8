import { describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../engine/game/engine.js';
import { featurePoint, namedPoint } from '../../models/scene/spots.js';
import { FIGURE_SHIFT, figureMatch } from '../../models/track/figure-align.js';
import { figurePresence } from '../../models/track/figure-presence.js';
import { CROP_PX, matchTemplate, type CellCrop } from '../../models/track/templates.js';

describe('where a figure stands', () => {
  const catalog = defaultCatalog();

  it('two features of a tile never share a standing point (a field beside a corner city was 1.4 mm from the city)', () => {
    const close: string[] = [];
    for (const t of catalog.all()) {
      const v = catalog.view(t.id, 0);
      for (const a of v.features)
        for (const b of v.features) {
          if (a.index >= b.index) continue;
          // Features without segments (a cloister, a garden, a tower's foundation) have one place only, the tile's interior.
          if (t.features[a.index]!.segments.length === 0 && t.features[b.index]!.segments.length === 0) continue;
          const p = featurePoint(v, a.index), q = featurePoint(v, b.index);
          if (Math.hypot(p[0] - q[0], p[1] - q[1]) < 0.15) close.push(`${t.id} ${a.name}/${b.name}`);
        }
    }
    expect(close).toEqual([]);
  });

  it('a road that ends at a cloister beside its side stands nearer the side: RIVER_H\'s road and cloister were 1 mm apart', () => {
    const v = catalog.view('RIVER_H', 0);
    const road = namedPoint(v, 'S1')!, cloister = namedPoint(v, 'CLOISTER')!;
    expect(Math.hypot(road[0] - cloister[0], road[1] - cloister[1])).toBeGreaterThanOrEqual(0.15);
    // Still on the road, and on the tile: 3 mm in from the south side.
    expect(road[0]).toBeCloseTo(0.5, 9);
    expect(road[1]).toBeLessThanOrEqual(0.93);
  });

  it('moves only the points that were too close: a lone city keeps its spot by its side', () => {
    // BASE_E: one city side (north); its figure stands 11 % of a tile in from that side.
    expect(namedPoint(catalog.view('BASE_E', 0), 'N1')).toEqual([0.5, 0.11]);
    // BASE_P: the corner city (north and west) now stands in its wide corner, away from the field.
    const p = namedPoint(catalog.view('BASE_P', 0), 'N1')!, field = namedPoint(catalog.view('BASE_P', 0), 'E0')!;
    expect(p[0]).toBeLessThan(0.3);
    expect(p[1]).toBeLessThan(0.3);
    expect(Math.hypot(p[0] - field[0], p[1] - field[1])).toBeGreaterThan(0.5);
  });

  it('turns with the tile', () => {
    const p0 = namedPoint(catalog.view('BASE_E', 0), 'N1')!;
    const p90 = namedPoint(catalog.view('BASE_E', 1), 'E1')!;
    expect(p90[0]).toBeCloseTo(1 - p0[1], 9);
    expect(p90[1]).toBeCloseTo(p0[0], 9);
  });
});

describe('the tile’s place for reading a figure', () => {
  // A drawing with detail everywhere (so that every shift fits differently), and the crop of it lying
  // `by` pixels to the right, as a tile does when the table plane is solved a few mm off.
  const tpl: CellCrop = new Float32Array(CROP_PX * CROP_PX * 3);
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++)
      for (let k = 0; k < 3; k++) tpl[(v * CROP_PX + u) * 3 + k] = 120 + 60 * Math.sin(u * 0.9 + k) * Math.cos(v * 0.7 - k) + ((u * 7 + v * 13) % 5) * 4;
  const shifted = (by: number): CellCrop => {
    const c = new Float32Array(tpl.length);
    for (let v = 0; v < CROP_PX; v++)
      for (let u = 0; u < CROP_PX; u++)
        for (let k = 0; k < 3; k++) c[(v * CROP_PX + u) * 3 + k] = tpl[(v * CROP_PX + Math.max(0, u - by)) * 3 + k]!;
    return c;
  };

  it('a tile 3 px off matches at the edge of the tile search; the figure is read where it really lies', () => {
    const now = shifted(3);
    const read = matchTemplate(now, tpl);
    expect(read.sx).toBe(2);
    const m = figureMatch(now, tpl, read);
    expect(m.sx).toBe(FIGURE_SHIFT);
    expect(m.sy).toBe(0);
    expect(m.d).toBeLessThan(read.d / 10);
  });

  it('a tile inside the search keeps its match', () => {
    const now = shifted(1);
    const read = matchTemplate(now, tpl);
    expect(read.sx).toBe(1);
    expect(figureMatch(now, tpl, read)).toBe(read);
  });
});

describe('whether a figure stands there, by the player’s colour', () => {
  // The tracker's own thresholds (set on c1/c2), for every colour without an entry.
  const TRACKER = { unseen: 0.38, seen: 0.45 };
  const verdict = (colour: string | undefined, a: number) => {
    const t = figurePresence(colour, TRACKER);
    return a < t.unseen ? 'none' : a < t.seen ? 'ask' : 'seen';
  };

  it('a blue figure fits weaker (its contrast is mostly chroma, halved by 4:2:0): seen from a lower strength', () => {
    // Tuning: seen blue figures fitted from 0.38, bare tiles under a blue hypothesis at most 0.33.
    expect(verdict('blue', 0.33)).toBe('none');
    expect(verdict('blue', 0.36)).toBe('ask');
    expect(verdict('blue', 0.38)).toBe('seen');
    expect(verdict('red', 0.38)).toBe('ask');
  });

  it('every other colour keeps the thresholds set on c1/c2: a bare red tile fitted once at 0.44 is asked about, not committed', () => {
    for (const c of ['red', 'green', 'yellow', 'black', 'grey', undefined]) expect(figurePresence(c, TRACKER)).toBe(TRACKER);
    expect(verdict('red', 0.44)).toBe('ask');
    expect(verdict('red', 0.3)).toBe('none');
    expect(verdict('red', 0.5)).toBe('seen');
  });
});
