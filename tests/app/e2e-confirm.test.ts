/**
 * Nothing replaces or ends a game in progress unasked (issue 29, part 5), in a real browser (Debian
 * chromium) against browser mode: New Game and Import over a game in progress, and final scoring
 * with tiles still in the supply, each ask first in words (what is at stake, what is left); backing
 * out (the button or Esc) changes nothing; going ahead does it. A finished game is replaced unasked.
 * Screenshots: confirm-new-game.png, confirm-finish.png, confirm-import.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { act as actOn, openApp, type OpenApp, pageVersion, SHOTS } from './helpers/browser.js';
import { loadRecord } from './helpers/records.js';


let app: BrowserMode;
let browser: Browser;
let page: Page;
let opened: OpenApp | undefined;

beforeAll(async () => {
  opened = await openApp('confirm', {});
  ({ app, browser, page } = opened);
}, 120_000);

afterAll(() => opened?.close());

const act = (what: string, action: () => Promise<void>) => actOn(page, what, action);

async function fillNewGame(names: readonly [string, string]): Promise<void> {
  await page.locator('button[data-screen=new]').click();
  const form = page.getByTestId('new-game');
  await form.waitFor();
  await form.locator('input[name=player-0]').fill(names[0]);
  await form.locator('input[name=player-1]').fill(names[1]);
}

/** Backs out of a question and checks that nothing changed (same game, same version). */
async function backOut(testid: string, how: 'button' | 'Escape'): Promise<void> {
  const id = app.session.currentGameId;
  const version = await pageVersion(page);
  if (how === 'button') await page.getByTestId(`${testid}-no`).click();
  else await page.keyboard.press('Escape');
  await page.getByTestId(testid).waitFor({ state: 'detached' });
  expect(app.session.currentGameId).toBe(id);
  expect(await pageVersion(page)).toBe(version);
}

describe('asking before a game in progress is replaced or ended', () => {
  it('New Game, final scoring and Import each ask first over a game in progress; backing out changes nothing', async () => {
    await page.goto(app.server.url);
    // No game yet: New Game starts at once.
    await fillNewGame(['Ada', 'Bo']);
    await act('start', () => page.getByTestId('start-game').click());
    await page.getByTestId('board').waitFor();
    const first = app.session.currentGameId;
    expect(first).not.toBe(null);

    // Final scoring on turn 1: 71 tiles are left, and the question says so.
    await page.getByTestId('finish').click();
    const finish = page.getByTestId('confirm-finish');
    expect(await finish.textContent()).toMatch(/71 tiles are still in the supply \(turn 1\)\. End the game now and score it as it stands\?/);
    await page.screenshot({ path: join(SHOTS, 'confirm-finish.png') });
    await backOut('confirm-finish', 'button');
    expect(app.session.currentGame!.state.finished).toBe(false);

    // A new game over it: asked, with the game in progress in words; Esc backs out, then go ahead.
    await fillNewGame(['Cy', 'Di']);
    await page.getByTestId('start-game').click();
    const again = page.getByTestId('confirm-new-game');
    expect(await again.textContent()).toMatch(/A game is in progress \(Ada and Bo, turn 1, 71 tiles left\)\. Start a new one\?/);
    await page.screenshot({ path: join(SHOTS, 'confirm-new-game.png') });
    await backOut('confirm-new-game', 'Escape');
    await page.getByTestId('start-game').click();
    await act('start over', () => page.getByTestId('confirm-new-game-yes').click());
    const second = app.session.currentGameId;
    expect(second).not.toBe(first);
    expect(app.session.currentGame!.setup.players.map((p) => p.name)).toEqual(['Cy', 'Di']);

    // Import over it: asked; backed out, then gone ahead with.
    const record = loadRecord('g081-base-tower-2p.json');
    await page.locator('button[data-screen=games]').click();
    // A record New Game would refuse (two players of one colour) is refused in words, and nothing changes.
    await page.getByTestId('record-text').fill(JSON.stringify({ ...record, players: [record.players[0], { ...record.players[1], color: record.players[0]!.color }] }));
    await page.getByTestId('import').click();
    await page.getByTestId('confirm-import-yes').click();
    await expect.poll(() => page.locator('[data-testid=message][role=alert]').textContent()).toMatch(
      new RegExp(`the record cannot be imported: player 2's colour: players 1 and 2 \\(${record.players[0]!.name} and ${record.players[1]!.name}\\) share the colour ${record.players[0]!.color}: each player needs a colour of their own`),
    );
    expect(app.session.currentGameId).toBe(second);
    await page.locator('[data-testid=message] .close').click();
    await page.getByTestId('record-text').fill(JSON.stringify(record));
    await page.getByTestId('import').click();
    expect(await page.getByTestId('confirm-import').textContent()).toMatch(/A game is in progress \(Cy and Di, turn 1, 71 tiles left\)\. Import this record/);
    await page.screenshot({ path: join(SHOTS, 'confirm-import.png') });
    await backOut('confirm-import', 'button');
    await page.getByTestId('import').click();
    await page.getByTestId('confirm-import-yes').click();
    // A whole game replayed and stored: given time on a busy machine.
    await expect.poll(() => app.session.currentGameId, { timeout: 60_000 }).not.toBe(second);
    expect(app.session.currentGame!.state.finished).toBe(true);

    // The imported game is finished: a new game replaces it unasked.
    await page.goto(app.server.url, { timeout: 60_000 });
    await page.getByTestId('board').waitFor({ timeout: 60_000 });
    await fillNewGame(['Ed', 'Flo']);
    await act('start after a finished game', () => page.getByTestId('start-game').click());
    expect(await page.getByTestId('confirm-new-game').count()).toBe(0);
    expect(app.session.currentGame!.setup.players.map((p) => p.name)).toEqual(['Ed', 'Flo']);
  }, 180_000);
});
