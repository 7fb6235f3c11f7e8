/**
 * "Read a tile from a photo…" in a real browser (Debian chromium) against browser mode: in the tile
 * editor the table uploads a photo of one tile on a table; the services find it, straighten it and
 * read it with the committed model; the page shows the straightened tile beside the three best
 * readings, drawn by the project's renderer. A photo with no tile says why it is not read. Taking a
 * reading puts the straightened tile in the editor as its photo. With the table's own pictures of its
 * tiles stored, a photo is read against them, a 2025 tile the model never learnt included.
 * Screenshots go to test-output/screens.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { realFacesByTile } from '../../models/eval/realart.js';
import { makePhoto } from '../../models/photo/synthetic.js';
import { TRAIN_STYLES } from '../../models/render/styles.js';
import { renderFaces } from '../../models/synth/world.js';
import { cellPicture } from '../track/helpers/cell-picture.js';
import { openApp, type OpenApp, SHOTS } from './helpers/browser.js';

const PHOTOS = join(import.meta.dirname, '../fixtures/photos');
let app: BrowserMode;
let browser: Browser;
let page: Page;
let opened: OpenApp | undefined;

beforeAll(async () => {
  opened = await openApp('e2e-photo', { viewport: { width: 1400, height: 1100 }, timeout: 30_000 });
  ({ app, browser, page } = opened);
}, 120_000);

afterAll(() => opened?.close());

describe('reading a tile from a photo in the tile editor', () => {
  it('uploads a photo: the straightened tile beside the three best readings, drawn; a photo without a tile is not read, with the reason', async () => {
    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    await page.locator('button[data-screen=games]').click();
    const list = page.getByTestId('tiles-to-confirm');
    await list.locator('li[data-tile] button').first().click();
    const editor = page.getByTestId('tile-editor');
    await editor.waitFor();
    const reader = editor.getByTestId('photo-reader');

    await reader.getByTestId('read-photo').click();
    await reader.getByTestId('photo-reader-file').setInputFiles(join(PHOTOS, 'base-d.jpg'));
    const result = reader.getByTestId('photo-reader-result');
    await result.waitFor();
    const best = result.getByTestId('photo-reading-0');
    expect(await best.getAttribute('data-tile')).toBe('BASE_D');
    expect(await best.getAttribute('data-rotation')).toBe('180');
    expect(await result.locator('li[data-tile]').count()).toBe(3);
    // Each reading is drawn by the project's renderer (an SVG with its road), turned as read.
    expect(await best.locator('svg').count()).toBe(1);
    expect(await best.locator('polyline').count()).toBeGreaterThan(0);
    expect(await best.locator('.tile').getAttribute('style')).toContain('rotate(180deg)');
    // The straightened tile is a real picture: the browser decoded it at its size.
    const crop = result.getByTestId('photo-reader-crop');
    await expect.poll(() => crop.evaluate((el) => { const img = el as unknown as { complete: boolean; naturalWidth: number }; return img.complete && img.naturalWidth; })).toBe(256);
    expect(await best.textContent()).toMatch(/BASE_D turned 180° · \d+ %/);
    await page.screenshot({ path: join(SHOTS, 'photo-reader-1-read.png') });

    // Taking the reading: the straightened tile becomes the editor's photo.
    await best.getByTestId('photo-pick-0').click();
    const src = await editor.locator('[data-testid=crop] img').getAttribute('src');
    expect(src).toBe(`data:image/png;base64,${await crop.evaluate((el) => (el as unknown as { src: string }).src.split(',')[1])}`);

    await reader.getByTestId('photo-reader-file').setInputFiles(join(PHOTOS, 'no-tile.jpg'));
    const notRead = reader.getByTestId('photo-reader-not-read');
    await notRead.waitFor();
    expect(await notRead.textContent()).toMatch(/^not read: no tile found \(.+\)$/);
    expect(await reader.getByTestId('photo-reader-result').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'photo-reader-2-not-read.png') });

    // A second-edition garden the model alone takes for its twin; once the table has pictures of its
    // own tiles (here it taught both twins), the photo is read against them and the page says so.
    const readAs = async (file: string) => {
      await reader.getByTestId('photo-reader-file').setInputFiles(resolve(PHOTOS, file));
      await expect.poll(async () => (await reader.getByTestId('photo-reader-result').count()) > 0 && (await reader.getByTestId('photo-read-as').textContent())).toBeTruthy();
      return { tile: await best.getAttribute('data-tile'), rotation: await best.getAttribute('data-rotation'), said: (await reader.getByTestId('photo-read-as').textContent())! };
    };
    const alone = await readAs('base-v-g.jpg');
    expect(alone.tile).toBe('BASE_V');
    expect(alone.said).not.toContain('own pictures');
    const faces = await realFacesByTile(['BASE_V', 'BASE_V_G']);
    for (const id of ['BASE_V', 'BASE_V_G']) {
      const png = await sharp(cellPicture(faces.get(id)!, 0, 256), { raw: { width: 256, height: 256, channels: 3 } }).png().toBuffer();
      app.store.addExemplar({ tileId: id, rot: 0, source: 'camera: the table picked it', image: png, mime: 'image/png' });
    }
    await reader.getByTestId('photo-reader-file').setInputFiles(join(PHOTOS, 'no-tile.jpg'));
    await notRead.waitFor();
    const taught = await readAs('base-v-g.jpg');
    expect([taught.tile, taught.rotation]).toEqual(['BASE_V_G', '180']);
    expect(taught.said).toMatch(/against the table's own pictures of 2 of them/);
    await page.screenshot({ path: join(SHOTS, 'photo-reader-3-own-pictures.png') });

    // A Siege & Defense tile the model never learnt: the page says how many of those tiles the table
    // has pictured; once the table has a picture of it, the photo is read as it, and taking the
    // reading opens that tile in the editor.
    const corner = TileCatalog.standard().get('SD-L-CORNER')!;
    const [inPhoto, inPicture] = await renderFaces([corner], TRAIN_STYLES, [101, 102]);
    const shot = await makePhoto({ face: inPhoto!.image, seed: 5, size: 0.5, rollDeg: 0, tiltDeg: 5, handProb: 0 });
    const shotFile = join(mkdtempSync(join(tmpdir(), 'e2e-photo-2025-')), 'sd-l-corner.jpg');
    writeFileSync(shotFile, shot.bytes);
    await reader.getByTestId('photo-reader-file').setInputFiles(join(PHOTOS, 'no-tile.jpg'));
    await notRead.waitFor();
    const unpictured = await readAs(shotFile);
    expect(unpictured.tile).not.toBe('SD-L-CORNER');
    expect(await reader.getByTestId('photo-pictured-only').textContent()).toMatch(/^Jousts & Crests and Siege & Defense: .* Pictured: 0 of their \d+ tiles/);
    // The 2025 tiles not pictured with the reading's edges are shown: the tile in the photo among them.
    const lookAlikes = reader.getByTestId('photo-look-alikes');
    expect(await lookAlikes.locator('li[data-tile=SD-L-CORNER]').count()).toBe(1);
    expect(await lookAlikes.locator('li[data-tile=SD-L-CORNER] svg').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'photo-reader-4-2025-look-alike.png') });
    // "Describe it" opens that tile in the editor with the straightened photo.
    const select = editor.locator('select[name=tile]');
    const first = await select.inputValue();
    expect(first).not.toBe('SD-L-CORNER');
    await lookAlikes.getByTestId('photo-look-alike-SD-L-CORNER').click();
    expect(await select.inputValue()).toBe('SD-L-CORNER');
    expect(await editor.locator('[data-testid=crop] img').getAttribute('src')).toBe(`data:image/png;base64,${await crop.evaluate((el) => (el as unknown as { src: string }).src.split(',')[1])}`);
    await select.selectOption(first);
    const png = await sharp(cellPicture(inPicture!.image, 0, 256), { raw: { width: 256, height: 256, channels: 3 } }).png().toBuffer();
    app.store.addExemplar({ tileId: 'SD-L-CORNER', rot: 0, source: 'editor:photo', image: png, mime: 'image/png' });
    await reader.getByTestId('photo-reader-file').setInputFiles(join(PHOTOS, 'no-tile.jpg'));
    await notRead.waitFor();
    const pictured = await readAs(shotFile);
    expect([pictured.tile, pictured.rotation]).toEqual(['SD-L-CORNER', '0']);
    expect(await reader.getByTestId('photo-pictured-only').textContent()).toMatch(/ Pictured: 1 of their \d+ tiles/);
    expect(pictured.said).toMatch(/, and as the 2025 tile the table has pictured;/);
    await page.screenshot({ path: join(SHOTS, 'photo-reader-5-2025-tile.png') });
    expect(await reader.getByTestId('photo-look-alikes').locator('li[data-tile=SD-L-CORNER]').count()).toBe(0);
    await best.getByTestId('photo-pick-0').click();
    expect(await select.inputValue()).toBe('SD-L-CORNER');
    // The services load the model on the first photo: seconds on a quiet machine, more on a shared one.
  }, 180_000);
});
