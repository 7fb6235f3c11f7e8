/**
 * `all-expansions game`: random legal games with every expansion at once (base, River, Abbot, Inns &
 * Cathedrals, Tower, Jousts & Crests, Siege & Defense), 2–6 players, final scoring included, one core;
 * the median of several rounds after a warm-up.
 */
import type { ExpansionId } from '../engine/catalog/types.js';
import { makeSetup } from '../engine/game/setup.js';
import { randomGame } from '../engine/sim/random-game.js';
import { line, median, time } from './stats.js';

const ALL: ExpansionId[] = ['base', 'river', 'abbot', 'inns-cathedrals', 'tower', 'jousts-crests', 'siege-defense'];
const COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink'];

export function allExpansionsGames(rounds = 9, gamesPerRound = 20, warmUpGames = 400): string {
  const setups = [2, 3, 4, 5, 6].map((n) => makeSetup({ expansions: ALL, players: COLORS.slice(0, n).map((color, i) => ({ name: `P${i}`, color })) }));
  // Steady state, as for the corpus figure: untimed games first, so that the figure is the engine's
  // and not the JIT compiler's warm-up (which takes a few hundred games here, longer when the shared
  // machine is busy and the background compiler waits for a core). The timed games are other seeds.
  for (let i = 0; i < warmUpGames; i++) randomGame(setups[i % setups.length]!, -1 - i);
  let seed = 1;
  const ms = median(time(rounds, () => {
    for (let i = 0; i < gamesPerRound; i++) randomGame(setups[i % setups.length]!, seed++);
  }));
  return line('all-expansions game', (gamesPerRound / ms) * 1000, 'games/s');
}
