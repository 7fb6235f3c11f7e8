/**
 * "Picture the board now" in a real browser (Debian chromium) against browser mode: the services play
 * the bundled short recording and the game is played to its end (the camera reads, the table answers
 * and enters the rest), so the camera's last picture shows the board between turns. The camera screen says how many of the
 * game's tile types are read by this table's own art; the table asks for a picture of the board,
 * and the count on screen becomes the number of types on the board. Screenshot: camera-table-art.png.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { BOARD_PICTURE_SOURCE } from '../../electron/services/tiles/enrolled.js';
import { openApp, type OpenApp, SHOTS } from './helpers/browser.js';
import { nextStep, withoutImpliedDraws } from './helpers/camera-table.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const setup = setupFromRecord(parsed.record);
const truth = withoutImpliedDraws((JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[] }).commands);

let app: BrowserMode;
let browser: Browser;
let page: Page;
let opened: OpenApp | undefined;

beforeAll(async () => {
  opened = await openApp('art-e2e', { recording: DIR, recordingSpeed: 4, viewport: { width: 1400, height: 1000 }, timeout: 20_000 });
  ({ app, browser, page } = opened);
}, 120_000);

afterAll(() => opened?.close());

describe('the table’s art on the camera screen', () => {
  it('counts the pictured tile types, and pictures the board when the table asks between turns', async () => {
    expect(app.session.newGame(setup).ok).toBe(true);
    await page.goto(app.server.url);
    await page.locator('button[data-screen=camera]').click();
    const art = page.getByTestId('camera-art');
    await art.waitFor();
    const types = app.camera.view().art.types;
    expect(types).toBeGreaterThan(10);
    expect(await art.textContent()).toMatch(new RegExp(`This table’s art: 0 of ${types} tile types pictured`));
    // Nothing to picture from before the camera reads the game.
    expect(await page.getByTestId('camera-picture-board').isDisabled()).toBe(true);

    // The recorded game is played: the camera reads what it can, the table answers its questions
    // from the ground truth and enters the rest, to the end of the recording (between turns).
    for (let guard = 0; ; guard++) {
      expect(guard).toBeLessThan(500);
      await app.camera.settled();
      const v = app.camera.view();
      const history = app.session.currentGame!.commands;
      const mayRead = v.frames.queued > 0 || v.status !== 'stopped';
      const step = nextStep(truth, { history, open: v.proposals.map((q) => ({ id: q.id, readings: q.readings.map((r) => r.command) })), cameraMayRead: mayRead });
      if (step.do === 'done') break;
      if (step.do === 'wait') await new Promise((r) => setTimeout(r, 50));
      else if (step.do === 'undo') throw new Error(`the camera committed a wrong move: ${JSON.stringify(step.wrong)}`);
      else if (step.do === 'reject') expect(app.camera.answer(step.id, 'reject').ok).toBe(true);
      else if (step.do === 'answer') expect(app.camera.answer(step.id, step.answer).ok).toBe(true);
      else expect(app.session.play(step.command).ok).toBe(true);
    }
    expect(app.session.currentGame!.commands).toEqual(truth);
    // Its tiles are some 44 px across: large enough, nothing said.
    expect(app.camera.view().grid.length).toBeGreaterThan(0);
    expect(await page.getByTestId('camera-small-cells').count()).toBe(0);
    expect(app.camera.view().proposals).toEqual([]);
    const button = page.getByTestId('camera-picture-board');
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();

    const state = app.session.currentGame!.state;
    const floored = (t: { x: number; y: number }) => [...state.towers.values()].some((w) => w.x === t.x && w.y === t.y && w.height > 0);
    const onBoard = new Set(state.board.tiles.filter((t) => !floored(t)).map((t) => t.view.tile.id));
    await expect.poll(() => page.getByTestId('camera-art-pictured').textContent(), { timeout: 30_000 }).toBe(String(onBoard.size));
    expect(new Set(app.store.exemplars().filter((e) => e.source === BOARD_PICTURE_SOURCE).map((e) => e.tileId))).toEqual(onBoard);
    await expect.poll(() => page.getByTestId('camera-notices').textContent()).toMatch(new RegExp(`pictured ${onBoard.size} tile types from the board`));
    // All pictured: the button is off and the screen says why.
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByTestId('camera-picture-why').textContent()).toBe('Picture the board: every tile type on the board is pictured already.');
    await page.screenshot({ path: join(SHOTS, 'camera-table-art.png') });
  }, 180_000);
});
