/**
 * Issue 28, parts 2 and 3: pairing that cannot be guessed (limits per address and in all, growing
 * delays, a lock-out the main screen lifts, codes that expire) and second screens whose rights the
 * server enforces (view; moves only when the main screen allows them), listed, unpaired, and kept
 * across a restart. Real sockets, real SQLite files.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairingInfo } from '../../electron/contract/api.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import { PairingDesk } from '../../electron/server/pairing.js';
import { CLOSE_NOT_PAIRED } from '../../electron/server/protocol.js';
import { Store } from '../../electron/services/store/store.js';
import { connect, type TestClient } from './helpers/ws-client.js';

const dir = mkdtempSync(join(tmpdir(), 'companion-pairing-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
const newGame = { players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }], expansions: ['base'] };

async function mainScreen(app: BrowserMode): Promise<TestClient> {
  const c = await connect(app.server.url);
  expect((await c.call('hello', app.server.mainToken)).ok).toBe(true);
  return c;
}

const wrong = (code: string) => (code === '00000000' ? '11111111' : '00000000');

describe('the pairing desk (a clock of its own)', () => {
  function desk() {
    let t = 1_000_000;
    const d = new PairingDesk({ store: null, now: () => t });
    return { d, tick: (ms: number) => (t += ms) };
  }

  it('gives an 8-digit code that expires after 10 minutes and is replaced', () => {
    const { d, tick } = desk();
    const first = d.code;
    expect(first).toMatch(/^\d{8}$/);
    tick(9 * 60_000);
    expect(d.code).toBe(first);
    tick(60_000 + 1);
    expect(d.code).not.toBe(first);
    expect(d.attempt('10.0.0.2', first).ok).toBe(false);
  });

  it('makes one address wait longer after each wrong code, other addresses still try', () => {
    const { d, tick } = desk();
    for (let i = 0; i < 3; i++) expect(d.attempt('10.0.0.2', wrong(d.code))).toMatchObject({ ok: false, error: 'wrong pairing code' });
    const a = d.attempt('10.0.0.2', d.code);
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.error).toMatch(/^too many wrong codes from this address: try again in 1 s/);
    tick(1000);
    expect(d.attempt('10.0.0.2', wrong(d.code)).ok).toBe(false);
    const b = d.attempt('10.0.0.2', d.code);
    if (!b.ok) expect(b.error).toMatch(/try again in 2 s/);
    // Another address is not held up by this one's wrong codes (4 in all so far, the limit in all is 5).
    expect(d.attempt('10.0.0.3', d.code).ok).toBe(true);
  });

  it('slows every address after 5 wrong codes in all, and locks pairing after 20 failures until lifted', () => {
    const { d, tick } = desk();
    for (let i = 0; i < 5; i++) d.attempt(`10.0.1.${i}`, wrong(d.code));
    const held = d.attempt('10.0.2.1', d.code);
    expect(held.ok).toBe(false);
    if (!held.ok) expect(held.error).toMatch(/^too many wrong codes on this network: try again in 1 s/);
    for (let i = 0; i < 30; i++) {
      tick(120_000);
      d.attempt(`10.0.3.${i}`, wrong(d.code));
    }
    expect(d.info('main').locked).toBe(true);
    tick(365 * 24 * 3600_000);
    const locked = d.attempt('10.0.2.1', d.code);
    expect(locked.ok).toBe(false);
    if (!locked.ok) expect(locked.error).toMatch(/^pairing is locked after 20 failed attempts/);
    const old = d.code;
    d.allow();
    expect(d.info('main').locked).toBe(false);
    expect(d.code).not.toBe(old);
    expect(d.attempt('10.0.2.1', d.code).ok).toBe(true);
  });
});

describe('pairing over the LAN', () => {
  let app: BrowserMode;
  beforeAll(async () => {
    app = await startBrowserMode({ dataFile: join(dir, 'lan.sqlite'), rendererDir: dir, lan: true, recording: null });
  });
  afterAll(() => app.close());

  it('2,000 wrong codes over 400 connections lock pairing; the real code is refused until the main screen lifts it; a new code works', async () => {
    const code = app.server.pairingCode!;
    expect(code).toMatch(/^\d{8}$/);
    let refused = 0;
    for (let batch = 0; batch < 8; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const c = await connect(app.server.url);
          for (let i = 0; i < 5; i++) if (!(await c.call('pair', wrong(code))).ok) refused++;
          c.close();
        }),
      );
    }
    expect(refused).toBe(2000);
    const main = await mainScreen(app);
    const info = (await main.call('pairing')).value as PairingInfo;
    expect(info.locked).toBe(true);
    const tv = await connect(app.server.url);
    expect((await tv.call('pair', code)).error).toMatch(/^pairing is locked/);
    const lifted = await main.call('pairingAllow');
    expect(lifted.ok).toBe(true);
    const fresh = (lifted.value as PairingInfo).code!;
    expect(fresh).not.toBe(code);
    expect((await tv.call('pair', code)).error).toBe('wrong pairing code');
    expect((await tv.call('pair', fresh)).ok).toBe(true);
    tv.close();
    main.close();
  }, 60_000);

  it('a second screen views and reads photos; newGame, import, saveTile, camera operations and frames are refused by the server', async () => {
    const main = await mainScreen(app);
    expect((await main.call('newGame', newGame)).ok).toBe(true);
    const code = ((await main.call('pairing')).value as PairingInfo).code!;
    const tv = await connect(app.server.url);
    expect((await tv.call('pair', code)).ok).toBe(true);
    expect((await tv.call('snapshot')).ok).toBe(true);
    expect((await tv.call('listGames')).ok).toBe(true);
    // Reading a photo changes nothing: a phone paired as a second screen photographs a tile (this
    // one shows none, and says so: read, not refused).
    const photo = { mime: 'image/jpeg', base64: readFileSync(join(import.meta.dirname, '../fixtures/photos/no-tile.jpg')).toString('base64') };
    expect((await tv.call('readTilePhoto', photo, {})).error).toMatch(/^not read: no tile found/);
    const refusedOps: [string, ...unknown[]][] = [
      ['newGame', newGame],
      ['importRecord', '{}'],
      ['loadGame', 1],
      ['saveTile', { tile: 'JC-L-PLAIN', edges: [], features: [] }, null, 'settings'],
      ['cameraUse', 'none'],
      ['cameraReport', { state: 'live' }],
      ['cameraAskEverything', true],
      ['cameraStartPieceCorners', null],
      ['pairingAllow'],
      ['unpairScreen', 'x'],
      ['secondScreenMoves', true],
      ['play', { type: 'endTurn', player: 0 }],
      ['undo'],
    ];
    for (const [op, ...args] of refusedOps) {
      const r = await tv.call(op, ...args);
      expect(r.ok, op).toBe(false);
      expect(r.error, op).toMatch(new RegExp(`^${op}: refused: a second screen`));
    }
    tv.raw(Buffer.from([0xff, 0xd8, 0xff]));
    // Snapshot pushes (the new game) may come first.
    let m = await tv.next();
    while (m.push) m = await tv.next();
    expect(m.error).toMatch(/only the main screen sends camera frames/);
    tv.close();
    main.close();
  });

  it('moves from second screens only when the main screen allows them', async () => {
    const main = await mainScreen(app);
    expect((await main.call('newGame', newGame)).ok).toBe(true);
    const code = ((await main.call('pairing')).value as PairingInfo).code!;
    const tv = await connect(app.server.url);
    expect((await tv.call('pair', code)).ok).toBe(true);
    const place = { type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, 0], rot: 0 };
    expect((await tv.call('play', place)).error).toMatch(/^play: refused: a second screen/);
    expect(((await main.call('secondScreenMoves', true)).value as PairingInfo).screenMoves).toBe(true);
    expect((await tv.call('play', place)).ok).toBe(true);
    expect((await tv.call('undo')).ok).toBe(true);
    expect((await tv.call('newGame', newGame)).ok).toBe(false);
    expect((await main.call('secondScreenMoves', false)).ok).toBe(true);
    expect((await tv.call('play', place)).ok).toBe(false);
    tv.close();
    main.close();
  });

  it('the main screen lists paired screens and unpairs one: its socket closes and its token no longer works', async () => {
    const main = await mainScreen(app);
    const code = ((await main.call('pairing')).value as PairingInfo).code!;
    const tv = await connect(app.server.url);
    const token = ((await tv.call('pair', code)).value as { token: string }).token;
    const info = (await main.call('pairing')).value as PairingInfo;
    // The newest pairing is this screen (screens of earlier tests may still be closing).
    const mine = info.screens.at(-1);
    expect(mine?.connected).toBe(true);
    expect(mine).toBeDefined();
    expect(mine!.address).toMatch(/127\.0\.0\.1/);
    // Second screens are not told who else is paired.
    expect(((await tv.call('pairing')).value as PairingInfo).screens).toEqual([]);
    const after = await main.call('unpairScreen', mine!.id);
    expect(after.ok).toBe(true);
    expect((after.value as PairingInfo).screens.some((s) => s.id === mine!.id)).toBe(false);
    expect((await tv.closed).code).toBe(CLOSE_NOT_PAIRED);
    const again = await connect(app.server.url);
    expect((await again.call('hello', token)).error).toMatch(/unknown token/);
    expect((await main.call('unpairScreen', 'nobody')).error).toMatch(/no paired screen nobody/);
    main.close();
  });
});

describe('pairings and the moves setting survive a restart', () => {
  it('a screen paired before the restart says hello with its token after it', async () => {
    const file = join(dir, 'restart.sqlite');
    let app = await startBrowserMode({ dataFile: file, rendererDir: dir, lan: true, recording: null });
    const main = await mainScreen(app);
    await main.call('secondScreenMoves', true);
    const tv = await connect(app.server.url);
    const token = ((await tv.call('pair', app.server.pairingCode)).value as { token: string }).token;
    tv.close();
    main.close();
    await app.close();
    // The token is not written in clear.
    const store = Store.open(file);
    expect(JSON.stringify(store.setting('pairing.screens'))).not.toContain(token);
    store.close();
    app = await startBrowserMode({ dataFile: file, rendererDir: dir, lan: true, recording: null });
    try {
      const back = await connect(app.server.url);
      expect((await back.call('hello', token)).value).toEqual({ role: 'screen' });
      expect(((await back.call('pairing')).value as PairingInfo).screenMoves).toBe(true);
      back.close();
    } finally {
      await app.close();
    }
  });
});
