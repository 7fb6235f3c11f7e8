/**
 * The box's counts across a teach session (models/teach/counts.ts), sure cards against the other
 * copies of their type (models/teach/session.ts), and the tiles' side across a frame
 * (models/photo/outline.ts SideField): readings, pictures and points, no model.
 */
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Quad } from '../../calibration/geometry.js';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { SideField } from '../../models/photo/outline.js';
import { photoCandidates, SHOWN_PX, type PhotoReading } from '../../models/photo/read.js';
import { assignByCounts, boxCounts } from '../../models/teach/counts.js';
import type { TeachCard } from '../../models/teach/read.js';
import { copiesAgree, outlineNote, SURE_SIDE_OFF, TeachSession } from '../../models/teach/session.js';

const r = (tileId: string, confidence: number, rotation: PhotoReading['rotation'] = 0): PhotoReading => ({ tileId, rotation, confidence });

describe('the box counts', () => {
  it('no type is read first on more cards than the box holds: the least sure reading gives way to its next', () => {
    const counts = new Map([['X', 1], ['Y', 2], ['Z', 1]]);
    const a = { readings: [r('X', 0.99), r('Y', 0.01)] };
    const b = { readings: [r('X', 0.6), r('Z', 0.3), r('Y', 0.1)] };
    expect(assignByCounts([a, b], counts)).toEqual([0, 1]);
    // Z taken too (a third card sure of it): b takes its third reading rather than break a count.
    const c = { readings: [r('Z', 0.999), r('X', 0.001)] };
    expect(assignByCounts([a, b, c], counts)).toEqual([0, 2, 0]);
  });

  it('answered cards take their copies; types without a count are not limited; with every copy gone a card keeps its first', () => {
    const counts = new Map([['X', 1]]);
    const open = { readings: [r('X', 0.9), r('W', 0.1)] };
    expect(assignByCounts([{ readings: [], answered: 'X' }, open], counts)).toEqual([null, 1]);
    expect(assignByCounts([{ readings: [r('W', 0.9)] }, { readings: [r('W', 0.8)] }], counts)).toEqual([0, 0]);
    expect(assignByCounts([{ readings: [], answered: 'X' }, { readings: [r('X', 0.9)] }], counts)).toEqual([null, 0]);
  });

  it('the box is the catalog counts of the edition chosen', () => {
    const counts = boxCounts(photoCandidates('C2', ['base']), 'C2');
    const catalog = TileCatalog.classic();
    expect(counts.size).toBeGreaterThan(10);
    for (const [id, n] of counts) expect(n).toBe(catalog.get(id)!.counts.C2);
  });

  it('in a session a card the counts move shows the reading they give it first and is never sure; discarding the other card puts the model first back', () => {
    const crop = new Uint8Array(SHOWN_PX * SHOWN_PX * 3);
    const quad = (x: number): Quad => [{ x, y: 0 }, { x: x + 100, y: 0 }, { x: x + 100, y: 100 }, { x, y: 100 }];
    const card = (x: number, readings: PhotoReading[]): TeachCard => ({ corners: quad(x), why: null, cropPng: null, cropRgb: crop, readings: readings.slice(0, 3), alternatives: readings, present: 1, filled: 1, sideOff: 0 });
    const session = new TeachSession(new Map([['X', 1], ['Y', 1]]));
    session.addFrame([card(0, [r('X', 0.9999, 90), r('Y', 0.0001)]), card(300, [r('X', 0.99995, 180), r('Y', 0.00005, 270)])]);
    const [first, second] = session.cards;
    // The second card is surer of X: the first gives way, to Y.
    expect(second!.readings[0]).toMatchObject({ tileId: 'X', rotation: 180 });
    expect(first!.readings.map((x) => x.tileId)).toEqual(['Y', 'X']);
    expect(first!.byCounts).toBe(true);
    expect(session.isSure(first!)).toBe(false);
    expect(session.acceptAllSure()).toEqual([second!.id]);
    session.discard(second!.id);
    expect(first!.readings[0]).toMatchObject({ tileId: 'X', rotation: 90 });
    expect(first!.byCounts).toBe(false);
    expect(session.isSure(first!)).toBe(true);
    // Without counts, both keep the model's first.
    const plain = new TeachSession();
    plain.addFrame([card(0, [r('X', 0.9999, 90), r('Y', 0.0001)]), card(300, [r('X', 0.99995, 180), r('Y', 0.00005, 270)])]);
    expect(plain.cards.map((c) => c.readings[0]!.tileId)).toEqual(['X', 'X']);
  });
});

describe('sure cards and the other copies of their type', () => {
  /** A card's picture (SHOWN_PX square RGB) of a second-edition scan, turned and lit as given. */
  const pictureOf = async (tileId: string, turn: 0 | 90 | 180 | 270, light = 1) => {
    const { data } = await sharp(fileURLToPath(new URL(`../fixtures/realart/${tileId}.png`, import.meta.url))).removeAlpha().rotate(turn).resize(SHOWN_PX, SHOWN_PX).linear(light, 0).raw().toBuffer({ resolveWithObject: true });
    return new Uint8Array(data);
  };
  const quad = (x: number): Quad => [{ x, y: 0 }, { x: x + 100, y: 0 }, { x: x + 100, y: 100 }, { x, y: 100 }];
  const card = (x: number, crop: Uint8Array, readings: PhotoReading[]): TeachCard => ({ corners: quad(x), why: null, cropPng: null, cropRgb: crop, readings, alternatives: readings, present: 1, filled: 1, sideOff: 0 });

  it('a card read at 0.9999 is not sure when its picture is unlike the other copies read as its type; copies turned and lit differently are', async () => {
    const b1 = await pictureOf('BASE_B', 0), b2 = await pictureOf('BASE_B', 90, 0.8), a = await pictureOf('BASE_A', 0);
    // Copies of one print agree; a monastery with a road is not one without.
    expect(copiesAgree(b1, [b2])).toBe(true);
    expect(copiesAgree(a, [b1])).toBe(false);
    const session = new TeachSession();
    session.addFrame([card(0, b1, [r('BASE_B', 0.9999)]), card(300, b2, [r('BASE_B', 0.9999, 90)]), card(600, a, [r('BASE_B', 0.9999)])]);
    const [first, second, misread] = session.cards;
    expect(session.isSure(first!)).toBe(true);
    expect(session.isSure(second!)).toBe(true);
    expect(session.isSure(misread!)).toBe(false);
    expect(session.acceptAllSure()).toEqual([first!.id, second!.id]);
    // Taught copies count too: the misread card stays unsure beside them.
    expect(session.isSure(misread!)).toBe(false);
    // Two cards that disagree, with nothing else to go by: neither is sure.
    const two = new TeachSession();
    two.addFrame([card(0, b1, [r('BASE_B', 0.9999)]), card(300, a, [r('BASE_B', 0.9999)])]);
    expect(two.cards.map((c) => two.isSure(c))).toEqual([false, false]);
    // A card alone of its type is sure by its reading.
    const alone = new TeachSession();
    alone.addFrame([card(0, a, [r('BASE_A', 0.9999)])]);
    expect(alone.isSure(alone.cards[0]!)).toBe(true);
  });

  it('a card read at 0.9999 whose outline is not a tile\'s shape at its place is not sure: its picture is left for the table to see', async () => {
    const b1 = await pictureOf('BASE_B', 0), b2 = await pictureOf('BASE_B', 90);
    const session = new TeachSession();
    session.addFrame([card(0, b1, [r('BASE_B', 0.9999)]), { ...card(300, b2, [r('BASE_B', 0.9999, 90)]), sideOff: SURE_SIDE_OFF + 0.04 }]);
    const [cut, off] = session.cards;
    expect(session.isSure(cut!)).toBe(true);
    expect(session.isSure(off!)).toBe(false);
    expect(session.acceptAllSure()).toEqual([cut!.id]);
    expect(off!.state).toBe('open');
    // The table is told why the card is left to it; the card cut true says nothing.
    expect(outlineNote(off!)).toMatch(/outline found may be off this tile \(a side 12 % off/);
    expect(outlineNote(cut!)).toBeNull();
    session.discard(off!.id);
    expect(outlineNote(off!)).toBeNull();
  });
});

describe('the tiles\' side across a frame', () => {
  it('fits a + b·x + c·y through the outlined tiles, those far off left out', () => {
    const truth = (p: { x: number; y: number }) => 110 + 0.012 * p.x - 0.008 * p.y;
    const tiles: { at: { x: number; y: number }; side: number }[] = [];
    for (let i = 0; i < 14; i++) {
      const at = { x: 60 + ((i * 397) % 1160), y: 60 + ((i * 211) % 840) };
      tiles.push({ at, side: truth(at) });
    }
    // Two outlines that took a shadow's rim or a neighbour's edge: 12 % and 10 % too large (a plain
    // least-squares fit through them would be over 1 % off).
    const off = [{ at: { x: 600, y: 500 }, side: truth({ x: 600, y: 500 }) * 1.12 }, { at: { x: 200, y: 800 }, side: truth({ x: 200, y: 800 }) * 1.1 }];
    const field = SideField.fit([...tiles, ...off], 100);
    for (const p of [{ x: 0, y: 0 }, { x: 1280, y: 960 }, { x: 640, y: 100 }]) expect(Math.abs(field.at(p) / truth(p) - 1)).toBeLessThan(0.001);
    // Too few tiles for a plane: their median; none: the fallback.
    expect(SideField.fit(tiles.slice(0, 3), 100).at({ x: 5000, y: 5000 })).toBeCloseTo([...tiles.slice(0, 3).map((t) => t.side)].sort((a, b) => a - b)[1]!, 6);
    expect(SideField.fit([], 100).at({ x: 1, y: 1 })).toBe(100);
  });
});
