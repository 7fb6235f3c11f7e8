/** Acceptance: every game of the golden corpus (JCloisterZone playouts) replays with equal per-turn scores and totals. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordText } from '../../engine/record/schema.js';
import { replayRecord } from '../../engine/record/replay.js';

const dir = join(import.meta.dirname, '../fixtures/oracle');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('golden corpus', () => {
  it('holds all 126 games', () => {
    expect(files).toHaveLength(126);
  });

  it.each(files)('%s replays with the expected events and totals', (file) => {
    const parsed = parseRecordText(readFileSync(join(dir, file), 'utf8'));
    expect(parsed.ok, parsed.ok ? '' : parsed.reason).toBe(true);
    if (!parsed.ok) return;
    const report = replayRecord(parsed.record);
    expect(report.error).toBeUndefined();
    expect(report.mismatch).toBeUndefined();
    expect(report.final).toEqual(parsed.record.expect?.final);
    const expectedTurnEvents = parsed.record.turns.reduce((n, t) => n + (t.expect?.events?.length ?? 0), 0);
    expect(report.turns.reduce((n, t) => n + t.scores.length, 0)).toBe(expectedTurnEvents);
    expect(report.finalEvents).toHaveLength(parsed.record.expect?.finalEvents?.length ?? 0);
  });
});
