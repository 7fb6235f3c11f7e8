/** The game in progress in words, for the questions asked before it is replaced or ended. */
import type { Snapshot } from '../../../electron/contract/snapshot.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Ada and Bo, turn 12, 60 tiles left", or null when no unfinished game is open. */
export function gameInProgress(snapshot: Snapshot | null): string | null {
  const g = snapshot?.game;
  if (!g || g.finished) return null;
  const names = g.players.map((p) => p.name);
  const who = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  return `${who}, turn ${g.turn.number}, ${plural(g.tilesLeft, 'tile', 'tiles')} left`;
}

export function tilesLeftText(n: number): string {
  return `${plural(n, 'tile is', 'tiles are')} still in the supply`;
}
