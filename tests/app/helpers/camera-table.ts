/**
 * The table beside a camera, for tests: what players do next, given the ground truth of the recorded
 * game, the game as the companion holds it, and the camera's open questions. The table enters what no
 * camera can see, answers the picker from the truth (the true reading when it is among the top 3,
 * else reject and enter it by hand), enters a move the camera could not read, and takes back a move
 * the camera committed wrongly (counted, so tests can insist there are none).
 */
import type { Command } from '../../../engine/game/commands.js';
import { sameMove } from '../../../models/track/replay.js';
import { isCameraMove } from '../../../electron/services/demo/demo-table.js';
import { defaultCatalog } from '../../../engine/game/engine.js';
import { quarterTurns } from '../../../engine/geometry/segments.js';
import { sameUpToSymmetry } from '../../../models/classes.js';

export { agreed, isCameraMove, manifestWithoutDraws, nextStep, withoutImpliedDraws, type TableSees, type TableStep } from '../../../electron/services/demo/demo-table.js';

/** The table enters what no camera sees up to the first move the camera reads. */
export function enterUntilCamera(truth: readonly Command[], play: (c: Command) => { ok: true } | { ok: false; reason: string }): void {
  for (const c of truth) {
    if (isCameraMove(c)) break;
    const r = play(c);
    if (!r.ok) throw new Error(`${c.type}: ${r.reason}`);
  }
}

/** A tile type's drawn features as one string (segment lists sorted): tiles alike on the board share it. */
function shape(id: string): string | null {
  const t = defaultCatalog().get(id);
  return t ? JSON.stringify(t.features.map((f) => `${f.kind}:${[...f.segments].sort((a, b) => a - b).join(',')}`).sort()) : null;
}

/**
 * The same move, or the same cell and turn with a tile of the same shape: the provisional 2025 land
 * tiles share their drawing with base tiles (models/track/templates.ts `look`), so without the draw
 * told no camera can tell them apart, and either scores the same.
 */
export function sameOrLookAlike(a: Command, b: Command): boolean {
  if (sameMove(a, b)) return true;
  if (a.type !== 'placeTile' || b.type !== 'placeTile' || a.at[0] !== b.at[0] || a.at[1] !== b.at[1]) return false;
  const tile = defaultCatalog().get(a.tile);
  return !!tile && shape(a.tile) !== null && shape(a.tile) === shape(b.tile) && sameUpToSymmetry(tile, quarterTurns(a.rot), quarterTurns(b.rot));
}

/** A look-alike of `id` that the supply still holds, for a tile the camera took for its look-alike earlier. */
export function lookAlikeLeft(id: string, left: (id: string) => number): string | null {
  const s = shape(id);
  for (const t of defaultCatalog().all()) if (t.id !== id && shape(t.id) === s && left(t.id) > 0) return t.id;
  return null;
}
