/**
 * App figures for `npm run bench`: `app start` (browser mode from nothing to ready to serve: store
 * opened, last game rebuilt, server listening, first page answered) and `command round trip` (one
 * command through the WebSocket to the engine, persisted, and its reply back). Medians of several runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { commandsForTurn, setupFromRecord } from '../engine/record/convert.js';
import { replayRecord } from '../engine/record/replay.js';
import { parseRecordText } from '../engine/record/schema.js';
import { readFileSync } from 'node:fs';
import { startBrowserMode } from '../electron/server/browser-mode.js';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

export interface AppFigures {
  readonly appStartMs: number;
  readonly roundTripMs: number;
}

function exampleCommands() {
  const text = readFileSync(join(import.meta.dirname, '../tests/fixtures/oracle/g003-base-4p.json'), 'utf8');
  const parsed = parseRecordText(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  const report = replayRecord(parsed.record);
  void commandsForTurn;
  return { setup: setupFromRecord(parsed.record), commands: report.game!.commands };
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
    const starts: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const app = await startBrowserMode({ dataFile: join(dir, 'bench.sqlite'), rendererDir: dir });
      const res = await fetch(app.server.url);
      await res.text();
      starts.push(performance.now() - t0);
      await app.close();
    }

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
    return { appStartMs: median(starts), roundTripMs: median(trips) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatAppFigures(f: AppFigures): string[] {
  return [`app start: ${Math.round(f.appStartMs)} ms`, `command round trip: ${f.roundTripMs.toFixed(2)} ms`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of formatAppFigures(await measureApp())) console.log(line);
}
