/**
 * The tile editor in a real browser (Debian chromium) against browser mode: from the Games screen
 * the table describes a provisional 2025 tile on a photo, sees the engine's check refuse an
 * inconsistent description, fixes it, saves, and then plays a game in which the rules use the new
 * shape. Also: the manual entry's exchange choice (exchangeFor) on a tower capture. Screenshots go to
 * test-output/screens.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../engine/game/engine.js';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { svgToPng } from '../../models/render/rasterise.js';
import { HELD_OUT_STYLE } from '../../models/render/styles.js';
import { tileSvg } from '../../models/render/svg.js';
import { clickEntry } from './helpers/entry.js';
import { act as actOn, openApp, type OpenApp, SHOTS } from './helpers/browser.js';
import { loadRecord } from './helpers/records.js';

let app: BrowserMode;
let browser: Browser;
let page: Page;
let opened: OpenApp | undefined;
let dir: string;

beforeAll(async () => {
  opened = await openApp('e2e-tiles', { viewport: { width: 1400, height: 1100 } });
  ({ app, browser, page } = opened);
  dir = opened.dir;
}, 120_000);

afterAll(() => opened?.close());

const act = (what: string, action: () => Promise<void>) => actOn(page, what, action);
const alert = () => page.locator('[data-testid=message][role=alert]');

describe('tile editor in the browser', () => {
  it('describes a provisional tile on a photo, is refused until consistent, saves, and the rules use it', async () => {
    // A photo of the real tile: here the held-out art style's drawing of a straight road N–S.
    const real = { ...defaultCatalog().get('JC-L-S')!, id: 'JC-L-PLAIN' };
    const photo = join(dir, 'jc-l-plain.png');
    writeFileSync(photo, await svgToPng(tileSvg(real, HELD_OUT_STYLE, { variant: 7 }), 96));

    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    await page.locator('button[data-screen=games]').click();
    const list = page.getByTestId('tiles-to-confirm');
    await list.locator('li[data-tile=JC-L-PLAIN]').waitFor();
    await list.locator('li[data-tile=JC-L-PLAIN] button').click();

    const editor = page.getByTestId('tile-editor');
    await editor.waitFor();
    expect(await editor.locator('select[name=tile]').inputValue()).toBe('JC-L-PLAIN');
    await editor.getByTestId('photo').setInputFiles(photo);
    await editor.locator('[data-testid=crop] img').waitFor();
    // The provisional shape: fields all round, consistent.
    expect(await editor.getByTestId('tile-check').textContent()).toContain('consistent');
    const roadsInPreview = () => editor.locator('[data-testid=preview] polyline').count();
    expect(await roadsInPreview()).toBe(0);

    // The photo shows a road N–S: the terrain first (clicking the segment key for N1, the table for S1).
    await editor.locator('[data-testid=segment-key] polygon[data-segment=N1]').click();
    await editor.locator('select[name=seg-S1]').selectOption('road');
    await expect.poll(() => editor.getByTestId('tile-check').textContent()).toContain('segment N1 is road but feature field1 is a field');
    // Saving anyway: the engine refuses, in words, and nothing is saved.
    await editor.getByTestId('save-tile').click();
    await alert().waitFor();
    expect(await alert().textContent()).toContain('tile JC-L-PLAIN: segment N1 is road but feature field1 is a field');
    await page.screenshot({ path: join(SHOTS, 'tile-editor-1-refused.png') });
    await page.locator('[data-testid=message] .close').click();

    // The road as a feature, and the field split in two by it.
    await editor.locator('select[name=add-kind]').selectOption('road');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await editor.locator('select[name=add-kind]').selectOption('field');
    await editor.getByRole('button', { name: 'Add feature' }).click();
    await editor.locator('select[name=feat-N1]').selectOption('road1');
    await editor.locator('select[name=feat-S1]').selectOption('road1');
    for (const s of ['S2', 'W0', 'W1', 'W2', 'N0']) await editor.locator(`select[name=feat-${s}]`).selectOption('field2');
    await expect.poll(() => editor.getByTestId('tile-check').textContent()).toContain('The description is consistent.');
    expect(await editor.locator('[data-feature=road1] .segs').textContent()).toBe('N1 S1');
    // The preview is the project's renderer drawing the description: a road now (edge and surface).
    expect(await roadsInPreview()).toBe(2);
    await page.screenshot({ path: join(SHOTS, 'tile-editor-2-described.png') });

    await editor.getByTestId('save-tile').click();
    await page.locator('[data-testid=message][role=status]').waitFor();
    expect(await page.getByTestId('message').textContent()).toContain('Saved JC-L-PLAIN with its photo for recognition');
    expect(await editor.locator('.role').textContent()).toContain('confirmed');
    await editor.getByTestId('close-editor').click();
    await page.getByTestId('tiles-to-confirm').getByLabel('show confirmed tiles too').check();
    const row = page.locator('[data-testid=tiles-to-confirm] li[data-tile=JC-L-PLAIN]');
    expect(await row.textContent()).toContain('confirmed');
    expect(await row.textContent()).toContain('1 photo');

    // A game with Jousts & Crests: the tournament tile (fields all round) is the start.
    await page.locator('button[data-screen=new]').click();
    const form = page.getByTestId('new-game');
    await form.locator('input[name=player-0]').fill('Ada');
    await form.locator('input[name=player-1]').fill('Bo');
    await form.locator('input[name=exp-jousts-crests]').check();
    await act('start', () => page.getByTestId('start-game').click());
    await page.getByTestId('board').waitFor();
    // Drawn by clicks: its picture in the picker, then the stack.
    await page.locator('[data-testid=tile-picker] button[data-pick=JC-L-PLAIN]').click();
    await act('draw', () => page.getByTestId('draw-from-stack').click());
    // Unturned, the confirmed road would run into the tournament tile's field: the board does not
    // offer that turn there (with the provisional shape, fields all round, every turn fitted).
    const cell = page.locator('[data-testid=board] rect[data-cell="0,-1"]');
    const rots = (await cell.getAttribute('data-rots'))!.split(',');
    expect(rots).not.toContain('0');
    expect(rots).toContain('90');
    await cell.click();
    for (let i = 0; i < rots.indexOf('90'); i++) await page.keyboard.press('r');
    await act('place turned', () => page.keyboard.press('Enter'));
    const placed = page.locator('[data-testid=board] g[data-tile=JC-L-PLAIN]');
    await placed.waitFor();
    expect(await placed.getAttribute('data-at')).toBe('0,-1');
    // On the board the road runs W–E: road (1) on E1 and W1 only, drawn by the project's tile renderer.
    expect(await placed.getAttribute('data-terrain')).toBe('000010000010');
    // Shown as its bitmap once drawn (renderer/src/lib/bitmaps.ts; an empty picture until then).
    await expect.poll(() => placed.locator('image').getAttribute('href'), { timeout: 10_000 }).toMatch(/^blob:/);
    // Where a figure may go: the road and the two fields it makes (the provisional tile had one field).
    const spots = await page.locator('[data-testid=board] [data-spot]').evaluateAll((els) => els.map((e) => e.getAttribute('data-spot')));
    expect(spots.sort()).toEqual(['normal|E1', 'normal|E2', 'normal|N0']);
    await page.screenshot({ path: join(SHOTS, 'tile-editor-3-used.png') });

  }, 120_000);

  it('the click entry asks which prisoner comes back when the captured player holds several kinds (exchangeFor)', async () => {
    // Corpus game g116 up to the turn where player 0 captures with a tower and gets the abbot back.
    const record = loadRecord('g116-base-river-abbot-ic-tower-2p.json');
    const at = record.turns.findIndex((t) => (t.action as { capture?: { exchangeFor?: string } } | undefined)?.capture?.exchangeFor);
    const turn = record.turns[at]!;
    const { expect: _ignored, ...rest } = record;
    await page.locator('button[data-screen=games]').click();
    await page.getByTestId('record-text').fill(JSON.stringify({ ...rest, turns: record.turns.slice(0, at) }));
    // A game is in progress: the import asks first.
    await page.getByTestId('import').click();
    await act('import', () => page.getByTestId('confirm-import-yes').click());
    // An imported record ends with its final scoring: undo it to play on.
    await page.locator('button[data-screen=log]').click();
    await act('undo final scoring', () => page.getByTestId('undo').click());
    await page.locator('button[data-screen=play]').click();
    await page.getByTestId('board').waitFor();

    await clickEntry(page).enter({ type: 'placeTile', player: 0, tile: turn.tile!, at: turn.at!, rot: turn.rot! });
    const prisoners = (i: number) => page.locator('[data-testid=tower-panel] tbody tr').nth(i).locator('td').nth(1).textContent();
    expect(await prisoners(1)).toBe("Ann's abbot, Ann's meeple");
    const action = turn.action as { towerPiece: [number, number]; capture: { player: number; at: [number, number]; on: string; meeple: string; exchangeFor: string } };
    // The tower clicked, then the meeple to capture: the captured player holds more than one kind
    // of ours, so the entry asks which comes back.
    await page.locator(`[data-testid=board] [data-target-tower="${action.towerPiece[0]},${action.towerPiece[1]}"]`).click();
    const cap = action.capture;
    await page.locator(`[data-testid=board] g[data-meeple="${cap.player}:${cap.on}"][data-at="${cap.at[0]},${cap.at[1]}"][data-kind=${cap.meeple}][data-target-meeple]`).click();
    const choice = page.getByTestId('entry-options');
    await choice.waitFor();
    const labels = await choice.getByRole('button').allTextContents();
    expect(labels.map((l) => /gives back your (.+) \(/.exec(l)?.[1]).sort()).toEqual(['abbot', 'meeple']);
    await page.screenshot({ path: join(SHOTS, 'exchange-for.png') });
    const word = cap.exchangeFor === 'normal' ? 'meeple' : cap.exchangeFor;
    await act('tower floor', () => choice.getByRole('button', { name: new RegExp(`gives back your ${word} \\(`) }).click());
    // Bo's captured meeple went home and Ann got her abbot back: Bo holds only Ann's normal meeple.
    expect(await prisoners(1)).toBe("Ann's meeple");
  }, 120_000);
});
