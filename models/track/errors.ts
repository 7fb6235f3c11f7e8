/**
 * One class per camera-readable move of a replay (docs/tracking.md, "Where the errors are"): what
 * part of the reading was wrong, or that it was right but not sure enough to commit.
 */
import { sameUpToSymmetry } from '../classes.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { quarterTurns } from '../../engine/geometry/segments.js';
import { sameMove, type MoveOutcome } from './replay.js';

export function classifyOutcome(o: MoveOutcome): string {
  if (o.result === 'extra') return o.got?.type === 'placeMeeple' ? 'figure: seen where there was none (committed, taken back)' : `extra ${o.got?.type}`;
  const t = o.truth!;
  const isTile = t.type === 'placeTile' || t.type === 'placePrizeTile';
  const what = isTile ? 'tile' : t.type === 'placeMeeple' ? 'figure' : t.type;
  if (o.result === 'exact') return `${what}: exact`;
  if (o.result === 'missed') return isTile ? 'tile: not seen (the table entered it)' : `${what}: not seen (the table entered it)`;
  const how = o.result === 'wrong' ? 'committed wrong' : o.result === 'refused' ? 'refused by the engine' : 'unsure, left to the table';
  const got = o.got!;
  if (sameMove(got, t)) return `${what}: right but ${how}`;
  if (isTile && (got.type === 'placeTile' || got.type === 'placePrizeTile')) {
    if (got.at[0] !== t.at[0] || got.at[1] !== t.at[1]) return `tile: wrong cell, ${how}`;
    if (got.tile !== t.tile) return `tile: wrong type, ${how}`;
    const tile = defaultCatalog().get(t.tile)!;
    if (!sameUpToSymmetry(tile, quarterTurns(got.rot), quarterTurns(t.rot))) return `tile: wrong rotation, ${how}`;
  }
  if (t.type === 'placeMeeple' && got.type === 'placeMeeple') {
    if (got.kind !== t.kind) return `figure: wrong kind (${t.kind} read as ${got.kind}), ${how}`;
    if (got.on !== t.on) return `figure: wrong feature, ${how}`;
    if (got.player !== t.player) return `figure: wrong colour, ${how}`;
  }
  return `${what}: other, ${how}`;
}
