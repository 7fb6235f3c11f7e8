/**
 * The demo game's driver on the services (no browser): a recording read by the camera to its end
 * with the recording's own record as the table, the game as recorded. CI plays short-s5 (12 turns);
 * `DEMO_RECORDING=demo-tower-jc` the bundled demo (a few minutes). The browser test
 * (e2e-demo.test.ts) watches the bundled demo through the first screen.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import { CameraService } from '../../electron/services/camera/camera-service.js';
import { DemoService } from '../../electron/services/demo/demo-service.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings', process.env.DEMO_RECORDING ?? 'short-s5');

it('the demo plays a recording to its end by itself: the game as recorded, no reading taken back', async () => {
  const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
  if (!parsed.ok) throw new Error(parsed.reason);
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-demo-')), 'c.sqlite'));
  const session = new GameSession(store);
  const camera = new CameraService({ session, store, recording: DIR });
  const demo = new DemoService({ session, camera });
  const t0 = Date.now();
  const started = demo.start(Number(process.env.DEMO_PACE ?? 100));
  if (!started.ok) throw new Error(started.reason);
  await expect.poll(() => demo.view().state, { timeout: 280_000, interval: 200 }).not.toBe('playing');
  const v = demo.view();
  console.log(`demo: ${v.state} in ${((Date.now() - t0) / 1000).toFixed(0)} s; tiles ${v.tilesFromCamera}/${v.tiles} from the camera, ${v.tilesByTable} by the table, ${v.answered} answered, ${v.takenBack} taken back; camera ${JSON.stringify(camera.view().counts)}\n  ${v.lines.join('\n  ')}`);
  expect(v.problem).toBeNull();
  if (!process.env.DEMO_RECORDING) expect(v.takenBack).toBe(0);
  expect(v.state).toBe('finished');
  const truth = Game.replay(setupFromRecord(parsed.record), (JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[] }).commands);
  if (!truth.ok) throw new Error(truth.reason);
  expect(session.currentGame!.state.finished).toBe(truth.value.state.finished);
  expect(session.currentGame!.state.players.map((p) => p.score)).toEqual(truth.value.state.players.map((p) => p.score));
  demo.close();
  await camera.close();
  store.close();
}, 300_000);
