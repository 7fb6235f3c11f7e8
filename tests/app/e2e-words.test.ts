/**
 * The table's words on every screen (issue 29, part 4), in a real browser (Debian chromium) against
 * browser mode: a Tower + Abbot game (corpus game g101: River, Abbot, Inns & Cathedrals, Tower) and a
 * Jousts & Crests + Siege & Defense game (the engine's seeded playout), each driven through the
 * session (no clicking 119 turns) to the moments that say the most — a tile just laid, tower captures
 * and ransoms, a tournament being revealed, an attack, a siege symbol, a refusal, a camera question
 * about a tile and about a figure, final scoring asked early, the finished game — and at each moment
 * every screen (Board, Camera, Event log, Audit, Games, New game) is read: its visible text, the
 * options of its lists and its tooltips must hold no tile id, coordinate, segment code, command
 * name, argument path or 0-based player number. The developer view, ticked at the end, shows them.
 * Screenshots: words-*.png. About 40 s of browser time (the renderer build aside).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { randomGame } from '../../engine/sim/random-game.js';
import { setupFromNewGame } from '../../electron/contract/setup.js';
import type { BrowserMode } from '../../electron/server/browser-mode.js';
import { exportRecord } from '../../electron/services/record-export.js';
import type { GameSetup } from '../../engine/game/setup.js';
import { openApp, type OpenApp, pageVersion } from './helpers/browser.js';
import { NEW_GAME, SHOTS } from './helpers/panels-2025.js';
import { loadRecord, recordCommands, setupFromRecord } from './helpers/records.js';
import { engineNotation } from './helpers/table-words.js';

declare const document: {
  body: { innerText: string };
  querySelectorAll(s: string): ArrayLike<{ textContent: string | null; getAttribute(n: string): string | null; open?: boolean }>;
};

let app: BrowserMode;
let browser: Browser;
let page: Page;
let opened: OpenApp | undefined;
const started = Date.now();

beforeAll(async () => {
  // No recording: nothing reads frames, the camera's questions are put to the table by the test.
  opened = await openApp('words', { recording: null, viewport: { width: 1400, height: 1000 }, timeout: 15_000 });
  ({ app, browser, page } = opened);
}, 180_000);

afterAll(async () => {
  console.log(`words walk: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await opened?.close();
});

const SCREENS = [
  ['play', 'board'],
  ['camera', 'camera-screen'],
  ['log', 'event-log'],
  ['audit', 'audit'],
  ['games', 'games'],
  ['new', 'new-game'],
] as const;

/** Everything a player reads on the page now: the text, the choices of every list, the tooltips. */
async function visibleText(): Promise<string> {
  return page.evaluate(() => {
    for (const d of Array.from(document.querySelectorAll('details'))) d.open = true;
    const options = Array.from(document.querySelectorAll('select option')).map((o) => o.textContent ?? '');
    const titles = Array.from(document.querySelectorAll('[title]')).map((e) => e.getAttribute('title') ?? '');
    const placeholders = Array.from(document.querySelectorAll('[placeholder]')).map((e) => e.getAttribute('placeholder') ?? '');
    return [document.body.innerText, ...options, ...titles, ...placeholders].join('\n');
  });
}

/** Waits until the page shows the session's latest snapshot. */
async function caughtUp(): Promise<void> {
  const want = app.session.snapshot().version;
  await expect.poll(() => pageVersion(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(want);
}

/** Reads every screen at this moment; fails with each piece of engine notation found and where. */
async function walk(moment: string, problems: string[], shot?: string): Promise<void> {
  await caughtUp();
  for (const [screen, testid] of SCREENS) {
    await page.locator(`button[data-screen=${screen}]`).click();
    await page.getByTestId(testid).first().waitFor();
    const found = engineNotation(await visibleText());
    problems.push(...found.map((f) => `${moment}, ${screen}: ${f}`));
    if (shot && screen === 'play') await page.screenshot({ path: join(SHOTS, `words-${shot}.png`) });
  }
  await page.locator('button[data-screen=play]').click();
}

/** Every find, kept in test-output for reading when the test fails. */
function report(problems: readonly string[], name: string): void {
  writeFileSync(join(SHOTS, `../words-${name}.txt`), [...new Set(problems)].join('\n'));
}

/** Plays commands through the session (the engine checks each), as the table's entries would. */
function play(commands: readonly Command[]): void {
  for (const c of commands) {
    const r = app.session.play(c);
    if (!r.ok) throw new Error(`${JSON.stringify(c)}: ${r.reason}`);
  }
}

/** Puts a camera question to the table (as the tracker does when it is not sure) and shows it. */
async function ask(command: Command, alternatives: readonly Command[], confidence: number, why: string): Promise<number> {
  const id = app.store.addProposal(app.session.currentGameId!, 'camera', { command, confidence, alternatives, frame: 7, why, at: app.session.currentGame!.history.length });
  app.camera.askEverything(false);
  return id;
}

/** Where in a game the moments worth reading fall: the first index where `when` holds after it. */
function firstWhere(setup: GameSetup, commands: readonly Command[], when: (g: Game) => boolean, from = 0): number {
  const g = Game.start(setup);
  if (!g.ok) throw new Error(g.reason);
  for (const [i, c] of commands.entries()) {
    const r = g.value.play(c);
    if (!r.ok) throw new Error(r.reason);
    if (i >= from && when(g.value)) return i + 1;
  }
  return -1;
}

describe('no engine notation on any screen a player sees', () => {
  it('Tower + Abbot (g101): every screen at the moments that say the most', async () => {
    const problems: string[] = [];
    const record = loadRecord('g101-base-river-abbot-ic-tower-2p.json');
    const setup = setupFromRecord(record);
    const commands = recordCommands(record);
    await page.goto(app.server.url);
    await page.getByTestId('new-game').waitFor();
    const id = app.session.newGame(setup);
    expect(id.ok).toBe(true);
    await walk('a new game', problems);
    // The click entry mid-move: a tile picked (the river's first and a land tile the River's order
    // refuses), its places lit or why it fits nowhere, said in words; Esc backs out.
    const picks = page.locator('[data-testid=tile-picker] button[data-pick]');
    for (const k of [0, (await picks.count()) - 1]) {
      await picks.nth(k).click();
      await expect.poll(() => page.getByTestId('entry-hint').textContent()).toMatch(/fits (in \d+ places?|nowhere)/);
      problems.push(...engineNotation(await visibleText()).map((f) => `a tile picked (${k}): ${f}`));
      await page.keyboard.press('Escape');
    }

    // A tile just laid, its figure to come: the spots offered, the reminders.
    const laid = commands.findIndex((c, i) => i > 30 && c.type === 'placeMeeple');
    play(commands.slice(0, laid));
    await walk('a tile laid, a figure to come', problems, 'tower-figure');
    // A camera question about the figure, then about the next tile (two readings), each shown.
    const figure = commands[laid]!;
    let q = await ask(figure, [{ ...figure, on: 'CLOISTER' } as Command], 0.55, 'not sure about the figure: the table picks');
    await walk('the camera asks about a figure', problems);
    app.store.decideProposal(q, 'rejected');
    play(commands.slice(laid, commands.findIndex((c, i) => i > laid && c.type === 'placeTile')));

    // A tower capture, then a ransom due: the moment after the first capture.
    const capture = commands.findIndex((c) => c.type === 'placeTowerFloor' && c.capture !== undefined);
    play(commands.slice(app.session.currentGame!.history.length, capture + 1));
    await walk('a tower capture', problems, 'tower-capture');
    const next = commands[app.session.currentGame!.history.length]!;
    if (next.type === 'placeTile') {
      q = await ask(next, [{ ...next, rot: ((next.rot + 90) % 360) as 0 | 90 | 180 | 270 }, { ...next, tile: 'BASE_A' }], 1, 'not sure: the table picks');
      await page.locator('button[data-screen=camera]').click();
      await page.getByTestId('picker').waitFor();
      expect(await page.getByTestId('question-why').textContent()).toMatch(/^The camera is not sure about this tile \(its best reading is 100 % likely\): which is it\?$/);
      await page.screenshot({ path: join(SHOTS, 'words-camera-question.png') });
      await walk('the camera asks about a tile', problems);
      app.store.decideProposal(q, 'rejected');
      app.camera.askEverything(false);
    }

    // Final scoring asked for early (at the start of a turn): the question says what is left.
    play(commands.slice(app.session.currentGame!.history.length, commands.findIndex((c, i) => i >= app.session.currentGame!.history.length && c.type === 'endTurn') + 1));
    await caughtUp();
    await page.getByTestId('finish').click();
    expect(await page.getByTestId('confirm-finish').textContent()).toMatch(/^\d+ tiles are still in the supply \(turn \d+\)\./);
    problems.push(...engineNotation(await visibleText()).map((f) => `final scoring asked: ${f}`));
    await page.getByTestId('confirm-finish-no').click();

    // A refusal: removing the figure a tower later captures breaks the game; said in words, its place lit.
    const captured = commands[capture]!;
    if (captured.type !== 'placeTowerFloor' || !captured.capture) throw new Error('expected a capture');
    const [cx, cy] = captured.capture.at;
    const placedThere = commands.findIndex((c, i) => {
      if (i >= capture || c.type !== 'placeMeeple') return false;
      const tile = commands.slice(0, i).findLast((t) => t.type === 'placeTile');
      return tile?.type === 'placeTile' && tile.at[0] === cx && tile.at[1] === cy;
    });
    expect(placedThere).toBeGreaterThanOrEqual(0);
    await page.locator('button[data-screen=log]').click();
    await page.locator(`li[data-index="${placedThere}"] > button`, { hasText: 'Remove' }).click();
    const alert = page.locator('[data-testid=message][role=alert]');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/the correction makes the game illegal: move \d+ \(/);
    // On the board, the place the refusal speaks of is lit (and only it).
    await page.locator('button[data-screen=play]').click();
    expect(await page.locator('[data-testid=board] rect.spoken').evaluateAll((els) => els.map((e) => e.getAttribute('data-lit')))).toEqual([`${cx},${cy}`]);
    await page.screenshot({ path: join(SHOTS, 'words-refusal.png') });
    problems.push(...engineNotation(await visibleText()).map((f) => `a refusal shown: ${f}`));
    await page.locator('[data-testid=message] .close').click();

    // The whole game and its final scoring, imported at once (playing the rest move by move costs a
    // minute on a busy machine and shows nothing new): the audit, the games list.
    const whole = app.session.importRecord(JSON.stringify(record));
    if (!whole.ok) throw new Error(whole.reason);
    await walk('the game over', problems, 'tower-final');
    for (const [i, s] of (record.expect?.final ?? []).entries()) expect(Number(await page.getByTestId(`total-${i}`).textContent())).toBe(s);

    // The developer view shows the engine's commands, which is what it is for.
    await page.locator('button[data-screen=log]').click();
    await page.getByTestId('developer-view').check();
    expect(engineNotation(await visibleText()).length).toBeGreaterThan(0);
    await page.getByTestId('developer-view').uncheck();
    report(problems, 'tower');
    expect([...new Set(problems)]).toEqual([]);
  }, 240_000);

  it('Jousts & Crests + Siege & Defense: every screen at the moments that say the most', async () => {
    const problems: string[] = [];
    const setup = setupFromNewGame(NEW_GAME);
    const played = randomGame(setup, 6, { nominateRate: 0.7, postRate: 0.7 });
    const commands = played.commands;
    await page.locator('button[data-screen=new]').click();
    // A game is in progress (the Tower game is finished): New Game replaces it unasked.
    const id = app.session.newGame(setup);
    expect(id.ok).toBe(true);
    await walk('a new 2025 game', problems);
    const moments: [string, (g: Game) => boolean][] = [
      ['a nomination made', (g) => g.state.jc!.nominated.size > 0 && g.state.turn.step === 'tile'],
      ['a siege symbol to resolve', (g) => g.state.sd!.pending.length > 0],
      ['an attack: a meeple to remove', (g) => g.state.sd!.attack !== null],
      ['a tournament being revealed', (g) => g.state.jc!.tournament !== null],
      ['a prize tile to place', (g) => g.state.jc!.players.some((p) => p.prizesHeld > 0)],
    ];
    // Each moment where it first comes, visited in game order.
    const order = moments.map(([name, when]) => ({ name, i: firstWhere(setup, commands, when) })).sort((a, b) => a.i - b.i);
    let at = 0;
    for (const { name, i } of order) {
      if (i < 0) throw new Error(`seed 6 never reaches ${name}`);
      play(commands.slice(app.session.currentGame!.history.length, i));
      at = i;
      await walk(name, problems, name.replace(/[^a-z]+/g, '-'));
    }
    // A camera question about a prize or land tile read at the cell it lies on, later in the game.
    const tile = commands.findIndex((c, i) => i >= at && c.type === 'placeTile');
    play(commands.slice(app.session.currentGame!.history.length, tile));
    const c = commands[tile]!;
    const q = await ask(c, [], 0.97, `the engine rejects it: the tile drawn this turn is ${app.session.currentGame!.state.turn.drawn ?? 'JC-L-A'}, not JC-L-B`);
    await walk('the camera asks about a tile the rules refuse', problems);
    app.store.decideProposal(q, 'rejected');
    const exported = exportRecord(played);
    if (!exported.ok) throw new Error(exported.reason);
    const whole = app.session.importRecord(JSON.stringify(exported.value));
    if (!whole.ok) throw new Error(whole.reason);
    expect(app.session.currentGame!.state.finished).toBe(true);
    await walk('the 2025 game over', problems, '2025-final');
    report(problems, '2025');
    expect([...new Set(problems)]).toEqual([]);
  }, 240_000);
});
