/**
 * The app in a real browser (Debian chromium) against browser mode: a new game set up through the
 * UI, a bundled record played move by move through clicks and keys only (helpers/entry.ts), the final scores and the audit
 * on screen checked against the record, undo/redo and a correction from the event log, and the
 * faults (malformed record, WebSocket garbage, unpaired client). Screenshots go to test-output/screens.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Game } from '../../engine/game/game.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import { ensureRendererBuilt } from '../../scripts/renderer-build.js';
import { BITMAP_SIZE } from '../../renderer/src/lib/bitmaps.js';
import { act as actOn, openApp, type OpenApp, SHOTS } from './helpers/browser.js';
import { loadRecord, recordCommands, setupFromRecord } from './helpers/records.js';
import { clickEntry } from './helpers/entry.js';

// The callbacks below run in the page; these are the few DOM names they use.
declare const location: { host: string };

const record = loadRecord('g101-base-river-abbot-ic-tower-2p.json');
const commands = recordCommands(record);

let app: BrowserMode;
let browser: Browser;
let page: Page;
let opened: OpenApp | undefined;

beforeAll(async () => {
  opened = await openApp('e2e', {});
  ({ app, browser, page } = opened);
}, 120_000);

afterAll(() => opened?.close());

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

const act = (what: string, action: () => Promise<void>) => actOn(page, what, action);

describe('the companion in a browser', () => {
  it('sets up a new game through the UI', async () => {
    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    const form = page.getByTestId('new-game');
    for (let i = 2; i < record.players.length; i++) await form.getByRole('button', { name: 'Add a player' }).click();
    // Seat them in the wrong order first, then fix the seating with the arrows.
    for (const [i, p] of record.players.entries()) {
      const seat = i === 0 ? 1 : i === 1 ? 0 : i;
      await form.locator(`input[name=player-${seat}]`).fill(p.name);
      await form.locator(`select[name=colour-${seat}]`).selectOption(p.color);
    }
    await form.getByRole('button', { name: 'seat later' }).first().click();
    for (const x of record.expansions) if (x !== 'base') await form.locator(`input[name=exp-${x}]`).check();
    await shot('1-new-game');
    await act('start', () => page.getByTestId('start-game').click());
    await page.getByTestId('board').waitFor();
    const names = await page.locator('[data-testid=scoreboard] tbody th').allTextContents();
    expect(names.map((n) => n.trim())).toEqual(record.players.map((p) => p.name));
    await expect.poll(() => page.getByTestId('reminders').textContent()).toContain(`${record.players[0]!.name}: draw a tile`);
    // Esc backs out of a half-entered turn (a tile picked and shown on a lit cell) without touching the game.
    const first = commands[0]!;
    if (first.type !== 'placeTile') throw new Error('the record starts with a tile');
    const version = await page.locator('main').getAttribute('data-version');
    await page.locator(`[data-testid=tile-picker] button[data-pick="${first.tile}"]`).click();
    await page.locator(`[data-testid=board] rect[data-cell="${first.at[0]},${first.at[1]}"]`).click();
    await page.locator('[data-testid=board] [data-ghost]').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid=board] rect[data-cell]').count()).toBe(0);
    expect(await page.locator('[data-testid=tile-picker] button[aria-pressed=true]').count()).toBe(0);
    expect(await page.locator('main').getAttribute('data-version')).toBe(version);
  }, 60_000);

  it('plays the bundled record through clicks and keys only, and the scores on screen equal the record’s', async () => {
    // No typing: the tile clicked in the picker, laid on its lit cell (R turns it, Enter lays it),
    // figures on their drawn spots, towers, captures, abbots and ransoms clicked where they are.
    const entry = clickEntry(page);
    let shotTaken = false;
    const started = Date.now();
    for (const [i, c] of commands.entries()) {
      // One turn pictured step by step: the picker, the lit cells with the tile shown, the figure spots.
      const pictured = i >= 40 && c.type === 'placeTile' && commands[i + 1]?.type === 'placeMeeple' && !shotTaken;
      if (pictured) {
        shotTaken = true;
        entry.pause = async (stage) => {
          if (stage === 'picked') await page.getByTestId('move-entry').screenshot({ path: join(SHOTS, 'entry-1-tile-picker.png') });
          if (stage === 'shown') await shot('entry-2-lit-cells');
          if (stage === 'spots') {
            await page.locator('[data-testid=board] [data-spot]').first().waitFor();
            await shot('entry-3-figure-spots');
            await page.keyboard.press('?');
            await page.getByTestId('key-help').screenshot({ path: join(SHOTS, 'entry-4-keys.png') });
            await page.keyboard.press('Escape');
            entry.pause = null;
          }
        };
      }
      const t0 = Date.now();
      await entry.enter(c, commands[i + 1]);
      if (process.env.ENTRY_TIMES) console.log(i, c.type, Date.now() - t0);
      if (i === 150) await shot('2-board-mid-game');
    }
    const turns = record.turns.length;
    console.log(`clicks per turn: ${(entry.inputs / turns).toFixed(2)} (${entry.inputs} clicks and key presses, ${turns} turns, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    // The target: a whole turn in three clicks or key presses at most, on average.
    expect(entry.inputs / turns).toBeLessThanOrEqual(3);
    for (const [i, score] of record.expect!.final!.entries()) {
      expect(Number(await page.getByTestId(`total-${i}`).textContent())).toBe(score);
    }
    expect(await page.locator('[data-testid=board] g[data-tile]').count()).toBe((record.start?.length ?? 1) + record.turns.filter((t) => t.tile).length);
    await page.getByTestId('tower-panel').waitFor();
    // Every tile on the board is shown from the bitmap its drawing was made into once, not
    // rastered from its SVG each time the board is painted, and the bitmap is the drawing's.
    await page.waitForFunction(`[...document.querySelectorAll('[data-testid=board] g[data-tile] image:not(.piece)')].every((i) => i.getAttribute('href').startsWith('blob:'))`);
    const bitmap = (await page.evaluate(`(async () => {
      const img = new Image();
      img.src = document.querySelector('[data-testid=board] g[data-tile] image').getAttribute('href');
      await img.decode();
      const c = document.createElement('canvas');
      c.width = c.height = 8;
      c.getContext('2d').drawImage(img, 0, 0, 8, 8);
      const px = c.getContext('2d').getImageData(0, 0, 8, 8).data;
      let spread = 0;
      for (let i = 4; i < px.length; i += 4) spread += Math.abs(px[i] - px[0]) + Math.abs(px[i + 1] - px[1]);
      return { width: img.naturalWidth, spread, opaque: px.every((v, i) => i % 4 !== 3 || v === 255) };
    })()`)) as { width: number; spread: number; opaque: boolean };
    expect(bitmap.width).toBe(BITMAP_SIZE);
    // A drawn tile, not a blank: opaque all over, and its colours vary across it.
    expect(bitmap.opaque).toBe(true);
    expect(bitmap.spread).toBeGreaterThan(500);
    await shot('3-board-final');
    // Pan and zoom: the buttons and the wheel scale the view, a drag moves it, Fit puts it back.
    const board = page.getByTestId('board');
    const view = async () => (await board.getAttribute('viewBox'))!.split(' ').map(Number);
    const [x0, y0, w0] = await view();
    await page.getByRole('button', { name: 'zoom in' }).click();
    const wIn = (await view())[2]!;
    expect(wIn).toBeLessThan(w0!);
    await board.hover();
    await page.mouse.wheel(0, 300);
    await page.mouse.wheel(0, 300);
    const [x1, y1, w1] = await view();
    expect(w1).toBeGreaterThan(wIn); // the wheel zoomed out
    const box = (await board.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 60, { steps: 5 });
    await page.mouse.up();
    const [x2, y2, w2] = await view();
    expect(w2).toBe(w1);
    expect(x2).toBeLessThan(x1!);
    expect(y2).toBeLessThan(y1!);
    await page.getByRole('button', { name: 'Fit' }).click();
    expect(await view()).toEqual([x0, y0, w0, expect.any(Number)]);
  }, 600_000);

  it('shows the audit: each player’s points feature by feature, the feature lit on the board, the track difference explained', async () => {
    await page.locator('button[data-screen=audit]').click();
    await page.getByTestId('audit').waitFor();
    for (const [i, score] of record.expect!.final!.entries()) {
      expect(Number(await page.getByTestId(`audit-total-${i}`).textContent())).toBe(score);
      const items = await page.getByTestId(`audit-player-${i}`).locator('li b').allTextContents();
      expect(items.reduce((n, t) => n + Number(t.replace('+', '').replace('−', '-')), 0)).toBe(score);
    }
    // Select the first city of player 0: its tiles light up on the board.
    const city = page.getByTestId('audit-player-0').locator('button.score', { hasText: 'city:' }).first();
    const text = (await city.textContent())!;
    const tiles = Number(/(\d+) tiles? ×/.exec(text)![1]);
    await city.click();
    await expect.poll(() => page.locator('[data-testid=audit] rect.lit').count()).toBe(tiles);
    const final0 = record.expect!.final![0]!;
    await page.getByTestId('track-0').fill(String(final0 + 50));
    await expect.poll(() => page.getByTestId('difference-0').textContent()).toMatch(/50 points more on the track.*one whole lap/);
    await page.getByTestId('track-0').fill(String(final0));
    await expect.poll(() => page.getByTestId('difference-0').textContent()).toContain('agree');
    await shot('4-audit');
  }, 60_000);

  it('undoes and redoes from the event log, removes a past move and inserts it back, every later score recomputed', async () => {
    await page.locator('button[data-screen=log]').click();
    await page.getByTestId('event-log').waitFor();
    await act('undo', () => page.getByTestId('undo').click());
    await expect.poll(() => page.getByTestId('reminders').textContent()).toContain('No tiles left');
    await act('redo', () => page.getByTestId('redo').click());
    await expect.poll(() => page.getByTestId('reminders').textContent()).toContain('game is over');
    // The same from the board by keys; a redo after a new move is refused, saying why.
    await page.locator('button[data-screen=play]').click();
    await act('undo by key', () => page.keyboard.press('Control+z'));
    await expect.poll(() => page.getByTestId('reminders').textContent()).toContain('No tiles left');
    await act('redo by key', () => page.keyboard.press('Control+Shift+Z'));
    await expect.poll(() => page.getByTestId('reminders').textContent()).toContain('game is over');
    await act('undo by key', () => page.keyboard.press('Control+z'));
    await act('final scoring again', () => page.getByTestId('finish').click());
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(() => page.locator('[data-testid=message][role=alert]').textContent()).toContain('nothing to redo: a new move was entered after the undo');
    await page.locator('[data-testid=message] .close').click();
    await page.locator('button[data-screen=log]').click();
    // Remove a meeple placed mid-game; the engine's own correction gives the scores to expect.
    // (the first one whose removal leaves the game legal and changes the score).
    let want: number[] = [];
    const index = commands.findIndex((c, i) => {
      if (i < 60 || c.type !== 'placeMeeple') return false;
      const g = Game.replay(setupFromRecord(record), commands);
      if (!g.ok || !g.value.correct(i, null).ok) return false;
      want = g.value.state.players.map((p) => p.score);
      return want.some((v, k) => v !== record.expect!.final![k]);
    });
    expect(index).toBeGreaterThan(0);
    await act('remove', () => page.locator(`li[data-index="${index}"] > button`, { hasText: 'Remove' }).click());
    await page.locator('button[data-screen=play]').click();
    for (const [i, score] of want.entries()) expect(Number(await page.getByTestId(`total-${i}`).textContent())).toBe(score);
    // Put the figure back, as a table would after the camera missed it: the record's scores return.
    const meeple = commands[index]!;
    if (meeple.type !== 'placeMeeple') throw new Error('expected a figure');
    await page.locator('button[data-screen=log]').click();
    // Inserting by hand names the spot as the engine does: a developer-view tool.
    await page.getByTestId('developer-view').check();
    const entry = page.locator(`li[data-index="${index}"]`);
    await entry.locator('> button', { hasText: 'Insert before' }).click();
    await entry.locator('form.edit select[name=what]').selectOption('placeMeeple');
    await entry.locator('form.edit select[name=kind]').selectOption(meeple.kind);
    await entry.locator('form.edit input[name=on]').fill(meeple.on);
    await shot('5-event-log');
    await act('insert', () => entry.locator('form.edit button[type=submit]').click());
    await page.getByTestId('developer-view').uncheck();
    await page.locator('button[data-screen=play]').click();
    for (const [i, score] of record.expect!.final!.entries()) expect(Number(await page.getByTestId(`total-${i}`).textContent())).toBe(score);
  }, 60_000);

  it('refuses a malformed record with the reason, then imports a Tower game and shows its tower panel', async () => {
    await page.locator('button[data-screen=games]').click();
    await page.getByTestId('games').waitFor();
    const broken = structuredClone(loadRecord('g081-base-tower-2p.json')) as unknown as { turns: { rot?: unknown }[] };
    broken.turns[7]!.rot = 45;
    await page.getByTestId('record-text').fill(JSON.stringify(broken));
    await page.getByTestId('import').click();
    await expect.poll(() => page.locator('[role=alert]').textContent()).toMatch(/not valid record@1: turn 8 \(turns\[7\]\.rot\)/);
    await page.getByTestId('record-text').fill('{"format": "record@1", "players": [');
    await page.getByTestId('import').click();
    await expect.poll(() => page.locator('[role=alert]').textContent()).toMatch(/not valid JSON/);
    await shot('6-games');
    const tower = loadRecord('g081-base-tower-2p.json');
    await page.getByTestId('record-text').fill(JSON.stringify(tower));
    await act('import', () => page.getByTestId('import').click());
    await page.getByTestId('tower-panel').waitFor();
    for (const [i, score] of tower.expect!.final!.entries()) expect(Number(await page.getByTestId(`total-${i}`).textContent())).toBe(score);
    await shot('7-tower-game');
  }, 60_000);

  it('answers WebSocket garbage and an unpaired client with clear errors, and keeps serving', async () => {
    const replies = await page.evaluate(async () => {
      const talk = (messages: string[]) =>
        new Promise<{ replies: unknown[]; code: number }>((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/`);
          const replies: unknown[] = [];
          ws.onopen = () => messages.forEach((m) => ws.send(m));
          ws.onmessage = (e) => {
            replies.push(JSON.parse(String(e.data)));
            if (replies.length === messages.length) ws.close();
          };
          ws.onclose = (e) => resolve({ replies, code: e.code });
        });
      const garbage = await talk(['nonsense', '{"id": "x"}', '[1,2,3]']);
      const unpaired = await talk([JSON.stringify({ id: 1, op: 'undo', args: [] })]);
      return { garbage, unpaired };
    });
    expect(replies.garbage.replies).toEqual([
      { id: null, ok: false, error: 'not valid JSON' },
      expect.objectContaining({ ok: false, error: expect.stringMatching(/^not a message/) }),
      expect.objectContaining({ ok: false, error: expect.stringMatching(/^not a message/) }),
    ]);
    expect(replies.unpaired.replies).toEqual([{ id: 1, ok: false, error: expect.stringMatching(/^not paired/) }]);
    expect(replies.unpaired.code).toBe(4401);
    // The page itself is still served and live.
    await page.locator('button[data-screen=play]').click();
    await page.getByTestId('board').waitFor();
  }, 30_000);
});

describe('a second screen over the LAN', () => {
  let lan: BrowserMode;
  beforeAll(async () => {
    lan = await startBrowserMode({ dataFile: join(mkdtempSync(join(tmpdir(), 'companion-lan-')), 'c.sqlite'), rendererDir: await ensureRendererBuilt(), lan: true });
    lan.session.importRecord(JSON.stringify(record));
  });
  afterAll(() => lan?.close());

  it('joins only after typing the code shown on the main screen, and enters moves only once the main screen allows it', async () => {
    const main = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await main.goto(lan.server.url);
    await main.locator('button[data-screen=games]').click();
    const code = (await main.getByTestId('pairing-code').textContent())!.trim();
    expect(code).toBe(lan.server.pairingCode);
    await main.screenshot({ path: join(SHOTS, '8-main-screen-pairing-code.png') });

    const tv = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await tv.goto(`http://localhost:${lan.server.port}/`);
    await tv.getByTestId('pairing').waitFor();
    await tv.getByLabel('pairing code').fill(code === '000000' ? '111111' : '000000');
    await tv.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => tv.locator('[role=alert]').textContent()).toBe('wrong pairing code');
    await tv.screenshot({ path: join(SHOTS, '9-second-screen-pairing.png') });
    await tv.getByLabel('pairing code').fill(code);
    await tv.getByRole('button', { name: 'Join' }).click();
    await tv.getByTestId('board').waitFor();
    expect(await tv.getByTestId('move-entry').count()).toBe(0);
    expect(Number(await tv.getByTestId('total-0').textContent())).toBe(record.expect!.final![0]);
    // Once the main screen allows second screens to enter moves, the entry shows there too (after
    // the next change of the game: here an undo of the final scoring, made on the main screen).
    await main.getByTestId('screen-moves').check();
    await main.locator('button[data-screen=log]').click();
    await main.getByTestId('undo').click();
    await tv.getByTestId('move-entry').waitFor();
    await main.locator('button[data-screen=games]').click();
    await tv.locator('button[data-screen=games]').click();
    expect(await tv.getByTestId('pairing-code').count()).toBe(0);
    await tv.close();
    await main.close();
  }, 60_000);
});

describe('the server going away', () => {
  it('tells the table, and the page comes back into the same game when browser mode runs again', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'companion-restart-')), 'c.sqlite');
    const rendererDir = await ensureRendererBuilt();
    let server = await startBrowserMode({ dataFile, rendererDir });
    server.session.importRecord(JSON.stringify(record));
    const port = server.server.port;
    const p = await browser.newPage();
    await p.goto(server.server.url);
    await p.getByTestId('board').waitFor();
    await server.close();
    await expect.poll(() => p.locator('[role=alert]').textContent()).toMatch(/Lost the connection/);
    // Waited for from before the server starts: the page reloads as soon as HTTP answers, which can
    // be before startBrowserMode has resolved (its frame socket's worker still starting).
    const reloaded = p.waitForEvent('load', { timeout: 20_000 });
    server = await startBrowserMode({ dataFile, rendererDir, port });
    try {
      await reloaded;
      await p.getByTestId('board').waitFor();
      expect(Number(await p.getByTestId('total-0').textContent())).toBe(record.expect!.final![0]);
    } finally {
      await p.close();
      await server.close();
    }
  }, 60_000);
});
