/** Every scenario record (examples and ambiguity readings of Jousts & Crests and Siege & Defense) replays as expected. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayRecord } from '../../engine/record/replay.js';
import { parseRecordText } from '../../engine/record/schema.js';

const dir = join(import.meta.dirname, '../fixtures/scenarios');
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe('scenario records', () => {
  it('exist', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  it.each(files)('%s replays with its expectations', (file) => {
    const parsed = parseRecordText(readFileSync(join(dir, file), 'utf8'));
    expect(parsed.ok, parsed.ok ? '' : parsed.reason).toBe(true);
    if (!parsed.ok) return;
    const hasExpectations = parsed.record.turns.some((t) => t.expect) || parsed.record.expect;
    expect(hasExpectations, 'a scenario states what the rules say must happen').toBeTruthy();
    const report = replayRecord(parsed.record);
    expect(report.error).toBeUndefined();
    expect(report.mismatch).toBeUndefined();
    expect(report.ok).toBe(true);
  });
});
