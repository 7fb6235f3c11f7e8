/** Is this step what the engine's reminders say comes next (a required step, or an offered option)? */
import type { GameView } from '../../../electron/contract/snapshot.js';

export function due(game: GameView, what: string): boolean {
  return game.next.some((n) => n.what === what);
}
