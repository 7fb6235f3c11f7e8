/**
 * A whole evening at the table (`npm run --silent bench:evening`): browser mode's services, a screen's
 * camera sending 1080p JPEG frames over the WebSocket as the Camera screen does, for 2 hours at
 * 30 fps (216 000 frames; time is compressed, the frame count is not: the camera sends as fast as
 * the services look, and waits while more than a few still scenes are unread, but for the open
 * question), a second screen sending
 * commands throughout (the table's answers, figures and turns — no draws: the tile laid is its draw —
 * and a snapshot every 50 ms), and one
 * question left open for 10 minutes of frames while the game goes on on the table. The camera and the
 * screens run in threads of their own (bench/evening-camera.mjs, bench/evening-screens.mjs: at a table
 * they are other processes or devices), so the services' thread carries only the services.
 *
 * The frames: the bundled full game (tests/fixtures/recordings/demo-tower-jc, 381 frames at 3 fps,
 * 115 camera moves) scaled to 1080p, each of its frames shown for 1/381 of the evening: a still
 * picture repeated, a hand as two pictures of it alternating (no two frames in a row alike).
 *
 * Prints: `command round trip p50`, `command round trip p99 while the camera reads` (sent while the
 * tracker's worker was reading), `memory growth over the session` (resident, highest after the
 * first 5 minutes minus then), `frames kept` (JPEGs the services kept for the tracker), `tile visits
 * lost` (tiles the table had to enter by hand because the camera proposed nothing for them; a tile
 * it read as another, which the table took back and entered, is counted undone, not lost), `moves exact` (and the same recording's frames
 * through the tracker headless, as `npm run replay` reads it, no draw told either). `BENCH_EVENING_MINUTES=N` plays a
 * shorter evening (a quick check; the question is then left open for a twelfth of it).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { Command } from '../engine/game/commands.js';
import { parseRecord } from '../engine/record/schema.js';
import { setupFromRecord } from '../engine/record/convert.js';
import { splitMjpeg, type FrameSource } from '../models/scene/recording.js';
import { replayRecording } from '../models/track/replay.js';
import { startBrowserMode } from '../electron/server/browser-mode.js';
import { isTileCommand } from '../electron/services/camera/camera-readings.js';
import { agreed, isCameraMove, manifestWithoutDraws, nextStep } from '../tests/app/helpers/camera-table.js';
import { connect } from '../tests/app/helpers/ws-client.js';
import { logMemory } from '../electron/services/camera/memory-log.js';
import { spawnSync } from 'node:child_process';
import { ALLOCATOR_ENV, hasAllocatorEnv } from '../scripts/allocator-env.mjs';

// Measured as `npm start` runs browser mode: with its allocator setting (scripts/allocator-env.mjs),
// which glibc reads only when a process starts.
if (!hasAllocatorEnv()) {
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, ...ALLOCATOR_ENV } });
  process.exit(r.status ?? 1);
}

const DIR = join(import.meta.dirname, '../tests/fixtures/recordings/demo-tower-jc');
const MINUTES = Number(process.env.BENCH_EVENING_MINUTES ?? 120);
const FPS = 30;
const TOTAL = Math.round(MINUTES * 60 * FPS);
const HOLD = MINUTES >= 120 ? 10 * 60 * FPS : Math.round(TOTAL / 12);
const BASE_AT = MINUTES >= 60 ? 5 * 60 * FPS : Math.round(TOTAL / 24);
const W = 1920, H = 1080;
/** Frames a second the camera sends at most (`BENCH_EVENING_PACE=30`: a webcam's own pace, time not compressed); 0: as fast as the services look. */
const PACE = Number(process.env.BENCH_EVENING_PACE ?? 0);

// The table types no draw: each tile laid is its draw (as the camera tests and the demo play).
const manifest = manifestWithoutDraws(JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[]; frames: number; visits: { stillFrom: number; camera: number[] }[] });
const truth = manifest.commands;
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const setup = setupFromRecord(parsed.record);
const started = performance.now();
logMemory('services');

// ── the frames: each recording frame at 1080p (the 4:3 picture scaled to the height, its edges carried out) ──
// Made once per machine (a few minutes on a busy one) and kept in the temp folder; the camera's
// thread reads them from there, and the services' thread holds none of them (90 MB of JPEG the
// services' garbage collector would otherwise count as theirs).
const small = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];
const CACHE = join(tmpdir(), 'companion-evening-frames-v1.json');
/** The recording's frames at 1080p, as the cache holds them (the camera's thread reads its own copy). */
const readRecordedFrames = (): Uint8Array[] => (JSON.parse(readFileSync(CACHE, 'utf8')) as { bytes: string }[]).map((f) => new Uint8Array(Buffer.from(f.bytes, 'base64')));
if (!existsSync(CACHE)) {
  const grey = (b: Uint8Array): Promise<Buffer> => sharp(b).resize(160, 120).greyscale().raw().toBuffer();
  const thumbs = await Promise.all(small.map(grey));
  const alike = (a: Buffer, b: Buffer) => {
    let n = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 18) n++;
    return n / a.length <= 0.004;
  };
  const made: { bytes: string; moved: string | null; still: boolean }[] = [];
  for (const [i, f] of small.entries()) {
    const still = (i > 0 && alike(thumbs[i - 1]!, thumbs[i]!)) || (i + 1 < small.length && alike(thumbs[i]!, thumbs[i + 1]!));
    const raw = await sharp(f).resize(1440, 1080).extend({ left: 240, right: 240, extendWith: 'copy' }).raw().toBuffer({ resolveWithObject: true });
    const bytes = await sharp(raw.data, { raw: raw.info }).jpeg({ quality: 85 }).toBuffer();
    // The hand a little further on: the other of the two pictures of a hand moving.
    const moved = still ? null : await sharp(raw.data, { raw: raw.info }).extend({ left: 24, extendWith: 'copy' }).extract({ left: 0, top: 0, width: W, height: H }).jpeg({ quality: 85 }).toBuffer();
    made.push({ bytes: bytes.toString('base64'), moved: moved ? moved.toString('base64') : null, still });
  }
  writeFileSync(CACHE, JSON.stringify(made));
}

const L = Math.floor(TOTAL / small.length);
const schedule = small.map((_, i) => (i === small.length - 1 ? TOTAL - L * (small.length - 1) : L));
const recordingIndex = (cameraIndex: number) => Math.min(small.length - 1, Math.floor(cameraIndex / L));

// ── browser mode, the camera screen (its own thread), the second screen ──
const dir = mkdtempSync(join(tmpdir(), 'companion-evening-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
const app = await startBrowserMode({ dataFile: join(dir, 'evening.sqlite'), rendererDir: dir, recording: DIR, lan: true });
const main = await connect(app.server.url);
if (!(await main.call('hello', app.server.mainToken)).ok) throw new Error('hello refused');
const must = async (r: Promise<{ ok: boolean; error?: string }>, what: string) => {
  const x = await r;
  if (!x.ok) throw new Error(`${what}: ${x.error}`);
  return x;
};
await must(main.call('newGame', { players: setup.players.map((p) => ({ name: p.name, color: p.color })), expansions: [...setup.expansions] }), 'newGame');
await must(main.call('cameraUse', 'browser', 'bench camera (1080p)'), 'cameraUse');
await must(main.call('secondScreenMoves', true), 'secondScreenMoves');
main.close();
// The screens in a thread of their own (another process, another device at a table): the main
// screen and a paired second screen, whose round trips are timed there (bench/evening-screens.mjs).
const screens = new Worker(new URL('./evening-screens.mjs', import.meta.url), { workerData: { url: app.server.url, token: app.server.mainToken, code: app.server.pairingCode } });
screens.on('error', (e) => {
  console.error(`the screens failed: ${e.message}`);
  process.exit(1);
});
const replies = new Map<number, (m: { reply: { ok: boolean; error?: string }; t0: number; t1: number }) => void>();
let pings: ((m: { t0: number; t1: number }) => void) | null = null;
let screensDone: () => void = () => undefined;
const screensClosed = new Promise<void>((r) => (screensDone = r));
await new Promise<void>((ready) =>
  screens.on('message', (m: { ready?: true; done?: true; ping?: true; id?: number; reply?: { ok: boolean; error?: string }; t0: number; t1: number }) => {
    if (m.ready) ready();
    else if (m.done) screensDone();
    else if (m.ping) pings?.(m);
    else if (m.id !== undefined) {
      replies.get(m.id)?.(m as { reply: { ok: boolean; error?: string }; t0: number; t1: number });
      replies.delete(m.id);
    }
  }),
);
let callId = 0;
/** A request from one of the screens; resolves with the reply and when its round trip started and ended (ms since the epoch). */
const screenCall = (as: 'main' | 'screen', op: string, ...args: unknown[]) =>
  new Promise<{ reply: { ok: boolean; error?: string }; t0: number; t1: number }>((resolve) => {
    const id = ++callId;
    replies.set(id, resolve);
    screens.postMessage({ id, op, args, as });
  });

const camera = new Worker(new URL('./evening-camera.mjs', import.meta.url), { workerData: { url: app.server.url, token: app.server.mainToken, cache: CACHE, schedule, ahead: 90, scenesAhead: 4, fps: PACE } });
let sent = 0;
let senderDone = false;
let told = 0;
camera.on('message', (m: { sent: number; done?: boolean }) => {
  sent = m.sent;
  // Progress on stderr (the figures alone go to stdout).
  if (sent >= told + TOTAL / 20 || m.done) {
    told = sent;
    process.stderr.write(`evening: ${sent}/${TOTAL} frames sent, ${Math.round((performance.now() - started) / 1000)} s, rss ${Math.round(process.memoryUsage().rss / 1048576)} MB\n`);
  }
  if (m.done) senderDone = true;
});
camera.on('error', (e) => {
  console.error(`the camera screen failed: ${e.message}`);
  process.exit(1);
});
// The camera is paced by what the services look at, and (the evening being compressed) by what the
// tracker has read: at 30 fps in real time it reads each still scene long before the next comes, so
// more than a few unread scenes would be the compression's doing, not the table's — except while
// the table leaves its question open, when scenes are meant to wait.
let holding = false;
// Told only when it changes, at most every 20 ms (90 frames ahead last the camera longer): the
// bench's own messages are no load the table's services would carry.
let paced = '';
const pace = setInterval(() => {
  const m = { looked: app.camera.intakeFigures.looked, scenes: app.camera.intakeFigures.scenes, holding };
  const key = `${m.looked} ${m.scenes} ${m.holding}`;
  if (key === paced) return;
  paced = key;
  camera.postMessage(m);
}, 20);

// ── measuring ──
const roundTrips: { ms: number; reading: boolean }[] = [];
const workerBusy = () => (app.camera.trackerWorker?.busy ?? 0) > 0;
const epochMs = () => performance.timeOrigin + performance.now();
/** When the tracker's worker started and stopped reading (looked at every 5 ms), for the round trips timed in the screens' thread. */
const busyFlips: { at: number; busy: boolean }[] = [{ at: 0, busy: false }];
const busyWatch = setInterval(() => {
  const b = workerBusy();
  if (b !== busyFlips[busyFlips.length - 1]!.busy) busyFlips.push({ at: epochMs(), busy: b });
}, 5);
/** The worker read at some moment between t0 and t1. */
function readingBetween(t0: number, t1: number): boolean {
  let lo = 0, hi = busyFlips.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (busyFlips[mid]!.at <= t0) lo = mid;
    else hi = mid - 1;
  }
  if (busyFlips[lo]!.busy) return true;
  for (let i = lo + 1; i < busyFlips.length && busyFlips[i]!.at <= t1; i++) if (busyFlips[i]!.busy) return true;
  return false;
}
const record = (t0: number, t1: number) => roundTrips.push({ ms: t1 - t0, reading: readingBetween(t0, t1) });
async function timed(op: string, ...args: unknown[]) {
  const r = await screenCall('screen', op, ...args);
  record(r.t0, r.t1);
  return r.reply;
}
let rssBase: number | null = null;
let rssPeak = 0;
/** The machine's 1-minute load average through the evening (other work on it slows every figure). */
const loads: number[] = [];
const sampler = setInterval(() => {
  if (loads.length === 0 || performance.now() - started > loads.length * 5000) loads.push(loadavg()[0]!);
  const rss = process.memoryUsage().rss;
  if (rssBase === null) {
    if (app.camera.intakeFigures.looked >= BASE_AT) rssBase = rss;
  } else rssPeak = Math.max(rssPeak, rss);
}, 200);
let evening = true;
/** The services' thread's garbage collections through the evening (what a command waits behind most). */
const collections: { kind: number; ms: number }[] = [];
const gcObserver = new PerformanceObserver((list) => {
  if (evening) for (const e of list.getEntries()) collections.push({ kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0, ms: e.duration });
});
gcObserver.observe({ entryTypes: ['gc'] });
// The second screen asks for a snapshot every 50 ms (in its thread) and reports each round trip.
pings = (m) => {
  if (evening) record(m.t0, m.t1);
};

// ── the table ──
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function visitEnd(p: number): number {
  const v = manifest.visits.find((x) => x.camera.includes(p));
  return v ? v.stillFrom + 1 : -1;
}
const tally = { missedTiles: 0, wrongTilesEntered: 0, missed: 0, answered: 0, rejected: 0, wrong: 0 };
/** What the table did about each move of the truth it did not leave to the camera (compared with the replay's at the end). */
const tableDid = new Map<number, string>();
/** Cells where the table took back a tile the camera had committed wrongly. */
const undoneCells = new Set<string>();
let askedOnPurpose: { id: number; exact: boolean } | null = null;
let holdFrom: number | null = null;
let holdDone = false;
let askOn = false;
let refusals = 0;
const game = () => app.session.currentGame!;
let toldMove = 0;
let toldAt = performance.now();
/** Since when the table has waited for the camera without anything changing (a real table would enter the move by hand). */
let waitedSince = null as { at: number; key: string } | null;
const WAIT_LIMIT_MS = 120_000;
for (;;) {
  const view = app.camera.view();
  const history = game().commands;
  const p = agreed(truth, history);
  if (p >= toldMove + 25) {
    toldMove = p;
    process.stderr.write(`evening: the table's game at move ${p}/${truth.length}, ${Math.round((performance.now() - started) / 1000)} s, ${sent}/${TOTAL} frames sent\n`);
  }
  // The table has the camera ask about the next reading, once, and leaves that question open.
  if (!holdDone && !askOn && sent >= TOTAL * 0.15) {
    await must(screenCall('main', 'cameraAskEverything', true).then((r) => r.reply), 'cameraAskEverything');
    askOn = true;
  }
  const inTransit = sent - app.camera.intakeFigures.looked;
  const reading = workerBusy() || view.frames.queued > 0 || inTransit > 0;
  // The camera may still read the move while the tracker has not read past its visit (a frame of a
  // later visit read, the move not proposed: the camera missed it, and the table enters it by hand),
  // and, before it read anything of it, while frames of it may still come or wait to be read.
  const readPast = view.frames.last >= 0 && recordingIndex(view.frames.last) > visitEnd(p);
  const mayRead = (view.reading || view.waiting === 'the tracker to load') && !readPast && (reading || (!senderDone && recordingIndex(view.frames.received - 1) <= visitEnd(p)));
  let step = nextStep(truth, { history, open: view.proposals.map((q) => ({ id: q.id, readings: q.readings.map((r) => r.command) })), cameraMayRead: mayRead, figureWaits: view.figureWaits });
  if (performance.now() - toldAt > 30_000) {
    toldAt = performance.now();
    const f = app.camera.intakeFigures;
    process.stderr.write(`evening: move ${p}/${truth.length}, table ${step.do}, camera ${view.waiting ?? 'reading'}, read ${view.frames.read}, held ${view.frames.queued}, in transit ${inTransit}, worker ${workerBusy() ? 'busy' : 'idle'}, looked ${f.looked}/${sent}, skipped ${f.skipped}, tally ${JSON.stringify(tally)}\n`);
  }
  if (step.do === 'wait') {
    const key = `${p} ${view.frames.read} ${view.frames.queued} ${app.camera.intakeFigures.looked}`;
    const since: { at: number; key: string } | null = waitedSince;
    if (since === null || since.key !== key) waitedSince = { at: performance.now(), key };
    else if (performance.now() - since.at > WAIT_LIMIT_MS) {
      process.stderr.write(`evening: the table waited ${WAIT_LIMIT_MS / 1000} s at move ${p} with nothing changing: it enters the move by hand\n`);
      step = { do: 'enter', command: truth[p]!, missed: true };
      waitedSince = null;
    }
  } else waitedSince = null;
  if (step.do === 'done') break;
  // Held only while the table is holding its question (not once it is answered or withdrawn).
  holding = false;
  if ((step.do === 'answer' || step.do === 'reject') && askOn && !holdDone) {
    holdFrom ??= sent;
    holding = sent - holdFrom < HOLD && !senderDone;
    if (holding) {
      await sleep(20);
      continue;
    }
    holdDone = true;
    askOn = false;
    await must(screenCall('main', 'cameraAskEverything', false).then((r) => r.reply), 'cameraAskEverything');
    askedOnPurpose = { id: step.id, exact: step.do === 'answer' && step.answer === 'best' };
  }
  // The camera reads while the table acts: a move the camera made meanwhile can refuse the table's
  // (looked at again next time round; the same refusal 200 times in a row is a real one).
  const tried = async (r: Promise<{ ok: boolean; error?: string }>, what: string) => {
    const x = await r;
    if (x.ok) refusals = 0;
    else if (++refusals > 200) throw new Error(`${what}: ${x.error}`);
    else await sleep(20);
    return x.ok;
  };
  switch (step.do) {
    case 'wait':
      await sleep(20);
      break;
    case 'undo':
      tableDid.set(p, `took back ${JSON.stringify(step.wrong)}`);
      if (await tried(timed('undo'), 'undo')) {
        tally.wrong++;
        if (isTileCommand(step.wrong)) undoneCells.add(step.wrong.at.join(','));
      }
      break;
    case 'answer':
      if (!tableDid.has(p)) {
        const q = view.proposals.find((x) => x.id === step.id);
        tableDid.set(p, `answered ${step.answer} (${q?.why ?? '?'}; read from recording frame ${q ? recordingIndex(q.frame) : '?'})`);
      }
      if (await tried(timed('cameraAnswer', step.id, step.answer), 'cameraAnswer')) tally.answered++;
      break;
    case 'reject':
      if (await tried(timed('cameraAnswer', step.id, 'reject'), 'cameraAnswer reject')) tally.rejected++;
      break;
    case 'enter':
      if (step.missed && !tableDid.has(p)) tableDid.set(p, `entered by hand (camera ${view.waiting ?? 'reading'})`);
      if ((await tried(timed('play', step.command), `play ${step.command.type}`)) && step.missed) {
        tally.missed++;
        const c = step.command;
        if (isTileCommand(c) && undoneCells.has(c.at.join(','))) {
          // The camera saw this visit and read the tile as another (counted undone): read wrong, not lost.
          tally.wrongTilesEntered++;
        } else if (isTileCommand(c)) {
          tally.missedTiles++;
          // Which visit, and where the camera stood (what the next person looks into first).
          process.stderr.write(`evening: tile visit lost: move ${p} (${c.type} ${c.type === 'placeTile' ? c.tile : ''} at ${c.at.join(',')}; recording frames to ${visitEnd(p)}), camera at frame ${view.frames.last} (recording ${recordingIndex(Math.max(0, view.frames.last))}), ${view.waiting ?? 'reading'}, read past it: ${readPast}\n`);
        }
      }
      break;
  }
}
while (!senderDone) await sleep(50);
await app.camera.settled();
evening = false;
gcObserver.disconnect();
screens.postMessage({ stop: true });
await screensClosed;
clearInterval(busyWatch);
clearInterval(sampler);
clearInterval(pace);
const eveningS = (performance.now() - started) / 1000;
const figures = app.camera.intakeFigures;
const view = app.camera.view();
const cameraMoves = truth.filter(isCameraMove).length;
const exact = view.counts.committed - tally.wrong + (askedOnPurpose?.exact ? 1 : 0);
const scoresRight = JSON.stringify(game().state.players.map((p) => p.score));
await camera.terminate();
await screens.terminate();
await app.close();

// ── the same frames through the tracker headless (`npm run replay`'s reading) ──
process.stderr.write(`evening: the game done in ${Math.round(eveningS)} s; the same frames headless now\n`);
let k = 0;
const recorded = readRecordedFrames();
const source: FrameSource = { width: W, height: H, fps: 3, next: async () => (k < recorded.length ? { index: k, bytes: recorded[k++]! } : null), close: () => undefined };
// It reads each recording frame once, whatever the evening's length: BENCH_EVENING_REPLAY=0 leaves it out.
const replay = process.env.BENCH_EVENING_REPLAY === '0' ? null : await replayRecording(DIR, { source, drawsTold: false });

// Where the evening and the replay part: each move the replay's camera made exactly and the evening's table had to do something about.
// (Without the replay: every move the table did something about.)
if (!replay) for (const [p, did] of tableDid) process.stderr.write(`evening: move ${p} ${JSON.stringify(truth[p])}: the table ${did}\n`);
if (replay) {
  for (const o of replay.outcomes) {
    if (o.result !== 'exact') continue;
    const did = tableDid.get(o.index);
    if (did) process.stderr.write(`evening: exact in the replay, not here: move ${o.index} ${JSON.stringify(o.truth)}: the table ${did}\n`);
  }
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
/** Mark-compacts (perf_hooks kind 4) and scavenges (kind 1) on the services' thread: how many, the longest. */
const gcLine = () => {
  const of = (kind: number) => collections.filter((c) => c.kind === kind).map((c) => c.ms);
  const say = (xs: number[], what: string) => `${xs.length} ${what} (longest ${xs.length ? Math.max(...xs).toFixed(1) : 0} ms)`;
  return `${say(of(4), 'mark-compacts')}, ${say(of(1), 'scavenges')}`;
};
console.log(`command round trip p50: ${pct(roundTrips.map((r) => r.ms), 0.5).toFixed(1)} ms`);
console.log(`command round trip p99 while the camera reads: ${pct(roundTrips.filter((r) => r.reading).map((r) => r.ms), 0.99).toFixed(1)} ms`);
console.log(`memory growth over the session: ${rssBase === null ? 'not measured' : mb(Math.max(0, rssPeak - rssBase))} MB`);
console.log(`frames kept: ${figures.kept}`);
console.log(`tile visits lost: ${tally.missedTiles}`);
console.log(`moves exact: ${exact}/${cameraMoves}`);
console.log(`replay moves exact (the same frames, headless, no draw told): ${replay ? `${replay.exact}/${replay.cameraMoves}` : 'not run (BENCH_EVENING_REPLAY=0)'}`);
console.log(
  `(${figures.looked} frames looked at (${MINUTES} min at ${FPS} fps, 1080p; sent ${PACE > 0 ? `at ${PACE} a second` : "as fast as the services looked"}) in ${eveningS.toFixed(0)} s; ${roundTrips.length} round trips (${roundTrips.filter((r) => r.reading).length} while the camera read); ` +
    `the services' thread collected garbage ${gcLine()}; ` +
    `held at most ${mb(figures.heldBytesMax)} MB of JPEG; scenes dropped ${figures.droppedScenes}, frames not looked at ${figures.skipped}; ` +
    `question held open ${holdFrom === null ? 'never' : `${HOLD} frames`}${askedOnPurpose ? ` (answered ${askedOnPurpose.exact ? 'with the camera’s best reading' : 'otherwise'})` : ''}; ` +
    `table: ${tally.answered} answered, ${tally.rejected} rejected, ${tally.missed} entered by hand, ${tally.wrong} undone (${tally.wrongTilesEntered} tiles the camera read as another, then entered by hand: read wrong, not lost); scores ${!replay ? scoresRight : scoresRight === JSON.stringify(replay.truthScores) ? 'as recorded' : `${scoresRight} against ${JSON.stringify(replay.truthScores)}`}; ` +
    `machine load average over the evening: mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1)}, max ${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores)`,
);
