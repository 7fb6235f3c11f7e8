/**
 * Calibrating without the marker sheet, in a real browser (Debian chromium) against browser mode: the
 * table clicks *No marker sheet: click the start piece's corners*, then the four corners of the start
 * piece (this recording's tournament tile) on the camera's picture; the services make the tracker
 * again from the clicks, look for no markers, and read the table's tiles on the grid the clicks gave.
 * Then the same without clicks: *Find the start piece* finds it on the picture, shows it, and the
 * table takes it. Screenshots: camera-corners.png, camera-found.png.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { openApp, type OpenApp, SHOTS } from './helpers/browser.js';
import { enterUntilCamera, isCameraMove, withoutImpliedDraws } from './helpers/camera-table.js';
import { sameMove } from '../../models/track/replay.js';
import { clickedStartPiece } from '../track/helpers/clicked-corners.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const setup = setupFromRecord(parsed.record);
const manifest = { commands: withoutImpliedDraws((JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[] }).commands) };

let app: BrowserMode;
let browser: Browser;
let page: Page;
let opened: OpenApp | undefined;

beforeAll(async () => {
  opened = await openApp('corners-e2e', { recording: DIR, recordingSpeed: 4, viewport: { width: 1400, height: 1000 }, timeout: 20_000 });
  ({ app, browser, page } = opened);
}, 120_000);

afterAll(() => opened?.close());

/** The first tile the camera can read: committed by it, or asked about with the right tile first. */
function firstTileRead(): boolean {
  const v = app.camera.view();
  const asked = v.proposals[0]?.readings[0]?.command;
  return v.counts.committed > 0 || (asked !== undefined && sameMove(asked, manifest.commands.find(isCameraMove)!));
}

describe('calibrating by clicking the start piece', () => {
  it('takes four clicks on the picture, then reads the table on the grid they give', async () => {
    expect(app.session.newGame(setup).ok).toBe(true);
    await page.goto(app.server.url);
    await page.locator('button[data-screen=camera]').click();
    await page.getByTestId('camera-image').waitFor({ timeout: 60_000 });
    const size = app.camera.view().size ?? [640, 480];

    await page.getByTestId('calibrate-by-corners').click();
    await expect.poll(() => page.getByTestId('corner-hint').textContent()).toMatch(/north-west corner/);
    const corners = await clickedStartPiece(DIR);
    const box = (await page.getByTestId('camera-overlay').boundingBox())!;
    for (const [i, [x, y]] of corners.entries()) {
      await page.mouse.click(box.x + (x * box.width) / size[0]!, box.y + (y * box.height) / size[1]!);
      if (i < 3) await page.getByTestId(`clicked-corner-${i}`).waitFor();
    }
    // The clicks reach the services in the picture's pixels (within the screen's rounding).
    await expect.poll(() => app.camera.view().startPieceCorners?.length ?? 0).toBe(4);
    app.camera.view().startPieceCorners!.forEach(([x, y], i) => {
      expect(Math.abs(x - corners[i]![0])).toBeLessThan(1.5);
      expect(Math.abs(y - corners[i]![1])).toBeLessThan(1.5);
    });
    await page.getByTestId('start-piece-corners').waitFor();

    // The camera reads from the game's first moment (the tile laid is its draw), and short-s5 shows the
    // marker sheet: it may have read on the sheet's grid while the table clicked (how far depends on
    // how fast the tracker loaded). The game set up again (the recording plays from its start) is read
    // on the clicked corners from its first frame.
    expect(app.session.newGame(setup).ok).toBe(true);
    // The table enters what no camera sees up to the first tile (nothing: the tile laid is its draw); the camera reads on.
    enterUntilCamera(manifest.commands, (c) => app.session.play(c));
    await expect.poll(() => app.camera.view().calibratedFrom, { timeout: 60_000 }).toBe('start piece corners');
    await expect.poll(() => page.getByTestId('camera-status').textContent()).toMatch(/grid found from the start piece’s corners/);
    // A tile read on the clicked grid: committed by the camera, or asked about with the right tile first.
    await expect.poll(firstTileRead, { timeout: 60_000 }).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'camera-corners.png') });
    // Back to the marker sheet: the clicked outline goes.
    await page.getByTestId('calibrate-by-markers').click();
    await expect.poll(() => app.camera.view().startPieceCorners).toBe(null);
    await page.getByTestId('start-piece-corners').waitFor({ state: 'detached' });
  }, 180_000);

  it('finds the start piece itself when asked, shows it, and reads the table on its corners once the table takes them', async () => {
    // Another game set up as recorded: the recording plays again from its start.
    expect(app.session.newGame(setup).ok).toBe(true);
    await expect.poll(() => app.camera.view().frames.received, { timeout: 60_000 }).toBeGreaterThan(0);
    expect(app.camera.view().startPieceCorners).toBe(null);
    await page.getByTestId('find-start-piece').click();
    await page.getByTestId('found-hint').waitFor({ timeout: 60_000 });
    await page.getByTestId('start-piece-found').waitFor();
    const found = app.camera.view().startPieceFound;
    if (!found || found === 'looking') throw new Error(`nothing found: ${JSON.stringify(app.camera.view().notices)}`);
    // Where the table would click, within a tenth of a cell; nothing is used until the table says so.
    const truth = await clickedStartPiece(DIR);
    found.corners.forEach(([x, y], i) => expect(Math.hypot(x - truth[i]![0], y - truth[i]![1]), `corner ${i}`).toBeLessThan(5));
    expect(app.camera.view().startPieceCorners).toBe(null);
    await page.screenshot({ path: join(SHOTS, 'camera-found.png') });
    await page.getByTestId('use-found').click();
    await expect.poll(() => app.camera.view().startPieceCorners).toEqual(found.corners);
    await page.getByTestId('start-piece-found').waitFor({ state: 'detached' });
    // The camera reads from the game's first moment (the tile laid is its draw), and short-s5 shows the
    // marker sheet: it may have read on the sheet's grid while the table looked. The game set up again
    // (the recording plays from its start) is read on the found corners from its first frame.
    expect(app.session.newGame(setup).ok).toBe(true);
    enterUntilCamera(manifest.commands, (c) => app.session.play(c));
    await expect.poll(() => app.camera.view().calibratedFrom, { timeout: 60_000 }).toBe('start piece corners');
    await expect.poll(firstTileRead, { timeout: 60_000 }).toBe(true);
  }, 180_000);

  it('corners in a line: a clear refusal, the corners in use left as they were', () => {
    const before = app.camera.view().startPieceCorners;
    const refused = app.camera.startPieceCorners([[10, 10], [100, 10], [200, 10], [300, 10]]);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toMatch(/the start piece's corners: .*convex quadrilateral/);
    expect(app.camera.view().startPieceCorners).toEqual(before);
  });
});
