/**
 * The board's grid grows when tiles land far from the start: positions, holes and joined features
 * must not depend on where the grid happened to end.
 */
import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { Board, fitsHole } from '../../engine/features/board.js';
import { posKey } from '../../engine/geometry/position.js';

const catalog = TileCatalog.classic();
const road = catalog.view('BASE_U', 0); // straight road W-E, fields N and S
const cityAll = catalog.view('BASE_C', 0);

describe('board grid', () => {
  it('keeps tiles, holes and a long road right across several grid growths, both ways', () => {
    const board = new Board();
    const xs: number[] = [0];
    board.place(road, 0, 0);
    for (let i = 1; i <= 150; i++) {
      board.place(road, i, 0);
      board.place(road, -i, 0);
      xs.push(i, -i);
    }
    for (const x of xs) expect(board.at(x, 0)?.x).toBe(x);
    expect(board.at(151, 0)).toBeUndefined();
    expect(board.at(0, 1)).toBeUndefined();
    expect(board.at(-1000, 5)).toBeUndefined();
    // Holes: both ends, and above and below every tile.
    expect(board.holes.size).toBe(2 + 2 * xs.length);
    for (const x of xs) {
      expect(board.holes.get(posKey(x, -1))).toMatchObject({ x, y: -1 });
      expect(board.holes.get(posKey(x, 1))).toMatchObject({ x, y: 1 });
    }
    expect(board.holeList()).toHaveLength(board.holes.size);
    // One road over 301 tiles, open at both ends.
    const part = board.at(0, 0)!.parts[road.features.findIndex((f) => f.def.kind === 'road')]!;
    expect(board.tileCount(part)).toBe(301);
    expect(board.feature(part).open).toBe(2);
  });

  it('answers fit tests from holes opened before and after a growth', () => {
    const board = new Board();
    board.place(cityAll, 0, 0);
    board.holeList(); // from here on the ordered list is kept up to date
    board.place(cityAll, 0, 40); // far away: the grid grows
    board.place(cityAll, 0, -40);
    expect(board.holeList().map((h) => [h.x, h.y])).toEqual([...board.holes.values()].map((h) => [h.x, h.y]));
    // City on every side: only a city edge fits next to it; a road tile never does.
    const above = board.holes.get(posKey(0, -1))!;
    expect(fitsHole(catalog.view('BASE_E', 0), above)).toBe(false); // city cap faces north, field south
    expect(fitsHole(catalog.view('BASE_E', 2), above)).toBe(true); // turned: its city faces the tile below
    expect(fitsHole(road, board.holes.get(posKey(1, 40))!)).toBe(false);
    board.place(catalog.view('BASE_E', 2), 0, -1);
    expect(board.holes.has(posKey(0, -1))).toBe(false);
    expect(board.holeList().some((h) => h.x === 0 && h.y === -1)).toBe(false);
  });
});
