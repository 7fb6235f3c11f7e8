/**
 * "Read a tile from a photo…" in a real browser (Debian chromium) against browser mode: in the tile
 * editor the table uploads a photo of one tile on a table; the services find it, straighten it and
 * read it with the committed model; the page shows the straightened tile beside the three best
 * readings, drawn by the project's renderer. A photo with no tile says why it is not read. Taking a
 * reading puts the straightened tile in the editor as its photo. Screenshots go to test-output/screens.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
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
    // The services load the model on the first photo: seconds on a quiet machine, more on a shared one.
  }, 180_000);
});
