/** record@1: reading, writing, replaying, and clear errors for bad input (turn and reason named). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSetup } from '../../engine/game/setup.js';
import { parseRecord, parseRecordText, type GameRecord } from '../../engine/record/schema.js';
import { replayRecord } from '../../engine/record/replay.js';
import { recordFromGame } from '../../engine/record/write.js';
import { randomGame } from '../../engine/sim/random-game.js';

const example = (): GameRecord => {
  const p = parseRecordText(readFileSync(join(import.meta.dirname, '../fixtures/oracle/g112-base-river-abbot-ic-tower-3p.json'), 'utf8'));
  if (!p.ok) throw new Error(p.reason);
  return p.record;
};

describe('reading records', () => {
  it('malformed JSON is refused with the parser\'s reason', () => {
    const r = parseRecordText('{"format": "record@1", "turns": [');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^not valid JSON/);
  });

  it('a bad field names its turn and path', () => {
    const rec = example() as unknown as { turns: { rot: unknown }[] };
    rec.turns[4]!.rot = 45;
    const r = parseRecord(rec);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^turn 5 \(turns\[4\]\.rot\)/);
  });

  it('a tile without a position is refused', () => {
    const rec = example() as unknown as { turns: { at?: unknown }[] };
    delete rec.turns[2]!.at;
    const r = parseRecord(rec);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/turn 3.*needs "at" and "rot"/);
  });

  it('another format is refused', () => {
    const r = parseRecord({ ...example(), format: 'record@2' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/format/);
  });
});

describe('replaying records: illegal moves are named by turn', () => {
  const cases: [string, (r: GameRecord) => void, RegExp][] = [
    ['an unknown tile id', (r) => { r.turns[13]!.tile = 'BASE_ZZ'; }, /unknown tile BASE_ZZ/],
    ['a meeple on a segment that does not exist', (r) => { r.turns[2]!.action = { meeple: 'normal', on: 'X9' }; }, /has no feature at X9/],
    ['the wrong player', (r) => { r.turns[5]!.player = 0; }, /the record says player 0, but it is player 2's turn/],
    ['an illegal placement', (r) => { r.turns[20]!.at = [40, 40]; }, /touches no placed tile/],
    ['a meeple on an occupied feature', (r) => { r.turns[3]!.action = { meeple: 'normal', on: 'N0' }; r.turns[4]!.action = { meeple: 'normal', on: 'N0' }; }, /already occupied|cannot/],
  ];
  it.each(cases)('%s', (_, spoil, reason) => {
    const rec = structuredClone(example());
    spoil(rec);
    const report = replayRecord(rec);
    expect(report.ok).toBe(false);
    expect(report.error?.reason).toMatch(reason);
    expect(report.error?.turn).toBeGreaterThan(0);
  });

  it('a wrong expected score is reported at its turn, not as an error', () => {
    const rec = structuredClone(example());
    rec.expect!.final![0]! += 1;
    const report = replayRecord(rec);
    expect(report.error).toBeUndefined();
    expect(report.mismatch).toEqual({ turn: 'final', reason: 'final totals 67, 31, 90; the record expects 68, 31, 90' });
  });
});

describe('writing records', () => {
  it('a played game written as a record replays to the same scores, turn by turn', () => {
    const setup = makeSetup({
      expansions: ['base', 'river', 'abbot', 'inns-cathedrals', 'tower'],
      players: [{ name: 'Ann', color: 'red' }, { name: 'Bo', color: 'blue' }, { name: 'Cy', color: 'green' }],
    });
    for (const seed of [1, 2, 3]) {
      const game = randomGame(setup, seed);
      const rec = recordFromGame(game, { source: `random seed ${seed}` });
      const parsed = parseRecord(JSON.parse(JSON.stringify(rec)));
      expect(parsed.ok).toBe(true);
      const report = replayRecord(rec);
      expect(report.error).toBeUndefined();
      expect(report.mismatch).toBeUndefined();
      expect(report.final).toEqual(game.state.players.map((p) => p.score));
      expect(rec.turns.some((t) => t.expect?.events?.length)).toBe(true);
    }
  });

  it('reading then writing a corpus record keeps its moves and expectations', () => {
    const rec = example();
    const report = replayRecord(rec);
    const again = recordFromGame(report.game!);
    expect(again.turns.map((t) => [t.player, t.tile, t.at, t.rot, t.action ?? null])).toEqual(rec.turns.map((t) => [t.player, t.tile, t.at, t.rot, t.action ?? null]));
    expect(again.expect?.final).toEqual(rec.expect?.final);
    expect(replayRecord(again).ok).toBe(true);
  });
});
