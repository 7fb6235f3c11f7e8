/**
 * Jousts & Crests and Siege & Defense with The River and three players, in a real browser (Debian
 * chromium) against browser mode: set up through the New Game screen with the default options; the
 * tournament tile at the first river bend, a placement lap that skips a player without a prize tile;
 * the seeded random game's start and end entered command by command through the panels (its middle
 * played straight into the session), checked against the engine (tests/app/helpers/panels-2025.ts,
 * shared with e2e-2025.test.ts, which clicks every turn of its game with an expansion's step).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { NEW_GAME_RIVER, open2025, panels2025 } from './helpers/panels-2025.js';

let app: BrowserMode;
let browser: Browser;
let page: Page;
let ui: ReturnType<typeof panels2025>;

beforeAll(async () => {
  ({ app, browser, page } = await open2025());
  ui = panels2025(page, NEW_GAME_RIVER.players);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('Jousts & Crests and Siege & Defense with The River in the browser', () => {
  it('with The River and three players: the tournament tile at the first bend, a skipped placement lap', async () => {
    await page.goto(app.server.url);
    await page.locator('button[data-screen=new]').click();
    const form = page.getByTestId('new-game');
    await form.waitFor();
    await form.getByRole('button', { name: 'Add a player' }).click();
    for (const [i, p] of NEW_GAME_RIVER.players.entries()) {
      await form.locator(`input[name=player-${i}]`).fill(p.name);
      await form.locator(`select[name=colour-${i}]`).selectOption(p.color);
    }
    for (const x of ['river', 'jousts-crests', 'siege-defense']) await form.locator(`input[name=exp-${x}]`).check();
    await ui.act('start', () => page.getByTestId('start-game').click());
    await page.getByTestId('board').waitFor();
    // By clicks: the river and its first bend (the tournament tile, command 9) with the turns after
    // it, and the game's end with the placement lap that skips a player (command 442 of 448); the
    // middle goes straight into the session (e2e-2025 clicks every expansion step of a whole game through the same panels).
    const middle = (i: number) => i >= 60 && i < 400;
    const game = await ui.playThrough(NEW_GAME_RIVER, 1, '2025-river', { when: middle, play: (c) => app.session.play(c) });
    const clicked = game.commands.filter((_, i) => !middle(i));
    expect(clicked.some((c) => c.type === 'placeTournamentTile') && clicked.some((c) => c.type === 'skipTurn')).toBe(true);
  }, 600_000);
});
