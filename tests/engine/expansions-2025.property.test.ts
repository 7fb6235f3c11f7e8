/**
 * Property tests over random legal games with every expansion at once (base, River, Abbot, Inns &
 * Cathedrals, Tower, Jousts & Crests, Siege & Defense): games finish; every won prize tile is placed;
 * emblems are conserved; at most 3 catapults; meeples are conserved; the fold of the events rebuilds
 * the same state.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExpansionId } from '../../engine/catalog/types.js';
import { EMBLEM_VALUES, emblemCount } from '../../engine/expansions/jousts-crests.js';
import { EXTRA_MEEPLES, POSTS } from '../../engine/expansions/siege-defense.js';
import type { DefencePostName, GameEvent } from '../../engine/game/events.js';
import { fold } from '../../engine/game/engine.js';
import { viewOf } from '../../engine/game/view.js';
import type { Game } from '../../engine/game/game.js';
import { makeSetup } from '../../engine/game/setup.js';
import type { GameState } from '../../engine/game/state.js';
import { randomGame } from '../../engine/sim/random-game.js';
import { reminders, type ReminderCode } from '../../engine/game/reminders.js';
import type { Command } from '../../engine/game/commands.js';
import { recordFromGame } from '../../engine/record/write.js';
import { replayRecord } from '../../engine/record/replay.js';
import { parseRecord } from '../../engine/record/schema.js';

const ALL: ExpansionId[] = ['base', 'river', 'abbot', 'inns-cathedrals', 'tower', 'jousts-crests', 'siege-defense'];
const COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink'];

function setupFor(players: number, expansions: ExpansionId[] = ALL) {
  return makeSetup({ expansions, players: COLORS.slice(0, players).map((color, i) => ({ name: `P${i}`, color })) });
}

/** Meeples each player owns in all, by kind: the figures' counts plus Siege & Defense's two. */
function owned(state: GameState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, f] of state.pipeline.figures) out[kind] = f.perPlayer + (kind === 'normal' && state.sd ? EXTRA_MEEPLES : 0);
  return out;
}

function checkMeeples(state: GameState): void {
  const totals = owned(state);
  state.players.forEach((p, i) => {
    for (const kind of Object.keys(totals)) {
      const onBoard = state.meeples.filter((m) => m.player === i && m.kind === kind).length;
      const prisoners = state.players.reduce((n, h) => n + h.prisoners.filter((x) => x.owner === i && x.kind === kind).length, 0);
      const atPosts = kind === 'normal' && state.sd ? POSTS.reduce((n, post) => n + [...state.sd!.posts[post].row, ...state.sd!.posts[post].space].filter((o) => o === i).length, 0) : 0;
      expect(p.supply[kind as 'normal'] + onBoard + prisoners + atPosts, `player ${i} ${kind} meeples`).toBe(totals[kind]);
      expect(p.supply[kind as 'normal']).toBeGreaterThanOrEqual(0);
    }
  });
}

function checkEmblems(state: GameState): void {
  if (!state.jc) return;
  state.players.forEach((_, i) => {
    expect(emblemCount(state, i), `player ${i} emblems`).toBe(EMBLEM_VALUES.length);
    const left = [...EMBLEM_VALUES];
    for (const v of state.jc!.players[i]!.revealed) {
      expect(left, `player ${i} revealed ${v} twice or a value they do not own`).toContain(v);
      left.splice(left.indexOf(v), 1);
    }
  });
}

/** Catapults followed through the events alone: never a second on one post, never more than 3. */
function checkCatapults(events: readonly GameEvent[], state: GameState): void {
  if (!state.sd) return;
  const on = new Set<DefencePostName>();
  for (const e of events) {
    if (e.type === 'catapultPlaced') {
      expect(on.has(e.post), `a second catapult at the ${e.post} post`).toBe(false);
      on.add(e.post);
    }
    if (e.type === 'attackStarted') expect(on.has(e.post), `attack at the ${e.post} post without a catapult`).toBe(true);
    if (e.type === 'postCleared') on.delete(e.post);
    expect(on.size).toBeLessThanOrEqual(3);
  }
  for (const post of POSTS) expect(state.sd.posts[post].catapult).toBe(on.has(post));
}

function checkPrizes(events: readonly GameEvent[], state: GameState): void {
  if (!state.jc) return;
  let won = 0;
  let settled = 0;
  for (const e of events) {
    if (e.type === 'tournamentResolved') won += e.prizes.length;
    if (e.type === 'prizeTilePlaced' || e.type === 'prizeTileDiscarded') settled++;
  }
  expect(settled, 'every won prize tile is placed (or discarded when it fits nowhere)').toBe(won);
  expect(state.jc.players.every((p) => p.prizesHeld === 0 && p.keptEmblems.length === 0)).toBe(true);
  expect(state.jc.tournamentsDone).toBe(state.jc.stacks.length);
}

/** Siege symbols come before prize tiles: no catapult or attack after a prize tile in the same turn. */
function checkSiegeBeforePrize(events: readonly GameEvent[]): void {
  let prizePlaced = false;
  for (const e of events) {
    if (e.type === 'prizeTilePlaced') prizePlaced = true;
    if (e.type === 'turnEnded') prizePlaced = false;
    if (e.type === 'catapultPlaced' || e.type === 'attackStarted') expect(prizePlaced, 'a siege symbol resolved after a prize tile').toBe(false);
  }
}

/** The command types that carry out a required reminder (a ransom may always come first). */
const CARRIES_OUT: Partial<Record<ReminderCode, readonly Command['type'][]>> = {
  resolveTournament: ['resolveTournament'],
  revealEmblem: ['revealEmblem'],
  drawTile: ['drawTile'],
  resolveSiegeSymbol: ['resolveSiegeSymbol'],
  removeMeeple: ['removeMeepleForAttack'],
  // The draw may be entered by itself first (a tile that fits nowhere, a siege symbol); placing implies it.
  placePrizeTile: ['placePrizeTile', 'discardPrizeTile', 'drawTile'],
  placeTournamentTile: ['placeTournamentTile'],
  placeTile: ['placeTile', 'discardTile', 'drawTile'],
  skipTurn: ['skipTurn'],
  gameOver: ['finishGame'],
};

function checkGame(game: Game): void {
  const state = game.state;
  const events = game.events;
  expect(state.finished).toBe(true);
  expect([...state.supply.values()].every((n) => n === 0), 'every land tile was drawn').toBe(true);
  checkMeeples(state);
  checkEmblems(state);
  checkCatapults(events, state);
  checkPrizes(events, state);
  checkSiegeBeforePrize(events);
  // Final scoring in the digest's order: final counter attacks, emblem clean-up and statues, then the usual.
  const finalKinds = events.filter((e) => (e.type === 'scored' && e.final) || e.type === 'emblemsCleared').map((e) => (e.type === 'scored' ? e.kind : e.type));
  const rank = (k: string) => (k === 'counterAttack' ? 0 : k === 'emblemsCleared' || k === 'statue' ? 1 : 2);
  expect(finalKinds.map(rank)).toEqual([...finalKinds.map(rank)].sort((a, b) => a - b));
  const rebuilt = fold(game.setup, events);
  expect(viewOf(rebuilt), 'the fold of the events rebuilds the same state').toEqual(viewOf(state));
}

describe('random legal games with every expansion at once', () => {
  it('finish with prizes placed, emblems, catapults and meeples conserved', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (players, seed) => {
        let expected: { what: ReminderCode; types: readonly Command['type'][] } | null = null;
        const game = randomGame(setupFor(players), seed, {
          onCommand: (g, command) => {
            if (expected && command.type !== 'payRansom') {
              expect(expected.types, `the reminder said ${expected.what}, the next command was ${command.type}`).toContain(command.type);
            }
            const first = reminders(g.state)[0];
            expect(first, 'there is always something to do').toBeDefined();
            const types = first && first.required ? CARRIES_OUT[first.what] : undefined;
            expected = types ? { what: first!.what, types } : null;
            checkMeeples(g.state);
            checkEmblems(g.state);
            if (g.state.sd) {
              const catapults = POSTS.filter((p) => g.state.sd!.posts[p].catapult).length;
              expect(catapults).toBeLessThanOrEqual(3);
              for (const p of POSTS) expect(g.state.sd.posts[p].row.length).toBeLessThanOrEqual(g.state.sd.rowLength);
            }
          },
        });
        checkGame(game);
      }),
      { numRuns: 15 },
    );
  });

  it.each([
    [['base', 'jousts-crests']],
    [['base', 'siege-defense']],
    [['base', 'jousts-crests', 'siege-defense']],
    [['base', 'river', 'jousts-crests']],
    [['base', 'river', 'siege-defense', 'abbot']],
  ] as ExpansionId[][][])('also with %j alone', (expansions) => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (players, seed) => {
        checkGame(randomGame(setupFor(players, expansions), seed));
      }),
      { numRuns: 8 },
    );
  });
});

describe('records of games with every expansion', () => {
  it('a random game written as a record (tournaments, prizes, siege, posts…) replays to the same scores, turn by turn', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (players, seed) => {
        const game = randomGame(setupFor(players), seed);
        const rec = recordFromGame(game);
        const parsed = parseRecord(JSON.parse(JSON.stringify(rec)));
        expect(parsed.ok, parsed.ok ? '' : parsed.reason).toBe(true);
        expect(rec.turns.some((t) => t.tournament)).toBe(true);
        // A tournament nobody entered awards no prize tile, so prizes appear only when some were won.
        const won = game.events.reduce((n, e) => n + (e.type === 'tournamentResolved' ? e.prizes.length : 0), 0);
        expect(rec.turns.some((t) => t.prizeTiles)).toBe(won > 0);
        const report = replayRecord(rec);
        expect(report.error).toBeUndefined();
        expect(report.mismatch).toBeUndefined();
        expect(report.final).toEqual(game.state.players.map((p) => p.score));
      }),
      { numRuns: 6 },
    );
  });
});

describe('undo and redo with every expansion', () => {
  it('undoing the last commands (tournaments, reveals, siege, posts…) and redoing them gives the same state', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 20, max: 120 }), fc.integer({ min: 1, max: 12 }), (players, seed, turns, back) => {
        const game = randomGame(setupFor(players), seed, { maxTurns: turns, finish: false });
        const before = viewOf(game.state);
        const n = Math.min(back, game.history.length);
        for (let i = 0; i < n; i++) expect(game.undo().ok).toBe(true);
        for (let i = 0; i < n; i++) expect(game.redo().ok).toBe(true);
        expect(viewOf(game.state)).toEqual(before);
      }),
      { numRuns: 8 },
    );
  });
});
