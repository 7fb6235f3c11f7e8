/** Entering a command by hand through the panels of the Board screen, as a player would. */
import type { Page } from 'playwright-core';
import type { Command } from '../../../engine/game/commands.js';
import { act } from './browser.js';

const spot = (at: readonly [number, number], on: string) => `${at[0]},${at[1]}:${on}`;

export async function enterByHand(page: Page, c: Command, names: readonly string[]): Promise<void> {
  const entry = page.getByTestId('move-entry');
  const entry25 = page.getByTestId('entry-2025');
  const tournament = page.getByTestId('tournament-panel');
  const done = (what: string, action: () => Promise<void>) => act(page, what, action);
  switch (c.type) {
    case 'drawTile':
      await entry25.locator('input[name=drawTile]').fill(c.tile);
      return done(`draw ${c.tile}`, () => entry25.getByRole('button', { name: 'Draw' }).click());
    case 'placeTile':
      await entry.locator('input[name=tile]').fill(c.tile);
      await entry.locator('input[name=x]').fill(String(c.at[0]));
      await entry.locator('input[name=y]').fill(String(c.at[1]));
      await entry.locator('select[name=rot]').selectOption(String(c.rot));
      return done(`place ${c.tile}`, () => entry.getByRole('button', { name: 'Place tile' }).click());
    case 'discardTile':
      await entry.locator('input[name=tile]').fill(c.tile);
      return done('discard', () => entry.getByRole('button', { name: 'Discard' }).click());
    case 'placeMeeple':
      await entry.locator('select[name=spot]').selectOption(`${c.kind}:${c.on}`);
      return done(`figure on ${c.on}`, () => entry.getByRole('button', { name: 'Place figure' }).click());
    case 'endTurn':
      return done('end turn', () => page.getByTestId('end-turn').click());
    case 'finishGame':
      return done('final scoring', () => page.getByTestId('finish').click());
    case 'placeTowerFloor': {
      await entry.locator('input[name=targetX]').fill(String(c.at[0]));
      await entry.locator('input[name=targetY]').fill(String(c.at[1]));
      if (c.capture) {
        if (c.capture.exchangeFor) throw new Error('the manual entry has no exchange choice yet');
        await entry.locator('select[name=capPlayer]').selectOption(String(c.capture.player));
        await entry.locator('input[name=capX]').fill(String(c.capture.at[0]));
        await entry.locator('input[name=capY]').fill(String(c.capture.at[1]));
        await entry.locator('input[name=capOn]').fill(c.capture.on);
        await entry.locator('select[name=capKind]').selectOption(c.capture.kind ?? '');
      }
      return done('tower floor', () => entry.getByRole('button', { name: 'Add tower floor' }).click());
    }
    case 'closeTower':
      await entry.locator('input[name=targetX]').fill(String(c.at[0]));
      await entry.locator('input[name=targetY]').fill(String(c.at[1]));
      await entry.locator('select[name=closeKind]').selectOption(c.kind);
      return done('close tower', () => entry.getByRole('button', { name: 'Close the tower' }).click());
    case 'payRansom':
      return done('ransom', () => entry.getByRole('button', { name: `Pay ransom to ${names[c.prisonerOf]} (${c.kind})` }).click());
    case 'resolveTournament':
      return done('tournament', () => tournament.getByTestId('resolve-tournament').click());
    case 'revealEmblem': {
      const form = tournament.getByTestId('reveal-entry');
      await form.locator('select[name=revealSpot]').selectOption(spot(c.at, c.on));
      await form.locator('input[name=emblemValue]').fill(String(c.value));
      return done('reveal', () => form.getByRole('button', { name: 'Reveal' }).click());
    }
    case 'nominate':
      await tournament.locator('select[name=nominate]').selectOption(spot(c.at, c.on));
      return done('nominate', () => tournament.getByRole('button', { name: 'Nominate' }).click());
    case 'placePrizeTile':
      await entry25.locator('input[name=prizeTile]').fill(c.tile);
      await entry25.locator('input[name=px]').fill(String(c.at[0]));
      await entry25.locator('input[name=py]').fill(String(c.at[1]));
      await entry25.locator('select[name=prot]').selectOption(String(c.rot));
      return done(`prize ${c.tile}`, () => entry25.getByRole('button', { name: 'Place prize tile' }).click());
    case 'discardPrizeTile':
      await entry25.locator('input[name=prizeTile]').fill(c.tile);
      return done('prize fits nowhere', () => entry25.getByRole('button', { name: 'Prize tile fits nowhere' }).click());
    case 'skipTurn':
      return done('skip', () => entry25.getByTestId('skip-turn').click());
    default:
      throw new Error(`no entry by hand for ${c.type} in this helper`);
  }
}
