/**
 * What the table must do next, in the classic game. A seam: the engine's own reminders (issue 3,
 * with tournaments, sieges and prize tiles) replace this function when they land.
 */
import type { GameState } from '../../../engine/game/state.js';

export function classicReminders(state: GameState, tilesLeft: number): string[] {
  const name = state.setup.players[state.turn.player]?.name ?? `player ${state.turn.player}`;
  if (state.finished) return ['The game is over: compare the audit with the score track.'];
  const out: string[] = [];
  switch (state.turn.step) {
    case 'tile':
      out.push(tilesLeft > 0 ? `${name}: draw a tile and place it (${tilesLeft} left).` : 'No tiles left: run final scoring.');
      if (state.players[state.turn.player]?.prisoners.length) out.push(`${name} holds prisoners: ransom may be paid before the tile.`);
      break;
    case 'action': {
      const tower = state.setup.expansions.includes('tower') ? ', a tower floor' : '';
      out.push(`${name}: place a figure${tower}, or end the turn.`);
      break;
    }
    case 'actionDone':
      out.push(`${name}: end the turn to score.`);
      break;
  }
  return out;
}
