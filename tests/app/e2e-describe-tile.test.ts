/**
 * "Describe this tile…" in a real browser (Debian chromium) against browser mode: the services play
 * the bundled short recording, the table ticks "Ask about every tile" (as on a new table), the camera
 * asks about the first tile it reads, and the picker's *Describe this tile…* opens the tile editor on
 * the cell cut from the camera's picture. Screenshot: camera-describe.png.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { TileRecognizer } from '../../models/runner.js';
import { appearanceOf, appearanceSimilarity } from '../../models/appearance.js';
import { splitMjpeg } from '../../models/scene/recording.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import { ensureRendererBuilt } from '../../scripts/renderer-build.js';
import { launchChromium } from './helpers/browser.js';
import { enterUntilCamera, withoutImpliedDraws } from './helpers/camera-table.js';
import type { Command } from '../../engine/game/commands.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const SHOTS = join(import.meta.dirname, '../../test-output/screens');
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const setup = setupFromRecord(parsed.record);
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];
const truth = withoutImpliedDraws((JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[] }).commands);

let app: BrowserMode;
let browser: Browser;
let page: Page;
let dataFile: string;
let rendererDir: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rendererDir = await ensureRendererBuilt();
  dataFile = join(mkdtempSync(join(tmpdir(), 'companion-describe-e2e-')), 'c.sqlite');
  app = await startBrowserMode({ dataFile, rendererDir, recording: DIR, recordingSpeed: 4 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('describing a tile from the camera', () => {
  it('opens the tile editor on the cell in question, cut from the camera picture', async () => {
    // The game as recorded (the recording only plays into it).
    expect(app.session.newGame(setup).ok).toBe(true);
    await page.goto(app.server.url);
    await page.locator('button[data-screen=camera]').click();
    // A new table: the table asks to be asked about every tile (the camera learns from its answers).
    const ask = page.getByTestId('camera-ask-everything');
    expect(await ask.isChecked()).toBe(false);
    await ask.check();
    await expect.poll(() => app.camera.view().askEverything).toBe(true);
    const picker = page.getByTestId('picker');
    // The table enters what no camera sees up to the first tile (nothing: the tile laid is its draw); the held frames are read then.
    enterUntilCamera(truth, (c) => app.session.play(c));
    await picker.waitFor({ timeout: 60_000 });
    // The camera's picture is on screen and its grid lights the cell in question.
    await page.getByTestId('camera-image').waitFor();
    await expect.poll(() => page.locator('polygon.proposal').count()).toBe(1);
    const cell = await page.locator('polygon.proposal').getAttribute('data-cell');
    expect(cell).toMatch(/^-?\d+,-?\d+$/);

    // Let the recording play to its end first: later frames (the camera is bumped in this recording,
    // hands come and go) must not be what the cell is cut from.
    await expect.poll(() => app.camera.view().status, { timeout: 60_000 }).toBe('stopped');
    await page.getByTestId('describe-tile').click();
    const editor = page.getByTestId('tile-editor');
    await editor.waitFor();
    await expect.poll(() => page.getByTestId('crop').locator('figcaption').textContent()).toMatch(/camera crop/);
    // The crop is a picture of the tile in question (the picture on screen is the frame the camera
    // read it on): square, and the recognition model sees a tile in it, not the bare table.
    const src = await page.getByTestId('crop').locator('img').getAttribute('src');
    expect(src).toMatch(/^data:image\/jpeg;base64,/);
    const jpeg = new Uint8Array(Buffer.from(src!.split(',')[1]!, 'base64'));
    const meta = await sharp(jpeg).metadata();
    expect(meta.width).toBe(meta.height);
    expect(meta.width).toBeGreaterThanOrEqual(128);
    const recognizer = await TileRecognizer.load(undefined, 1);
    const reading = await recognizer.readOne(jpeg);
    expect(reading.present).toBeGreaterThan(0.5);
    // …and it is cut from the frame the question is about (the services replay the recording from its
    // start for the new game, so the proposal's frame number is the recording's): the same box cut
    // here from that frame matches it.
    const question = app.camera.view().proposals[0]!;
    const [cx, cy] = cell!.split(',').map(Number);
    const quad = app.camera.view().grid.find((g) => g.x === cx && g.y === cy)!.quad;
    const xs = quad.map((p) => p[0]), ys = quad.map((p) => p[1]);
    const pad = 0.1 * (Math.max(...xs) - Math.min(...xs));
    const box = { left: Math.round(Math.min(...xs) - pad), top: Math.round(Math.min(...ys) - pad) };
    const side = Math.round(Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) + 2 * pad);
    const small = async (img: Uint8Array, extract?: { left: number; top: number; width: number; height: number }) => {
      const p = extract ? sharp(img).extract(extract) : sharp(img);
      return new Uint8Array(await p.resize(64, 64, { fit: 'fill' }).removeAlpha().raw().toBuffer());
    };
    const expected = await small(frames[question.frame]!, { left: box.left, top: box.top, width: side, height: side });
    const shown = await small(jpeg);
    expect(appearanceSimilarity(appearanceOf(shown, 64), appearanceOf(expected, 64))!).toBeGreaterThan(0.9);
    await page.screenshot({ path: join(SHOTS, 'camera-describe.png') });

    // Closing the editor goes back with the question still open: nothing was committed or answered.
    const before = app.session.currentGame!.commands.length;
    await page.getByTestId('close-editor').click();
    await editor.waitFor({ state: 'detached' });
    expect(app.session.currentGame!.commands.length).toBe(before);
    expect(app.camera.view().proposals.length).toBe(1);

    // The choice outlives the app: restarted on the same data file, the camera screen shows it ticked.
    await app.close();
    app = await startBrowserMode({ dataFile, rendererDir, recording: DIR, recordingSpeed: 4 });
    expect(app.camera.view().askEverything).toBe(true);
    await page.goto(app.server.url);
    await page.locator('button[data-screen=camera]').click();
    await expect.poll(() => ask.isChecked()).toBe(true);

    // Back to asking only when unsure.
    await ask.uncheck();
    await expect.poll(() => app.camera.view().askEverything).toBe(false);
  }, 180_000);
});
