/** Siege & Defense, named after the rules digest §2 and the readings of §5 (docs/jousts-crests-siege-defense.md). */
import { describe, expect, it } from 'vitest';
import { meepleProblem } from '../../../engine/expansions/base.js';
import { rowLength } from '../../../engine/expansions/siege-defense.js';
import { legalActions } from '../../../engine/game/legal.js';
import { Table } from '../table.js';
import { play } from './table2025.js';

const sd = (players = 2, extra: string[] = []) => new Table({ expansions: ['base', ...extra, 'siege-defense'] as never, players });

describe('§2.2 setup', () => {
  it('the fortress (two 2×3 tiles, 6 cells each) with the source and, without River rules, the lake is the start', () => {
    const t = sd();
    expect(t.state.board.size).toBe(14);
    expect(t.state.pieces).toEqual(['SD-FORTRESS-1', 'SD-FORTRESS-2']);
    expect(t.state.board.at(-1, 1)?.view.tile.riverSpring).toBe(true);
    expect(t.state.board.at(4, 1)?.view.tile.riverLake).toBe(true);
  });

  it('each player adds 2 standard meeples to their supply', () => {
    expect(sd().supply(0, 'normal')).toBe(9);
  });

  it('SD-A1: row length per player count, L(2)=a, L(3)=a+1, L(4)=b, L(5)=L(6)=b+1, defaults [3, 4]', () => {
    expect([2, 3, 4, 5, 6].map((n) => rowLength(n, [3, 4]))).toEqual([3, 4, 4, 5, 5]);
    expect(new Table({ expansions: ['base', 'siege-defense'], players: 4, options: { sd: { rowBase: [5, 6] } } }).state.sd!.rowLength).toBe(6);
  });

  it('with River rules: fortress and source only; the SD river tile joins the river tiles (17 land tiles either way)', () => {
    const t = sd(2, ['river']);
    expect(t.state.board.size).toBe(13);
    expect(t.state.supply.get('SD-R-1')).toBe(1);
    expect(t.state.river!.tileIds).toContain('SD-R-1');
    expect(t.state.river!.openEnd).toEqual({ x: 4, y: 1, side: 3 });
    expect(sd().state.supply.get('SD-R-1') ?? 0).toBe(0);
    const land = (x: Table) => [...x.state.supply].filter(([id]) => id.startsWith('SD-L')).reduce((n, [, c]) => n + c, 0);
    expect([land(sd()), land(t)]).toEqual([17, 17]);
  });

  it('SD-A3: no meeple may stand on the fortress', () => {
    const t = sd();
    const cell = t.state.board.at(1, 1)!;
    expect(meepleProblem(t.state, 0, 'normal', cell.parts[0]!)).toMatch(/no meeple may be placed on the fortress/);
  });

  it('SD-A6: with Jousts & Crests and no River, the fortress is the start and the tournament tile lies next to it', () => {
    const t = new Table({ expansions: ['base', 'jousts-crests', 'siege-defense'] });
    expect(t.state.pieces).toEqual(['SD-FORTRESS-1', 'SD-FORTRESS-2', 'JC-TOURNAMENT']);
    expect(t.state.board.at(0, -1)?.piece).toBe(2);
    expect(t.state.supply.get('BASE_D')).toBe(3);
  });
});

describe('§2.5 siege symbols', () => {
  it('a tile without a symbol is drawn by being placed; one with a symbol is drawn first, its symbol resolved before it is placed', () => {
    const t = sd();
    const r = t.try({ type: 'placeTile', player: 0, tile: 'SD-L-08', at: [0, -1], rot: 180 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/SD-L-08 shows a siege symbol: draw it first/);
    const plain = t.do({ type: 'placeTile', player: 0, tile: 'BASE_E', at: [0, -1], rot: 0 });
    expect(plain.map((e) => e.type)).toEqual(['tileDrawn', 'tilePlaced']);
  });

  it('are resolved after the draw and before the tile is placed', () => {
    const t = sd();
    t.do({ type: 'drawTile', player: 0, tile: 'SD-L-08' });
    const r = t.try({ type: 'placeTile', player: 0, tile: 'SD-L-08', at: [0, -1], rot: 180 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/siege symbol \(knights\) must be resolved first/);
    expect(t.do({ type: 'resolveSiegeSymbol', player: 0, post: 'knights' })).toEqual([{ type: 'catapultPlaced', player: 0, post: 'knights' }]);
  });

  it('a question mark lets the active player choose the post', () => {
    const t = sd();
    t.do({ type: 'drawTile', player: 0, tile: 'SD-L-05' });
    expect(t.try({ type: 'resolveSiegeSymbol', player: 0, post: 'travelers' }).ok).toBe(true);
  });

  it('two symbols are resolved left to right; a second one at a post with a catapult is an attack', () => {
    const t = sd();
    t.do({ type: 'drawTile', player: 0, tile: 'SD-L-07' });
    const wrong = t.try({ type: 'resolveSiegeSymbol', player: 0, post: 'knights' });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.reason).toMatch(/points at the travelers post/);
    t.do({ type: 'resolveSiegeSymbol', player: 0, post: 'travelers' });
    t.do({ type: 'resolveSiegeSymbol', player: 0, post: 'knights' });
    expect(t.state.sd!.posts.travelers.catapult && t.state.sd!.posts.knights.catapult).toBe(true);
    t.do({ type: 'placeTile', player: 0, tile: 'SD-L-07', at: [0, 3], rot: 90 });
    t.endTurn();
    t.do({ type: 'drawTile', player: 1, tile: 'SD-L-CROSS4' });
    const attack = t.do({ type: 'resolveSiegeSymbol', player: 1, post: 'travelers' });
    // Nobody has a meeple at the post or a traveler on the board: no removals, the post is cleared at once.
    expect(attack.map((e) => e.type)).toEqual(['attackStarted', 'postCleared']);
    expect(t.state.sd!.posts.travelers.catapult).toBe(false);
  });

  it('an attack: players without a meeple at the post remove a matching meeple, clockwise from the active player, each choosing which', () => {
    const t = sd(3);
    play(t, { tile: 'BASE_E', at: [0, -1], action: { meeple: 'normal', on: 'N1' } });
    play(t, { tile: 'BASE_E', at: [1, -1], action: { meeple: 'normal', on: 'N1' }, post: { post: 'knights', space: 'row' } });
    play(t, { tile: 'SD-L-08', at: [2, -1], siege: ['knights'], action: { meeple: 'normal', on: 'N1' } });
    play(t, { tile: 'BASE_E', at: [3, -1], action: { meeple: 'normal', on: 'N1' } });
    t.do({ type: 'drawTile', player: 1, tile: 'SD-L-CORNER' });
    const events = t.do({ type: 'resolveSiegeSymbol', player: 1, post: 'knights' });
    expect(events[0]).toEqual({ type: 'attackStarted', player: 1, post: 'knights', removers: [2, 0] });
    expect(events.filter((e) => e.type === 'scored')).toEqual([expect.objectContaining({ players: [1], points: 3, kind: 'attack' })]);
    const outOfTurn = t.try({ type: 'removeMeepleForAttack', owner: 0, at: [0, -1], on: 'N1' });
    expect(outOfTurn.ok).toBe(false);
    if (!outOfTurn.ok) expect(outOfTurn.reason).toMatch(/player 2 removes next/);
    expect(t.try({ type: 'placeTile', player: 1, tile: 'SD-L-CORNER', at: [4, -1], rot: 0 }).ok).toBe(false);
    t.do({ type: 'removeMeepleForAttack', owner: 2, at: [2, -1], on: 'N1' });
    const last = t.do({ type: 'removeMeepleForAttack', owner: 0, at: [3, -1], on: 'N1' });
    expect(last.map((e) => e.type)).toEqual(['meepleRemovedByAttack', 'postCleared']);
    expect(t.state.meeples.map((m) => [m.player, m.x])).toEqual([[0, 0], [1, 1]]);
    expect([t.supply(0), t.supply(1), t.supply(2)]).toEqual([8, 8, 9]);
  });

  it('Jousts & Crests together: a nominated meeple removed by an attack returns its emblem', () => {
    const t = new Table({ expansions: ['base', 'jousts-crests', 'siege-defense'] });
    play(t, { tile: 'BASE_E', at: [4, 0], action: { meeple: 'normal', on: 'N1' } });
    play(t, { tile: 'SD-L-08', at: [5, 0], siege: ['knights'] });
    play(t, { tile: 'BASE_F', at: [4, -1], rot: 90, nominate: [4, 0, 'N1'] });
    expect(t.state.jc!.players[0]!.emblems).toBe(4);
    t.do({ type: 'drawTile', player: 1, tile: 'SD-L-CORNER' });
    t.do({ type: 'resolveSiegeSymbol', player: 1, post: 'knights' });
    t.do({ type: 'removeMeepleForAttack', owner: 0, at: [4, 0], on: 'N1' });
    expect(t.state.jc!.players[0]!.emblems).toBe(5);
    expect(t.state.jc!.nominated.size).toBe(0);
  });
});

describe('§2.4 defence posts', () => {
  it('after a knight only the knights row; after a farmer only a meeple space (any post); standard meeples only', () => {
    const t = sd();
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_E' });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_E', at: [0, -1], rot: 0 });
    t.do({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'N1' });
    const wrongPost = t.try({ type: 'placeAtDefencePost', player: 0, post: 'monks', space: 'row' });
    expect(wrongPost.ok).toBe(false);
    if (!wrongPost.ok) expect(wrongPost.reason).toMatch(/goes to the knights post/);
    expect(t.try({ type: 'placeAtDefencePost', player: 0, post: 'knights', space: 'meeple' }).ok).toBe(false);
    t.do({ type: 'placeAtDefencePost', player: 0, post: 'knights', space: 'row' });
    expect(t.try({ type: 'placeAtDefencePost', player: 0, post: 'knights', space: 'row' }).ok).toBe(false);
    t.endTurn();
    t.do({ type: 'drawTile', player: 1, tile: 'BASE_B' });
    t.do({ type: 'placeTile', player: 1, tile: 'BASE_B', at: [1, -1], rot: 0 });
    t.do({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'N0' });
    expect(t.try({ type: 'placeAtDefencePost', player: 1, post: 'monks', space: 'row' }).ok).toBe(false);
    t.do({ type: 'placeAtDefencePost', player: 1, post: 'monks', space: 'meeple' });
    expect(t.state.sd!.posts.monks.space).toEqual([1]);
    expect(t.supply(1)).toBe(7);
  });

  it('SD-A7: a tower never reaches the meeples at a defence post', () => {
    const t = new Table({ expansions: ['base', 'tower', 'siege-defense'] });
    play(t, { tile: 'BASE_E', at: [0, -1], action: { meeple: 'normal', on: 'N1' }, post: { post: 'knights', space: 'row' } });
    play(t, { tile: 'TOWER_FG', at: [1, -1] });
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_B' });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_B', at: [2, -1], rot: 0 });
    const floors = legalActions(t.state).filter((c) => c.type === 'placeTowerFloor');
    // Only the knight on the board at [0, -1] is within reach; its twin at the post is not.
    expect(floors.map((c) => (c.type === 'placeTowerFloor' ? c.capture?.at : null))).toEqual([[0, -1]]);
    expect(t.state.sd!.posts.knights.row).toEqual([0]);
  });

  it('no post meeple without a matching meeple placement this turn', () => {
    const t = sd();
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_B' });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_B', at: [0, -1], rot: 0 });
    const r = t.try({ type: 'placeAtDefencePost', player: 0, post: 'knights', space: 'row' });
    expect(r.ok).toBe(false);
  });

  it('§2.6 game end: a final counter attack at each of the 3 posts before the usual final scoring', () => {
    const t = sd();
    play(t, { tile: 'BASE_E', at: [0, -1], action: { meeple: 'normal', on: 'N1' }, post: { post: 'knights', space: 'row' } });
    play(t, { tile: 'BASE_B', at: [1, -1], action: { meeple: 'normal', on: 'CLOISTER' }, post: { post: 'monks', space: 'row' } });
    const finals = t.finish();
    expect(finals.filter((s) => s.kind === 'counterAttack').map((s) => [s.players[0], s.points])).toEqual([[0, 3], [1, 3]]);
    expect(finals.findIndex((s) => s.kind === 'counterAttack')).toBe(0);
  });
});
