/**
 * The frame socket (electron/services/camera/frame-socket.ts): browser mode's main screen sends its
 * camera's frames to a socket served by a thread of its own, and the services' thread receives the
 * bytes only of the frames it keeps. Real parts: browser mode with the bundled short recording's
 * frames, the real tracker and a real SQLite store, `ws` clients as the Camera screen's socket.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitMjpeg } from '../../models/scene/recording.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import { connect } from './helpers/ws-client.js';

const REC = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(REC, 'video.mjpeg'))))];
const dir = mkdtempSync(join(tmpdir(), 'companion-frame-socket-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
// As a camera at 30 fps shows them: each still picture several frames long, a hand one frame.
const manifest = JSON.parse(readFileSync(join(REC, 'manifest.json'), 'utf8')) as { visits: { handFrom: number; stillFrom: number }[] };
const hands = new Set(manifest.visits.map((v) => v.handFrom));
const sent = frames.flatMap((f, i) => (hands.has(i) ? [f] : [f, f, f, f, f]));
const recorded = { players: [{ name: 'P1', color: 'red' }, { name: 'P2', color: 'blue' }], expansions: ['base', 'tower', 'jousts-crests'] };

describe('the frame socket', () => {
  let app: BrowserMode;
  beforeAll(async () => {
    app = await startBrowserMode({ dataFile: join(dir, 'f.sqlite'), rendererDir: dir, recording: REC, lan: true });
  });
  afterAll(() => app.close());

  it("only the main screen's page with its token sends frames there: another page, a wrong token, a second screen are turned away", async () => {
    const main = await connect(app.server.url);
    const hello = await main.call('hello', app.server.mainToken);
    const url = (hello.value as { frames?: string }).frames!;
    expect(url).toBe(app.server.frameSocket!.url);
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/$/);

    // Another site's page: refused at the upgrade.
    await expect(connect(url, { Origin: 'http://evil.example' })).rejects.toThrow(/403/);
    // The main screen's page, the wrong token (or a frame before any token): closed, saying why.
    for (const first of [JSON.stringify({ token: 'nope' }), Buffer.from(frames[0]!)]) {
      const s = await connect(url, { Origin: app.server.url.replace(/\/$/, '') });
      s.raw(first);
      expect(await s.closed).toEqual({ code: 4001, reason: 'send the main screen’s token first' });
    }
    // A second screen is not told where it is.
    const screen = await connect(app.server.url);
    const paired = await screen.call('pair', app.server.pairingCode);
    expect(paired.ok).toBe(true);
    expect(paired.value).toEqual({ role: 'screen', token: expect.any(String) });
    main.close();
    screen.close();
  });

  it("reads the table from frames sent there, and the services' thread gets the bytes only of the frames it keeps; a broken frame is refused with why", async () => {
    const main = await connect(app.server.url);
    expect((await main.call('hello', app.server.mainToken)).ok).toBe(true);
    // The screen's camera first: the bundled recording plays until then, and a frame of it read after
    // the new game would be counted among this test's frames.
    expect((await main.call('cameraUse', 'browser', 'test camera')).ok).toBe(true);
    expect((await main.call('newGame', recorded)).ok).toBe(true);
    const s = await connect(app.server.frameSocket!.url, { Origin: app.server.url.replace(/\/$/, '') });
    s.raw(JSON.stringify({ token: app.server.mainToken }));
    expect(await s.next()).toEqual({ id: null, ok: true, value: 'frames' });

    // A frame that says it is 20000×20000 pixels: refused before decoding, told to the sender and to the table.
    const huge = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x4e, 0x20, 0x4e, 0x20, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    s.raw(huge);
    const refused = await s.next();
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^binary message \(a camera frame\) refused: frame 0 on the frame socket: a frame of 20000×20000 pixels/);

    for (const f of sent) s.raw(Buffer.from(f));
    const camera = app.camera;
    for (let i = 0; i < 3000 && camera.intakeFigures.looked < sent.length; i++) await new Promise((r) => setTimeout(r, 10));
    await camera.settled();
    const view = camera.view();
    expect(view.frames.received).toBe(sent.length + 1);
    expect(view.notices.some((n) => n.error && /refused before decoding: a frame of 20000×20000 pixels/.test(n.text))).toBe(true);
    expect(view.size).toEqual([640, 480]);
    // Every frame looked at; the bytes that reached the services are those of the kept frames.
    const intake = camera.intakeFigures;
    expect(intake.looked).toBe(sent.length);
    expect(intake.skipped).toBe(0);
    const fetched = app.server.frameSocket!.fetched;
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThanOrEqual(intake.kept);
    expect(fetched).toBeLessThan(sent.length / 4);
    // And the camera read the table from them: its first tiles are in the game, by the camera.
    expect(view.calibrated).toBe(true);
    expect(view.counts.committed + view.proposals.length).toBeGreaterThanOrEqual(1);
    expect(app.session.currentGame!.commands.some((c) => c.type === 'placeTile') || view.proposals.length > 0).toBe(true);
    s.close();
    main.close();
  }, 60_000);

  it('a frame sent there while the camera source is not the screen’s is refused with why, as on the main socket, and nothing is held for it', async () => {
    const main = await connect(app.server.url);
    expect((await main.call('hello', app.server.mainToken)).ok).toBe(true);
    expect((await main.call('cameraUse', 'none')).ok).toBe(true);
    const received = app.camera.view().frames.received;
    const held = app.camera.intakeFigures.heldBytes;
    const s = await connect(app.server.frameSocket!.url, { Origin: app.server.url.replace(/\/$/, '') });
    s.raw(JSON.stringify({ token: app.server.mainToken }));
    expect(await s.next()).toEqual({ id: null, ok: true, value: 'frames' });
    s.raw(Buffer.from(frames[0]!));
    const refused = await s.next();
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^binary message \(a camera frame\) refused: frame \d+ on the frame socket: the camera source is none: frames from the screen are not expected$/);
    // The main socket says the same of the same frame.
    main.raw(Buffer.from(frames[0]!));
    expect(await main.nextReply()).toEqual({ id: null, ok: false, error: 'binary message (a camera frame) refused: the camera source is none: frames from the screen are not expected' });
    expect(app.camera.view().frames.received).toBe(received);
    expect(app.camera.intakeFigures.heldBytes).toBe(held);
    s.close();
    main.close();
  }, 60_000);
});
