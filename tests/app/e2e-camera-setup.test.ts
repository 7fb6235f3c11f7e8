/**
 * The camera set-up in a real browser (Debian chromium's fake camera): the Camera screen lists the
 * screen's cameras and the frame sizes the camera offers (opened near 1920×1080 before any choice),
 * the table picks 1280×720 and the camera is opened again at that size (the services receive 1280×720 frames), chooses the A3 marker sheet and
 * saves the set-up as a profile; after a restart of the app the same camera, size, sheet and profile
 * are in use. A screenshot of the set-up goes to test-output/screens.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CAMERA_SIZE } from '../../electron/contract/camera-setup.js';
import { setupFromNewGame } from '../../electron/contract/setup.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import { ensureRendererBuilt } from '../../scripts/renderer-build.js';
import { launchChromium } from './helpers/browser.js';

const SHOTS = join(import.meta.dirname, '../../test-output/screens');
const dataFile = join(mkdtempSync(join(tmpdir(), 'companion-camera-setup-')), 'c.sqlite');
let app: BrowserMode | null = null;
let browser: Browser | null = null;

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The app on the shared data file, a fresh browser with the fake camera, the Camera screen open. */
async function openApp(): Promise<Page> {
  app = await startBrowserMode({ dataFile, rendererDir: await ensureRendererBuilt() });
  if (!app.session.currentGame) {
    const made = app.session.newGame(setupFromNewGame({ players: [{ name: 'Ann', color: 'red' }, { name: 'Bo', color: 'blue' }], expansions: ['base'] }));
    if (!made.ok) throw new Error(made.reason);
  }
  browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
  await page.goto(app.server.url);
  await page.locator('button[data-screen=camera]').click();
  await page.getByTestId('camera-setup').waitFor();
  return page;
}

async function closeApp(): Promise<void> {
  await browser?.close();
  await app?.close();
  browser = null;
  app = null;
}

/** The size of the newest frame the services received. */
const received = () => app!.camera.view().size;

describe('the camera set-up in the browser', () => {
  it('lists the camera and its sizes, reopens it at the size chosen, keeps sheet and profile, and all of it survives a restart', async () => {
    mkdirSync(SHOTS, { recursive: true });
    let page = await openApp();
    // The fake camera is live and listed; its sizes are offered up to its largest.
    await expect.poll(() => app!.camera.view().status).toBe('live');
    const device = page.getByTestId('camera-device');
    await expect.poll(() => device.locator('option').allTextContents()).toContain('fake_device_0');
    const sizes = await page.getByTestId('camera-resolution').locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    expect(sizes).toContain('640x480');
    expect(sizes).toContain('1280x720');

    // Opened, before the table chooses, near 1920×1080 (DEFAULT_CAMERA_SIZE), not at the browser's 640×480.
    await expect.poll(received, { timeout: 20_000 }).toEqual([...DEFAULT_CAMERA_SIZE]);
    await page.getByTestId('camera-resolution').selectOption('1280x720');
    await expect.poll(() => page.getByTestId('camera-size').textContent()).toContain('1280×720');
    await expect.poll(received, { timeout: 20_000 }).toEqual([1280, 720]);

    await page.getByTestId('camera-sheet').selectOption('a3-4x4-50mm');
    await expect.poll(() => app!.camera.markerSheetName).toBe('a3-4x4-50mm');
    await page.getByTestId('profile-name').fill('Kitchen table');
    await page.getByTestId('save-profile').click();
    await expect.poll(() => page.getByTestId('camera-setup').getAttribute('data-active')).toBe('Kitchen table');
    await page.getByTestId('camera-setup').screenshot({ path: join(SHOTS, 'camera-setup.png') });

    await closeApp();
    page = await openApp();
    // The next evening: the same camera at the same size, the same sheet, the profile in use.
    await expect.poll(() => page.getByTestId('camera-resolution').inputValue()).toBe('1280x720');
    await expect.poll(() => page.getByTestId('camera-device').inputValue()).toBe('fake_device_0');
    expect(await page.getByTestId('camera-sheet').inputValue()).toBe('a3-4x4-50mm');
    expect(await page.getByTestId('camera-setup').getAttribute('data-active')).toBe('Kitchen table');
    await expect.poll(() => page.getByTestId('camera-size').textContent()).toContain('1280×720');
    await expect.poll(received, { timeout: 20_000 }).toEqual([1280, 720]);
    expect(app!.camera.markerSheetName).toBe('a3-4x4-50mm');
  }, 120_000);
});
