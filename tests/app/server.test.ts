import { get } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import { CLOSE_NOT_PAIRED } from '../../electron/server/protocol.js';
import { connect } from './helpers/ws-client.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { loadRecord, recordCommands } from './helpers/records.js';

const dir = mkdtempSync(join(tmpdir(), 'companion-server-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');

const newGame = {
  players: [
    { name: 'Ada', color: 'red' },
    { name: 'Bo', color: 'blue' },
  ],
  expansions: ['base'],
};

describe('browser mode, LAN off', () => {
  let app: BrowserMode;
  beforeAll(async () => {
    app = await startBrowserMode({ dataFile: join(dir, 'off.sqlite'), rendererDir: dir });
  });
  afterAll(() => app.close());

  it('listens on 127.0.0.1 only and writes the main token into the page served to it', async () => {
    expect(app.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const html = await (await fetch(app.server.url)).text();
    expect(html).toContain(`<meta name="companion-token" content="${app.server.mainToken}">`);
    // A page fetched under another host name (DNS rebinding) gets no token.
    const other = await new Promise<string>((resolve, reject) => {
      get(app.server.url, { headers: { Host: `evil.example:${app.server.port}` } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    expect(other).toContain('<title>t</title>');
    expect(other).not.toContain('companion-token');
    expect((await fetch(`${app.server.url}../../etc/passwd`)).status).toBe(404);
  });

  it('refuses an unpaired client with a clear error and closes it', async () => {
    const c = await connect(app.server.url);
    const r = await c.call('play', { type: 'endTurn', player: 0 });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/^not paired/);
    expect((await c.closed).code).toBe(CLOSE_NOT_PAIRED);
    const bad = await connect(app.server.url);
    expect((await bad.call('hello', 'guess')).error).toMatch(/unknown token/);
    expect((await bad.closed).code).toBe(CLOSE_NOT_PAIRED);
    const pair = await connect(app.server.url);
    expect((await pair.call('pair', '123456')).error).toMatch(/LAN access is off/);
  });

  it('refuses a WebSocket from another origin', async () => {
    await expect(connect(app.server.url, { Origin: 'http://evil.example' })).rejects.toThrow(/403/);
  });

  it('answers garbage with errors and keeps serving', async () => {
    const c = await connect(app.server.url);
    expect((await c.call('hello', app.server.mainToken)).ok).toBe(true);
    c.raw('{{{ not json');
    expect(await c.next()).toEqual({ id: null, ok: false, error: 'not valid JSON' });
    c.raw(JSON.stringify({ op: 'play' }));
    expect((await c.next()).error).toMatch(/^not a message: id/);
    c.raw(Buffer.from([0, 1, 2]));
    expect((await c.next()).error).toMatch(/not valid JSON|binary/);
    expect((await c.call('launchMissiles')).error).toBe('unknown operation launchMissiles');
    expect((await c.call('play', { type: 'placeTile', player: 0, tile: 'BASE_A', at: [1, 0], rot: 45 })).error).toMatch(/^The move: turn: /);
    expect((await c.call('correct', -1, null)).error).toMatch(/^The correction: /);
    expect((await c.call('newGame', { ...newGame, players: [{ name: '', color: 'red' }] })).error).toBe("New game: player 1's name: a player needs a name");
    expect((await c.call('importRecord', '{"format":"record@1"}')).error).toMatch(/not valid record@1/);
    // Still alive and serving:
    expect((await c.call('newGame', newGame)).ok).toBe(true);
    expect((await c.call('snapshot')).ok).toBe(true);
    c.close();
  });

  it('plays a command through the socket, replies before pushing the new snapshot', async () => {
    const c = await connect(app.server.url);
    await c.call('hello', app.server.mainToken);
    await c.call('newGame', newGame);
    while ((await c.next()).push !== 'snapshot');
    const snap = (await c.call('snapshot')).value as { game: { turn: { player: number } } };
    expect(snap.game.turn.player).toBe(0);
    const bad = await c.call('play', { type: 'placeTile', player: 0, tile: 'BASE_A', at: [9, 9], rot: 0 });
    expect(bad.ok).toBe(false);
    const r = await c.call('play', { type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, 0], rot: 0 });
    expect(r.error ?? '').toBe('');
    const push = (await c.next()) as { push: string; snapshot: { game: { board: unknown[]; turn: { step: string } } } };
    expect(push.push).toBe('snapshot');
    expect(push.snapshot.game.board).toHaveLength(2);
    expect(push.snapshot.game.turn.step).toBe('action');
    c.close();
  });
});

describe('browser mode, LAN on', () => {
  let app: BrowserMode;
  beforeAll(async () => {
    app = await startBrowserMode({ dataFile: join(dir, 'lan.sqlite'), rendererDir: dir, lan: true });
  });
  afterAll(() => app.close());

  it('a second screen joins with the pairing code, and only the main screen is told the code', async () => {
    expect(app.server.pairingCode).toMatch(/^\d{8}$/);
    const main = await connect(app.server.url);
    await main.call('hello', app.server.mainToken);
    expect(((await main.call('pairing')).value as { code: string }).code).toBe(app.server.pairingCode);

    const tv = await connect(app.server.url);
    expect((await tv.call('pair', '000000' === app.server.pairingCode ? '111111' : '000000')).error).toBe('wrong pairing code');
    const paired = await tv.call('pair', app.server.pairingCode);
    expect(paired.ok).toBe(true);
    const token = (paired.value as { token: string }).token;
    expect(((await tv.call('pairing')).value as { code: string | null }).code).toBeNull();
    tv.close();
    // The token lets the screen back in after a reconnect.
    const again = await connect(app.server.url);
    expect((await again.call('hello', token)).value).toEqual({ role: 'screen' });
    again.close();
    main.close();
  });

  it('a whole record played over the socket ends with the record’s scores', async () => {
    const record = loadRecord('g001-base-2p.json');
    const c = await connect(app.server.url);
    await c.call('hello', app.server.mainToken);
    await c.call('newGame', { players: record.players.map((p) => ({ name: p.name, color: p.color })), expansions: record.expansions, rules: record.rules ?? {} });
    for (const cmd of recordCommands(record)) {
      const r = await c.call('play', cmd);
      expect(r.error ?? '').toBe('');
    }
    const snap = (await c.call('snapshot')).value as { game: { players: { score: number }[] } };
    expect(snap.game.players.map((p) => p.score)).toEqual(record.expect!.final);
    c.close();
  });
});

describe('closing browser mode', () => {
  it('cancels pushes still waiting, so nothing reads the store after it is closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'companion-close-'));
    const errors: unknown[] = [];
    const onError = (e: unknown) => errors.push(e);
    process.on('uncaughtException', onError);
    try {
      const bm = await startBrowserMode({ dataFile: join(dir, 'c.sqlite'), rendererDir: dir, recording: null });
      // A game change and a camera change each schedule a push to the screens…
      const record = loadRecord('g001-base-2p.json');
      expect(bm.session.newGame(setupFromRecord(record)).ok).toBe(true);
      expect(bm.camera.use('none').ok).toBe(true);
      // …and the app closes at once, store included.
      await bm.close();
      await new Promise((r) => setTimeout(r, 300));
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
