/**
 * The camera over browser mode's WebSocket: the view on request and pushed afterwards, JPEG frames as
 * binary messages from the main screen only, refused (with the reason) while the source is not the
 * screen's camera; a second screen's binary message is garbage.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitMjpeg } from '../../models/scene/recording.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import type { CameraView } from '../../electron/contract/camera.js';
import { connect, type TestClient } from './helpers/ws-client.js';

const REC = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(REC, 'video.mjpeg'))))];
const dir = mkdtempSync(join(tmpdir(), 'companion-camera-server-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
const recorded = { players: [{ name: 'P1', color: 'red' }, { name: 'P2', color: 'blue' }], expansions: ['base', 'tower', 'jousts-crests'] };

/** The next camera push, skipping snapshots and replies to frames. */
async function nextCamera(c: TestClient, until: (v: CameraView) => boolean): Promise<CameraView> {
  for (;;) {
    const m = await c.next();
    if (m.push === 'camera' && until(m.camera as CameraView)) return m.camera as CameraView;
  }
}

describe('the camera over the WebSocket', () => {
  let app: BrowserMode;
  beforeAll(async () => {
    app = await startBrowserMode({ dataFile: join(dir, 'c.sqlite'), rendererDir: dir, recording: REC, lan: true });
  });
  afterAll(() => app.close());

  it('frames from the main screen reach the tracker; refused while the source is the recording; garbage from a second screen', async () => {
    const main = await connect(app.server.url);
    expect((await main.call('hello', app.server.mainToken)).ok).toBe(true);
    const view = await main.call('camera');
    expect(view.ok && (view.value as CameraView).source).toBe('recording');
    expect((await main.call('newGame', recorded)).ok).toBe(true);
    main.raw(Buffer.from(frames[0]!));
    for (;;) {
      const m = await main.next();
      if (m.ok === false) {
        expect(m.error).toMatch(/^binary message \(a camera frame\) refused: the camera source is recording/);
        break;
      }
    }
    expect((await main.call('cameraUse', 'browser', 'test camera')).ok).toBe(true);
    expect((await main.call('cameraUse', 'webcam')).error).toMatch(/^The camera: /);
    for (const f of frames.slice(0, 3)) main.raw(Buffer.from(f));
    const seen = await nextCamera(main, (v) => v.source === 'browser' && v.status === 'live' && v.frames.received >= 3);
    expect(seen).toMatchObject({ source: 'browser', status: 'live', label: 'test camera', size: [640, 480] });

    const screen = await connect(app.server.url);
    expect((await screen.call('pair', app.server.pairingCode)).ok).toBe(true);
    screen.raw(Buffer.from(frames[3]!));
    expect((await screen.next()).error).toMatch(/binary messages are not understood here/);
    // The answer to a reading that is not open names it.
    expect((await main.call('cameraAnswer', 99, 'best')).error).toMatch(/camera reading 99 is not open/);
    expect((await main.call('cameraAnswer', 1, 2)).error).toMatch(/^The camera: /);
    main.close();
    screen.close();
  });
});
