/**
 * A camera question answered with a photo, in a real browser (Debian chromium) against browser mode:
 * the services play the bundled short recording with "ask about every tile" on; at the first tile
 * question whose readings are all wrong (made so: what a photo is for), the table reads a tile from a
 * photo in the camera's picker (read among the tiles that may lie at the lit cell), says "It is this
 * tile", and picks the way it lies among the turns that fit the cell, drawn and brought into view.
 * The tile is laid as the table named it, the question closes, and the camera's picture of the cell
 * is enrolled as that tile. At the next such question the table names the tile without a photo:
 * "Another tile…" draws every tile that may lie at the lit cell, the camera's likeliest first, and
 * the turns the camera's likeliest first; a figure question is answered with "Another spot…"; and a
 * phone paired as a second screen, once the main screen allows moves, answers a tile question in its
 * own picker, by name and then with a photo uploaded from it. Screenshots: camera-photo-answer-*.png.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import type { Command, PlaceMeeple, PlaceTile } from '../../engine/game/commands.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { placements } from '../../electron/services/session/entry.js';
import { meepleSpots } from '../../electron/services/session/view.js';
import { makePhoto } from '../../models/photo/synthetic.js';
import { TRAIN_STYLES } from '../../models/render/styles.js';
import { renderFaces } from '../../models/synth/world.js';
import { openApp, type OpenApp, SHOTS } from './helpers/browser.js';
import { nextStep, withoutImpliedDraws } from './helpers/camera-table.js';
import { sameMove } from '../../models/track/same-move.js';

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
  opened = await openApp('photo-answer', { recording: DIR, recordingSpeed: 4, cameraCommitAt: 1.01, lan: true, viewport: { width: 1400, height: 1100 }, timeout: 30_000 });
  ({ app, browser, page } = opened);
}, 120_000);

afterAll(() => opened?.close());

/**
 * The table answers the camera from the ground truth up to its next question of that kind (a tile,
 * a figure), whose readings are then made all wrong (other tiles that fit the cell, other spots on
 * the new tile; the real question rejected).
 */
async function toQuestionMadeWrong<K extends 'placeTile' | 'placeMeeple'>(kind: K): Promise<{ right: Extract<Command, { type: K }>; question: number }> {
  for (let guard = 0; ; guard++) {
    expect(guard).toBeLessThan(500);
    await app.camera.settled();
    const v = app.camera.view();
    const step = nextStep(truth, { history: app.session.currentGame!.commands, open: v.proposals.map((q) => ({ id: q.id, readings: q.readings.map((r) => r.command) })), cameraMayRead: v.frames.queued > 0 || v.status !== 'stopped' });
    if (step.do === 'done') throw new Error(`the recording ended before a ${kind} question`);
    if (step.do === 'wait') await new Promise((r) => setTimeout(r, 50));
    else if (step.do === 'undo') throw new Error(`the camera committed a wrong move: ${JSON.stringify(step.wrong)}`);
    else if (step.do === 'reject') expect(app.camera.answer(step.id, 'reject').ok).toBe(true);
    else if (step.do === 'answer' && step.command.type === kind) {
      const right = step.command as PlaceTile | PlaceMeeple;
      const game = app.session.currentGame!;
      const wrong: Command[] = right.type === 'placeTile'
        ? [...game.state.supply].filter(([tile, n]) => n > 0 && tile !== right.tile).flatMap(([tile]) =>
          (placements(game, tile, 'land').cells.find((c) => c.x === right.at[0] && c.y === right.at[1])?.turns ?? []).map((t) => ({ ...right, tile, rot: t.rot as PlaceTile['rot'] })))
        : meepleSpots(game.state).filter((s) => s.kind !== right.kind || s.on !== right.on).map((s) => ({ ...right, kind: s.kind as PlaceMeeple['kind'], on: s.on }));
      expect(wrong.length).toBeGreaterThanOrEqual(kind === 'placeTile' ? 3 : 1);
      expect(app.camera.answer(step.id, 'reject').ok).toBe(true);
      const question = app.store.addProposal(app.session.currentGameId!, 'camera', { command: wrong[0], confidence: 0.4, alternatives: wrong.slice(1, 3), why: 'not sure', at: game.history.length });
      app.camera.viewChanged();
      return { right: right as Extract<Command, { type: K }>, question };
    } else if (step.do === 'answer') expect(app.camera.answer(step.id, step.answer).ok).toBe(true);
    else expect(app.session.play(step.command).ok).toBe(true);
  }
}

/** A photo of `tile` lying on a table (drawn, no hand), uploaded to the picker's photo reader; the reader. */
async function uploadPhotoOf(picker: Locator, tile: string, shape: { seed: number; size: number; rollDeg: number; tiltDeg: number }): Promise<Locator> {
  const face = (await renderFaces([TileCatalog.classic().get(tile)!], TRAIN_STYLES, [7]))[0]!;
  const shot = await makePhoto({ face: face.image, ...shape, handProb: 0 });
  const file = join(mkdtempSync(join(tmpdir(), 'e2e-photo-answer-')), 'tile.jpg');
  writeFileSync(file, shot.bytes);
  const reader = picker.getByTestId('photo-reader');
  await reader.getByTestId('read-photo').click();
  await reader.getByTestId('photo-reader-file').setInputFiles(file);
  return reader;
}

/** The turn button showing `c`'s turn: turns that look alike (the tile's symmetry) are drawn once. */
async function turnShown(c: PlaceTile, on: Page = page): Promise<number> {
  const ids = await on.getByTestId('named-tile').locator('button').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  const rots = ids.map((id) => Number(id.slice('named-turn-'.length)));
  const shown = rots.filter((rot) => sameMove({ ...c, rot: rot as PlaceTile['rot'] }, c));
  expect(shown).toHaveLength(1);
  return shown[0]!;
}

describe('a camera question answered with a photo of the tile', () => {
  it('"It is this tile" on a photo reading, then the way it lies: laid at the lit cell as named, its picture enrolled; "Another tile…" without a photo; "Another spot…" for a figure', async () => {
    expect(app.session.newGame(setup).ok).toBe(true);
    await page.goto(app.server.url);
    await page.locator('button[data-screen=camera]').click();

    const { right: tile, question } = await toQuestionMadeWrong('placeTile');
    const before = app.session.currentGame!.commands.length;
    const picker = page.getByTestId('picker');
    await expect.poll(() => picker.getAttribute('data-proposal')).toBe(String(question));
    expect(app.store.exemplars().some((e) => e.tileId === tile.tile && e.rot === tile.rot)).toBe(false);

    // A photo of the tile lying on a table, read in the picker.
    const reader = await uploadPhotoOf(picker, tile.tile, { seed: 11, size: 0.45, rollDeg: 30, tiltDeg: 10 });
    const result = reader.getByTestId('photo-reader-result');
    await result.waitFor();
    // Read among the tile types that may lie at the lit cell only.
    const fitting = app.camera.typesFittingQuestion(question);
    if (!fitting.ok) throw new Error(fitting.reason);
    expect(await reader.getByTestId('photo-fitting').textContent()).toBe(`Read among the ${fitting.value.size} tile types that may lie on the lit cell (the rules and the tiles left; any turn).`);
    for (const t of await result.locator('li[data-tile]').evaluateAll((els) => els.map((e) => e.getAttribute('data-tile')))) expect(fitting.value.has(t!), `${t}`).toBe(true);
    const reading = result.locator(`li[data-tile="${tile.tile}"]`);
    expect(await reading.count()).toBe(1);
    const pick = reading.locator('button');
    expect(await pick.textContent()).toBe('It is this tile');
    await page.screenshot({ path: join(SHOTS, 'camera-photo-answer-1-read.png') });
    await pick.click();

    // The turns in which the tile fits the lit cell, drawn, the table picks the one it lies in.
    const named = picker.getByTestId('named-tile');
    await named.waitFor();
    expect(await named.getAttribute('data-tile')).toBe(tile.tile);
    const cell = placements(app.session.currentGame!, tile.tile, 'land').cells.find((c) => c.x === tile.at[0] && c.y === tile.at[1])!;
    expect(await named.locator('button').count()).toBeLessThanOrEqual(cell.turns.length);
    expect(await named.locator('button svg image').count()).toBe(await named.locator('button').count());
    // Brought into view below the photo's readings (within a pixel: scrolling aligns to fractions).
    const inView = async () => { const box = await named.boundingBox(); return !!box && box.y >= -1 && box.y + box.height <= 1101; };
    await expect.poll(inView).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'camera-photo-answer-2-turns.png') });
    await named.getByTestId(`named-turn-${await turnShown(tile)}`).click();

    await expect.poll(() => app.session.currentGame!.commands.length).toBe(before + 1);
    const laid = app.session.currentGame!.commands.at(-1)!;
    expect(sameMove(laid, tile) && laid.type === 'placeTile' && laid.player === tile.player).toBe(true);
    expect(app.camera.view().proposals.some((p) => p.id === question)).toBe(false);
    await expect.poll(async () => (await picker.count()) === 0 || (await picker.getAttribute('data-proposal')) !== String(question)).toBe(true);
    // The camera's picture of the cell is enrolled as the named tile, turned as laid.
    await app.camera.settled();
    await expect.poll(() => app.store.exemplars().some((e) => e.tileId === tile.tile && laid.type === 'placeTile' && e.rot === laid.rot), { timeout: 20_000 }).toBe(true);

    // The next tile question, answered without a photo: "Another tile…" draws every tile that may
    // lie at the lit cell; the table clicks the one laid there, then its turn.
    const next = await toQuestionMadeWrong('placeTile');
    await expect.poll(() => picker.getAttribute('data-proposal')).toBe(String(next.question));
    const at = app.session.currentGame!.commands.length;
    await picker.getByTestId('another-tile').click();
    const list = picker.getByTestId('another-tiles');
    await list.waitFor();
    const fits = app.camera.typesFittingQuestion(next.question);
    if (!fits.ok) throw new Error(fits.reason);
    const shown = await list.locator('button[data-testid^=another-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('another-'.length)));
    expect([...shown].sort()).toEqual([...fits.value].sort());
    // The camera's likeliest first: the tile laid there.
    expect(shown[0]).toBe(next.right.tile);
    expect(await list.locator('svg image').count()).toBe(shown.length);
    await page.screenshot({ path: join(SHOTS, 'camera-photo-answer-3-another-tile.png') });
    await list.getByTestId(`another-${next.right.tile}`).click();
    await picker.getByTestId('named-tile').waitFor();
    expect(await picker.getByTestId('named-tile').getAttribute('data-tile')).toBe(next.right.tile);
    // The turns, the camera's likeliest first (the edges its picture of the cell shows).
    const buttons = picker.getByTestId('named-tile').locator('button');
    const rots = (await buttons.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).map((id) => Number(id!.slice('named-turn-'.length)));
    const edges = (rot: number) => app.session.currentGame!.state.catalog.view(next.right.tile, rot / 90).terrain.join();
    expect(rots.length).toBeGreaterThan(0);
    expect(edges(rots[0]!)).toBe(edges(next.right.rot));
    await expect.poll(inView).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'camera-photo-answer-4-turns-seen.png') });
    await picker.getByTestId(`named-turn-${await turnShown(next.right)}`).click();
    await expect.poll(() => app.session.currentGame!.commands.length).toBe(at + 1);
    expect(sameMove(app.session.currentGame!.commands.at(-1)!, next.right)).toBe(true);
    expect(app.camera.view().proposals.some((p) => p.id === next.question)).toBe(false);

    // A figure question whose readings are all wrong: "Another spot…" draws the new tile once per
    // spot the engine offers, the figure on it; the table clicks the one it stands on.
    const figure = await toQuestionMadeWrong('placeMeeple');
    await expect.poll(() => picker.getAttribute('data-proposal')).toBe(String(figure.question));
    const before3 = app.session.currentGame!.commands.length;
    await picker.getByTestId('another-spot').click();
    const spotList = picker.getByTestId('another-spots');
    await spotList.waitFor();
    const offered = await spotList.locator('button').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    expect(offered.sort()).toEqual(meepleSpots(app.session.currentGame!.state).map((s) => `spot-${s.kind}-${s.on}`).sort());
    expect(await spotList.locator('svg circle').count()).toBe(offered.length);
    await page.screenshot({ path: join(SHOTS, 'camera-photo-answer-5-another-spot.png') });
    await spotList.getByTestId(`spot-${figure.right.kind}-${figure.right.on}`).click();
    await expect.poll(() => app.session.currentGame!.commands.length).toBe(before3 + 1);
    expect(app.session.currentGame!.commands.at(-1)).toEqual(figure.right);
    expect(app.camera.view().proposals.some((p) => p.id === figure.question)).toBe(false);
  }, 180_000);

  it('on a phone paired as a second screen, once the main screen allows moves: the picker answers there, "Another tile…" and the turn, then a photo taken with the phone', async () => {
    await page.locator('button[data-screen=games]').click();
    const code = (await page.getByTestId('pairing-code').textContent())!.trim();
    await page.getByTestId('screen-moves').check();
    const phone = await browser.newPage({ viewport: { width: 420, height: 900 } });
    try {
      await phone.goto(`http://localhost:${app.server.port}/`);
      await phone.getByLabel('pairing code').fill(code);
      await phone.getByRole('button', { name: 'Join' }).click();
      await phone.getByTestId('board').waitFor();
      const next = await toQuestionMadeWrong('placeTile');
      await phone.locator('button[data-screen=camera]').click();
      const picker = phone.getByTestId('picker');
      await expect.poll(() => picker.getAttribute('data-proposal')).toBe(String(next.question));
      const at = app.session.currentGame!.commands.length;
      await picker.getByTestId('another-tile').click();
      await picker.getByTestId(`another-${next.right.tile}`).click();
      await picker.getByTestId('named-tile').waitFor();
      const turn = await turnShown(next.right, phone);
      await phone.screenshot({ path: join(SHOTS, 'camera-photo-answer-6-phone.png') });
      await picker.getByTestId(`named-turn-${turn}`).click();
      await expect.poll(() => app.session.currentGame!.commands.length).toBe(at + 1);
      expect(sameMove(app.session.currentGame!.commands.at(-1)!, next.right)).toBe(true);

      // The next tile question, answered on the phone with a photo of the tile (its own camera's).
      const another = await toQuestionMadeWrong('placeTile');
      await expect.poll(() => picker.getAttribute('data-proposal')).toBe(String(another.question));
      const before = app.session.currentGame!.commands.length;
      const reader = await uploadPhotoOf(picker, another.right.tile, { seed: 12, size: 0.6, rollDeg: -20, tiltDeg: 15 });
      const reading = reader.getByTestId('photo-reader-result').locator(`li[data-tile="${another.right.tile}"]`);
      await reading.waitFor();
      await reading.locator('button').click();
      await picker.getByTestId('named-tile').waitFor();
      expect(await picker.getByTestId('named-tile').getAttribute('data-tile')).toBe(another.right.tile);
      await phone.screenshot({ path: join(SHOTS, 'camera-photo-answer-7-phone-photo.png') });
      await picker.getByTestId(`named-turn-${await turnShown(another.right, phone)}`).click();
      await expect.poll(() => app.session.currentGame!.commands.length).toBe(before + 1);
      expect(sameMove(app.session.currentGame!.commands.at(-1)!, another.right)).toBe(true);
      expect(app.camera.view().proposals.some((p) => p.id === another.question)).toBe(false);
    } finally {
      await phone.close();
    }
  }, 180_000);
});
