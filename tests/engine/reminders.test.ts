/** The table's reminders: what must happen now, who does it and why, for the classic game and both 2025 expansions. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reminders, type Reminder } from '../../engine/game/reminders.js';
import { Game } from '../../engine/game/game.js';
import type { Command } from '../../engine/game/commands.js';
import { commandsForTurn, setupFromRecord } from '../../engine/record/convert.js';
import { parseRecordText } from '../../engine/record/schema.js';
import { Table } from './table.js';

/** A scenario record played up to (not including) command `stop` of turn `turn` (1-based). */
function scenarioAt(file: string, turn: number, stop = Infinity): Game {
  const parsed = parseRecordText(readFileSync(join(import.meta.dirname, '../fixtures/scenarios', file), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reason);
  const started = Game.start(setupFromRecord(parsed.record));
  if (!started.ok) throw new Error(started.reason);
  const g = started.value;
  for (let i = 0; i < turn; i++) {
    const commands: Command[] = commandsForTurn(parsed.record.turns[i]!, g.state);
    const upto = i === turn - 1 ? Math.min(stop, commands.length) : commands.length;
    for (const c of commands.slice(0, upto)) {
      const r = g.play(c);
      if (!r.ok) throw new Error(r.reason);
    }
  }
  return g;
}

const codes = (rs: readonly Reminder[]) => rs.map((r) => r.what);
const first = (rs: readonly Reminder[]) => rs[0]!;

describe('reminders: the classic game', () => {
  it('a turn: place a tile; then the meeple options and the end of the turn', () => {
    const t = new Table();
    expect(first(reminders(t.state))).toMatchObject({ what: 'placeTile', who: [0], required: true });
    t.place('BASE_U', [1, 0], 0);
    expect(codes(reminders(t.state))).toEqual(['placeMeeple', 'endTurn']);
  });

  it('tower capture in range N, and a ransom when a prisoner is held', () => {
    const t = new Table({ expansions: ['base', 'tower'] });
    t.turn('TOWER_FG', [0, 1], 0);
    t.turn('BASE_U', [1, 1], 90, { meeple: 'normal', on: 'N1' });
    t.place('BASE_B', [-1, 1], 0);
    const capture = reminders(t.state).find((r) => r.what === 'towerCapture');
    expect(capture?.text).toMatch(/tower at \[0, 1\] reaches range 1: capture one of P1's normal at \[1, 1\]/);
    t.do({ type: 'placeTowerFloor', player: 0, at: [0, 1], capture: { player: 1, at: [1, 1], on: 'N1' } });
    t.endTurn();
    t.turn('BASE_B', [-1, 2], 0);
    t.turn('BASE_B', [0, 2], 0);
    const ransom = reminders(t.state).find((r) => r.what === 'payRansom');
    expect(ransom).toMatchObject({ who: [1], required: false });
    expect(ransom?.text).toMatch(/may pay 3 points to P0/);
  });

  it('game over: the final-scoring steps in order', () => {
    const t = new Table({ expansions: ['base', 'siege-defense'] });
    t.state.supply.clear();
    const rs = reminders(t.state);
    expect(codes(rs)).toEqual(['gameOver', 'finalScoring', 'finalScoring', 'finalScoring']);
    expect(rs[1]!.text).toMatch(/^1\. a final counter attack at each of the 3 defence posts/);
    expect(rs[3]!.text).toMatch(/^3\. farmers .* \(the fortress counts as one\)/);
  });
});

describe('reminders: Jousts & Crests', () => {
  it('draw from stack N with the tiles left, and place it: the draw is entered by itself only for a tile that fits nowhere', () => {
    const g = scenarioAt('jc-tournament-9-8-3.json', 0);
    expect(first(reminders(g.state))).toMatchObject({ what: 'placeTile', who: [0], required: true });
    expect(first(reminders(g.state)).text).toMatch(/draws a land tile from stack 1 \(18 tiles left\) and places it/);
    expect(reminders(g.state)[1]).toMatchObject({ what: 'drawTile', required: false });
    expect(reminders(g.state)[1]!.text).toMatch(/fits nowhere/);
  });

  it('resolve the road tournament now; then who reveals, in order', () => {
    const g = scenarioAt('jc-tournament-9-8-3.json', 19, 0);
    expect(first(reminders(g.state))).toMatchObject({ what: 'resolveTournament', who: [2] });
    expect(first(reminders(g.state)).text).toMatch(/road tournament/);
    g.play({ type: 'resolveTournament', player: 2 });
    expect(first(reminders(g.state))).toMatchObject({ what: 'revealEmblem', who: [2, 0, 1] });
  });

  it('who may nominate after the tile', () => {
    const g = scenarioAt('jc-tournament-9-8-3.json', 5, 2);
    const nominate = reminders(g.state).find((r) => r.what === 'nominate');
    expect(nominate).toMatchObject({ who: [0], required: false });
    expect(nominate?.text).toMatch(/\[0, -1\]/);
  });

  it('place your prize tile first, with the kept emblem', () => {
    const g = scenarioAt('jc-tournament-9-8-3.json', 21, 1);
    expect(first(reminders(g.state))).toMatchObject({ what: 'placePrizeTile', who: [0] });
    expect(first(reminders(g.state)).text).toMatch(/kept emblem \(5\)/);
  });
});

describe('reminders: Siege & Defense', () => {
  it('place a catapult at post X', () => {
    const g = scenarioAt('sd-attack-forced-monk-removal.json', 1, 1);
    expect(first(reminders(g.state))).toMatchObject({ what: 'resolveSiegeSymbol', who: [0] });
    expect(first(reminders(g.state)).text).toMatch(/catapult on the monks post/);
  });

  it('attack at post X: who scores and who must remove which kind of meeple', () => {
    const g = scenarioAt('sd-attack-forced-monk-removal.json', 3, 1);
    expect(first(reminders(g.state)).text).toMatch(/attack at the monks post: P0 score 3 per meeple there; P1 must remove a monk or the abbot/);
    g.play({ type: 'resolveSiegeSymbol', player: 2, post: 'monks' });
    expect(first(reminders(g.state))).toMatchObject({ what: 'removeMeeple', who: [1] });
  });

  it('a post meeple after a knight; counter attack at post X when its row is full', () => {
    const g = scenarioAt('sd-counter-attack-6-12-3.json', 12, 3);
    const post = reminders(g.state).find((r) => r.what === 'placeAtDefencePost');
    expect(post?.text).toMatch(/knights row \(3\/4 filled: the last space, a counter attack\)/);
    g.play({ type: 'placeAtDefencePost', player: 2, post: 'knights', space: 'row' });
    expect(reminders(g.state).find((r) => r.what === 'counterAttack')?.text).toMatch(/P0 6, P1 12, P2 3/);
  });
});
