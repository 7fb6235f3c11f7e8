/**
 * App figures for `npm run bench`: `app start` (browser mode from nothing to ready to serve: store
 * opened, last game rebuilt, server listening, first page answered), `command round trip` (one
 * command through the WebSocket to the engine, persisted, and its reply back) and `store commit` (one
 * durable append alone: the disk flush inside every round trip). Wall-clock medians of several runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { setupFromRecord } from '../engine/record/convert.js';
import { replayRecord } from '../engine/record/replay.js';
import { parseRecordText } from '../engine/record/schema.js';
import { startBrowserMode } from '../electron/server/browser-mode.js';
import { Store } from '../electron/services/store/store.js';
import { line, median } from './stats.js';
import { spawn } from 'node:child_process';

const ROOT = join(import.meta.dirname, '..');
const START = join(ROOT, 'scripts/start.mjs');

export interface AppFigures {
  readonly appStartMs: number;
  readonly roundTripMs: number;
  /** One append to the game log on its own: the disk flush that synchronous=FULL waits for. */
  readonly commitMs: number;
}

function exampleCommands() {
  const text = readFileSync(join(import.meta.dirname, '../tests/fixtures/oracle/g003-base-4p.json'), 'utf8');
  const parsed = parseRecordText(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  const report = replayRecord(parsed.record);
  return { setup: setupFromRecord(parsed.record), commands: report.game!.commands };
}

/**
 * `npm start` as a user runs it, in browser mode: a new Node process, until its first page is served.
 */
function coldStart(dataFile: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [START, '--browser', '--port', '0', '--data', dataFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', async (d: Buffer) => {
      out += d.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
      if (!url) return;
      child.stdout.removeAllListeners('data');
      try {
        const res = await fetch(url);
        await res.text();
        if (!res.ok) throw new Error(`app start: ${url} answered ${res.status}`);
        const ms = performance.now() - t0;
        child.once('exit', () => resolve(ms));
        child.kill('SIGTERM');
      } catch (e) {
        child.kill('SIGKILL');
        reject(e);
      }
    });
    child.once('exit', (code) => (code ? reject(new Error(`app start: the process exited ${code}: ${out}`)) : undefined));
  });
}

export async function measureApp(runs = 5): Promise<AppFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'companion-bench-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  const { setup, commands } = exampleCommands();
  try {
    // A store holding a half-played game, so that start includes rebuilding it.
    {
      const app = await startBrowserMode({ dataFile: join(dir, 'bench.sqlite'), rendererDir: dir });
      app.session.newGame(setup);
      for (const c of commands.slice(0, 100)) app.session.play(c);
      await app.close();
    }
    // The first start builds the app when needed; the figure is a start with the build in place.
    await coldStart(join(dir, 'bench.sqlite'));
    const starts: number[] = [];
    for (let i = 0; i < runs; i++) starts.push(await coldStart(join(dir, 'bench.sqlite')));

    const app = await startBrowserMode({ dataFile: join(dir, 'trip.sqlite'), rendererDir: dir });
    const ws = new WebSocket(app.server.url.replace('http', 'ws'));
    await new Promise((r) => ws.once('open', r));
    const waiting = new Map<number, () => void>();
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { id?: number; ok?: boolean; error?: string };
      if (typeof m.id === 'number') {
        if (!m.ok) throw new Error(`bench command refused: ${m.error}`);
        waiting.get(m.id)?.();
      }
    });
    let id = 0;
    const call = (op: string, ...args: unknown[]) =>
      new Promise<void>((resolve) => {
        const n = ++id;
        waiting.set(n, resolve);
        ws.send(JSON.stringify({ id: n, op, args }));
      });
    await call('hello', app.server.mainToken);
    const trips: number[] = [];
    for (let r = 0; r < runs; r++) {
      app.session.newGame(setup);
      for (const c of commands) {
        const t0 = performance.now();
        await call('play', c);
        trips.push(performance.now() - t0);
      }
    }
    ws.close();
    await app.close();

    const store = Store.open(join(dir, 'commit.sqlite'));
    const game = store.createGame(setup);
    const commits: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      store.append(game, [{ op: { op: 'play', command: commands[0] }, events: [] }]);
      commits.push(performance.now() - t0);
    }
    store.close();
    return { appStartMs: median(starts), roundTripMs: median(trips), commitMs: median(commits) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatAppFigures(f: AppFigures): string[] {
  return [line('app start', f.appStartMs, 'ms'), line('command round trip', f.roundTripMs, 'ms', 2), line('store commit', f.commitMs, 'ms', 2)];
}

/** For bench/run.ts: the app's lines. */
export async function appFigures(): Promise<string> {
  return formatAppFigures(await measureApp()).join('\n');
}
