/** The game as a list of commands: undo, redo, correcting a reading several turns back, inserting a missed move. */
import { describe, expect, it } from 'vitest';
import { TileCatalog, validateTile } from '../../engine/catalog/registry.js';
import type { TileType } from '../../engine/catalog/types.js';
import { Game } from '../../engine/game/game.js';
import { legalMeepleSpots } from '../../engine/game/legal.js';
import { legalPlacements } from '../../engine/game/placement.js';
import { makeSetup } from '../../engine/game/setup.js';
import { viewOf } from '../../engine/game/view.js';
import { Table } from './table.js';

describe('undo, redo and corrections', () => {
  function cityGame() {
    const t = new Table();
    t.turn('BASE_F', [0, -1], 90, { meeple: 'normal', on: 'S1' }); // P0 in the city
    t.turn('BASE_U', [1, 0], 0);
    t.turn('BASE_U', [-1, 0], 0);
    t.turn('BASE_E', [0, -2], 180); // P1 completes it: 8 to P0
    return t;
  }

  it('undo steps back one command at a time, redo forward again', () => {
    const t = cityGame();
    expect(t.score(0)).toBe(8);
    expect(t.game.undo().ok).toBe(true); // endTurn
    expect(t.score(0)).toBe(0);
    expect(t.state.turn.step).toBe('action');
    expect(t.game.redo().ok).toBe(true);
    expect(t.score(0)).toBe(8);
    expect(t.game.redo().ok).toBe(false);
  });

  it('peek answers what a command would lead to and leaves the game as it was; an illegal one is refused', () => {
    const t = cityGame();
    t.game.undo(); // endTurn: the city is scored when the turn ends
    const ended = t.game.peek({ type: 'endTurn', player: 1 });
    if (!ended.ok) throw new Error(ended.reason);
    expect(ended.value.players[0]!.score).toBe(8);
    expect(t.score(0)).toBe(0);
    t.game.undo(); // the cap
    const events = t.game.events.length;
    const cap = { type: 'placeTile', player: 1, tile: 'BASE_E', at: [0, -2], rot: 180 } as const;
    const seen = t.game.peek(cap);
    if (!seen.ok) throw new Error(seen.reason);
    expect(seen.value.turn.step).toBe('action');
    expect(seen.value.board.at(0, -2)?.view.tile.id).toBe('BASE_E');
    expect(t.game.events.length).toBe(events);
    expect(t.state.board.at(0, -2)).toBeUndefined();
    expect(t.state.turn.step).toBe('tile');
    expect(t.game.peek({ ...cap, at: [5, 5] }).ok).toBe(false);
  });

  it('a new command after an undo drops the redo list', () => {
    const t = cityGame();
    t.game.undo();
    t.game.undo(); // the placement of the cap
    expect(t.game.canRedo()).toBe(true);
    t.do({ type: 'placeTile', player: 1, tile: 'BASE_E', at: [0, -2], rot: 180 });
    expect(t.game.canRedo()).toBe(false);
  });

  it('correcting a meeple reading several turns back re-derives every later score', () => {
    const t = cityGame();
    const i = t.game.history.findIndex((h) => h.command.type === 'placeMeeple');
    expect(t.game.correct(i, { type: 'placeMeeple', player: 0, kind: 'normal', on: 'E1' }).ok).toBe(true); // a farmer instead
    expect(t.score(0)).toBe(0);
    expect(t.state.meeples).toHaveLength(1);
    expect(t.game.correct(i, null).ok).toBe(true); // no meeple at all
    expect(t.state.meeples).toHaveLength(0);
  });

  it('a correction that makes a later move illegal is refused and changes nothing', () => {
    const t = cityGame();
    const before = viewOf(t.state);
    const r = t.game.correct(0, { type: 'placeTile', player: 0, tile: 'BASE_F', at: [-1, 0], rot: 90 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/the correction makes the game illegal: command \d+/);
    expect(viewOf(t.state)).toEqual(before);
  });

  it('a missed move can be inserted where it happened', () => {
    const t = new Table();
    t.turn('BASE_U', [1, 0], 0);
    const before = t.game.history.length;
    expect(t.game.insert(1, { type: 'placeMeeple', player: 0, kind: 'normal', on: 'E1' }).ok).toBe(true);
    expect(t.game.history).toHaveLength(before + 1);
    expect(t.state.meeples).toHaveLength(1);
  });
});

describe('legal moves for the recognizer', () => {
  it('lists every legal placement of a tile, and nothing illegal', () => {
    const t = new Table();
    const spots = legalPlacements(t.state, 'BASE_E');
    expect(spots).toContainEqual({ at: [0, -1], rot: 180 });
    expect(spots).not.toContainEqual({ at: [0, -1], rot: 0 });
    for (const s of spots) expect(t.game.state && t.try({ type: 'placeTile', player: 0, tile: 'BASE_E', at: s.at, rot: s.rot }).ok && t.game.undo().ok).toBe(true);
  });

  it('lists every legal meeple spot on the tile just placed', () => {
    const t = new Table({ expansions: ['base', 'abbot', 'inns-cathedrals'] });
    t.place('BASE_U_G', [0, 1], 0);
    const spots = legalMeepleSpots(t.state).map((s) => `${s.kind}:${s.on}`).sort();
    expect(spots).toEqual(['abbot:GARDEN', 'big:E1', 'big:E2', 'big:N0', 'normal:E1', 'normal:E2', 'normal:N0']);
  });
});

describe('the catalog', () => {
  it('holds every classic tile, each consistent', () => {
    const c = TileCatalog.classic();
    expect(c.all().length).toBe(83);
    for (const t of c.all()) expect(validateTile(t)).toBeNull();
  });

  it('the supplies match the printed boxes: 72 base tiles with gardens, 12 river, 18 I&C, 18 Tower', () => {
    const g = Game.start(makeSetup({ expansions: ['base', 'river', 'abbot', 'inns-cathedrals', 'tower'], players: [{ name: 'a', color: 'red' }, { name: 'b', color: 'blue' }], tileSet: { riverStartTile: 'box' } }));
    if (!g.ok) throw new Error(g.reason);
    expect(viewOf(g.value.state).tilesLeft).toBe(71 + 11 + 18 + 18);
  });

  it('first-edition counts are a setup option (no gardens)', () => {
    const g = Game.start(makeSetup({ players: [{ name: 'a', color: 'red' }, { name: 'b', color: 'blue' }], tileSet: { edition: 'C1' } }));
    if (!g.ok) throw new Error(g.reason);
    const supply = viewOf(g.value.state).supply;
    expect(supply.BASE_E_G).toBeUndefined();
    expect(supply.BASE_E).toBe(5);
    expect(viewOf(g.value.state).tilesLeft).toBe(71);
  });

  it('a tile the table describes at run time can be played', () => {
    const catalog = TileCatalog.classic();
    const custom: TileType = {
      id: 'TABLE_ROADCITY', expansion: 'base', name: 'described at the table', provisional: true,
      segments: ['city', 'city', 'city', 'field', 'road', 'field', 'field', 'field', 'field', 'field', 'road', 'field'],
      features: [
        { id: 'city1', kind: 'city', segments: [0, 1, 2], pennants: 0, inn: false, cathedral: false, adjacentCities: [] },
        { id: 'road1', kind: 'road', segments: [4, 10], pennants: 0, inn: false, cathedral: false, adjacentCities: [] },
        { id: 'field1', kind: 'field', segments: [3, 11], pennants: 0, inn: false, cathedral: false, adjacentCities: ['city1'] },
        { id: 'field2', kind: 'field', segments: [5, 6, 7, 8, 9], pennants: 0, inn: false, cathedral: false, adjacentCities: [] },
      ],
      counts: { C2: 1 }, riverSpring: false, riverLake: false,
    };
    expect(catalog.add(custom).ok).toBe(true);
    const g = Game.start(makeSetup({ players: [{ name: 'a', color: 'red' }, { name: 'b', color: 'blue' }] }), catalog);
    if (!g.ok) throw new Error(g.reason);
    expect(g.value.play({ type: 'placeTile', player: 0, tile: 'TABLE_ROADCITY', at: [1, 0], rot: 0 }).ok).toBe(true);
  });

  it('an inconsistent description is refused with the reason', () => {
    const catalog = TileCatalog.classic();
    const bad: TileType = {
      id: 'BAD', expansion: 'base', name: 'bad', provisional: true,
      segments: ['city', 'city', 'city', 'field', 'field', 'field', 'field', 'field', 'field', 'field', 'field', 'field'],
      features: [{ id: 'city1', kind: 'city', segments: [0, 1], pennants: 0, inn: false, cathedral: false, adjacentCities: [] },
        { id: 'field1', kind: 'field', segments: [3, 4, 5, 6, 7, 8, 9, 10, 11], pennants: 0, inn: false, cathedral: false, adjacentCities: [] }],
      counts: { C2: 1 }, riverSpring: false, riverLake: false,
    };
    const r = catalog.add(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/segment N2 belongs to no feature/);
    expect(catalog.add({ ...bad, id: 'BASE_A' }).ok).toBe(false);
  });
});
