/** The River, named after the rules digest §8 (and §12.13, §12.14). Spring RIVER_A at [0, 0], river flowing east. */
import { describe, expect, it } from 'vitest';
import { Table } from '../table.js';

const river = (opts = {}) => new Table({ expansions: ['base', 'river'], ...opts });

describe('§8 The River', () => {
  it('the spring replaces the start tile', () => {
    const t = river();
    expect(t.state.board.tiles[0]!.view.tile.id).toBe('RIVER_A');
    expect(t.state.supply.get('RIVER_A')).toBe(0);
  });

  it('the base start tile goes back in the box, or stays in the stack as JCloisterZone keeps it', () => {
    expect(river({ tileSet: { riverStartTile: 'box' } }).state.supply.get('BASE_D')).toBe(3);
    expect(river({ tileSet: { riverStartTile: 'stack' } }).state.supply.get('BASE_D')).toBe(4);
  });

  it('river tiles are played before any land tile', () => {
    const t = river();
    const r = t.try({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [0, 1], rot: 0 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/the river comes first: 11 river tiles/);
  });

  it('the lake is the last river tile', () => {
    const t = river();
    const r = t.try({ type: 'placeTile', player: 0, tile: 'RIVER_L', at: [1, 0], rot: 180 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/lake is the last river tile/);
  });

  it('a river tile must continue the open end of the river', () => {
    const t = river();
    const away = t.try({ type: 'placeTile', player: 0, tile: 'RIVER_D', at: [-1, 0], rot: 0 });
    expect(away.ok).toBe(false);
    const sideways = t.try({ type: 'placeTile', player: 0, tile: 'RIVER_K', at: [1, 0], rot: 0 });
    expect(sideways.ok).toBe(false); // RIVER_K's river runs north–south: it cannot take the river from the west
    expect(t.try({ type: 'placeTile', player: 0, tile: 'RIVER_D', at: [1, 0], rot: 0 }).ok).toBe(true);
  });

  it('the river may not turn the same way twice in a row', () => {
    const t = river();
    t.turn('RIVER_G', [1, 0], 0); // east, then turns right (south)
    const again = t.try({ type: 'placeTile', player: 1, tile: 'RIVER_J', at: [1, 1], rot: 90 }); // right again
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.reason).toMatch(/same way twice in a row/);
    expect(t.try({ type: 'placeTile', player: 1, tile: 'RIVER_J', at: [1, 1], rot: 180 }).ok).toBe(true); // left
  });

  it('nor a third time the same way with straights between', () => {
    const t = river();
    t.turn('RIVER_G', [1, 0], 0); // right: now south
    t.turn('RIVER_D', [1, 1], 90); // straight
    t.turn('RIVER_J', [1, 2], 90); // right again after a straight: allowed, now west
    t.turn('RIVER_D', [0, 2], 0); // straight
    const third = t.try({ type: 'placeTile', player: 0, tile: 'RIVER_E', at: [-1, 2], rot: 270 }); // right a third time
    expect(third.ok).toBe(false);
    if (!third.ok) expect(third.reason).toMatch(/third time/);
  });

  it('meeples may use a river tile\'s city, road, cloister and fields, never the river', () => {
    const t = river();
    t.place('RIVER_B', [1, 0], 0);
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'W1' }).ok).toBe(false);
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'N1' }).ok).toBe(true);
  });

  it('the river splits fields like a road, but the field wraps round the spring; the river scores nothing', () => {
    const t = river();
    t.turn('RIVER_D', [1, 0], 0, { meeple: 'normal', on: 'N0' });
    const board = t.state.board;
    expect(board.partAt(1, 0, 'N0')).not.toBe(board.partAt(1, 0, 'S0'));
    expect(board.find(board.partAt(1, 0, 'N0')!)).toBe(board.find(board.partAt(1, 0, 'S0')!));
    t.turn('RIVER_C', [2, 0], 0);
    expect(board.find(board.partAt(2, 0, 'N0')!)).not.toBe(board.find(board.partAt(2, 0, 'S0')!));
    expect(t.finish().filter((s) => s.kind.startsWith('river'))).toEqual([]);
  });

  it('land tiles follow once the lake is placed', () => {
    const t = river();
    const course: [string, [number, number], 0 | 90 | 180 | 270][] = [
      ['RIVER_D', [1, 0], 0], ['RIVER_G', [2, 0], 0], ['RIVER_J', [2, 1], 180], ['RIVER_D', [3, 1], 0],
      ['RIVER_B', [4, 1], 0], ['RIVER_C', [5, 1], 0], ['RIVER_H', [6, 1], 0], ['RIVER_E', [7, 1], 90],
      ['RIVER_I', [7, 2], 180], ['RIVER_K', [8, 2], 90], ['RIVER_L', [9, 2], 0],
    ];
    for (const [tile, at, rot] of course) t.turn(tile, at, rot);
    expect(t.state.river?.openEnd).toBeNull();
    expect(t.try({ type: 'placeTile', player: t.player, tile: 'BASE_U', at: [0, 1], rot: 0 }).ok).toBe(true);
  });
});

describe('§12.14 an unplaceable tile', () => {
  it('goes back in the box and the same player draws again', () => {
    // An all-city start tile: a cloister tile fits nowhere.
    const t = new Table({ start: [{ tile: 'BASE_C', at: [0, 0], rot: 0 }] });
    const before = t.state.supply.get('BASE_B');
    t.do({ type: 'discardTile', player: 0, tile: 'BASE_B' });
    expect(t.state.supply.get('BASE_B')).toBe(before! - 1);
    expect(t.player).toBe(0);
    expect(t.state.turn.step).toBe('tile');
  });

  it('a tile that fits somewhere cannot be discarded', () => {
    const t = new Table({ start: [{ tile: 'BASE_C', at: [0, 0], rot: 0 }] });
    const r = t.try({ type: 'discardTile', player: 0, tile: 'BASE_E' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/fits somewhere/);
  });
});
