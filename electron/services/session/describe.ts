/** One line of plain language per command and event, for the event log. */
import type { Command } from '../../../engine/game/commands.js';
import type { GameEvent } from '../../../engine/game/events.js';
import { explain } from '../../../engine/scoring/explain.js';

const xy = (p: readonly [number, number]) => `[${p[0]}, ${p[1]}]`;

export function describeCommand(c: Command, names: readonly string[]): string {
  const who = (p: number) => names[p] ?? `player ${p}`;
  switch (c.type) {
    case 'placeTile':
      return `${who(c.player)} places ${c.tile} at ${xy(c.at)}, turned ${c.rot}°`;
    case 'discardTile':
      return `${who(c.player)} discards ${c.tile} (it fits nowhere)`;
    case 'placeMeeple':
      return `${who(c.player)} puts a ${c.kind} meeple on ${c.on}`;
    case 'endTurn':
      return `${who(c.player)} ends the turn`;
    case 'finishGame':
      return 'final scoring';
    case 'placeTowerFloor':
      return `${who(c.player)} adds a tower floor at ${xy(c.at)}${c.capture ? `, capturing ${who(c.capture.player)}'s meeple at ${xy(c.capture.at)} ${c.capture.on}` : ''}`;
    case 'closeTower':
      return `${who(c.player)} closes the tower at ${xy(c.at)} with a ${c.kind} meeple`;
    case 'payRansom':
      return `${who(c.player)} pays ransom to ${who(c.prisonerOf)} for a ${c.kind} meeple`;
    case 'returnAbbot':
      return `${who(c.player)} takes the abbot back from ${xy(c.at)}`;
    case 'drawTile':
      return `${who(c.player)} draws ${c.tile}`;
    case 'resolveTournament':
      return `${who(c.player)} cannot draw: the tournament is resolved`;
    case 'revealEmblem':
      return `${who(c.owner)} reveals the emblem under the meeple at ${xy(c.at)} ${c.on}: ${c.value}`;
    case 'placeTournamentTile':
      return `${who(c.player)} places the tournament tile at ${xy(c.at)}, turned ${c.rot}°`;
    case 'placePrizeTile':
      return `${who(c.player)} places the prize tile ${c.tile} at ${xy(c.at)}, turned ${c.rot}°`;
    case 'discardPrizeTile':
      return `${who(c.player)}'s prize tile ${c.tile} fits nowhere`;
    case 'nominate':
      return `${who(c.player)} slides an emblem under the meeple at ${xy(c.at)} ${c.on}`;
    case 'skipTurn':
      return `${who(c.player)} has no prize tile to place`;
    case 'resolveSiegeSymbol':
      return `siege symbol at the ${c.post} post`;
    case 'removeMeepleForAttack':
      return `${who(c.owner)} removes a meeple at ${xy(c.at)} ${c.on} (attack)`;
    case 'placeAtDefencePost':
      return `${who(c.player)} sends a meeple to the ${c.post} post (${c.space === 'row' ? 'row' : 'meeple space'})`;
  }
}

export function describeEvent(e: GameEvent, names: readonly string[]): string | null {
  const who = (p: number) => names[p] ?? `player ${p}`;
  switch (e.type) {
    case 'scored':
      return `${e.players.map(who).join(' and ')} +${e.points} — ${explain(e)}`;
    case 'meepleReturned':
      return `${who(e.player)}'s ${e.kind} meeple comes back from ${xy(e.at)} ${e.on}`;
    case 'meepleCaptured':
      return `${who(e.by)} captures ${who(e.player)}'s ${e.kind} meeple at ${xy(e.at)}`;
    case 'prisonersExchanged':
      return `prisoners exchanged`;
    case 'ransomPaid':
      return `${who(e.payer)} pays 3 points to ${who(e.prisonerOf)}`;
    case 'gameFinished':
      return `final totals: ${e.final.map((s, i) => `${who(i)} ${s}`).join(', ')}`;
    default:
      return null;
  }
}
