/**
 * Edge cases and conflicts between sources, named after the rules digest §12 and §13. Items covered
 * in the section tests are named there (§12.12 in tower, §12.14 in river).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordText } from '../../../engine/record/schema.js';
import { replayRecord } from '../../../engine/record/replay.js';
import { brief, Table } from '../table.js';

describe('§12 edge cases', () => {
  it('§12.1 occupancy is checked on the merged feature; merging occupied features is fine', () => {
    const t = new Table();
    t.turn('BASE_A', [-1, 0], 270, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_V', [0, 1], 270, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_V', [1, 1], 90);
    t.place('BASE_V', [1, 0], 0); // joins both roads
    expect(t.try({ type: 'placeMeeple', player: 1, kind: 'normal', on: 'W1' }).ok).toBe(false);
  });

  it('§12.2 tied leaders all score in full', () => {
    const t = new Table();
    t.turn('BASE_A', [-1, 0], 270, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_V', [0, 1], 270, { meeple: 'normal', on: 'E1' });
    t.turn('BASE_V', [1, 1], 90);
    t.turn('BASE_V', [1, 0], 0);
    expect(brief(t.turn('BASE_A', [0, 2], 180))).toEqual([{ players: [0, 1], points: 6, kind: 'road' }]);
  });

  it('§12.3 the big meeple counts 2 for majority in fields too', () => {
    const t = new Table({ expansions: ['base', 'inns-cathedrals'] });
    t.turn('BASE_F', [0, -1], 90, { meeple: 'big', on: 'W1' }); // big farmer west of the city
    t.turn('BASE_E', [0, -2], 180); // the city is complete
    t.turn('BASE_B', [-1, -1], 0);
    t.turn('BASE_B', [1, -1], 0, { meeple: 'normal', on: 'N1' }); // a farmer east of the city
    t.turn('BASE_B', [-1, -2], 0);
    t.turn('BASE_B', [1, -2], 0); // the two fields join round the city's cap
    expect(brief(t.finish())).toEqual([{ players: [0], points: 3, kind: 'field' }]);
  });

  it('§12.4 a city counts once per field, however many tiles it borders it on, and pays every field it borders', () => {
    const t = new Table();
    t.turn('BASE_F', [0, -1], 90, { meeple: 'normal', on: 'W1' }); // P0 farmer west of the city
    t.turn('BASE_E', [0, -2], 180); // city complete: start tile, F, cap
    t.turn('BASE_U', [1, 0], 0);
    t.turn('BASE_B', [1, -1], 0, { meeple: 'normal', on: 'N1' }); // P1's field borders the city on F and on the start tile
    const final = t.finish();
    expect(brief(final)).toEqual(expect.arrayContaining([
      { players: [0], points: 3, kind: 'field' },
      { players: [1], points: 3, kind: 'field' },
    ]));
    expect(final).toHaveLength(2);
  });

  it('§12.4 fields with no farmers score nothing', () => {
    const t = new Table();
    t.turn('BASE_F', [0, -1], 90);
    t.turn('BASE_E', [0, -2], 180);
    expect(t.finish()).toEqual([]);
  });

  it('§12.5 pennants are counted one by one', () => {
    const t = new Table();
    t.turn('BASE_F', [0, -1], 90, { meeple: 'normal', on: 'N1' });
    t.turn('BASE_F', [0, -2], 90);
    const [s] = t.turn('BASE_E', [0, -3], 180);
    expect(s!.points).toBe(12);
    expect(s!.items).toEqual([{ name: 'tiles', count: 4, points: 8 }, { name: 'pennants', count: 2, points: 4 }]);
  });

  it('§12.6 a cloister\'s neighbourhood is the 8 positions around it, diagonals included', () => {
    const t = new Table();
    t.turn('BASE_B', [0, 1], 0, { meeple: 'normal', on: 'CLOISTER' });
    t.turn('BASE_B', [1, 1], 0); // orthogonal
    t.turn('BASE_B', [1, 2], 0); // diagonal
    expect(brief(t.finish())).toEqual([{ players: [0], points: 4, kind: 'cloister.incomplete' }]);
  });

  it('§12.7 a tile with two cities of its own offers two separate spots', () => {
    const t = new Table();
    t.place('BASE_I', [0, -1], 180); // cities south (joining the start city) and east, apart
    t.do({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'E1' });
    expect(brief(t.endTurn())).toEqual([]); // the south city completes, but nobody stands in it
    const b = t.state.board;
    expect(b.find(b.partAt(0, -1, 'E1')!)).not.toBe(b.find(b.partAt(0, -1, 'S1')!));
    expect(b.isComplete(b.partAt(0, -1, 'S1')!)).toBe(true);
    expect(b.isComplete(b.partAt(0, -1, 'E1')!)).toBe(false);
  });

  it('§12.8 a road loop is a complete road', () => {
    const t = new Table({ start: [{ tile: 'BASE_V', at: [0, 0], rot: 270 }] });
    t.turn('BASE_V', [1, 0], 0, { meeple: 'normal', on: 'W1' });
    t.turn('BASE_V', [1, 1], 90);
    expect(brief(t.turn('BASE_V', [0, 1], 180))).toEqual([{ players: [0], points: 4, kind: 'road' }]);
  });

  it('§12.10 the abbot\'s early return uses the meeple step', () => {
    const t = new Table({ expansions: ['base', 'abbot'] });
    t.turn('BASE_B', [0, 1], 0, { meeple: 'abbot', on: 'CLOISTER' });
    t.turn('BASE_U', [1, 0], 0);
    t.place('BASE_U', [-1, 0], 0);
    t.do({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'W1' });
    expect(t.try({ type: 'returnAbbot', player: 0, at: [0, 1] }).ok).toBe(false);
  });
});

describe('§13 conflicts between sources, and the reading the engine uses', () => {
  it('the inn on IC_C doubles only its east road (JCloisterZone and first-edition guides)', () => {
    const t = new Table({ expansions: ['base', 'inns-cathedrals'], start: [{ tile: 'IC_C', at: [0, 0], rot: 0 }] });
    expect(brief(t.turn('BASE_A', [-1, 0], 270, { meeple: 'normal', on: 'E1' }))).toEqual([{ players: [0], points: 2, kind: 'road' }]);
    expect(brief(t.turn('BASE_A', [1, 0], 90, { meeple: 'normal', on: 'W1' }))).toEqual([{ players: [1], points: 4, kind: 'road' }]);
  });

  it('the capturer chooses which of their own prisoners comes back in an exchange (JCloisterZone)', () => {
    const file = join(import.meta.dirname, '../../fixtures/oracle/g116-base-river-abbot-ic-tower-2p.json');
    const parsed = parseRecordText(readFileSync(file, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(replayRecord(parsed.record).ok).toBe(true);
    const record = structuredClone(parsed.record);
    const turn = record.turns[78]!;
    const action = turn.action as { capture: { exchangeFor?: string } };
    expect(action.capture.exchangeFor).toBe('abbot');
    delete action.capture.exchangeFor;
    const report = replayRecord(record);
    expect(report.error?.turn).toBe(79);
    expect(report.error?.reason).toMatch(/say which comes back \(exchangeFor\)/);
  });
});
