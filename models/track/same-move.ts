/**
 * Whether two commands are the same move: a tile at the same cell turned the same up to its
 * symmetry, anything else equal field by field. Kept light (catalog and symmetry only) so the app's
 * services can use it without loading OpenCV or the renderer (models/track/replay.ts does).
 */
import type { Command } from '../../engine/game/commands.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { quarterTurns } from '../../engine/geometry/segments.js';
import { sameUpToSymmetry } from '../classes.js';

export function sameMove(a: Command, b: Command): boolean {
  if (a.type !== b.type) return false;
  if ((a.type === 'placeTile' || a.type === 'placePrizeTile') && (b.type === 'placeTile' || b.type === 'placePrizeTile')) {
    const tile = defaultCatalog().get(a.tile);
    return a.tile === b.tile && a.at[0] === b.at[0] && a.at[1] === b.at[1] && !!tile && sameUpToSymmetry(tile, quarterTurns(a.rot), quarterTurns(b.rot));
  }
  return JSON.stringify(a) === JSON.stringify(b);
}
