/**
 * Entering a command on the Board screen as a player would (issue 29): by clicks and keys only, never
 * by typing. The tile is clicked in the picker, the board's lit cell hovered, turned with R until it
 * shows the recorded turn (Shift+R backwards when nearer) and laid with Enter — or, when a figure
 * follows, by clicking the figure's spot drawn on the tile shown; a figure is its spot clicked on the
 * tile; a turn with nothing more is ended by picking the next tile; a tower, a meeple to capture, an
 * abbot, a prisoner are clicked where they are drawn. Every click and key press is counted
 * (`inputs`), so a test can say how many a turn took.
 */
import type { Page } from 'playwright-core';
import type { Command } from '../../../engine/game/commands.js';

// The callbacks below run in the page; these are the few DOM names they use.
declare const document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

const WORD: Record<string, string> = { normal: 'meeple', big: 'big meeple', abbot: 'abbot' };

export interface ClickEntry {
  /**
   * Enters `c`. With `next` (the command after it) the entry may fold two into one input as a player
   * would: a tile laid by clicking the figure spot shown on it, a turn ended by picking the next tile.
   */
  enter(c: Command, next?: Command): Promise<void>;
  /** Called between the clicks of a move (the tile picked, the tile shown on its cell, the spots drawn): screenshots. */
  pause: ((stage: 'picked' | 'shown' | 'spots') => Promise<void>) | null;
  /** Clicks and key presses so far. */
  readonly inputs: number;
}

export function clickEntry(page: Page): ClickEntry {
  let inputs = 0;
  /** The tile drawn last: the picker has it picked already. */
  let drawn: string | null = null;
  const entry = page.getByTestId('move-entry');
  const click = async (l: ReturnType<Page['locator']>) => {
    inputs++;
    await l.click();
  };
  const press = async (key: string) => {
    inputs++;
    await page.keyboard.press(key);
  };
  /**
   * Does one thing and waits, in one round trip where it can, for the command it sends (and an end
   * of turn that follows it by itself) to be done; a refusal fails with its words.
   */
  const done = async (what: string, action: () => Promise<void>) => {
    const before = await page.evaluate(() => ({
      version: Number(document.querySelector('main')?.getAttribute('data-version')),
      alert: document.querySelector('[data-testid=message][role=alert]') !== null,
    }));
    if (before.alert) await page.locator('[data-testid=message] .close').click();
    await action();
    const outcome = await page.waitForFunction((v) => {
      if (document.querySelector('[data-testid=message][role=alert]')) return 'refused';
      const version = Number(document.querySelector('main')?.getAttribute('data-version'));
      const busy = document.querySelector('[data-testid=move-entry]')?.getAttribute('data-busy') === 'true';
      return version > v && !busy ? 'done' : false;
    }, before.version);
    if ((await outcome.jsonValue()) === 'refused') throw new Error(`${what}: ${await page.locator('[data-testid=message][role=alert]').textContent()}`);
  };
  const step = async () => (await entry.getAttribute('data-step')) ?? '';
  const meeple = (player: number, at: readonly [number, number], on: string, kind?: string) =>
    page.locator(`[data-testid=board] g[data-meeple="${player}:${on}"][data-at="${at[0]},${at[1]}"]${kind ? `[data-kind=${kind}]` : ''}[data-target-meeple]`).first();

  /** The figure already placed with the tile (its spot clicked on the tile shown). */
  let figureDone = false;
  /** The turn left open: the next tile's pick ends it. */
  let endedByPick = false;

  /** Picks the tile in the picker (unless it is picked already: drawn or read by the camera). */
  async function pick(tile: string) {
    if (drawn === tile) {
      drawn = null;
      return;
    }
    if (endedByPick) {
      endedByPick = false;
      await done(`next tile ${tile}`, () => click(page.locator(`[data-testid=tile-picker][data-next=true] button[data-pick="${tile}"]`)));
      if (self.pause) {
        await page.locator(`[data-testid=tile-picker] button[data-pick="${tile}"][aria-pressed=true]`).waitFor();
        await self.pause('picked');
      }
      return;
    }
    await click(page.locator(`[data-testid=tile-picker] button[data-pick="${tile}"]`));
    await self.pause?.('picked');
  }

  /**
   * Lays the picked tile: hover the lit cell, R until the recorded turn shows, Enter — or, when a
   * figure follows, a click on its spot drawn on the tile shown (tile and figure in one click).
   */
  async function lay(tile: string, at: readonly [number, number], rot: number, what: string, figure?: { kind: string; on: string }) {
    // The cells lit for this tile (not the last pick's, nor before the last move).
    await page.locator(`[data-testid=board][data-placements="${tile}"]`).waitFor();
    const cell = page.locator(`[data-testid=board] rect[data-cell="${at[0]},${at[1]}"]`);
    const rots = ((await cell.getAttribute('data-rots')) ?? '').split(',').map(Number);
    const k = rots.indexOf(rot);
    if (k < 0) throw new Error(`${what}: turned ${rot} is not among the lit turns ${rots.join(', ')} there`);
    // The pointer's move is handled before the next key arrives: R turns the tile shown there.
    // Forced: the tile already shown there (its figure spots) may lie over the cell's middle; the
    // board reads the pointer's position, not what is under it.
    await cell.hover({ force: true });
    // R forwards, Shift+R backwards: whichever reaches the recorded turn in fewer presses.
    const back = rots.length - k < k;
    for (let i = 0; i < (back ? rots.length - k : k); i++) await press(back ? 'Shift+R' : 'r');
    if (self.pause) {
      await page.locator(`[data-testid=board] [data-ghost="${at[0]},${at[1]}"][data-turn="${k}"]`).waitFor();
      await self.pause('shown');
    }
    if (figure) {
      await page.locator(`[data-testid=board] [data-ghost="${at[0]},${at[1]}"][data-turn="${k}"]`).waitFor();
      figureDone = true;
      return done(`${what} with a figure on ${figure.on}`, () => click(page.locator(`[data-testid=board] [data-ghost-spot="${figure.kind}|${figure.on}"]`)));
    }
    await done(what, () => press('Enter'));
  }

  async function enter(c: Command, next?: Command): Promise<void> {
    switch (c.type) {
      case 'placeTile':
        await pick(c.tile);
        return lay(c.tile, c.at, c.rot, `place ${c.tile}`, next?.type === 'placeMeeple' && !self.pause ? next : undefined);
      case 'placePrizeTile':
        await pick(c.tile);
        return lay(c.tile, c.at, c.rot, `prize ${c.tile}`);
      case 'placeTournamentTile':
        return lay('JC-TOURNAMENT-RIVER', c.at, c.rot, 'tournament tile');
      case 'discardTile':
      case 'discardPrizeTile':
        await pick(c.tile);
        await entry.getByTestId('discard').waitFor();
        return done('discard', () => press('d'));
      case 'placeMeeple':
        if (figureDone) {
          figureDone = false;
          return;
        }
        await self.pause?.('spots');
        return done(`figure on ${c.on}`, () => click(page.locator(`[data-testid=board] [data-spot="${c.kind}|${c.on}"]`)));
      case 'endTurn': {
        // Ended already by itself when nothing else could follow the action.
        const s = await step();
        if (s === 'tile') return;
        if (next?.type === 'placeTile' && (await page.locator('[data-testid=tile-picker][data-next=true]').count())) {
          endedByPick = true;
          return;
        }
        return done('end turn', () => press(s === 'action' ? 'n' : 'e'));
      }
      case 'finishGame':
        // With tiles still in the supply the table is asked first, and goes ahead.
        return done('final scoring', async () => {
          const before = Number(await page.locator('main').getAttribute('data-version'));
          await click(page.getByTestId('finish'));
          if (await askedToFinish(page, before)) await click(page.getByTestId('confirm-finish-yes'));
        });
      case 'placeTowerFloor': {
        const tower = page.locator(`[data-testid=board] [data-target-tower="${c.at[0]},${c.at[1]}"]`);
        const choices = entry.getByTestId('tower-choices');
        if (!c.capture) {
          // A tower with nothing else to do takes the floor at once; otherwise it asks.
          if ((await tower.getAttribute('data-direct')) === 'true') return done('tower floor', () => click(tower));
          await click(tower);
          await choices.waitFor();
          return done('tower floor', () => click(choices.getByRole('button', { name: /capturing nobody/ })));
        }
        await click(tower);
        const cap = c.capture;
        const target = meeple(cap.player, cap.at, cap.on, cap.kind);
        if (!cap.exchangeFor) return done('tower capture', () => click(target));
        await click(target);
        const options = entry.getByTestId('entry-options');
        return done('tower capture', () => click(options.getByRole('button', { name: new RegExp(`gives back your ${WORD[cap.exchangeFor!]} \\(`) })));
      }
      case 'closeTower': {
        await click(page.locator(`[data-testid=board] [data-target-tower="${c.at[0]},${c.at[1]}"]`));
        return done('close tower', () => click(entry.getByTestId('tower-choices').getByRole('button', { name: `Close the tower with a ${WORD[c.kind]} `, exact: false })));
      }
      case 'returnAbbot':
        return done('abbot back', () => click(page.locator(`[data-testid=board] g[data-kind=abbot][data-at="${c.at[0]},${c.at[1]}"][data-target-meeple]`).first()));
      case 'payRansom':
        return done('ransom', () => click(page.locator(`[data-testid=tower-panel] button[data-ransom="${c.prisonerOf}:${c.kind}"]`)));
      // Jousts & Crests and Siege & Defense, through their panels and the board.
      case 'drawTile': {
        await pick(c.tile);
        // The stack is clicked (Jousts & Crests); Siege & Defense alone has the draw button.
        const stack = page.getByTestId('draw-from-stack').or(page.getByTestId('draw')).first();
        await done(`draw ${c.tile}`, () => click(stack));
        drawn = c.tile;
        return;
      }
      case 'resolveTournament':
        return done('tournament', () => click(page.getByTestId('resolve-tournament')));
      case 'revealEmblem': {
        const form = page.getByTestId('reveal-entry');
        const choice = form.locator(`button[data-reveal="${c.at[0]},${c.at[1]},${c.on}"]`);
        if (await choice.count()) await click(choice);
        return done('reveal', () => click(form.locator(`button[data-value="${c.value}"]`)));
      }
      case 'nominate':
        return done('nominate', () => click(page.locator(`[data-testid=nominate-entry] button[data-nominate="${c.at[0]},${c.at[1]},${c.on}"]`)));
      case 'skipTurn':
        return done('skip', () => click(page.getByTestId('skip-turn')));
      case 'resolveSiegeSymbol': {
        const button = page.getByTestId('siege-symbols').getByRole('button', { name: `Resolve the ${c.post} symbol` });
        // A question mark: the post is clicked in its drawing.
        const target = (await button.count()) ? button : page.getByTestId(`post-${c.post}-pick`);
        return done('siege symbol', () => click(target));
      }
      case 'removeMeepleForAttack':
        return done('attack removal', () => click(meeple(c.owner, c.at, c.on, c.kind)));
      case 'placeAtDefencePost':
        return done('post', () => click(page.getByTestId(`post-${c.post}-pick`)));
      default:
        throw new Error(`no click entry for ${(c as Command).type} in this helper`);
    }
  }

  const self: ClickEntry = {
    enter,
    pause: null,
    get inputs() {
      return inputs;
    },
  };
  return self;
}

/**
 * After Final scoring is clicked: whether the table is asked first (tiles are still in the supply),
 * else the new snapshot of a game scored at once has come. Waits for whichever comes.
 */
function askedToFinish(page: Page, version: number): Promise<boolean> {
  return Promise.race([
    page.getByTestId('confirm-finish-yes').waitFor().then(() => true),
    page.waitForFunction((v) => Number(document.querySelector('main')?.getAttribute('data-version')) > v, version).then(() => false),
  ]);
}

/** Final scoring by its button, going ahead when asked first; returns once it is asked or done. */
export async function finishGame(page: Page): Promise<void> {
  const before = Number(await page.locator('main').getAttribute('data-version'));
  await page.getByTestId('finish').click();
  if (await askedToFinish(page, before)) await page.getByTestId('confirm-finish-yes').click();
}

const entries = new WeakMap<Page, ClickEntry>();

/** One command by clicks on this page (one counter per page); `next` as in `ClickEntry.enter`. */
export function enterByHand(page: Page, c: Command, next?: Command): Promise<void> {
  let e = entries.get(page);
  if (!e) entries.set(page, (e = clickEntry(page)));
  return e.enter(c, next);
}
