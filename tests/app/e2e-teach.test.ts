/**
 * Teaching the camera a table's tiles in a real browser (issue 30): Debian chromium's fake camera
 * plays the bundled teach recording (tests/fixtures/teach: two still frames of second-edition scans
 * on a table, the second with three tiles laid since; made by scripts/make-teach-recording.ts), the
 * page sends its frames to browser mode, and the teach panel shows a card per tile. The test is the
 * table: from New Game (the coverage line offers teaching), it accepts the sure cards, corrects one
 * card with the picker and one by a search by name, unplugs the camera mid-teach (nothing is lost),
 * accepts the rest with the keyboard, then restarts the app: the taught tiles are listed under Games,
 * and a printed game recording (second-edition scans, tests/fixtures/recordings/printed-c2-s7604) is
 * read to its end with them: every tile of a taught type read by the camera, the others left to the
 * table (the drawings are not this table's art). Screenshot of the cards: test-output/screens/teach-cards.png.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import { splitMjpeg } from '../../models/scene/recording.js';
import { startBrowserMode, type BrowserMode } from '../../electron/server/browser-mode.js';
import type { TeachCardView } from '../../electron/contract/teach.js';
import { ensureRendererBuilt } from '../../scripts/renderer-build.js';
import { launchChromium } from './helpers/browser.js';
import { nextStep, withoutImpliedDraws } from './helpers/camera-table.js';

const TEACH = join(import.meta.dirname, '../fixtures/teach');
/** A printed game: 12 turns of the base game drawn from the second-edition scans, as the teach's tiles. */
const GAME = join(import.meta.dirname, '../fixtures/recordings/printed-c2-s7604');
const SHOTS = join(import.meta.dirname, '../../test-output/screens');
/** Each teach frame repeated: Chromium plays the file at 30 fps and loops it. */
const PACE = 15;
const truth = JSON.parse(readFileSync(join(TEACH, 'truth.json'), 'utf8')) as { frames: { tile: string; corners: [number, number][] }[][] };
const tiles = truth.frames.at(-1)!;
const parsed = parseRecord(JSON.parse(readFileSync(join(GAME, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const gameSetup = setupFromRecord(parsed.record);
// The table's truth: the tile laid is its own draw, so the draws the placements imply are not entered.
const gameTruth = withoutImpliedDraws((JSON.parse(readFileSync(join(GAME, 'manifest.json'), 'utf8')) as { commands: Command[] }).commands);

let app: BrowserMode;
let browser: Browser;
let page: Page;
let dataFile: string;
let rendererDir: string;
let paced: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rendererDir = await ensureRendererBuilt();
  const tmp = mkdtempSync(join(tmpdir(), 'companion-teach-e2e-'));
  dataFile = join(tmp, 'c.sqlite');
  paced = join(tmp, 'teach.mjpeg');
  const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(TEACH, 'video.mjpeg'))))];
  writeFileSync(paced, Buffer.concat(frames.flatMap((f) => Array<Buffer>(PACE).fill(Buffer.from(f)))));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const centre = (q: readonly (readonly number[])[]) => [q.reduce((a, p) => a + p[0]!, 0) / 4, q.reduce((a, p) => a + p[1]!, 0) / 4];
/** The tile that truly lies under a card. */
function truthOf(c: TeachCardView): string {
  const [x, y] = centre(c.corners);
  const t = tiles.find((t) => { const [tx, ty] = centre(t.corners); return Math.hypot(tx! - x!, ty! - y!) < 40; });
  if (!t) throw new Error(`card ${c.id} lies on no tile of the recording`);
  return t.tile;
}
const cards = () => app.teach.view().cards;
const card = (id: number) => page.locator(`[data-testid=teach-card][data-card="${id}"]`);
/** The table selects a card (a click) and presses a key on the card list. */
async function press(c: TeachCardView, key: string): Promise<void> {
  await card(c.id).click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(key);
}
const answered = (id: number) => expect.poll(() => cards().find((c) => c.id === id)?.state).toBe('accepted');

describe('teaching the camera a table’s tiles in the browser', () => {
  it('teaches from the fake camera, corrects by the picker and by name, loses nothing when unplugged; the pictures outlive a restart and the tracker reads by them', async () => {
    const started = Date.now();
    app = await startBrowserMode({ dataFile, rendererDir, recording: null });
    browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${paced}`]);
    page = await browser.newPage({ viewport: { width: 1500, height: 1100 } });
    page.setDefaultTimeout(20_000);
    await page.goto(app.server.url);

    // New Game: the camera knows none of the base game's art yet, and offers to learn it.
    const coverage = page.getByTestId('new-game').getByTestId('coverage');
    await expect.poll(() => coverage.getAttribute('data-taught')).toBe('0');
    expect(await coverage.textContent()).toMatch(/0 taught, 0 pictured from an earlier board, \d+ unknown/);
    // Dispatched: a click waits for navigations the page might schedule, and on a starved CI machine
    // that wait once outlasted the timeout (the teach panel opens without any navigation).
    await coverage.getByTestId('coverage-teach').dispatchEvent('click');
    await page.getByTestId('teach-status').waitFor();
    await expect.poll(() => app.camera.view().source).toBe('browser');

    // Both frames read: one card per tile, the three laid since added (about 5 s idle, the model and
    // OpenCV loaded first; generous for a loaded CI machine).
    await expect
      .poll(() => cards().length, { timeout: 90_000 })
      .toBe(tiles.length)
      .catch((e: Error) => {
        const v = app.teach.view();
        throw new Error(`${e.message}; teach frames ${JSON.stringify(v.frames)}, reading ${v.reading}, notices ${JSON.stringify(v.notices)}; camera ${JSON.stringify(app.camera.view().frames)} ${app.camera.view().status}`);
      });
    await expect.poll(() => page.getByTestId('teach-card').count()).toBe(tiles.length);
    expect(new Set(cards().map(truthOf))).toEqual(new Set(tiles.map((t) => t.tile)));
    await expect.poll(() => page.locator('[data-testid=teach-card] img').count()).toBe(tiles.length);
    await page.getByTestId('teach-panel').screenshot({ path: join(SHOTS, 'teach-cards.png') });

    // A: every sure card accepted; each is right.
    await page.getByTestId('teach-cards').focus();
    await page.keyboard.press('a');
    await expect.poll(() => cards().filter((c) => c.state === 'accepted').length).toBeGreaterThan(0);
    for (const c of cards().filter((c) => c.state === 'accepted')) expect(c.answer!.tileId).toBe(truthOf(c));

    // The picker: a card read wrong first, the truth among its top 3, picked by its number key.
    const wrongFirst = cards().find((c) => c.state === 'open' && c.readings[0]!.tileId !== truthOf(c) && c.readings.some((r) => r.tileId === truthOf(c)))!;
    expect(wrongFirst, 'a card read wrong first, right in its top 3').toBeDefined();
    await press(wrongFirst, String(wrongFirst.readings.findIndex((r) => r.tileId === truthOf(wrongFirst)) + 1));
    await answered(wrongFirst.id);

    // The camera unplugged mid-teach: the panel says so; the cards and what was taught stay.
    await app.teach.settled(); // answers are stored just after they are taken
    const taughtBefore = app.store.taughtTiles().length;
    expect(taughtBefore).toBe(cards().filter((c) => c.state === 'accepted').length);
    await page.evaluate(`(() => {
      const track = document.querySelector('[data-testid=camera-video]').srcObject.getVideoTracks()[0];
      track.stop();
      track.dispatchEvent(new Event('ended'));
    })()`);
    await page.getByTestId('teach-camera-message').waitFor();
    expect(await page.getByTestId('teach-status').getAttribute('data-camera')).toBe('unplugged');
    expect(cards()).toHaveLength(tiles.length);
    expect(app.store.taughtTiles()).toHaveLength(taughtBefore);

    // By name: N, a search, the match clicked (at the turn of the card's first reading).
    const byName = cards().find((c) => c.state === 'open' && c.readings[0]!.tileId === truthOf(c))!;
    await press(byName, 'n');
    await page.getByTestId('teach-search').fill(truthOf(byName));
    await page.locator(`[data-testid=teach-match][data-tile="${truthOf(byName)}"]`).click();
    await answered(byName.id);
    expect(cards().find((c) => c.id === byName.id)!.answer).toMatchObject({ tileId: truthOf(byName), how: 'named by the table' });

    // The rest: Enter where the best reading is right, the number of the right one otherwise.
    for (const c of cards().filter((c) => c.state === 'open')) {
      const k = c.readings.findIndex((r) => r.tileId === truthOf(c));
      expect(k, `card ${c.id} (${truthOf(c)}): ${c.why ?? c.readings.map((r) => r.tileId).join(', ')}`).toBeGreaterThanOrEqual(0);
      await press(c, k === 0 ? 'Enter' : String(k + 1));
      await answered(c.id);
    }
    await app.teach.settled();
    const taught = new Map(cards().map((c) => [c.answer!.tileId, truthOf(c)]));
    for (const [said, is] of taught) expect(said).toBe(is);
    expect(new Set(app.store.taughtTiles().map((t) => t.tileId))).toEqual(new Set(tiles.map((t) => t.tile)));
    await expect.poll(() => page.getByTestId('teach-coverage').textContent()).toMatch(new RegExp(`${tiles.length} taught`));
    // What to lay next, drawn: every type still unknown to the camera, none of those just taught.
    const unknownList = page.getByTestId('teach-unknown');
    const unknownCount = app.teach.view().coverage!.unknown;
    await expect.poll(() => unknownList.getAttribute('data-count')).toBe(String(unknownCount));
    expect(await unknownList.locator('li[data-tile] svg').count()).toBe(unknownCount);
    for (const t of tiles) expect(await unknownList.locator(`li[data-tile="${t.tile}"]`).count()).toBe(0);
    await unknownList.locator('summary').click();
    await unknownList.screenshot({ path: join(SHOTS, 'teach-unknown.png') });
    console.log(`teach e2e: ${tiles.length} tiles taught in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Restart: a new app on the same database; the tiles are listed under Games.
    await browser.close();
    await app.close();
    app = await startBrowserMode({ dataFile, rendererDir, recording: GAME, recordingSpeed: 4 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1500, height: 1100 } });
    page.setDefaultTimeout(20_000);
    await page.goto(app.server.url);
    await page.locator('button[data-screen=games]').click();
    await expect.poll(() => page.getByTestId('taught-type').count()).toBe(tiles.length);
    expect(new Set(await page.getByTestId('taught-type').evaluateAll((els) => els.map((e) => e.getAttribute('data-tile'))))).toEqual(new Set(tiles.map((t) => t.tile)));

    // The printed game read to its end: the tracker reads the taught types' tiles by their pictures.
    // The table (the recording's truth) enters what the camera leaves to it and answers its questions.
    expect(app.session.newGame(gameSetup).ok).toBe(true);
    const gameTypes = new Set(app.session.currentGame!.state.supply.keys());
    const inGame = tiles.filter((t) => gameTypes.has(t.tile)).length;
    expect(inGame).toBeGreaterThan(4);
    await page.locator('button[data-screen=camera]').click();
    const history = () => app.session.currentGame!.commands;
    /** Indexes in the game's commands of the moves the table entered or chose from a question. */
    const byTable = new Set<number>();
    const byTableAction = (act: () => { ok: boolean }) => {
      const before = history().length;
      expect(act().ok).toBe(true);
      for (let i = before; i < history().length; i++) byTable.add(i);
    };
    const deadline = Date.now() + 120_000;
    for (;;) {
      expect(Date.now(), `the game read to command ${history().length} of ${gameTruth.length}`).toBeLessThan(deadline);
      await app.camera.settled();
      const v = app.camera.view();
      // The camera reads the figure on a new tile once the table ends the turn (figureWaits).
      const mayRead = v.reading && (v.frames.queued > 0 || v.status !== 'stopped');
      const step = nextStep(gameTruth, { history: history(), open: v.proposals.map((q) => ({ id: q.id, readings: q.readings.map((r) => r.command) })), cameraMayRead: mayRead, figureWaits: v.figureWaits });
      if (step.do === 'done') break;
      if (step.do === 'wait') await new Promise((r) => setTimeout(r, 50));
      else if (step.do === 'undo') throw new Error(`the camera committed a wrong move: ${JSON.stringify(step.wrong)}`);
      else if (step.do === 'reject') expect(app.camera.answer(step.id, 'reject').ok).toBe(true);
      else if (step.do === 'answer') byTableAction(() => app.camera.answer(step.id, step.answer));
      else byTableAction(() => app.session.play(step.command));
    }
    const taughtIds = new Set(tiles.map((t) => t.tile));
    const laid = history().flatMap((c, i) => (c.type === 'placeTile' ? [{ tile: c.tile, camera: !byTable.has(i) }] : []));
    const taughtLaid = laid.filter((l) => taughtIds.has(l.tile));
    // Every tile of a taught type read by the camera alone; of the others (drawn templates only, not
    // this table's art) none: they are the table's.
    expect(taughtLaid.length).toBeGreaterThanOrEqual(6);
    expect(taughtLaid.filter((l) => !l.camera).map((l) => l.tile)).toEqual([]);
    expect(laid.filter((l) => !taughtIds.has(l.tile) && l.camera).map((l) => l.tile)).toEqual([]);
    // The taught types are this table's art for the tracker (its templates from the taught pictures).
    expect(app.camera.view().art.pictured).toBe(inGame);
    await expect.poll(() => page.getByTestId('camera-art-pictured').textContent()).toBe(String(inGame));
    // The coverage line counts them for the game's edition and expansions.
    const cov = app.teach.coverageOf(null);
    if (!cov.ok) throw new Error(cov.reason);
    expect(cov.value.taught).toBe(inGame);
    await expect.poll(() => page.getByTestId('coverage').getAttribute('data-taught')).toBe(String(inGame));
    console.log(`teach e2e: done in ${((Date.now() - started) / 1000).toFixed(1)} s; the printed game read to its end (${history().length} commands): ${taughtLaid.filter((l) => l.camera).length} of ${taughtLaid.length} tiles of taught types read by the camera, ${laid.length - taughtLaid.length} others laid in by the table; camera ${JSON.stringify(app.camera.view().counts)}`);
  }, 180_000);
});
