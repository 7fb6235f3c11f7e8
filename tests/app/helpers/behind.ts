/**
 * The table behind the video, headless (issue 29): a recording fed to the camera service frame by
 * frame with frames missed, and a table that answers the camera from the truth and enters by hand
 * what it did not read while the video plays on. Used by tests/app/camera-behind.test.ts and
 * `npm run bench:behind` (a sweep of missed-frame patterns).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../../../engine/game/commands.js';
import { parseRecord } from '../../../engine/record/schema.js';
import { setupFromRecord } from '../../../engine/record/convert.js';
import { splitMjpeg } from '../../../models/scene/recording.js';
import { CameraService } from '../../../electron/services/camera/camera-service.js';
import { GameSession } from '../../../electron/services/session/session.js';
import { Store } from '../../../electron/services/store/store.js';
import { agreed, manifestWithoutDraws, nextStep } from './camera-table.js';

function must(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

interface Visit { handFrom: number; stillFrom: number; camera: number[] }

export function recording(name: string) {
  const dir = join(import.meta.dirname, '../../fixtures/recordings', name);
  const manifest = manifestWithoutDraws(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { commands: Command[]; visits: Visit[] });
  const parsed = parseRecord(JSON.parse(readFileSync(join(dir, 'game.json'), 'utf8')));
  if (!parsed.ok) throw new Error(parsed.reason);
  const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(dir, 'video.mjpeg'))))];
  return { dir, truth: manifest.commands, visits: manifest.visits, setup: setupFromRecord(parsed.record), frames };
}

/**
 * Plays the video one frame at a time (less `dropped`), the camera reading as it may, and a table
 * that answers the camera from the truth and enters what it did not read once the video is past that
 * move's visit; entering by hand takes `typing` frames of video, which the camera reads meanwhile.
 */
export async function behind(name: string, dropped: ReadonlySet<number>, typing: number) {
  const rec = recording(name);
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-behind-')), 'c.sqlite'));
  const session = new GameSession(store);
  const camera = new CameraService({ session, store, recording: rec.dir });
  must(session.newGame(rec.setup).ok, 'a new game');
  must(camera.use('browser').ok, 'the browser camera');
  const log = { wrong: 0, byHand: 0, answered: 0, notes: [] as string[] };
  let v = 0;
  const play = async (n: number) => {
    for (let i = 0; i < n && v < rec.frames.length; i++, v++) if (!dropped.has(v)) must(camera.frame(rec.frames[v]!).ok, `frame ${v}`);
    await camera.settled();
  };
  const visitEnd = (p: number) => {
    const visit = rec.visits.find((x) => x.camera.includes(p));
    return visit ? visit.stillFrom + 1 : -1;
  };
  for (let guard = 0; guard < 2000; guard++) {
    await camera.settled();
    const view = camera.view();
    const history = session.currentGame!.commands;
    const p = agreed(rec.truth, history);
    const mayRead = view.reading && (view.frames.queued > 0 || v <= visitEnd(p));
    const step = nextStep(rec.truth, { history, open: view.proposals.map((q) => ({ id: q.id, readings: q.readings.map((r) => r.command) })), cameraMayRead: mayRead, figureWaits: view.figureWaits });
    if (step.do === 'done') break;
    if (step.do === 'wait') {
      await play(1);
      continue;
    }
    if (step.do === 'undo') {
      log.wrong++;
      log.notes.push(`wrong ${JSON.stringify(step.wrong)} at ${p} (video at frame ${v})`);
      must(session.undo().ok, 'undo');
    } else if (step.do === 'reject') {
      must(camera.answer(step.id, 'reject').ok, 'reject');
    } else if (step.do === 'answer') {
      const r = camera.answer(step.id, step.answer);
      if (!r.ok) throw new Error(r.reason);
      log.answered++;
    } else {
      // The table types while the video plays on.
      if (step.missed) await play(typing);
      if (agreed(rec.truth, session.currentGame!.commands) !== p || session.currentGame!.commands.length !== p) continue;
      const r = session.play(step.command);
      if (!r.ok) throw new Error(`${step.command.type} at ${p}: ${r.reason}`);
      log.byHand++;
    }
  }
  const game = session.currentGame!;
  const result = { rec, game, view: camera.view(), log, agreed: agreed(rec.truth, game.commands) };
  await camera.close();
  store.close();
  return result;
}

