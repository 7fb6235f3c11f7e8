/** The record command line, run as a user runs it: one line per file, a summary line, an exit code. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/.bin/tsx');

function record(...args: string[]) {
  const r = spawnSync(tsx, ['scripts/record.ts', ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, out: r.stdout.trim().split('\n'), err: r.stderr };
}

describe('npm run record', () => {
  it('check: one line per file, first difference named by turn, then N passed, M failed; exit 1 on any failure', () => {
    const r = record('check', 'tests/fixtures/oracle/g001-base-2p.json', 'tests/fixtures/oracle/g112-base-river-abbot-ic-tower-3p.json',
      'tests/fixtures/bad/illegal-rotation.json', 'tests/fixtures/bad/malformed.json', 'tests/fixtures/bad/wrong-final.json', 'tests/fixtures/bad/missing.json');
    expect(r.out).toHaveLength(7);
    expect(r.out[0]).toMatch(/^ok {3}g001-base-2p\.json/);
    expect(r.out[2]).toMatch(/^FAIL illegal-rotation\.json: turn 10: BASE_V cannot go to \[2, 2\] turned 180/);
    expect(r.out[3]).toMatch(/^FAIL malformed\.json: not valid JSON/);
    expect(r.out[4]).toBe('FAIL wrong-final.json: final scoring: final totals 20, 11; the record expects 20, 16');
    expect(r.out[5]).toMatch(/^FAIL missing\.json: cannot read: ENOENT/);
    expect(r.out[6]).toBe('2 passed, 4 failed');
    expect(r.code).toBe(1);
  });

  it('check exits 0 when every file passes', () => {
    const r = record('check', 'tests/fixtures/oracle/g001-base-2p.json');
    expect(r.out.at(-1)).toBe('1 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('score prints the turns, their explained scores and the final table; --json for machines', () => {
    const text = record('score', 'tests/fixtures/oracle/g112-base-river-abbot-ic-tower-3p.json');
    expect(text.code).toBe(0);
    expect(text.out).toContain('           Cy +4  city: 2 tiles × 2 = 4 [4, 5] E1');
    expect(text.out.at(-1)).toMatch(/^Cy\s+18\s+4\s+0\s+8\s+57\s+3\s+90$/);
    const json = record('score', 'tests/fixtures/oracle/g112-base-river-abbot-ic-tower-3p.json', '--json');
    const parsed = JSON.parse(json.out.join('\n')) as { final: number[]; turns: unknown[] };
    expect(parsed.final).toEqual([67, 31, 90]);
    expect(parsed.turns).toHaveLength(119);
  });

  it('a wrong call prints the usage and exits 2', () => {
    const r = record('frobnicate');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/usage: record check FILE/);
  });
});
