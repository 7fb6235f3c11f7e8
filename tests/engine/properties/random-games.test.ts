/**
 * Invariants over random legal games (fast-check picks the seeds, player counts and expansions):
 * tiles and meeples are conserved, scores only drop by ransom, folding the event log rebuilds the
 * state, undo then redo is the identity, and a correction replays the rest of the game.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExpansionId } from '../../../engine/catalog/types.js';
import { fold } from '../../../engine/game/engine.js';
import type { Game } from '../../../engine/game/game.js';
import { makeSetup } from '../../../engine/game/setup.js';
import { viewOf } from '../../../engine/game/view.js';
import { randomGame } from '../../../engine/sim/random-game.js';

const COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink'];

const setupArb = fc
  .record({
    river: fc.boolean(),
    abbot: fc.boolean(),
    ic: fc.boolean(),
    tower: fc.boolean(),
    players: fc.integer({ min: 2, max: 6 }),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    capture: fc.constantFrom('mandatory' as const, 'optional' as const),
    farmers: fc.boolean(),
  })
  .map((r) => {
    const expansions: ExpansionId[] = ['base'];
    if (r.river) expansions.push('river');
    if (r.abbot) expansions.push('abbot');
    if (r.ic || r.players === 6) expansions.push('inns-cathedrals');
    if (r.tower) expansions.push('tower');
    const setup = makeSetup({
      expansions,
      players: COLORS.slice(0, r.players).map((color, i) => ({ name: `P${i}`, color })),
      rules: { towerCapture: r.capture, farmers: r.farmers },
    });
    return { setup, seed: r.seed };
  });

function figuresInPlay(game: Game) {
  const s = game.state;
  return s.players.map((_, owner) => {
    const count: Record<string, number> = { normal: 0, big: 0, abbot: 0 };
    for (const [k, n] of Object.entries(s.players[owner]!.supply)) count[k]! += n;
    for (const m of s.meeples) if (m.player === owner) count[m.kind]!++;
    for (const holder of s.players) for (const p of holder.prisoners) if (p.owner === owner) count[p.kind]!++;
    return count;
  });
}

describe('random legal games', () => {
  it('conserve tiles and meeples, and scores drop only by ransom', () => {
    fc.assert(
      fc.property(setupArb, ({ setup, seed }) => {
        let initialFigures: ReturnType<typeof figuresInPlay> | null = null;
        let initialTiles = -1;
        let discarded = 0;
        let last: number[] = [];
        const game = randomGame(setup, seed, {
          onCommand(g, c) {
            initialFigures ??= figuresInPlay(g);
            if (initialTiles < 0) initialTiles = g.state.board.size + [...g.state.supply.values()].reduce((a, b) => a + b, 0) + (c.type === 'discardTile' ? 1 : 0);
            if (c.type === 'discardTile') discarded++;
            expect(figuresInPlay(g)).toEqual(initialFigures);
            const tilesNow = g.state.board.size + [...g.state.supply.values()].reduce((a, b) => a + b, 0) + discarded;
            expect(tilesNow).toBe(initialTiles);
            const scores = g.state.players.map((p) => p.score);
            if (c.type !== 'payRansom' && last.length) scores.forEach((v, i) => expect(v).toBeGreaterThanOrEqual(last[i]!));
            last = scores;
          },
        });
        expect(game.state.finished).toBe(true);
        for (const h of game.history) {
          for (const e of h.events) if (e.type === 'scored' && e.points < 0) expect(e.kind).toBe('ransom');
        }
      }),
      { numRuns: 25 },
    );
  });

  it('folding the event log rebuilds the same state', () => {
    fc.assert(
      fc.property(setupArb, ({ setup, seed }) => {
        const game = randomGame(setup, seed);
        expect(viewOf(fold(setup, game.events))).toEqual(viewOf(game.state));
      }),
      { numRuns: 25 },
    );
  });

  it('undo then redo is the identity, from any point of a game', () => {
    fc.assert(
      fc.property(setupArb, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 5, max: 60 }), ({ setup, seed }, k, turns) => {
        const game = randomGame(setup, seed, { maxTurns: turns, finish: false });
        const before = viewOf(game.state);
        const events = game.events.length;
        const n = Math.min(k, game.history.length);
        for (let i = 0; i < n; i++) expect(game.undo().ok).toBe(true);
        for (let i = 0; i < n; i++) expect(game.redo().ok).toBe(true);
        expect(viewOf(game.state)).toEqual(before);
        expect(game.events.length).toBe(events);
      }),
      { numRuns: 25 },
    );
  });

  it('correcting a command several turns back replays everything after it', () => {
    fc.assert(
      fc.property(setupArb, fc.integer({ min: 1, max: 30 }), ({ setup, seed }, back) => {
        const game = randomGame(setup, seed, { maxTurns: 40, finish: false });
        const index = Math.max(0, game.history.length - back);
        const same = game.history[index]!.command;
        const before = viewOf(game.state);
        // Replacing a command by itself changes nothing.
        expect(game.correct(index, same).ok).toBe(true);
        expect(viewOf(game.state)).toEqual(before);
        // Dropping an endTurn makes the next placement illegal: refused, and nothing changes.
        const endTurn = game.history.findIndex((h, i) => i >= index && h.command.type === 'endTurn' && i < game.history.length - 1);
        if (endTurn >= 0) {
          const r = game.correct(endTurn, null);
          expect(r.ok).toBe(false);
          expect(viewOf(game.state)).toEqual(before);
        }
      }),
      { numRuns: 20 },
    );
  });
});
