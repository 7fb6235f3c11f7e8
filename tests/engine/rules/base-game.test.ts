/**
 * The base game, named after the rules digest (../shared/rules/classic-expansions.md §2–§7).
 * Start tile BASE_D at [0, 0]: city north, road west–east, fields.
 */
import { describe, expect, it } from 'vitest';
import { brief, Table } from '../table.js';

/** A road through the start tile closed at both ends by cloister tiles: 3 tiles. */
function closedRoad(t: Table, meepleOnFirst = true) {
  t.turn('BASE_A', [1, 0], 90, meepleOnFirst ? { meeple: 'normal', on: 'W1' } : undefined);
  return t.turn('BASE_A', [-1, 0], 270);
}

describe('§2 turn structure', () => {
  it('a turn is tile, then at most one meeple, then scoring', () => {
    const t = new Table();
    t.place('BASE_E', [0, -1], 180);
    t.do({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'S1' });
    const second = t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'E1' });
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.reason).toMatch(/not allowed now/);
    expect(brief(t.endTurn())).toEqual([{ players: [0], points: 4, kind: 'city' }]);
  });

  it('a meeple placed on a feature that the same turn completes scores and comes back at once', () => {
    const t = new Table();
    expect(t.supply(0)).toBe(7);
    const scores = t.turn('BASE_E', [0, -1], 180, { meeple: 'normal', on: 'S1' });
    expect(brief(scores)).toEqual([{ players: [0], points: 4, kind: 'city' }]);
    expect(t.supply(0)).toBe(7);
    expect(t.state.meeples).toHaveLength(0);
  });

  it('a meeple returned in step 3 cannot be used in that turn: the turn has passed on', () => {
    const t = new Table();
    t.turn('BASE_E', [0, -1], 180, { meeple: 'normal', on: 'S1' });
    const again = t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'S1' });
    expect(again.ok).toBe(false);
    expect(t.player).toBe(1);
  });

  it('a player with an empty supply skips the meeple step', () => {
    const t = new Table();
    // Player 1 lays a road east; player 0 lays a separate city or cloister above it each turn.
    const above = ['BASE_E', 'BASE_E', 'BASE_E', 'BASE_E', 'BASE_E_G', 'BASE_B', 'BASE_B'];
    t.turn('BASE_U', [1, 0], 0);
    above.forEach((tile, i) => {
      if (i < 6) t.turn('BASE_U', [i + 2, 0], 0);
      else t.turn('BASE_D', [i + 2, 0], 180);
      t.turn(tile, [i + 1, -1], 0, { meeple: 'normal', on: tile === 'BASE_B' ? 'CLOISTER' : 'N1' });
    });
    expect(t.supply(0)).toBe(0);
    t.turn('BASE_D', [-1, 0], 180);
    t.place('BASE_B', [8, -1], 0);
    const r = t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'CLOISTER' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no normal meeple in supply/);
    expect(t.endTurn()).toEqual([]);
  });

  it('players take turns clockwise and the wrong player is refused', () => {
    const t = new Table({ players: 3 });
    const wrong = t.try({ type: 'placeTile', player: 1, tile: 'BASE_E', at: [0, -1], rot: 180 });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.reason).toMatch(/player 0's turn/);
    t.turn('BASE_E', [0, -1], 180);
    expect(t.player).toBe(1);
    t.turn('BASE_U', [1, 0], 0);
    t.turn('BASE_U', [-1, 0], 0);
    expect(t.player).toBe(0);
  });

  it('the game ends with final scoring, after which nothing more is accepted', () => {
    const t = new Table();
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'E1' });
    expect(brief(t.finish())).toEqual([{ players: [0], points: 2, kind: 'road.incomplete' }]);
    expect(t.state.finished).toBe(true);
    expect(t.try({ type: 'placeTile', player: 1, tile: 'BASE_U', at: [2, 0], rot: 0 }).ok).toBe(false);
  });
});

describe('§3 tile placement', () => {
  it('a tile must share a full edge with a placed tile; a corner is not enough', () => {
    const t = new Table();
    const r = t.try({ type: 'placeTile', player: 0, tile: 'BASE_B', at: [1, 1], rot: 0 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/touches no placed tile/);
  });

  it('every shared edge must match: city to city, road to road, field to field', () => {
    const t = new Table();
    const r = t.try({ type: 'placeTile', player: 0, tile: 'BASE_E', at: [0, -1], rot: 0 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/S edge \(field\/field\/field\) does not match BASE_D at \[0, 0\]/);
    expect(t.try({ type: 'placeTile', player: 0, tile: 'BASE_E', at: [0, -1], rot: 180 }).ok).toBe(true);
  });

  it('any of the four rotations may be used, and a position holds one tile', () => {
    const t = new Table();
    expect(t.try({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [0, 0], rot: 0 }).ok).toBe(false);
    expect(t.try({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, 0], rot: 180 }).ok).toBe(true);
  });

  it('a tile may join features that already carry meeples of several players', () => {
    const t = new Table();
    t.turn('BASE_A', [-1, 0], 270, { meeple: 'normal', on: 'E1' }); // P0 on the start road
    t.turn('BASE_V', [0, 1], 270, { meeple: 'normal', on: 'E1' }); // P1 on a second road
    t.turn('BASE_V', [1, 1], 90);
    expect(t.try({ type: 'placeTile', player: 1, tile: 'BASE_V', at: [1, 0], rot: 0 }).ok).toBe(true);
    const road = t.state.board.partAt(1, 0, 'W1')!;
    expect(new Set(t.state.board.feature(road).meeples.map((m) => m.player))).toEqual(new Set([0, 1]));
  });
});

describe('§4 meeple placement', () => {
  it('a meeple goes only on the tile just placed', () => {
    const t = new Table();
    t.place('BASE_U', [1, 0], 0);
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'W1' }).ok).toBe(true);
    t.endTurn();
    t.place('BASE_E', [1, -1], 0);
    // The start tile's city is not on the tile just placed: its N1 there is this tile's city.
    t.do({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'N1' });
    expect(t.state.meeples.at(-1)).toMatchObject({ x: 1, y: -1, on: 'N1' });
  });

  it('the whole connected feature must be free of meeples, own meeples included', () => {
    const t = new Table();
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_U', [2, 0], 0);
    t.place('BASE_U', [-1, 0], 0);
    const r = t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'E1' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/road is already occupied/);
    expect(t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'N0' }).ok).toBe(true);
  });

  it('a farmer stays on its field until the end of the game', () => {
    const t = new Table();
    t.turn('BASE_E', [0, -1], 180, { meeple: 'normal', on: 'E1' }); // a field beside the city, completed at once
    expect(t.state.meeples).toHaveLength(1);
    const farmer = t.state.meeples[0]!;
    expect(farmer.player).toBe(0);
    expect(t.state.board.find(farmer.part)).toBe(t.state.board.find(t.state.board.partAt(0, -1, 'E1')!));
    t.turn('BASE_U', [1, 0], 0);
    expect(t.state.meeples).toHaveLength(1);
    expect(brief(t.finish())).toEqual([{ players: [0], points: 3, kind: 'field' }]);
  });

  it('no meeple on a river, a tower foundation or (without the abbot) a garden', () => {
    const river = new Table({ expansions: ['base', 'river'] });
    river.place('RIVER_D', [1, 0], 0);
    const r1 = river.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'W1' });
    expect(r1.ok).toBe(false);
    if (!r1.ok) expect(r1.reason).toMatch(/cannot stand on a river/);

    const tower = new Table({ expansions: ['base', 'tower'] });
    tower.place('TOWER_C', [0, -1], 180);
    const r2 = tower.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'TOWER' });
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.reason).toMatch(/cannot stand on a tower foundation/);

    const garden = new Table();
    garden.place('BASE_E_G', [0, -1], 180);
    const r3 = garden.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'GARDEN' });
    expect(r3.ok).toBe(false);
    if (!r3.ok) expect(r3.reason).toMatch(/cannot stand on a garden/);
  });

  it('a tile with two separate features of one kind offers two spots', () => {
    const t = new Table();
    t.place('BASE_H', [0, -1], 0); // cities north and south; the south one joins the start city
    t.do({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'N1' });
    t.endTurn();
    const south = t.state.board.partAt(0, -1, 'S1')!;
    const north = t.state.board.partAt(0, -1, 'N1')!;
    expect(t.state.board.find(south)).not.toBe(t.state.board.find(north));
  });

  it('a naming of a feature the tile lacks is refused with the segment named', () => {
    const t = new Table();
    t.place('BASE_U', [1, 0], 0);
    const r = t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'CLOISTER' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/has no feature at CLOISTER/);
  });
});

describe('§5 features and completion', () => {
  it('a road is complete when both ends stop', () => {
    const t = new Table();
    expect(brief(closedRoad(t))).toEqual([{ players: [0], points: 3, kind: 'road' }]);
  });

  it('a road loop is a complete road, and a tile it visits twice counts once', () => {
    // IC_E carries two separate curved roads; a loop through both visits it twice.
    const t = new Table({ expansions: ['base', 'inns-cathedrals'], start: [{ tile: 'IC_E', at: [0, 0], rot: 0 }] });
    t.turn('BASE_V', [1, 0], 90, { meeple: 'normal', on: 'W1' });
    t.turn('BASE_V', [1, -1], 0);
    t.turn('BASE_V', [0, -1], 270);
    t.turn('BASE_V', [-1, 0], 270);
    t.turn('BASE_V', [-1, 1], 180);
    const scores = t.turn('BASE_V', [0, 1], 90);
    expect(brief(scores)).toEqual([{ players: [0], points: 7, kind: 'road' }]);
    expect(scores[0]!.items).toEqual([{ name: 'tiles', count: 7, points: 7 }]);
  });

  it('a city is complete when no city edge is left open', () => {
    const t = new Table();
    t.turn('BASE_F', [0, -1], 90, { meeple: 'normal', on: 'S1' }); // city N–S with a pennant
    expect(t.endTurn).toBeDefined();
    const scores = t.turn('BASE_E', [0, -2], 180);
    expect(brief(scores)).toEqual([{ players: [0], points: 8, kind: 'city' }]);
  });

  it('a cloister is complete with all 8 neighbours, diagonals included', () => {
    const t = new Table();
    t.turn('BASE_B', [0, 1], 0, { meeple: 'normal', on: 'CLOISTER' });
    t.turn('BASE_A', [1, 0], 90);
    t.turn('BASE_A', [-1, 0], 270);
    t.turn('BASE_B', [-1, 1], 0);
    t.turn('BASE_B', [1, 1], 0);
    t.turn('BASE_B', [-1, 2], 0);
    expect(t.turn('BASE_E', [0, 2], 180)).toEqual([]);
    expect(brief(t.turn('BASE_E', [1, 2], 180))).toEqual([{ players: [0], points: 9, kind: 'cloister' }]);
  });

  it('a cloister inside a field does not split it', () => {
    const t = new Table();
    t.turn('BASE_B', [0, 1], 0, { meeple: 'normal', on: 'N1' }); // a farmer on the cloister's field
    t.place('BASE_B', [1, 1], 0);
    const r = t.try({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'W1' });
    expect(r.ok).toBe(false); // the field is one, and it is taken
  });
});

describe('§6 scoring completed features', () => {
  it('a completed road scores 1 per tile', () => {
    const t = new Table();
    expect(closedRoad(t)[0]!.items).toEqual([{ name: 'tiles', count: 3, points: 3 }]);
  });

  it('a completed city scores 2 per tile and 2 per pennant', () => {
    const t = new Table();
    t.turn('BASE_F', [0, -1], 90, { meeple: 'normal', on: 'S1' });
    const [s] = t.turn('BASE_E', [0, -2], 180);
    expect(s!.points).toBe(8);
    expect(s!.items).toEqual([{ name: 'tiles', count: 3, points: 6 }, { name: 'pennants', count: 1, points: 2 }]);
  });

  it('a completed 2-tile city scores 4 (C2/C3), or 2 under the C1 tinyCity rule', () => {
    expect(new Table().turn('BASE_E', [0, -1], 180, { meeple: 'normal', on: 'S1' })[0]!.points).toBe(4);
    const c1 = new Table({ rules: { tinyCity: 2 } }).turn('BASE_E', [0, -1], 180, { meeple: 'normal', on: 'S1' });
    expect(c1[0]!.points).toBe(2);
  });

  it('the majority owner scores; everyone else on the feature gets nothing, and all go home', () => {
    const t = new Table();
    t.turn('BASE_A', [-1, 0], 270, { meeple: 'normal', on: 'E1' }); // P0 on road 1
    t.turn('BASE_V', [0, 1], 270, { meeple: 'normal', on: 'E1' }); // P1 on road 2
    t.turn('BASE_V', [-1, 1], 0, { meeple: 'normal', on: 'W1' }); // P0 on road 3
    t.turn('BASE_V', [-1, 2], 180); // joins road 3 …
    t.turn('BASE_V', [0, 2], 90); // … to road 2
    t.turn('BASE_V', [1, 1], 90);
    t.turn('BASE_V', [1, 0], 0); // road 1 joins too: P0 has 2 meeples there, P1 has 1
    const scores = t.turn('BASE_A', [-2, 1], 270);
    expect(brief(scores)).toEqual([{ players: [0], points: 9, kind: 'road' }]);
    expect(t.score(1)).toBe(0);
    expect(t.state.meeples).toHaveLength(0);
    expect([t.supply(0), t.supply(1)]).toEqual([7, 7]);
  });

  it('a tie for most meeples pays every tied player in full', () => {
    const t = new Table();
    t.turn('BASE_A', [-1, 0], 270, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_V', [0, 1], 270, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_V', [1, 1], 90);
    t.turn('BASE_V', [1, 0], 0);
    expect(brief(t.turn('BASE_A', [0, 2], 180))).toEqual([{ players: [0, 1], points: 6, kind: 'road' }]);
    expect([t.score(0), t.score(1)]).toEqual([6, 6]);
  });

  it('a tile completing a feature scores it for all players, not just the one who placed it', () => {
    const t = new Table();
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_A', [-1, 0], 270);
    expect(brief(t.turn('BASE_A', [2, 0], 90))).toEqual([{ players: [0], points: 4, kind: 'road' }]);
  });
});

describe('§7 final scoring', () => {
  it('an unfinished road scores 1 per tile, an unfinished city 1 per tile and 1 per pennant', () => {
    const t = new Table();
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_F', [0, -1], 90, { meeple: 'normal', on: 'N1' });
    const final = t.finish();
    expect(brief(final)).toEqual(expect.arrayContaining([
      { players: [0], points: 2, kind: 'road.incomplete' },
      { players: [1], points: 3, kind: 'city.incomplete' },
    ]));
    expect(final).toHaveLength(2);
  });

  it('an unfinished cloister scores 1 plus 1 per neighbour', () => {
    const t = new Table();
    t.turn('BASE_B', [0, 1], 0, { meeple: 'normal', on: 'CLOISTER' });
    t.turn('BASE_A', [1, 0], 90);
    expect(brief(t.finish())).toEqual([{ players: [0], points: 3, kind: 'cloister.incomplete' }]);
  });

  it('a field pays 3 per completed city beside it; unfinished cities pay nothing', () => {
    const t = new Table();
    t.turn('BASE_E', [0, -1], 180); // completes the start city (no owner)
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'N0' }); // P1 farmer north of the road
    t.turn('BASE_E', [1, -1], 0); // an open city north of P1's field
    expect(brief(t.finish())).toEqual([{ players: [1], points: 3, kind: 'field' }]);
  });

  it('fields without farmers score nothing, and minority farmers get nothing', () => {
    const t = new Table();
    t.turn('BASE_E', [0, -1], 180);
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'N0' });
    expect(brief(t.finish())).toEqual([{ players: [1], points: 3, kind: 'field' }]);
  });

  it('every occupied feature gets a final event, even at 0 points', () => {
    const t = new Table();
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'S1' }); // farmer south: no city there
    expect(brief(t.finish())).toEqual([{ players: [0], points: 0, kind: 'field' }]);
  });

  it('with farmers switched off no farmer may be placed and no field scores', () => {
    const t = new Table({ rules: { farmers: false } });
    t.place('BASE_U', [1, 0], 0);
    const r = t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'N0' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/farmers are not played/);
  });

  it('the totals are the sum of every score, turns and final scoring together', () => {
    const t = new Table();
    t.turn('BASE_E', [0, -1], 180, { meeple: 'normal', on: 'S1' });
    t.turn('BASE_U', [1, 0], 0, { meeple: 'normal', on: 'N0' });
    const events = t.do({ type: 'finishGame' });
    const finished = events.find((e) => e.type === 'gameFinished');
    expect(finished).toEqual({ type: 'gameFinished', final: [4, 3] });
  });
});
