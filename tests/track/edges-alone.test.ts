// The move a cell's edges alone name (models/track/edges-alone.ts): the segment head's reading of
// the twelve edge segments against the legal moves' terrain.
import { describe, expect, it } from 'vitest';
import { createGame, defaultCatalog } from '../../engine/game/engine.js';
import { TERRAINS } from '../../engine/catalog/types.js';
import { makeSetup } from '../../engine/game/setup.js';
import { edgesAlone, movesShowingEdges, turnsByEdges } from '../../models/track/edges-alone.js';
import type { Reading } from '../../models/track/reading.js';

const catalog = defaultCatalog();
const reading = (tile: string, q: number): Reading => ({ tile, q, d: 0, match: { d: 0, sx: 0, sy: 0, gain: [1, 1, 1] } });
const all = (...tiles: string[]) => tiles.flatMap((t) => [0, 1, 2, 3].map((q) => reading(t, q)));

/** A segment head sure (to `sure`) of the terrain `tile` shows at turn `q` on every segment, in the crop frame. */
function segmentsOf(tile: string, q: number, sure = 0.999, unsureAt: { segment: number; other: string; share: number } | null = null): { segments: Float32Array } {
  const t = catalog.get(tile)!;
  const segments = new Float32Array(48);
  for (let i = 0; i < 12; i++) {
    const shown = TERRAINS.indexOf(t.segments[(i - 3 * q + 12) % 12]!);
    for (let k = 0; k < 4; k++) segments[i * 4 + k] = k === shown ? sure : (1 - sure) / 3;
    if (unsureAt?.segment === i) {
      const other = TERRAINS.indexOf(unsureAt.other as (typeof TERRAINS)[number]);
      segments[i * 4 + shown] = 1 - unsureAt.share;
      segments[i * 4 + other] = unsureAt.share;
    }
  }
  return { segments };
}

describe('edgesAlone', () => {
  it('names the one legal move whose edges the segments read, turn included', () => {
    const got = edgesAlone(segmentsOf('BASE_J', 1), TERRAINS, catalog, all('BASE_E', 'BASE_J', 'BASE_K', 'BASE_V'));
    expect(got?.reading.tile).toBe('BASE_J');
    expect(got?.reading.q).toBe(1);
    // Every other legal move shows other terrain on at least one segment read at 0.999: far below.
    expect(got!.p).toBeGreaterThan(0.999999);
  });

  it('names nothing where twins show the same edges (a garden: which one lies there is not an edge matter)', () => {
    expect(edgesAlone(segmentsOf('BASE_U', 0), TERRAINS, catalog, all('BASE_U', 'BASE_U_G', 'BASE_V'))).toBeNull();
    // With the twin not legal there (none left, say), the edges name the straight road.
    const alone = edgesAlone(segmentsOf('BASE_U', 0), TERRAINS, catalog, all('BASE_U', 'BASE_V'));
    expect(alone?.reading.tile).toBe('BASE_U');
  });

  it("takes a symmetric tile's equivalent turns as one move", () => {
    const got = edgesAlone(segmentsOf('BASE_U', 2), TERRAINS, catalog, all('BASE_U', 'BASE_W'));
    expect(got?.reading.tile).toBe('BASE_U');
    expect([0, 2]).toContain(got!.reading.q);
  });

  it('says how far the edges tell two moves apart where one segment is in doubt', () => {
    // BASE_W (a T junction) and BASE_V (a bend) differ on one segment only, the road on side E.
    const ws = segmentsOf('BASE_W', 0, 0.999, { segment: 4, other: 'field', share: 0.4 });
    const got = edgesAlone(ws, TERRAINS, catalog, [reading('BASE_W', 0), reading('BASE_V', 0)]);
    expect(got?.reading.tile).toBe('BASE_W');
    expect(got!.p).toBeCloseTo(0.6, 2);
  });

  it('names nothing where the best legal edges are not the edges the segments read', () => {
    // One legal move: among the legal moves alone it would be certain, whatever lies there.
    expect(edgesAlone(segmentsOf('BASE_X', 0), TERRAINS, catalog, [reading('BASE_E', 0)])).toBeNull();
    // A T junction read where only bends and straight roads are legal.
    expect(edgesAlone(segmentsOf('BASE_W', 0), TERRAINS, catalog, all('BASE_V', 'BASE_E'))).toBeNull();
    // One segment read the other way, just: not the head's own reading of that segment.
    const ws = segmentsOf('BASE_W', 0, 0.999, { segment: 4, other: 'field', share: 0.6 });
    expect(edgesAlone(ws, TERRAINS, catalog, [reading('BASE_W', 0), reading('BASE_E', 0)])).toBeNull();
  });

  it('names nothing without legal moves', () => {
    expect(edgesAlone(segmentsOf('BASE_E', 0), TERRAINS, catalog, [])).toBeNull();
  });
});

describe('turnsByEdges', () => {
  it("orders a named tile's turns by the edges the segments read, each with its probability among them", () => {
    const w = catalog.get('BASE_W')!;
    const got = turnsByEdges(segmentsOf('BASE_W', 3), TERRAINS, w, [0, 1, 2, 3]);
    expect(got.map((t) => t.q)[0]).toBe(3);
    expect(got[0]!.p).toBeGreaterThan(0.999);
    expect(got.reduce((sum, t) => sum + t.p, 0)).toBeCloseTo(1, 9);
    // Among the turns asked about only: without the one read, none is sure.
    const without = turnsByEdges(segmentsOf('BASE_W', 3), TERRAINS, w, [0, 1, 2]);
    expect(without.map((t) => t.q).sort()).toEqual([0, 1, 2]);
    expect(without[0]!.p).toBeLessThan(0.999);
  });

  it('gives turns that show the same edges the same probability (a straight road turned half round)', () => {
    const got = turnsByEdges(segmentsOf('BASE_U', 0), TERRAINS, catalog.get('BASE_U')!, [0, 1, 2, 3]);
    expect(got.slice(0, 2).map((t) => t.q).sort()).toEqual([0, 2]);
    expect(got[0]!.p).toBeCloseTo(got[1]!.p, 9);
    expect(got[0]!.p + got[1]!.p).toBeGreaterThan(0.999);
  });
});

describe('movesShowingEdges', () => {
  const start = (edition: 'C1' | 'C2') => {
    const g = createGame(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }], tileSet: { edition } }));
    if (!g.ok) throw new Error(g.reason);
    return g.value.state;
  };

  it('counts the legal moves beside the start tile that show the same edges, twins and the edition included', () => {
    // A straight road east of the start tile: with the second edition's garden twin, two moves.
    expect(movesShowingEdges(start('C2'), 'BASE_U', 0, [1, 0])).toBe(2);
    // The first edition prints no gardens: the edges name it alone.
    expect(movesShowingEdges(start('C1'), 'BASE_U', 0, [1, 0])).toBe(1);
    // A crossroads: no other base tile has four roads.
    expect(movesShowingEdges(start('C2'), 'BASE_X', 0, [1, 0])).toBe(1);
    // A turn the start tile's road does not meet: no legal move shows those edges.
    expect(movesShowingEdges(start('C2'), 'BASE_U', 1, [1, 0])).toBe(0);
  });
});
