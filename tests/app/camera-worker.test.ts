/**
 * The tracker in its worker thread, and only still scenes kept (issue 31): the real tracker (OpenCV,
 * the templates, the ONNX model) in a real worker thread, a real SQLite store and the bundled short
 * recording's frames sent as a screen's camera sends them.
 *
 * - A worker killed mid-read, and later one that hangs, is ended and replaced, and the table told;
 *   every command the table entered stays (one entered by hand while the worker hung, too), the tile
 *   being read is read by the next worker, and nothing the old one read is committed after it.
 * - A question left open while 10 000 frames arrive holds a few frames, not 10 000, and the tile
 *   laid meanwhile is read once the question is answered.
 *
 * Making a worker's tracker costs seconds (OpenCV, the templates, the model), so the crash and the
 * hang share one game (three workers), and the 10 000 frames are mostly small flat frames (hands over
 * the lens): each is still decoded and compared, as every frame is, but cheaply.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { parseRecord } from '../../engine/record/schema.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { splitMjpeg } from '../../models/scene/recording.js';
import { CameraService, type CameraServiceOptions } from '../../electron/services/camera/camera-service.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { sameMove } from '../../models/track/replay.js';
import { agreed, manifestWithoutDraws, nextStep } from './helpers/camera-table.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
// The table never types a draw: each tile laid is its draw (helpers/camera-table.ts).
const manifest = manifestWithoutDraws(JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[]; visits: { handFrom: number; stillFrom: number; camera: number[] }[] });
const truth = manifest.commands;
const visits = manifest.visits;
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const setup = setupFromRecord(parsed.record);
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];
/** A visit's frames: its hand, then its still scene (two alike frames), as recorded at 3 fps. */
const visitFrames = (v: number) => frames.slice(visits[v]!.handFrom, visits[v]!.stillFrom + 2);

/** Long enough for any read here on a loaded machine (they take well under a second), short enough that the hang costs little. */
const HANG_MS = 5_000;

function open(o: Partial<CameraServiceOptions> = {}) {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-camera-worker-')), 'c.sqlite'));
  const session = new GameSession(store);
  const camera = new CameraService({ session, store, recording: DIR, ...o });
  return { store, session, camera };
}
type Open = ReturnType<typeof open>;

/**
 * The table of camera-table.ts until the game holds the truth up to `until` (a camera move the camera
 * has not been shown yet is not entered for it); what it entered by hand and took back is counted.
 */
async function table(s: Open, until: number): Promise<{ missed: number; wrong: number }> {
  const log = { missed: 0, wrong: 0 };
  for (let guard = 0; guard < 200; guard++) {
    await s.camera.settled();
    if (agreed(truth, s.session.currentGame!.commands) >= until && s.session.currentGame!.commands.length === agreed(truth, s.session.currentGame!.commands)) return log;
    const view = s.camera.view();
    const step = nextStep(truth, { history: s.session.currentGame!.commands, open: view.proposals.map((p) => ({ id: p.id, readings: p.readings.map((r) => r.command) })), cameraMayRead: view.reading && view.frames.queued > 0 });
    if (step.do === 'done') return log;
    if (step.do === 'wait') throw new Error('the table waits for a camera with nothing left to read');
    if (step.do === 'undo') {
      log.wrong++;
      expect(s.session.undo().ok).toBe(true);
    } else if (step.do === 'reject') s.camera.answer(step.id, 'reject');
    else if (step.do === 'answer') expect(s.camera.answer(step.id, step.answer).ok).toBe(true);
    else {
      if (step.missed) log.missed++;
      expect(s.session.play(step.command).ok).toBe(true);
    }
  }
  throw new Error(`the table never reached move ${until}`);
}

/** Resolves once the worker has been given the last kept frame and not answered it: it is reading (or hanging on) it. */
async function readingLastFrame(s: Open): Promise<void> {
  const worker = s.camera.trackerWorker!;
  for (let i = 0; i < 2000; i++) {
    const f = s.camera.intakeFigures;
    if (f.inFlight === 0 && f.heldBytes === 0 && worker.busy > 0) return;
    if (worker.down) throw new Error(`the worker went down before it was seen reading: ${worker.down.message}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the worker was never seen reading the last frame');
}

const notices = (s: Open) => s.camera.view().notices.map((n) => n.text);
/** How often the game holds a move like `c`. */
const times = (s: Open, c: Command) => s.session.currentGame!.commands.filter((x) => sameMove(x, c)).length;

describe('the tracker in its worker', () => {
  it('killed mid-read, then hanging: the table is told, a new worker reads the same tile, nothing the table entered is lost, nothing stale committed', async () => {
    const s = open({ tracker: { timeoutMs: HANG_MS } });
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    // The table as set up (before any tile), and the first hand: the first worker is made and reads it.
    for (const f of frames.slice(0, visits[0]!.stillFrom)) s.camera.frame(f);
    await s.camera.settled();
    const first = s.camera.trackerWorker!;
    expect(first).not.toBeNull();
    expect(s.camera.trackerGeneration).toBe(1);

    // Killed: the worker exits as it starts reading the frame that makes the first tile's scene still.
    const crashAt = visits[0]!.stillFrom + 1;
    await first.faults({ crashAtFrame: crashAt });
    for (const f of frames.slice(visits[0]!.stillFrom, crashAt + 1)) s.camera.frame(f);
    await s.camera.settled();
    expect(first.down?.why).toBe('crashed');
    expect(s.camera.trackerGeneration).toBe(2);
    expect(notices(s).some((t) => /the tracker stopped \(the tracker's worker stopped \(exit code 70\)\): it was restarted/.test(t)), notices(s).join('\n')).toBe(true);
    // The second worker read the tile the first went down on, once.
    const tile0 = truth[visits[0]!.camera[0]!]!;
    expect(times(s, tile0)).toBe(1);
    const afterCrash = await table(s, visits[1]!.camera[0]!);
    expect(afterCrash).toEqual({ missed: 0, wrong: 0 });
    expect(s.camera.view().counts.committed).toBeGreaterThanOrEqual(1);

    // Hanging: the second worker stops answering as it reads the next tile's still scene.
    const second = s.camera.trackerWorker!;
    const hangAt = visits[1]!.stillFrom + 1;
    await second.faults({ hangAtFrame: hangAt });
    for (const f of visitFrames(1)) s.camera.frame(f);
    await readingLastFrame(s);
    // Meanwhile the services answer: the table, tired of waiting, lays the tile in by hand (acknowledged).
    const tile1 = truth[visits[1]!.camera[0]!]!;
    expect(s.session.play(tile1).ok).toBe(true);
    const acknowledged = [...s.session.currentGame!.commands];
    await s.camera.settled();
    expect(second.down?.why).toBe('hung');
    expect(s.camera.trackerGeneration).toBe(3);
    expect(notices(s).some((t) => new RegExp(`the tracker stopped answering \\(the tracker's worker did not answer in ${HANG_MS / 1000} s \\(feed\\)\\): it was restarted`).test(t)), notices(s).join('\n')).toBe(true);
    // Everything acknowledged is there; the third worker, shown the same scene, does not lay the tile again.
    expect(s.session.currentGame!.commands.slice(0, acknowledged.length)).toEqual(acknowledged);
    expect(times(s, tile1)).toBe(1);

    // And it reads on: the next visit's tile by the camera, nothing wrong, nothing entered for it.
    const committed = s.camera.view().counts.committed;
    const v2 = visits[2]!;
    await table(s, v2.camera[0]!);
    for (const f of visitFrames(2)) s.camera.frame(f);
    const afterHang = await table(s, v2.camera.at(-1)! + 1);
    expect(afterHang).toEqual({ missed: 0, wrong: 0 });
    expect(s.camera.view().counts.committed).toBeGreaterThan(committed);
    expect(agreed(truth, s.session.currentGame!.commands)).toBe(s.session.currentGame!.commands.length);
    expect(s.camera.trackerGeneration).toBe(3);
    await s.camera.close();
    s.store.close();
  }, 300_000);
});

describe('only still scenes kept', () => {
  it('a question left open while 10 000 frames arrive: a few frames held, and the tile laid meanwhile is read once it is answered', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    // The table is asked about the first tile, and leaves the question open.
    s.camera.askEverything(true);
    const v1 = visits[1]!;
    for (const f of frames.slice(0, v1.handFrom)) s.camera.frame(f);
    await s.camera.settled();
    const question = s.camera.view().proposals[0]!;
    expect(sameMove(question.readings[0]!.command, truth[visits[0]!.camera[0]!]!)).toBe(true);
    const kept = s.camera.intakeFigures.kept;

    // Meanwhile 10 000 frames: hands over the lens (small flat frames, each unlike the last: looked at
    // like any frame, cheaply; of the camera's shape, so compared with its frames), then a hand over
    // the table and the table still — the first tile alone, then with the next tile laid.
    const hands = await Promise.all([40, 70, 100, 130, 160, 190, 220].map(async (g) => new Uint8Array(await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: g, g, b: g } } }).jpeg().toBuffer())));
    const hand = frames[v1.handFrom]!;
    const before = frames[visits[0]!.stillFrom + 1]!;
    const after = frames[v1.stillFrom + 1]!;
    const FRAMES = 10_000;
    const CYCLE = 40;
    let n = 0;
    for (let cycle = 0; n < FRAMES; cycle++) {
      const still = cycle < FRAMES / CYCLE / 4 ? before : after;
      for (let i = 0; i < CYCLE - 3; i++) s.camera.frame(hands[i % hands.length]!);
      for (const f of [hand, still, still]) s.camera.frame(f);
      n += CYCLE;
      // The camera's pace, roughly: the intake is never more than a burst behind.
      if (cycle % 10 === 9) await s.camera.settled();
    }
    await s.camera.settled();
    const held = s.camera.intakeFigures;
    // Every frame was looked at (none passed over); what is held is the scene with the new tile (its
    // hand, its still frame twice) and the last hand: a count that does not grow with the frames.
    expect(s.camera.view().frames.received).toBe(v1.handFrom + FRAMES);
    expect(held.looked).toBe(v1.handFrom + FRAMES);
    expect(held.skipped).toBe(0);
    expect(s.camera.view().frames.queued).toBeLessThanOrEqual(4);
    expect(held.kept - kept).toBeLessThanOrEqual(2 * (FRAMES / CYCLE) + 2);
    expect(held.heldBytesMax).toBeLessThan(6 * Math.max(...frames.map((f) => f.length)));
    expect(held.droppedScenes).toBe(0);
    expect(s.camera.view().proposals.map((p) => p.id)).toEqual([question.id]);

    // Answered (and asked no more): the tile laid while the question was open is read by the camera.
    s.camera.askEverything(false);
    expect(s.camera.answer(question.id, 'best').ok).toBe(true);
    const next = v1.camera[0]!;
    for (let i = 0; i < next; i++) {
      await s.camera.settled();
      if (s.session.currentGame!.commands.length <= i) expect(s.session.play(truth[i]!).ok).toBe(true);
    }
    await s.camera.settled();
    const game = s.session.currentGame!;
    expect(game.commands.slice(0, next)).toEqual(truth.slice(0, next));
    expect(sameMove(game.commands[next]!, truth[next]!)).toBe(true);
    expect(s.camera.view().counts.committed).toBeGreaterThanOrEqual(1);
    await s.camera.close();
    s.store.close();
  }, 600_000);
});
