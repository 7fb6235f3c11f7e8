/**
 * The tracker in its worker thread, and only still scenes kept (issue 31): the real tracker, a real
 * SQLite store and the bundled short recording. A worker killed mid-read or hanging is restarted and
 * the table told; every command the table had entered stays, the tile being read is read by the
 * next worker, no reading of the old one is committed. A question left open while 10 000 frames
 * arrive holds a few JPEGs, not 10 000, and the tile laid meanwhile is read once it is answered.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { parseRecord } from '../../engine/record/schema.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { splitMjpeg } from '../../models/scene/recording.js';
import { CameraService, type CameraServiceOptions } from '../../electron/services/camera/camera-service.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { sameMove } from '../../models/track/replay.js';
import { agreed, isCameraMove, nextStep } from './helpers/camera-table.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const manifest = JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[]; visits: { stillFrom: number; camera: number[] }[] };
const truth = manifest.commands;
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const setup = setupFromRecord(parsed.record);
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];

function open(o: Partial<CameraServiceOptions> = {}) {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-camera-worker-')), 'c.sqlite'));
  const session = new GameSession(store);
  const camera = new CameraService({ session, store, recording: DIR, ...o });
  return { store, session, camera };
}
type Open = ReturnType<typeof open>;

/** The table of camera-table.ts until the game holds the truth; what it entered by hand is counted. */
async function table(s: Open): Promise<{ missed: number; wrong: number }> {
  const log = { missed: 0, wrong: 0 };
  for (let guard = 0; guard < 500; guard++) {
    await s.camera.settled();
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
  throw new Error('the table never finished');
}

/** The first visit's tile and the frame the camera reads it on. */
const first = truth.find(isCameraMove)!;
const firstStill = manifest.visits[0]!.stillFrom;

describe('the tracker in its worker', () => {
  it.each([
    ['killed mid-read', { crashAtFrame: firstStill + 1 }, /the tracker stopped \(the tracker's worker stopped \(exit code 70\)\): it was restarted/],
    ['hanging (no answer in time)', { hangAtFrame: firstStill + 1 }, /the tracker stopped answering \(the tracker's worker did not answer in 45 s \(\w+\)\): it was restarted/],
  ] as const)('%s: the table is told, a new worker reads the same tile, nothing the table entered is lost, nothing stale committed', async (_, faults, told) => {
    const s = open({ tracker: { timeoutMs: 45_000 } });
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    // The first scene (before any tile): the worker is made and reads it.
    for (const f of frames.slice(0, firstStill)) s.camera.frame(f);
    await s.camera.settled();
    const worker = s.camera.trackerWorker!;
    expect(worker).not.toBeNull();
    expect(s.camera.trackerGeneration).toBe(1);
    await worker.faults(faults);
    // The table draws (acknowledged), and the tile's still frames come: the worker goes down reading them.
    expect(s.session.play(truth[0]!).ok).toBe(true);
    for (const f of frames.slice(firstStill)) s.camera.frame(f);
    await s.camera.settled();
    expect(worker.down).not.toBeNull();
    expect(s.camera.trackerGeneration).toBe(2);
    const notices = s.camera.view().notices.map((n) => n.text);
    expect(notices.some((t) => told.test(t)), notices.join('\n')).toBe(true);
    // The draw the table entered stays; the new worker, levelled with it, read the tile being read when the old one went down.
    const game = s.session.currentGame!;
    expect(game.commands[0]).toEqual(truth[0]);
    expect(game.commands.some((c) => sameMove(c, first))).toBe(true);
    // The rest of the game as recorded: nothing committed twice or wrong (a stale reading would be).
    const log = await table(s);
    expect(log.wrong).toBe(0);
    expect(agreed(truth, s.session.currentGame!.commands)).toBe(truth.length);
    expect(s.session.currentGame!.commands).toHaveLength(truth.length);
    expect(s.camera.view().counts.committed).toBeGreaterThanOrEqual(18);
    expect(s.camera.trackerGeneration).toBe(2);
    await s.camera.close();
    s.store.close();
  }, 300_000);
});

describe('only still scenes kept', () => {
  it('a question left open while 10 000 frames arrive: a few JPEGs held, and the tile laid meanwhile is read once it is answered', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    // The table is asked about the first tile, and leaves the question open.
    s.camera.askEverything(true);
    expect(s.session.play(truth[0]!).ok).toBe(true);
    const v1 = manifest.visits[1]!;
    for (const f of frames.slice(0, v1.stillFrom - 1)) s.camera.frame(f);
    await s.camera.settled();
    const question = s.camera.view().proposals[0]!;
    expect(sameMove(question.readings[0]!.command, first)).toBe(true);
    // Meanwhile: hands over the table, the next tile laid, more hands: 10 000 frames.
    const hand = frames[v1.stillFrom - 1]!;
    const before = frames[firstStill + 1]!;
    const after = frames[v1.stillFrom + 1]!;
    let n = 0;
    for (let cycle = 0; n < 10_000; cycle++) {
      const still = cycle < 1000 ? before : after;
      for (const f of [hand, still, still, still, still]) {
        s.camera.frame(f);
        n++;
      }
      if (cycle % 100 === 0) await s.camera.settled();
    }
    await s.camera.settled();
    const held = s.camera.intakeFigures;
    expect(s.camera.view().frames.received).toBeGreaterThanOrEqual(10_000);
    // Held: the scene with the new tile (its frame of motion, its still frame twice) and the last frame of motion, nothing per frame.
    expect(s.camera.view().frames.queued).toBeLessThanOrEqual(4);
    expect(held.heldBytesMax).toBeLessThan(6 * Math.max(...frames.map((f) => f.length)));
    expect(held.droppedScenes).toBe(0);
    expect(s.camera.view().proposals.map((p) => p.id)).toEqual([question.id]);
    // Answered (and asked no more): the tile laid while the question was open is read by the camera.
    s.camera.askEverything(false);
    expect(s.camera.answer(question.id, 'best').ok).toBe(true);
    await s.camera.settled();
    const next = truth[v1.camera[0]!]!;
    for (let i = s.session.currentGame!.commands.length; i < v1.camera[0]!; i++) {
      await s.camera.settled();
      if (s.session.currentGame!.commands.length <= i) expect(s.session.play(truth[i]!).ok).toBe(true);
    }
    await s.camera.settled();
    const game = s.session.currentGame!;
    expect(game.commands.slice(0, v1.camera[0]!)).toEqual(truth.slice(0, v1.camera[0]!));
    expect(sameMove(game.commands[v1.camera[0]!]!, next)).toBe(true);
    expect(s.camera.view().counts.committed).toBeGreaterThanOrEqual(1);
    await s.camera.close();
    s.store.close();
  }, 600_000);
});
