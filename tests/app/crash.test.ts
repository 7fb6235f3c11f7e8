import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { loadRecord, recordCommands } from './helpers/records.js';

const WRITER = join(import.meta.dirname, 'helpers/writer.ts');

/** Runs the writer until it has acknowledged `killAfter` commands, then SIGKILLs it mid-stream. */
function runAndKill(file: string, record: string, killAfter: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, record], { stdio: ['ignore', 'pipe', 'pipe'] });
    let acked = 0;
    let buffer = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const l of lines) {
        const m = /^ack (\d+)$/.exec(l);
        if (m) acked = Number(m[1]);
        if ((acked >= killAfter || l === 'done') && child.exitCode === null && !child.killed) child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(acked) : reject(new Error(`writer exited ${code}: ${err}`))));
  });
}

describe('a killed process restarts into the same game', () => {
  it('loses no acknowledged command when killed mid-write, twice, and finishes the game', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-crash-')), 'c.sqlite');
    const name = 'g002-base-3p.json';
    const record = loadRecord(name);
    const commands = recordCommands(record);
    for (const killAfter of [37, 120]) {
      const acked = await runAndKill(file, name, killAfter);
      expect(acked).toBeGreaterThanOrEqual(killAfter);
      const store = Store.open(file);
      const session = GameSession.resume(store);
      const kept = session.currentGame!.commands;
      // Every acknowledged command is there; at most the one in flight beyond it.
      expect(kept.length).toBeGreaterThanOrEqual(acked);
      expect(kept.length).toBeLessThanOrEqual(acked + 1);
      expect(kept).toEqual(commands.slice(0, kept.length));
      expect(store.games()).toHaveLength(1);
      store.close();
    }
    await runAndKill(file, name, Infinity);
    const store = Store.open(file);
    const done = GameSession.resume(store).snapshot().game!;
    expect(done.finished).toBe(true);
    expect(done.players.map((p) => p.score)).toEqual(record.expect!.final);
    store.close();
  });
});
