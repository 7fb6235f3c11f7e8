/**
 * `npm run --silent record -- check FILE...`  replay records and compare them with their expectations
 * `npm run --silent record -- score FILE [--json]`  per-turn events and the final table
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseRecordText, type GameRecord } from '../engine/record/schema.js';
import { replayRecord, type ReplayReport } from '../engine/record/replay.js';
import { formatScoreTable, formatTurns } from './format.js';

function load(file: string): { record: GameRecord } | { error: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { error: `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  const parsed = parseRecordText(text);
  return parsed.ok ? { record: parsed.record } : { error: parsed.reason };
}

function where(turn: number | 'final'): string {
  return turn === 'final' ? 'final scoring' : turn === 0 ? 'setup' : `turn ${turn}`;
}

function check(files: string[]): number {
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    const name = basename(file);
    const loaded = load(file);
    if ('error' in loaded) {
      console.log(`FAIL ${name}: ${loaded.error}`);
      failed++;
      continue;
    }
    const report = replayRecord(loaded.record);
    if (report.error) {
      console.log(`FAIL ${name}: ${where(report.error.turn)}: ${report.error.reason}`);
      failed++;
    } else if (report.mismatch) {
      console.log(`FAIL ${name}: ${where(report.mismatch.turn)}: ${report.mismatch.reason}`);
      failed++;
    } else {
      console.log(`ok   ${name}: ${report.turns.length} turns, final ${report.final.join(' ')}`);
      passed++;
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

function toJson(record: GameRecord, report: ReplayReport) {
  return {
    players: record.players.map((p) => p.name),
    turns: report.turns.map((t) => ({ turn: t.turn, player: t.player, events: t.scores })),
    finalEvents: report.finalEvents,
    final: report.final,
    ...(report.error ? { error: report.error } : {}),
    ...(report.mismatch ? { mismatch: report.mismatch } : {}),
  };
}

function score(file: string, json: boolean): number {
  const loaded = load(file);
  if ('error' in loaded) {
    console.error(`${basename(file)}: ${loaded.error}`);
    return 1;
  }
  const report = replayRecord(loaded.record);
  if (json) {
    console.log(JSON.stringify(toJson(loaded.record, report), null, 2));
  } else {
    console.log(formatTurns(loaded.record, report));
    console.log('');
    console.log(formatScoreTable(loaded.record, report));
  }
  if (report.error) {
    console.error(`${basename(file)}: ${where(report.error.turn)}: ${report.error.reason}`);
    return 1;
  }
  return 0;
}

// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const usage = 'usage: record check FILE...  |  record score FILE [--json]';
const [verb, ...rest] = process.argv.slice(2);
const json = rest.includes('--json');
const files = rest.filter((a) => a !== '--json');
if (verb === 'check' && files.length > 0) process.exitCode = check(files);
else if (verb === 'score' && files.length === 1) process.exitCode = score(files[0]!, json);
else {
  console.error(usage);
  process.exitCode = 2;
}
