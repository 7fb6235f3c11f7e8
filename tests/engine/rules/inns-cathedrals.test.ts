/**
 * Inns & Cathedrals (first edition), named after the rules digest §10 (and §12.3, §12.9), with the
 * first-edition examples: an inn road of 3 tiles scores 6; a cathedral city 24; unfinished, 0.
 */
import { describe, expect, it } from 'vitest';
import { brief, Table } from '../table.js';

const ic = (opts = {}) => new Table({ expansions: ['base', 'inns-cathedrals'], ...opts });

/** IC_K at the centre with four arms: 7 tiles and 1 pennant. The last cap completes it. */
function cathedralCity(t: Table, complete = true) {
  t.turn('BASE_F', [0, -1], 90, { meeple: 'normal', on: 'S1' });
  t.turn('BASE_E', [0, -2], 180);
  t.turn('BASE_G', [1, 0], 0);
  t.turn('BASE_E', [2, 0], 270);
  t.turn('BASE_E', [0, 1], 0);
  return complete ? t.turn('BASE_E', [-1, 0], 90) : [];
}

describe('§10 Inns & Cathedrals', () => {
  it('a sixth player may join, and each player has one big meeple', () => {
    const t = ic({ players: 6 });
    expect(t.state.players).toHaveLength(6);
    expect(t.supply(5, 'big')).toBe(1);
    expect(() => new Table({ players: 6 })).toThrow(/at most 5 players/);
  });

  it('the big meeple counts as two for majority, and is one figure', () => {
    const t = ic();
    t.turn('BASE_A', [-1, 0], 270, { meeple: 'big', on: 'E1' });
    t.turn('BASE_V', [0, 1], 270, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_V', [1, 1], 90);
    t.turn('BASE_V', [1, 0], 0);
    expect(brief(t.turn('BASE_A', [0, 2], 180))).toEqual([{ players: [0], points: 6, kind: 'road' }]);
    expect(t.supply(0, 'big')).toBe(1);
  });

  it('the big meeple may not stand on a garden', () => {
    const t = new Table({ expansions: ['base', 'abbot', 'inns-cathedrals'] });
    t.place('BASE_U_G', [0, 1], 0);
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'big', on: 'GARDEN' }).ok).toBe(false);
  });

  it('first-edition example: a completed inn road of 3 tiles scores 6', () => {
    const t = ic({ start: [{ tile: 'IC_B_G', at: [0, 0], rot: 0 }] });
    t.turn('BASE_A', [1, 0], 90, { meeple: 'normal', on: 'W1' });
    const [s] = t.turn('BASE_A', [-1, 0], 270);
    expect(s!.points).toBe(6);
    expect(s!.items).toEqual([{ name: 'tiles', count: 3, points: 3 }, { name: 'inn', points: 3 }]);
  });

  it('several inns on one road do not add up', () => {
    const t = ic({ start: [{ tile: 'IC_B_G', at: [0, 0], rot: 0 }] });
    t.turn('IC_A', [1, 0], 0, { meeple: 'normal', on: 'W1' });
    t.turn('BASE_A', [1, 1], 180);
    const [s] = t.turn('BASE_A', [-1, 0], 270);
    expect(s!.points).toBe(8);
  });

  it('first-edition example: a cathedral city scores 3 per tile and per pennant, here 24', () => {
    const t = ic({ start: [{ tile: 'IC_K', at: [0, 0], rot: 0 }] });
    const [s] = cathedralCity(t);
    expect(brief([s!])).toEqual([{ players: [0], points: 24, kind: 'city' }]);
    expect(s!.items).toEqual([
      { name: 'tiles', count: 7, points: 14 },
      { name: 'pennants', count: 1, points: 2 },
      { name: 'cathedral', points: 8 },
    ]);
  });

  it('first-edition example: unfinished at the end, an inn road and a cathedral city score 0', () => {
    const t = ic({ start: [{ tile: 'IC_K', at: [0, 0], rot: 0 }] });
    cathedralCity(t, false);
    t.turn('IC_B_G', [-1, -1], 90, { meeple: 'normal', on: 'N1' });
    const final = t.finish();
    expect(brief(final)).toEqual(expect.arrayContaining([
      { players: [0], points: 0, kind: 'city.incomplete' },
      { players: [1], points: 0, kind: 'road.incomplete' },
    ]));
    expect(final.find((e) => e.kind === 'city.incomplete')!.items).toEqual([{ name: 'cathedral', points: 0 }]);
  });

  it('with innCathedralIncomplete "normal" they score like any unfinished road or city', () => {
    const t = ic({ start: [{ tile: 'IC_K', at: [0, 0], rot: 0 }], rules: { innCathedralIncomplete: 'normal' } });
    cathedralCity(t, false);
    t.turn('IC_B_G', [-1, -1], 90, { meeple: 'normal', on: 'N1' });
    expect(brief(t.finish())).toEqual(expect.arrayContaining([
      { players: [0], points: 7, kind: 'city.incomplete' },
      { players: [1], points: 1, kind: 'road.incomplete' },
    ]));
  });

  it('a completed cathedral city is still worth 3 to a farmer beside it', () => {
    const t = ic({ start: [{ tile: 'IC_K', at: [0, 0], rot: 0 }] });
    cathedralCity(t);
    t.turn('BASE_B', [1, 1], 0, { meeple: 'normal', on: 'N1' }); // a farmer on the field south of the city
    const fields = t.finish().filter((e) => e.kind === 'field');
    expect(brief(fields)).toEqual([{ players: [0], points: 3, kind: 'field' }]);
  });

  it('an inn or cathedral may be placed into an opponent\'s feature', () => {
    const t = ic();
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'E1' });
    expect(t.try({ type: 'placeTile', player: 1, tile: 'IC_B_G', at: [2, 0], rot: 0 }).ok).toBe(true);
  });
});
