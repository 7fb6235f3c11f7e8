/**
 * One line of plain language per command and event, for the event log and the camera's questions:
 * players by name, tiles in words, places lit on the board (words.ts). The command itself stays in
 * the log entry for exports and the developer view.
 */
import type { Command } from '../../../engine/game/commands.js';
import type { GameEvent } from '../../../engine/game/events.js';
import { explain } from '../../../engine/scoring/explain.js';
import { count, listWords, type Place, type Said, type TableWords } from './words.js';

const FIGURE: Readonly<Record<string, string>> = { normal: 'meeple', big: 'big meeple', abbot: 'abbot' };
const POST: Readonly<Record<string, string>> = { knights: 'knights', travelers: 'travelers', monks: 'monks' };
const ENTRANT: Readonly<Record<string, string>> = { road: 'traveler', city: 'knight', field: 'farmer' };
const turned = (rot: number) => (rot === 0 ? 'unturned' : `turned ${rot}°`);

/** Builds a sentence from parts, collecting the places of the lit ones. */
function said(parts: readonly (string | Said)[]): Said {
  const places: Place[] = [];
  const text = parts.map((p) => (typeof p === 'string' ? p : (places.push(...p.places), p.text))).join('');
  return { text, places };
}

/**
 * `tileThisTurn`: where the tile of the command's turn lies (a figure's `on` names a feature of it);
 * null when none is laid yet.
 */
export function describeCommand(c: Command, w: TableWords, tileThisTurn: readonly [number, number] | null = null): Said {
  const who = (p: number) => w.name(p);
  const at = (xy: readonly [number, number], on: string | null = null) => w.place(xy[0], xy[1], on);
  switch (c.type) {
    case 'placeTile':
      return said([`${who(c.player)} lays ${w.tile(c.tile)} on `, at(c.at), `, ${turned(c.rot)}`]);
    case 'discardTile':
      return said([`${who(c.player)} discards ${w.tile(c.tile)} (it fits nowhere)`]);
    case 'placeMeeple':
      return tileThisTurn
        ? said([`${who(c.player)} puts a ${FIGURE[c.kind] ?? c.kind} on `, at(tileThisTurn, c.on)])
        : said([`${who(c.player)} puts a ${FIGURE[c.kind] ?? c.kind} on the new tile`]);
    case 'endTurn':
      return said([`${who(c.player)} ends the turn`]);
    case 'finishGame':
      return said(['final scoring']);
    case 'placeTowerFloor':
      return said([`${who(c.player)} adds a floor to the tower on `, at(c.at), ...(c.capture ? [`, capturing ${who(c.capture.player)}'s figure on `, at(c.capture.at, c.capture.on)] : [])]);
    case 'closeTower':
      return said([`${who(c.player)} closes the tower on `, at(c.at), ` with a ${FIGURE[c.kind] ?? c.kind}`]);
    case 'payRansom':
      return said([`${who(c.player)} pays ransom to ${who(c.prisonerOf)} for a ${FIGURE[c.kind] ?? c.kind}`]);
    case 'returnAbbot':
      return said([`${who(c.player)} takes the abbot back from `, at(c.at)]);
    case 'drawTile':
      return said([`${who(c.player)} draws ${w.tile(c.tile)}`]);
    case 'resolveTournament':
      return said([`${who(c.player)} cannot draw: the tournament is resolved`]);
    case 'revealEmblem':
      return said([`${who(c.owner)} reveals the emblem under the figure on `, at(c.at, c.on), `: ${c.value}`]);
    case 'placeTournamentTile':
      return said([`${who(c.player)} lays the tournament tile on `, at(c.at), `, ${turned(c.rot)}`]);
    case 'placePrizeTile':
      return said([`${who(c.player)} lays the prize tile ${w.tile(c.tile)} on `, at(c.at), `, ${turned(c.rot)}`]);
    case 'discardPrizeTile':
      return said([`${who(c.player)}'s prize tile ${w.tile(c.tile)} fits nowhere`]);
    case 'nominate':
      return said([`${who(c.player)} slides an emblem under the figure on `, at(c.at, c.on)]);
    case 'skipTurn':
      return said([`${who(c.player)} has no prize tile to place`]);
    case 'resolveSiegeSymbol':
      return said([`siege symbol at the ${POST[c.post] ?? c.post} post`]);
    case 'removeMeepleForAttack':
      return said([`${who(c.owner)} removes the figure on `, at(c.at, c.on), ' (attack)']);
    case 'placeAtDefencePost':
      return said([`${who(c.player)} sends a meeple to the ${POST[c.post] ?? c.post} post (${c.space === 'row' ? 'row' : 'meeple space'})`]);
  }
}

export function describeEvent(e: GameEvent, w: TableWords): Said | null {
  const who = (p: number) => w.name(p);
  switch (e.type) {
    case 'scored':
      return said([`${listWords(e.players.map(who))} ${e.points < 0 ? '−' : '+'}${count(Math.abs(e.points), 'point')} — ${explain(e)}`]);
    case 'meepleReturned':
      return said([`${who(e.player)}'s ${FIGURE[e.kind] ?? e.kind} comes back from `, w.place(e.at[0], e.at[1], e.on)]);
    case 'meepleCaptured':
      return said([`${who(e.by)} captures ${who(e.player)}'s ${FIGURE[e.kind] ?? e.kind} on `, w.place(e.at[0], e.at[1], e.on)]);
    case 'prisonersExchanged':
      return said(['prisoners exchanged']);
    case 'ransomPaid':
      return said([`${who(e.payer)} pays 3 points to ${who(e.prisonerOf)}`]);
    case 'tournamentStarted': {
      const kind = ENTRANT[e.category];
      return said([e.participants.length === 0
        ? `${e.final ? 'the final' : 'the'} ${e.category} tournament has no entrants: nobody has a nominated ${kind} on the board, so nobody reveals and nobody wins a prize tile`
        : `${e.final ? 'the final' : 'the'} ${e.category} tournament: ${listWords(e.participants.map(who))} ${e.participants.length === 1 ? 'reveals' : 'reveal in this order'}`]);
    }
    case 'emblemRevealed':
      return said([`${who(e.player)} reveals ${e.value} + ${e.bonus} = ${e.value + e.bonus} (the ${FIGURE[e.kind] ?? e.kind} on `, w.place(e.at[0], e.at[1], e.on), ')']);
    case 'tournamentResolved': {
      const winners = e.prizes.map(who);
      const parts = [winners.length ? `${listWords(winners)} ${winners.length === 1 ? 'wins a prize tile' : 'each win a prize tile'}` : 'nobody wins a prize tile'];
      if (e.leftover > 0) parts.push(`${count(e.leftover, 'prize tile')} ${e.final ? (e.leftover === 1 ? 'goes' : 'go') + ' out of play' : (e.leftover === 1 ? 'goes' : 'go') + ' to the final prize stack'}`);
      if (e.kept) parts.push(`${who(e.kept.player)} keeps the emblem (${e.kept.value}) for a statue`);
      return said([parts.join('; ')]);
    }
    case 'gameFinished':
      return said([`final totals: ${e.final.map((s, i) => `${who(i)} ${s}`).join(', ')}`]);
    default:
      return null;
  }
}
