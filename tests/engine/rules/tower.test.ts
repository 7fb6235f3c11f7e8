/**
 * The Tower (classic), named after the rules digest §11 (and §12.3, §12.11, §12.12, §13).
 * A crossroads tower tile TOWER_RRRR_1 sits east of the start tile, at [1, 0].
 */
import { describe, expect, it } from 'vitest';
import { brief, Table } from '../table.js';

function towerTable(opts: { capture?: 'mandatory' | 'optional'; players?: number } = {}) {
  const t = new Table({
    expansions: ['base', 'abbot', 'inns-cathedrals', 'tower'],
    rules: { towerCapture: opts.capture ?? 'mandatory' },
    players: opts.players ?? 2,
  });
  t.turn('BASE_E', [0, -1], 180, { meeple: 'normal', on: 'S1' }); // P0 +4
  t.turn('TOWER_RRRR_1', [1, 0], 0); // P1
  t.turn('BASE_U', [-1, 0], 0, { meeple: 'normal', on: 'E1' }); // P0 on the road, 2 west of the tower
  return t;
}

describe('§11 The Tower', () => {
  it('floors per player: 10, 9, 7, 6, 5 for 2 to 6 players', () => {
    const floors = [2, 3, 4, 5, 6].map((n) => new Table({ expansions: ['base', 'inns-cathedrals', 'tower'], players: n }).state.players[0]!.floors);
    expect(floors).toEqual([10, 9, 7, 6, 5]);
  });

  it('a floor may go on any foundation on the board, not only the tile just placed', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    expect(t.state.towers.get(t.state.board.at(1, 0)!.key)?.height).toBe(1);
    expect(t.state.players[1]!.floors).toBe(9);
  });

  it('a floor placement is the turn\'s action: no meeple as well', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    expect(t.try({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'CLOISTER' }).ok).toBe(false);
  });

  it('capture reach is the tower\'s height along the four straight lines, its own tile included', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    // Height 1 reaches [0, 0]…[2, 0] and [1, -1]…[1, 1]: P0's meeple at [-1, 0] is out of reach.
    const far = t.try({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [-1, 0], on: 'E1' } });
    expect(far.ok).toBe(false);
    if (!far.ok) expect(far.reason).toMatch(/within reach of the tower \(height 1\)/);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    t.turn('BASE_A', [2, 0], 90); // P0
    t.place('BASE_V', [1, -1], 270); // P1: height 2 reaches [-1, 0]
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [-1, 0], on: 'E1' } });
    expect(t.state.players[1]!.prisoners).toEqual([{ owner: 0, kind: 'normal' }]);
  });

  it('reach is not diagonal', () => {
    const t = towerTable();
    t.turn('BASE_A', [1, 1], 180); // P1
    t.turn('BASE_B', [0, 1], 0, { meeple: 'normal', on: 'CLOISTER' }); // P0's monk, diagonal to the tower
    t.place('BASE_B', [2, 1], 0); // P1
    const r = t.try({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [0, 1], on: 'CLOISTER' } });
    expect(r.ok).toBe(false);
  });

  it('under towerCapture "mandatory" a floor with a meeple in reach must capture', () => {
    const t = towerTable();
    t.turn('BASE_A', [1, 1], 180, { meeple: 'normal', on: 'CLOISTER' }); // P1, in reach of [1, 0]
    t.place('BASE_A', [2, 0], 90); // P0
    const r = t.try({ type: 'placeTowerFloor', player: 0, at: [1, 0] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/must be captured/);
  });

  it('under towerCapture "optional" the capture may be skipped', () => {
    const t = towerTable({ capture: 'optional' });
    t.turn('BASE_A', [1, 1], 180, { meeple: 'normal', on: 'CLOISTER' });
    t.place('BASE_A', [2, 0], 90);
    expect(t.try({ type: 'placeTowerFloor', player: 0, at: [1, 0] }).ok).toBe(true);
  });

  it('a player may capture their own meeple; it goes back to their supply', () => {
    const t = towerTable();
    t.turn('BASE_A', [1, 1], 180); // P1
    t.turn('BASE_A', [2, 0], 90, { meeple: 'normal', on: 'CLOISTER' }); // P0's monk, in reach of [1, 0]
    t.turn('BASE_B', [2, 1], 0); // P1
    t.place('BASE_B', [0, 1], 0); // P0
    expect(t.supply(0)).toBe(5);
    t.do({ type: 'placeTowerFloor', player: 0, at: [1, 0], capture: { player: 0, at: [2, 0], on: 'CLOISTER' } });
    expect(t.supply(0)).toBe(6);
    expect(t.state.players[0]!.prisoners).toEqual([]);
  });

  it('captured meeples of two players are exchanged at once', () => {
    const t = towerTable();
    t.turn('BASE_A', [1, 1], 180, { meeple: 'normal', on: 'CLOISTER' }); // P1 meeple in reach
    t.place('BASE_A', [2, 0], 90); // P0 captures P1's monk
    t.do({ type: 'placeTowerFloor', player: 0, at: [1, 0], capture: { player: 1, at: [1, 1], on: 'CLOISTER' } });
    t.endTurn();
    expect(t.state.players[0]!.prisoners).toEqual([{ owner: 1, kind: 'normal' }]);
    t.place('BASE_V', [1, -1], 270); // P1 captures P0's meeple at [-1, 0] (height 2)
    const events = t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [-1, 0], on: 'E1' } });
    expect(events.map((e) => e.type)).toEqual(['towerFloorPlaced', 'meepleCaptured', 'prisonersExchanged']);
    expect(t.state.players[0]!.prisoners).toEqual([]);
    expect(t.state.players[1]!.prisoners).toEqual([]);
    expect([t.supply(0), t.supply(1)]).toEqual([7, 7]);
  });

  it('a ransom of 3 points frees a prisoner, once per turn, during the payer\'s turn', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    t.turn('BASE_A', [2, 0], 90, { meeple: 'normal', on: 'CLOISTER' }); // P0 monk at [2, 0]
    t.place('BASE_V', [1, -1], 270);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [-1, 0], on: 'E1' } });
    t.endTurn();
    t.turn('BASE_B', [2, 1], 0); // P0
    t.place('BASE_B', [0, 1], 0);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [2, 0], on: 'CLOISTER' } });
    t.endTurn();
    expect(t.state.players[1]!.prisoners).toHaveLength(2);
    const wrongPlayer = t.try({ type: 'payRansom', player: 1, prisonerOf: 0, kind: 'normal' });
    expect(wrongPlayer.ok).toBe(false);
    const paid = t.do({ type: 'payRansom', player: 0, prisonerOf: 1, kind: 'normal' });
    expect(brief(paid.filter((e) => e.type === 'scored') as never)).toEqual([
      { players: [0], points: -3, kind: 'ransom' },
      { players: [1], points: 3, kind: 'ransom' },
    ]);
    expect([t.score(0), t.score(1)]).toEqual([1, 3]);
    const twice = t.try({ type: 'payRansom', player: 0, prisonerOf: 1, kind: 'normal' });
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.reason).toMatch(/already been paid this turn/);
    t.turn('BASE_B', [0, 2], 0);
    t.turn('BASE_B', [2, 2], 0);
    // A ransom needs 3 points (JCloisterZone's reading: the score track has no negative side).
    const poor = t.try({ type: 'payRansom', player: 0, prisonerOf: 1, kind: 'normal' });
    expect(poor.ok).toBe(false);
    if (!poor.ok) expect(poor.reason).toMatch(/costs 3 points; player 0 has 1/);
  });

  it('a meeple on top closes the tower: no more floors, and it never scores', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    const early = t.try({ type: 'closeTower', player: 1, kind: 'normal', at: [1, 0] });
    expect(early.ok).toBe(false); // no floor yet
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    t.place('BASE_A', [2, 0], 90);
    t.do({ type: 'closeTower', player: 0, kind: 'normal', at: [1, 0] });
    t.endTurn();
    t.place('BASE_B', [2, 1], 0);
    const more = t.try({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    expect(more.ok).toBe(false);
    if (!more.ok) expect(more.reason).toMatch(/closed/);
    t.endTurn();
    const final = t.finish();
    expect(final.some((e) => e.feature?.on === 'TOWER')).toBe(false);
    expect(t.state.meeples.some((m) => m.on === 'TOWER' && m.player === 0)).toBe(true);
  });

  it('the abbot cannot close a tower', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    t.place('BASE_A', [2, 0], 90);
    const r = t.try({ type: 'closeTower', player: 0, kind: 'abbot', at: [1, 0] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/only a normal or big meeple/);
  });

  it('a meeple on a tower top can be captured, and the tower is open again (§13)', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    t.place('BASE_A', [2, 0], 90);
    t.do({ type: 'closeTower', player: 0, kind: 'big', at: [1, 0] });
    t.endTurn();
    t.turn('TOWER_C', [1, 2], 180); // P1: a second foundation, two south of the closed tower
    t.place('BASE_B', [2, 1], 0); // P0
    t.do({ type: 'placeTowerFloor', player: 0, at: [1, 2] });
    t.endTurn();
    t.place('BASE_B', [0, 1], 0); // P1: height 2 reaches the top of [1, 0]
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 2], capture: { player: 0, at: [1, 0], on: 'TOWER', kind: 'big' } });
    t.endTurn();
    expect(t.state.players[1]!.prisoners).toEqual([{ owner: 0, kind: 'big' }]);
    expect(t.state.towers.get(t.state.board.at(1, 0)!.key)?.top).toBeNull();
    t.place('BASE_B', [0, 2], 0); // P0
    expect(t.try({ type: 'placeTowerFloor', player: 0, at: [1, 0], capture: { player: 0, at: [1, 0], on: 'N1' } }).ok).toBe(false);
  });

  it('§12.12 a capture comes before scoring, so it can deny a feature\'s points', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    t.turn('BASE_A', [2, 0], 90); // P0
    // P1 closes the road P0 stands on and captures P0's meeple in the same turn.
    t.place('BASE_L', [-2, 0], 0); // its east road ends at the junction: the road is complete
    expect(t.state.board.isComplete(t.state.board.partAt(-1, 0, 'E1')!)).toBe(true);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [-1, 0], on: 'E1' } });
    expect(t.endTurn()).toEqual([]);
    expect(t.score(0)).toBe(4);
  });

  it('prisoners and floors are worth nothing at the end', () => {
    const t = towerTable();
    t.place('BASE_A', [1, 1], 180);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0] });
    t.endTurn();
    t.turn('BASE_A', [2, 0], 90);
    t.place('BASE_V', [1, -1], 270);
    t.do({ type: 'placeTowerFloor', player: 1, at: [1, 0], capture: { player: 0, at: [-1, 0], on: 'E1' } });
    t.endTurn();
    expect(t.finish()).toEqual([]);
  });
});
