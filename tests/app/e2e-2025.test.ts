/**
 * Jousts & Crests and Siege & Defense in a real browser (Debian chromium) against browser mode: a game
 * set up through the New Game screen with non-default options, a seeded random legal game (the
 * engine's own playout bot) entered command by command through the panels and the manual entry, and
 * the panels and scores on screen checked against the engine along the way (its plain middle turns
 * played straight into the session). Screenshots of each new panel go to test-output/screens. The
 * same with The River and three players: e2e-2025-river.test.ts (its own file, so that the two long
 * games may run side by side).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import type { Command } from '../../engine/game/commands.js';
import { inPlainTurn, NEW_GAME, open2025, panels2025, SHOTS } from './helpers/panels-2025.js';

let app: BrowserMode;
let browser: Browser;
let page: Page;
let ui: ReturnType<typeof panels2025>;

beforeAll(async () => {
  ({ app, browser, page } = await open2025());
  ui = panels2025(page, NEW_GAME.players);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('Jousts & Crests and Siege & Defense in the browser', () => {
  it('sets up the game through the New Game screen, options included', async () => {
    await page.goto(app.server.url);
    const form = page.getByTestId('new-game');
    await form.waitFor();
    for (const [i, p] of NEW_GAME.players.entries()) {
      await form.locator(`input[name=player-${i}]`).fill(p.name);
      await form.locator(`select[name=colour-${i}]`).selectOption(p.color);
    }
    await form.locator('input[name=exp-jousts-crests]').check();
    await form.locator('input[name=exp-siege-defense]').check();
    await form.locator('input[name=crownStart]').fill('1');
    await form.locator('input[name=rowBaseA]').fill('2');
    await form.getByTestId('jc-options').screenshot({ path: join(SHOTS, '2025-1-new-game-options.png') });
    await ui.act('start', () => page.getByTestId('start-game').click());
    await page.getByTestId('board').waitFor();
    // The options reached the engine: the crown starts on "city", rows hold 2 meeples with 2 players.
    expect(await ui.text(page.getByTestId('crown-category'))).toBe('city');
    expect(await ui.text(page.getByTestId('post-knights-row'))).toBe('— (0/2)');
    await expect.poll(() => page.getByTestId('reminders').textContent()).toContain('draw');
  }, 60_000);

  it('plays a seeded random game through the panels; panels and scores equal the engine’s', async () => {
    // Seed 6: tournaments with several reveals, prize tiles and statues, attacks, posts and counter
    // attacks. Every turn holding a step of the two expansions is clicked, and so are the first and
    // last ten turns whole; the plain turns between (a tile and a figure, as in the base game, which
    // e2e.test.ts clicks through) go straight into the session.
    const plain = (i: number, commands: readonly Command[]) => inPlainTurn(commands, i, 10, 86);
    const game = await ui.playThrough(NEW_GAME, 6, '2025', { when: plain, play: (c) => app.session.play(c) });
    expect(game.state.jc!.statues.length).toBeGreaterThan(0);
    // Every kind of command in the game was entered by clicks somewhere, and most of the game was.
    const clicked = game.commands.filter((_, i) => !plain(i, game.commands));
    expect(new Set(clicked.map((c) => c.type))).toEqual(new Set(game.commands.map((c) => c.type)));
    expect(clicked.length / game.commands.length).toBeGreaterThan(0.5);
  }, 600_000);
});
