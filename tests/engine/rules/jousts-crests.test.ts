/** Jousts & Crests, named after the rules digest §1 and the readings of §5 (docs/jousts-crests-siege-defense.md). */
import { describe, expect, it } from 'vitest';
import {
  awardPrizes, buildStacks, chartFor, emblemCount, fieldBonus, tournamentBonus,
} from '../../../engine/expansions/jousts-crests.js';
import { makeSetup, type StartPiece } from '../../../engine/game/setup.js';
import { createGame } from '../../../engine/game/engine.js';
import { legalPlacements } from '../../../engine/game/placement.js';
import { randomGame } from '../../../engine/sim/random-game.js';
import { Table } from '../table.js';
import { play } from './table2025.js';

const jc = (players = 2, stacks?: { S: number; P: number; land?: number[] }, extra: object = {}) =>
  new Table({ expansions: ['base', 'jousts-crests'], players, ...(stacks ? { options: { jc: { stacks, ...extra } } } : { options: { jc: { ...extra } } }) });

const players = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `P${i}`, color: ['red', 'blue', 'green', 'yellow', 'black', 'pink'][i]! }));

describe('§1.2 setup', () => {
  it.each([
    [2, 6, 2, 2], [3, 6, 2, 2], [4, 5, 2, 4], [5, 4, 3, 3], [6, 3, 3, 6],
  ])('base chart with %i players: %i stacks, %i prize tiles on stacks 2..S, %i on the final prize stack', (n, S, P, last) => {
    const g = createGame(makeSetup({ expansions: ['base', 'jousts-crests'], players: players(n) }));
    expect(g.ok).toBe(true);
    if (!g.ok) return;
    const j = g.value.state.jc!;
    expect(j.stacks.length).toBe(S);
    expect(j.stacks.map((s) => s.prizes)).toEqual([0, ...Array<number>(S - 1).fill(P)]);
    expect(j.finalPrizes).toBe(last);
    expect(j.stacks[0]!.prizes).toBe(0);
  });

  it('land tiles split evenly, the remainder on top of stack 1', () => {
    const { stacks, finalPrizes } = buildStacks(79, 6, 2, 12);
    expect(stacks.map((s) => s.land)).toEqual([14, 13, 13, 13, 13, 13]);
    expect(stacks.reduce((n, s) => n + s.land, 0)).toBe(79);
    expect(finalPrizes).toBe(2);
  });

  it('the chart for more land tiles is the largest threshold not above the extra tiles', () => {
    expect(chartFor(79, 2)).toEqual({ S: 6, P: 2 });
    expect(chartFor(79 + 19, 2)).toEqual({ S: 6, P: 2 });
    expect(chartFor(79 + 20, 2)).toEqual({ S: 10, P: 1 });
    expect(chartFor(79 + 53, 4)).toEqual({ S: 6, P: 2 });
    expect(chartFor(79 + 300, 6)).toEqual({ S: 12, P: 1 });
  });

  it('JC-A1: the tournament tile replaces the start tile, which goes back in the box (option startTileToBox)', () => {
    expect(jc().state.supply.get('BASE_D')).toBe(3);
    expect(jc(2, undefined, { startTileToBox: false }).state.supply.get('BASE_D')).toBe(4);
  });

  it('the tournament tile is the start piece: 2×3 cells, each one a board position', () => {
    const t = jc();
    expect(t.state.board.size).toBe(6);
    expect(new Set(t.state.board.tiles.map((c) => c.piece))).toEqual(new Set([0]));
    expect(t.state.pieces).toEqual(['JC-TOURNAMENT']);
  });

  it('each player has 5 emblems with the values 0, 1, 2, 3, 5 hidden', () => {
    const t = jc(3);
    for (let p = 0; p < 3; p++) expect(emblemCount(t.state, p)).toBe(5);
    expect(t.state.jc!.players[0]!.revealed).toEqual([]);
  });
});

describe('§1.3 turn', () => {
  it('players draw only from the current stack; when it is empty the tournament comes first', () => {
    const t = jc(2, { S: 2, P: 2, land: [1, 5] });
    play(t, { tile: 'BASE_U', at: [0, -1] });
    const r = t.try({ type: 'drawTile', player: 1, tile: 'BASE_U' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/stack 1 is empty: resolve the road tournament first/);
    t.do({ type: 'resolveTournament', player: 1 });
    expect(t.state.jc!.current).toBe(1);
    expect(t.try({ type: 'drawTile', player: 1, tile: 'BASE_U' }).ok).toBe(true);
  });

  it('the tile laid is the tile drawn: placing it with no draw entered draws it from the current stack', () => {
    const t = jc(2, { S: 2, P: 2, land: [2, 5] });
    const events = t.do({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [0, -1], rot: 0 });
    expect(events.slice(0, 2)).toEqual([
      { type: 'tileDrawn', player: 0, tile: 'BASE_U' },
      { type: 'tilePlaced', player: 0, tile: 'BASE_U', at: [0, -1], rot: 0 },
    ]);
    expect(t.state.jc!.stacks.map((s) => s.land)).toEqual([1, 5]);
    expect(t.state.turn.drawn).toBe('BASE_U');
    t.endTurn();
    // Entered as two steps, the same game: a placement after a draw draws nothing more.
    t.do({ type: 'drawTile', player: 1, tile: 'BASE_B' });
    const placed = t.do({ type: 'placeTile', player: 1, tile: 'BASE_B', at: [3, 0], rot: 0 });
    expect(placed.map((e) => e.type)).toEqual(['tilePlaced']);
    expect(t.state.jc!.stacks.map((s) => s.land)).toEqual([0, 5]);
    // Stack 1 is empty: the tournament comes before any tile, drawn or laid.
    t.endTurn();
    const r = t.try({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, -1], rot: 0 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/stack 1 is empty: resolve the road tournament first/);
  });

  it('a tile laid is checked as drawn: not one the supply has run out of, and a refused placement draws nothing', () => {
    const t = jc();
    const gone = t.try({ type: 'placeTile', player: 0, tile: 'BASE_X', at: [0, -1], rot: 0 });
    expect(gone.ok).toBe(false);
    const wrong = t.try({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [5, 5], rot: 0 });
    expect(wrong.ok).toBe(false);
    expect(t.state.turn.drawn).toBe(null);
    // A tile that fits nowhere is drawn by itself and discarded: the same player draws again.
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_U' });
    expect(t.try({ type: 'discardTile', player: 0, tile: 'BASE_U' }).ok).toBe(false);
  });

  it('nomination: only a meeple whose feature a tile placed this turn extended', () => {
    const t = jc();
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'normal', on: 'E1' } });
    play(t, { tile: 'BASE_U', at: [0, 2] });
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_B' });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_B', at: [3, 0], rot: 0 });
    const r = t.try({ type: 'nominate', player: 0, at: [0, -1], on: 'E1' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no tile placed this turn extends/);
  });

  it('nomination: at most one per turn, one emblem per meeple, and never the hidden value', () => {
    const t = jc();
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'normal', on: 'E1' } });
    play(t, { tile: 'BASE_U', at: [0, 2] });
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_U' });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, -1], rot: 0 });
    const events = t.do({ type: 'nominate', player: 0, at: [0, -1], on: 'E1' });
    expect(events).toEqual([{ type: 'meepleNominated', player: 0, kind: 'normal', at: [0, -1], on: 'E1' }]);
    expect(JSON.stringify(events)).not.toMatch(/value/);
    const again = t.try({ type: 'nominate', player: 0, at: [0, -1], on: 'E1' });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.reason).toMatch(/only one nomination per turn/);
    t.endTurn();
    play(t, { tile: 'BASE_U', at: [1, 2] });
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_U' });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [2, -1], rot: 0 });
    const twice = t.try({ type: 'nominate', player: 0, at: [0, -1], on: 'E1' });
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.reason).toMatch(/already carries an emblem/);
    expect(t.state.jc!.players[0]!.emblems).toBe(4);
  });

  it('Inns & Cathedrals: the big meeple is nominated like any traveler; one figure, one emblem', () => {
    const t = new Table({ expansions: ['base', 'inns-cathedrals', 'jousts-crests'] });
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'big', on: 'E1' } });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    play(t, { tile: 'BASE_U', at: [1, -1], nominate: [0, -1, 'E1'] });
    expect(t.state.jc!.nominated.size).toBe(1);
    expect(t.state.meeples.find((m) => t.state.jc!.nominated.has(m.id))?.kind).toBe('big');
  });

  it('a nominated meeple leaving the board returns its emblem to its owner\'s supply', () => {
    const t = jc();
    play(t, { tile: 'BASE_V', at: [0, -1], rot: 90, action: { meeple: 'normal', on: 'N1' } });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    play(t, { tile: 'BASE_A', at: [0, -2], rot: 0, nominate: [0, -1, 'N1'] });
    expect(t.state.jc!.players[0]!.emblems).toBe(4);
    play(t, { tile: 'BASE_B', at: [3, 1] });
    // A cloister closing the road's west end: the road is complete and scores; the traveler goes home.
    const s = play(t, { tile: 'BASE_A', at: [-1, -1], rot: 270 });
    expect(s.some((x) => x.kind === 'road' && x.players[0] === 0)).toBe(true);
    expect(t.state.jc!.players[0]!.emblems).toBe(5);
    expect(t.state.jc!.nominated.size).toBe(0);
  });

  it('the farmer\'s 8-neighbour rule: no nomination once the tile had all 8 neighbours before this placement', () => {
    // A farmer's tile surrounded on 7 sides by start pieces; the 8th neighbour comes this turn: allowed.
    const ring = [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1]] as const;
    const start: StartPiece[] = [...ring.map(([x, y]) => ({ tile: 'BASE_B', at: [x + 5, y + 5] as [number, number], rot: 0 as const })), { tile: 'BASE_B', at: [0, 0], rot: 0 }];
    const t = new Table({ expansions: ['base', 'jousts-crests'], start });
    play(t, { tile: 'JC-L-PLAIN', at: [5, 5], action: { meeple: 'normal', on: 'N0' } });
    play(t, { tile: 'JC-L-G', at: [0, 1] });
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_A' });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_A', at: [6, 6], rot: 0 });
    expect(t.try({ type: 'nominate', player: 0, at: [5, 5], on: 'N0' }).ok).toBe(true);
    // With all 8 there before the turn, a tile extending the field no longer allows it.
    const u = new Table({ expansions: ['base', 'jousts-crests'], start: [...start, { tile: 'BASE_B', at: [6, 6], rot: 0 }] });
    play(u, { tile: 'JC-L-PLAIN', at: [5, 5], action: { meeple: 'normal', on: 'N0' } });
    play(u, { tile: 'JC-L-G', at: [0, 1] });
    u.do({ type: 'drawTile', player: 0, tile: 'BASE_A' });
    u.do({ type: 'placeTile', player: 0, tile: 'BASE_A', at: [7, 6], rot: 0 });
    const r = u.try({ type: 'nominate', player: 0, at: [5, 5], on: 'N0' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/already had all 8 neighbours/);
  });

  it('no meeple may be placed on the tournament tile or on a prize tile (JC-A8: nor in the placement laps)', () => {
    const t = jc(2, { S: 2, P: 1, land: [3, 0] }, { crownSpaces: ['road'] });
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'normal', on: 'E1' } });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    play(t, { tile: 'BASE_U', at: [1, -1], nominate: [0, -1, 'E1'] });
    t.do({ type: 'resolveTournament', player: 1 });
    t.do({ type: 'revealEmblem', owner: 0, at: [0, -1], on: 'E1', value: 0 });
    expect(t.state.jc!.players[0]!.prizesHeld).toBe(1);
    t.do({ type: 'resolveTournament', player: 1 });
    expect(t.state.jc!.laps).toBe(true);
    const skip = t.do({ type: 'skipTurn', player: 1 });
    expect(skip).toEqual([{ type: 'turnEnded', player: 1, next: 0 }]);
    t.do({ type: 'placePrizeTile', player: 0, tile: 'JC-P-01', at: [4, 0], rot: 90 });
    const r = t.try({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'E1' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no meeple may be placed on a prize tile/);
  });

  /** Red's knight won a tournament (emblem 3): red holds a prize tile when their next turn comes. */
  function prizeWonByRed() {
    const t = jc(2, { S: 2, P: 1, land: [3, 3] }, { crownSpaces: ['road'] });
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'normal', on: 'E1' } });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    play(t, { tile: 'BASE_U', at: [1, -1], nominate: [0, -1, 'E1'] });
    t.do({ type: 'resolveTournament', player: 1 });
    t.do({ type: 'revealEmblem', owner: 0, at: [0, -1], on: 'E1', value: 3 });
    play(t, { tile: 'BASE_B', at: [3, 1] });
    return t;
  }

  it('prize tile first: the land tile waits while a won prize tile is held', () => {
    const t = prizeWonByRed();
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_B' });
    const r = t.try({ type: 'placeTile', player: 0, tile: 'BASE_B', at: [4, 0], rot: 0 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/must place their prize tile before the land tile/);
    const discard = t.try({ type: 'discardPrizeTile', player: 0, tile: 'JC-P-07' });
    expect(discard.ok).toBe(false);
    if (!discard.ok) expect(discard.reason).toMatch(/fits somewhere on the board, so it cannot be discarded/);
    const placed = t.do({ type: 'placePrizeTile', player: 0, tile: 'JC-P-07', at: [4, 0], rot: 90 });
    expect(placed[0]).toMatchObject({ type: 'prizeTilePlaced', emblem: 3 });
    expect(t.state.jc!.statues).toHaveLength(1);
  });

  it('prize tile first, told before the draw: the land tile laid after it is the draw (the camera sees the prize tile first)', () => {
    const t = prizeWonByRed();
    const early = t.try({ type: 'placeTile', player: 0, tile: 'BASE_B', at: [4, 0], rot: 0 });
    expect(early.ok).toBe(false);
    if (!early.ok) expect(early.reason).toMatch(/must place their prize tile before the land tile/);
    const before = t.state.jc!.stacks[1]!.land;
    t.do({ type: 'placePrizeTile', player: 0, tile: 'JC-P-07', at: [4, 0], rot: 90 });
    expect(t.state.turn.drawn).toBe(null);
    const spot = legalPlacements(t.state, 'BASE_B')[0]!;
    const land = t.do({ type: 'placeTile', player: 0, tile: 'BASE_B', at: spot.at, rot: spot.rot });
    expect(land.map((e) => e.type)).toEqual(['tileDrawn', 'tilePlaced']);
    expect(t.state.jc!.stacks[1]!.land).toBe(before - 1);
  });
});

describe('§1.5 tournaments', () => {
  it('JC-A2: the crown spaces are data; the crown starts where the option says and moves one space clockwise', () => {
    const t = jc(2, { S: 3, P: 1, land: [1, 1, 5] }, { crownSpaces: ['road', 'city', 'field'], crownStart: 2 });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    const first = t.do({ type: 'resolveTournament', player: 1 });
    expect(first[0]).toMatchObject({ type: 'tournamentStarted', category: 'field' });
    play(t, { tile: 'BASE_B', at: [3, 1] });
    const second = t.do({ type: 'resolveTournament', player: 0 });
    expect(second[0]).toMatchObject({ type: 'tournamentStarted', category: 'road' });
  });

  it('JC-A6: with allowRenominate off, a meeple whose emblem was spent cannot be nominated again', () => {
    const t = jc(2, { S: 2, P: 1, land: [3, 4] }, { crownSpaces: ['road'], allowRenominate: false });
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'normal', on: 'E1' } });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    play(t, { tile: 'BASE_U', at: [1, -1], nominate: [0, -1, 'E1'] });
    t.do({ type: 'resolveTournament', player: 1 });
    t.do({ type: 'revealEmblem', owner: 0, at: [0, -1], on: 'E1', value: 1 });
    play(t, { tile: 'BASE_B', at: [3, 1] });
    t.do({ type: 'drawTile', player: 0, tile: 'BASE_U' });
    t.do({ type: 'placePrizeTile', player: 0, tile: 'JC-P-01', at: [4, 0], rot: 90 });
    t.do({ type: 'placeTile', player: 0, tile: 'BASE_U', at: [2, -1], rot: 0 });
    const r = t.try({ type: 'nominate', player: 0, at: [0, -1], on: 'E1' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/already been in a tournament/);
  });

  it('a revealed value must be one of the owner\'s hidden values', () => {
    const t = jc(2, { S: 2, P: 1, land: [3, 3] }, { crownSpaces: ['road'] });
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'normal', on: 'E1' } });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    play(t, { tile: 'BASE_U', at: [1, -1], nominate: [0, -1, 'E1'] });
    t.do({ type: 'resolveTournament', player: 1 });
    const r = t.try({ type: 'revealEmblem', owner: 0, at: [0, -1], on: 'E1', value: 4 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no hidden emblem of value 4/);
    const wrong = t.try({ type: 'revealEmblem', owner: 1, at: [0, -1], on: 'E1', value: 2 });
    expect(wrong.ok).toBe(false);
  });

  it.each([
    // [values by player, players, active, tiles left] → prizes in draw order, leftover, sole winner
    ['4 players: 9, 8, 3', [[0, 9], [1, 8], [2, 3]], 4, 2, 2, [0, 1], 0, 0],
    ['ties at the top share the first places, no emblem kept', [[0, 7], [1, 7], [2, 5]], 4, 0, 2, [0, 1], 0, null],
    ['a tied group larger than the tiles left draws nothing (JC-A3)', [[0, 7], [1, 7], [2, 5]], 4, 0, 1, [], 1, null],
    ['a tie for second with one tile left: nobody second', [[0, 9], [1, 5], [2, 5]], 4, 0, 2, [0], 1, 0],
    ['5 players: three places', [[0, 9], [1, 8], [2, 7], [3, 6]], 5, 0, 3, [0, 1, 2], 0, 0],
    ['inside a tie, clockwise from the active player (JC-A4)', [[0, 7], [1, 7], [3, 7]], 4, 1, 3, [1, 3, 0], 0, null],
    ['fewer participants than places: the tiles left move on', [[2, 4]], 4, 0, 2, [2], 1, 2],
    ['no participant: every tile moves on', [], 4, 0, 2, [], 2, null],
  ] as const)('prize places: %s', (_name, values, n, active, left, prizes, leftover, sole) => {
    const r = awardPrizes(values.map(([player, value]) => ({ player, value })), n, active, left);
    expect(r.prizes).toEqual(prizes);
    expect(r.leftover).toBe(leftover);
    expect(r.soleWinner).toBe(sole);
  });

  it('field value: the 8 positions around the farmer, and the outer ring of 16 only when all 8 are filled (JC-A10: holes count nothing)', () => {
    const block = (w: number, skip: string[] = []): StartPiece[] => {
      const out: StartPiece[] = [];
      for (let y = -2; y <= 2; y++) for (let x = -2; x <= 2; x++) if (Math.abs(x) <= w && Math.abs(y) <= w && !skip.includes(`${x},${y}`)) out.push({ tile: 'BASE_B', at: [x, y], rot: 0 });
      return out;
    };
    const state = (start: StartPiece[]) => {
      const g = createGame(makeSetup({ expansions: ['base'], players: players(2), start }));
      if (!g.ok) throw new Error(g.reason);
      return g.value.state;
    };
    expect(fieldBonus(state(block(2)), 0, 0).bonus).toBe(24);
    expect(fieldBonus(state(block(2, ['2,2', '-2,0'])), 0, 0).bonus).toBe(22);
    expect(fieldBonus(state(block(2, ['1,1'])), 0, 0).bonus).toBe(7);
    expect(fieldBonus(state(block(1)), 0, 0)).toEqual({ bonus: 8, items: [{ name: 'tiles around', count: 8, points: 8 }, { name: 'outer ring', count: 0, points: 0 }] });
  });

  it('road and city values count tiles (a multi-cell piece per cell), coats of arms and inns ignored', () => {
    const t = jc();
    play(t, { tile: 'BASE_U', at: [0, -1], action: { meeple: 'normal', on: 'E1' } });
    play(t, { tile: 'BASE_B', at: [3, 0] });
    play(t, { tile: 'BASE_U', at: [1, -1] });
    const m = t.state.meeples[0]!;
    expect(tournamentBonus(t.state, m, 'road').bonus).toBe(2);
  });
});

describe('§1.4 with The River', () => {
  it('the tournament tile enters when the first river bend is drawn, continuing the river', () => {
    const g = randomGame(makeSetup({ expansions: ['base', 'river', 'jousts-crests'], players: players(3) }), 11);
    const events = g.events;
    const i = events.findIndex((e) => e.type === 'tournamentTilePlaced');
    expect(i).toBeGreaterThan(0);
    const drawn = events.slice(0, i).filter((e) => e.type === 'tileDrawn').at(-1);
    expect(drawn && drawn.type === 'tileDrawn' && g.state.catalog.view(drawn.tile, 0).riverSides.length).toBe(2);
    const placed = events.slice(i).find((e) => e.type === 'tilePlaced');
    expect(placed && placed.type === 'tilePlaced' && drawn && drawn.type === 'tileDrawn' && placed.tile).toBe(drawn && drawn.type === 'tileDrawn' ? drawn.tile : null);
    expect(events.slice(0, i).some((e) => e.type === 'tilePlaced' && g.state.catalog.get(e.tile)!.features.filter((f) => f.kind === 'river').length > 0 && (() => {
      const sides = g.state.catalog.view(e.tile, 0).riverSides;
      return sides.length === 2 && (sides[0]! + 2) % 4 !== sides[1];
    })())).toBe(false);
  });
});
