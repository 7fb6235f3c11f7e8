/**
 * Driving a Jousts & Crests and Siege & Defense game through the browser's panels (tests/app/e2e-2025*):
 * each engine command entered where the table enters it, the panels checked against the engine's
 * state, screenshots of each new panel.
 */
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Command } from '../../../engine/game/commands.js';
import { Game } from '../../../engine/game/game.js';
import { randomGame } from '../../../engine/sim/random-game.js';
import { setupFromNewGame, type NewGame } from '../../../electron/contract/setup.js';
import { act as actOn, openApp, pageVersion, SHOTS, type OpenApp } from './browser.js';
import { enterByHand } from './entry.js';

export { SHOTS };

// What the New Game screen is filled with below: Jousts & Crests with the crown starting on its
// second space, Siege & Defense with rows of 2 for two players (both off their defaults).
export const NEW_GAME: NewGame = {
  players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }],
  expansions: ['base', 'jousts-crests', 'siege-defense'],
  rules: { tinyCity: 4, farmers: true, innCathedralIncomplete: 'zero', towerCapture: 'mandatory' },
  tileSet: { edition: 'C2', riverStartTile: 'stack' },
  options: { jc: { crownSpaces: ['road', 'city', 'field'], crownStart: 1, startTileToBox: true, allowRenominate: true }, sd: { rowBase: [2, 4] } },
};
// Three players with The River and the default options: the tournament tile is placed at the first
// river bend (seed 1: command 9), and a placement lap skips a player without a prize tile.
export const NEW_GAME_RIVER: NewGame = {
  ...NEW_GAME,
  players: [...NEW_GAME.players, { name: 'Cy', color: 'green' }],
  expansions: ['base', 'river', 'jousts-crests', 'siege-defense'],
  options: { jc: { crownSpaces: ['road', 'city', 'field'], crownStart: 0, startTileToBox: true, allowRenominate: true }, sd: { rowBase: [3, 4] } },
};

const PLAIN: ReadonlySet<Command['type']> = new Set(['drawTile', 'placeTile', 'placeMeeple', 'endTurn']);

/**
 * Whether command `i` belongs to a turn, among turns `from` to `to` (counted from 0), that holds
 * nothing but a tile drawn and laid and a figure: a base-game turn, which the base game's own browser
 * test enters by clicks already (e2e.test.ts). A game's turns end with `endTurn`.
 */
export function inPlainTurn(commands: readonly Command[], i: number, from: number, to: number): boolean {
  let start = i;
  while (start > 0 && commands[start - 1]!.type !== 'endTurn') start--;
  let end = i;
  while (end < commands.length - 1 && commands[end]!.type !== 'endTurn') end++;
  let turn = 0;
  for (let k = 0; k < start; k++) if (commands[k]!.type === 'endTurn') turn++;
  if (turn < from || turn > to) return false;
  for (let k = start; k <= end; k++) if (!PLAIN.has(commands[k]!.type)) return false;
  return true;
}

/** Browser mode on a fresh SQLite file, and Debian's chromium with one page on it. */
export function open2025(): Promise<OpenApp> {
  return openApp('e2e-2025', { viewport: { width: 1400, height: 1000 } });
}

/** The table's hands on one page, for a game with these players. */
export function panels2025(page: Page, players: NewGame['players']) {
  const name = (i: number) => players[i]!.name;
  const version = () => pageVersion(page);

  const act = (what: string, action: () => Promise<void>) => actOn(page, what, action);

  let triedBadReveal = false;

  /** Where each required 2025 step is entered: the UI must mark it due (from the engine's reminders) before it is entered. */
  const DUE_AT: Partial<Record<Command['type'], string>> = {
    drawTile: 'draw-entry',
    resolveTournament: 'resolve-tournament',
    revealEmblem: 'reveal-entry',
    resolveSiegeSymbol: 'siege-symbols',
    removeMeepleForAttack: 'attack',
    placePrizeTile: 'prize-entry',
    skipTurn: 'skip-turn',
  };

  async function enter(c: Command, next?: Command): Promise<void> {
    const dueAt = DUE_AT[c.type];
    if (dueAt) expect(await page.getByTestId(dueAt).getAttribute('data-due'), `${c.type} marked due`).toBe('true');
    if (c.type === 'revealEmblem') {
      const form = page.getByTestId('reveal-entry');
      expect(await form.locator('b').first().textContent()).toBe(name(c.owner));
      if (!triedBadReveal) {
        // A value no emblem has (4) is refused in the engine's words, and nothing changes.
        triedBadReveal = true;
        const before = await version();
        const choice = form.locator(`button[data-reveal="${c.at[0]},${c.at[1]},${c.on}"]`);
        if (await choice.count()) await choice.click();
        await form.locator('button[data-value="4"]').click();
        await expect.poll(() => page.locator('[data-testid=message][role=alert]').textContent()).toContain('no hidden emblem of value 4');
        expect(await version()).toBe(before);
      }
    }
    // Every command by clicks and keys, as the table enters it (helpers/entry.ts).
    return enterByHand(page, c, next);
  }

  const text = async (l: Locator) => ((await l.textContent()) ?? '').trim();

  /** The panels on screen against the engine's state after the same commands. */
  async function checkPanels(game: Game): Promise<void> {
    const s = game.state;
    const jc = s.jc!;
    const sd = s.sd!;
    for (const [i, st] of jc.stacks.entries()) {
      expect(Number(await text(page.getByTestId(`stack-${i}-land`)))).toBe(st.land);
      expect(Number(await text(page.getByTestId(`stack-${i}-prizes`)))).toBe(st.prizes);
    }
    expect(Number(await text(page.getByTestId('final-prizes')))).toBe(jc.finalPrizes);
    expect(await text(page.getByTestId('crown-category'))).toBe(jc.options.crownSpaces[jc.crown]);
    // The drawn crown track: the crown sits on the engine's space.
    expect(await page.getByTestId('crown-track').getAttribute('data-at')).toBe(String(jc.crown));
    expect(await page.locator(`[data-testid=crown-track] g[data-space="${jc.crown}"] [data-crown]`).count()).toBe(1);
    for (const [i, p] of jc.players.entries()) {
      expect(Number(await text(page.getByTestId(`emblems-${i}`)))).toBe(p.emblems);
      expect(Number(await text(page.getByTestId(`prizes-held-${i}`)))).toBe(p.prizesHeld);
    }
    expect(await page.getByTestId('nominated').locator('li').count()).toBe(jc.nominated.size);
    for (const post of ['knights', 'travelers', 'monks'] as const) {
      const row = sd.posts[post].row.map(name).join(', ') || '—';
      expect(await text(page.getByTestId(`post-${post}-row`))).toBe(`${row} (${sd.posts[post].row.length}/${sd.rowLength})`);
      expect(await text(page.getByTestId(`post-${post}-catapult`))).toBe(sd.posts[post].catapult ? 'catapult' : '—');
      // The drawing: one place per row slot, filled by the owners in order; the catapult when there.
      const drawing = page.getByTestId(`post-${post}-drawing`);
      const owners = await drawing.locator('[data-place]').evaluateAll((els) => els.map((e) => e.getAttribute('data-owner')));
      expect(owners).toEqual(Array.from({ length: sd.rowLength }, (_, k) => String(sd.posts[post].row[k] ?? '')));
      expect(await drawing.locator('[data-catapult]').count()).toBe(sd.posts[post].catapult ? 1 : 0);
    }
    for (const [i, p] of s.players.entries()) expect(Number(await text(page.getByTestId(`total-${i}`)))).toBe(p.score);
    expect(await page.locator('[data-testid=board] g[data-tile]').count()).toBe(s.board.tiles.length);
  }

  /**
   * Enters the seeded random game's commands one by one, checking the panels against the engine.
   * `direct`: the commands played straight into the session (`play`) rather than clicked — a stretch
   * the test's point does not lie in; the screen catches up before the next click.
   */
  async function playThrough(newGame: NewGame, seed: number, prefix: string, direct?: { when: (i: number, commands: readonly Command[]) => boolean; play: (c: Command) => { ok: true; value: { version: number } } | { ok: false; reason: string } }): Promise<Game> {
    const setup = setupFromNewGame(newGame);
    const played = randomGame(setup, seed, { nominateRate: 0.7, postRate: 0.7 });
    const commands: readonly Command[] = played.commands;
    const mirror = Game.start(setup);
    if (!mirror.ok) throw new Error(mirror.reason);
    const game = mirror.value;
    const shots = new Set<string>();
    const panelShot = async (id: string, file: string) => {
      if (shots.has(file)) return;
      shots.add(file);
      await page.getByTestId(id).screenshot({ path: join(SHOTS, `${prefix}-${file}.png`) });
    };
    let caughtUp = 0;
    for (const [i, c] of commands.entries()) {
      if (direct?.when(i, commands)) {
        const r = direct.play(c);
        if (!r.ok) throw new Error(`the session refused command ${i}: ${r.reason}`);
        caughtUp = r.value.version;
        const m = game.play(c);
        if (!m.ok) throw new Error(`the engine refused command ${i}: ${m.reason}`);
        continue;
      }
      if (caughtUp) {
        await expect.poll(version).toBeGreaterThanOrEqual(caughtUp);
        caughtUp = 0;
      }
      // A tile laid is its own draw: the recorded draw is entered only where the rules still ask
      // for it first (a siege symbol, the first river bend, a tile that fits nowhere).
      const next = direct?.when(i + 1, commands) ? undefined : commands[i + 1];
      let implied = false;
      if (c.type === 'drawTile' && next?.type === 'placeTile' && next.tile === c.tile && game.play(next).ok) {
        // The engine takes the placement with no draw entered: undone here, played after the draw.
        implied = game.undo().ok;
      }
      if (!implied) await enter(c, next);
      const r = game.play(c);
      if (!r.ok) throw new Error(`the engine refused command ${i}: ${r.reason}`);
      const jc = game.state.jc!;
      const sd = game.state.sd!;
      if (jc.tournament && jc.tournament.reveals.length > 0) await panelShot('tournament-panel', '3-tournament-reveals');
      if (sd.attack) await panelShot('siege-panel', '4-siege-attack');
      // A tile laid with its figure in one click (or a turn the next pick ends) is ahead of the mirror until the next command.
      const folded = (c.type === 'placeTile' && next?.type === 'placeMeeple') || (c.type === 'endTurn' && next?.type === 'placeTile');
      if (!implied && !folded && (c.type === 'resolveSiegeSymbol' || c.type === 'removeMeepleForAttack' || c.type === 'resolveTournament' || c.type === 'revealEmblem' || i % 40 === 0)) {
        await checkPanels(game);
      }
      if (i === 200) {
        await panelShot('stacks-panel', '2-stacks');
        await panelShot('entry-2025', '5-entry');
      }
    }
    expect(game.state.finished).toBe(true);
    await checkPanels(game);
    for (const [i, p] of played.state.players.entries()) expect(Number(await text(page.getByTestId(`total-${i}`)))).toBe(p.score);
    // Statues with the kept emblems, face up: as many on screen as the engine holds.
    expect(await page.getByTestId('statues').locator('li').count()).toBe(game.state.jc!.statues.length);
    await panelShot('tournament-panel', '6-tournament-final');
    await panelShot('siege-panel', '7-siege-final');
    await page.screenshot({ path: join(SHOTS, `${prefix}-8-board-final.png`) });
    expect(shots.has('3-tournament-reveals') && shots.has('4-siege-attack')).toBe(true);
    return game;
  }

  return { act, enter, checkPanels, playThrough, text, version };
}
