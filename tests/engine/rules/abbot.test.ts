/** The Abbot, named after the rules digest §9 (and §12.10). */
import { describe, expect, it } from 'vitest';
import { brief, Table } from '../table.js';

const abbot = () => new Table({ expansions: ['base', 'abbot'] });

/** A garden tile below the start tile; 7 more tiles complete its neighbourhood. */
function surroundGarden(t: Table) {
  t.turn('BASE_A', [-1, 0], 270);
  t.turn('BASE_A', [1, 0], 90);
  t.turn('BASE_U', [-1, 1], 0);
  t.turn('BASE_U', [1, 1], 0);
  t.turn('BASE_B', [-1, 2], 0);
  t.turn('BASE_B', [0, 2], 0);
  return t.turn('BASE_B', [1, 2], 0);
}

describe('§9 The Abbot', () => {
  it('each player has one abbot besides the normal meeples', () => {
    const t = abbot();
    expect([t.supply(0, 'abbot'), t.supply(0, 'normal')]).toEqual([1, 7]);
  });

  it('the abbot goes only on a cloister or a garden', () => {
    const t = abbot();
    t.place('BASE_U_G', [0, 1], 0);
    const road = t.try({ type: 'placeMeeple', player: 0, kind: 'abbot', on: 'E1' });
    expect(road.ok).toBe(false);
    if (!road.ok) expect(road.reason).toMatch(/abbot meeple cannot stand on a road/);
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'abbot', on: 'GARDEN' }).ok).toBe(true);
  });

  it('normal meeples never go on a garden, but may take a cloister', () => {
    const t = abbot();
    t.place('BASE_U_G', [0, 1], 0);
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'GARDEN' }).ok).toBe(false);
    t.do({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'E1' });
    t.endTurn();
    t.place('BASE_A', [1, 1], 90);
    expect(t.try({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'CLOISTER' }).ok).toBe(true);
  });

  it('a garden with an abbot scores 9 when its 8 neighbours are placed', () => {
    const t = abbot();
    t.turn('BASE_U_G', [0, 1], 0, { meeple: 'abbot', on: 'GARDEN' });
    const scores = surroundGarden(t);
    expect(brief(scores)).toEqual([{ players: [0], points: 9, kind: 'garden' }]);
    expect(t.supply(0, 'abbot')).toBe(1);
  });

  it('the abbot may come back early instead of a meeple, scoring 1 plus its neighbours', () => {
    const t = abbot();
    t.turn('BASE_U_G', [0, 1], 0, { meeple: 'abbot', on: 'GARDEN' });
    t.turn('BASE_A', [-1, 0], 270);
    t.place('BASE_A', [1, 0], 90);
    const events = t.do({ type: 'returnAbbot', player: 0, at: [0, 1] });
    expect(brief(events.filter((e) => e.type === 'scored') as never)).toEqual([{ players: [0], points: 4, kind: 'garden.incomplete' }]);
    expect(t.supply(0, 'abbot')).toBe(1);
    // The return is the turn's action: no meeple as well.
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'W1' }).ok).toBe(false);
  });

  it('an early return is only possible while the feature is incomplete', () => {
    const t = abbot();
    t.turn('BASE_U_G', [0, 1], 0, { meeple: 'abbot', on: 'GARDEN' });
    surroundGarden(t); // scored 9, the abbot is home
    t.place('BASE_U', [2, 1], 0);
    const r = t.try({ type: 'returnAbbot', player: 1, at: [0, 1] });
    expect(r.ok).toBe(false);
  });

  it('a garden without an abbot scores nothing', () => {
    const t = abbot();
    t.turn('BASE_U_G', [0, 1], 0);
    expect(surroundGarden(t)).toEqual([]);
    expect(t.finish()).toEqual([]);
  });

  it('an abbot left on the board scores like an unfinished cloister at the end', () => {
    const t = abbot();
    t.turn('BASE_U_G', [0, 1], 0, { meeple: 'abbot', on: 'GARDEN' });
    t.turn('BASE_A', [-1, 0], 270);
    expect(brief(t.finish())).toEqual([{ players: [0], points: 3, kind: 'garden.incomplete' }]);
  });

  it('an abbot in a cloister scores as a cloister', () => {
    const t = abbot();
    t.turn('BASE_B', [0, 1], 0, { meeple: 'abbot', on: 'CLOISTER' });
    expect(brief(t.finish())).toEqual([{ players: [0], points: 2, kind: 'cloister.incomplete' }]);
  });
});
