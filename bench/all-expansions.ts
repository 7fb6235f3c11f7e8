/**
 * `all-expansions game`: random legal games with every expansion at once (base, River, Abbot, Inns &
 * Cathedrals, Tower, Jousts & Crests, Siege & Defense), 2–6 players, final scoring included, one core.
 */
import type { ExpansionId } from '../engine/catalog/types.js';
import { makeSetup } from '../engine/game/setup.js';
import { randomGame } from '../engine/sim/random-game.js';
import { line, median, time } from './stats.js';

const ALL: ExpansionId[] = ['base', 'river', 'abbot', 'inns-cathedrals', 'tower', 'jousts-crests', 'siege-defense'];
const COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink'];

export function allExpansionsGames(rounds = 5, gamesPerRound = 20): string {
  const setups = [2, 3, 4, 5, 6].map((n) => makeSetup({ expansions: ALL, players: COLORS.slice(0, n).map((color, i) => ({ name: `P${i}`, color })) }));
  let seed = 1;
  randomGame(setups[0]!, 0);
  const ms = median(time(rounds, () => {
    for (let i = 0; i < gamesPerRound; i++) randomGame(setups[i % setups.length]!, seed++);
  }));
  return line('all-expansions game', (gamesPerRound / ms) * 1000, 'games/s');
}
