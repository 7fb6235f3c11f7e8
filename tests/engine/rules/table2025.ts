/** Turns with the 2025 expansions' extra steps, for rule tests on the real engine. */
import type { Rotation } from '../../../engine/geometry/segments.js';
import type { DefencePostName, GameEvent, Scored } from '../../../engine/game/events.js';
import { actionCommand, type Action, type Table } from '../table.js';

export interface Turn2025 {
  tile: string;
  at: readonly [number, number];
  rot?: Rotation;
  siege?: DefencePostName[];
  prize?: { tile: string; at: readonly [number, number]; rot?: Rotation };
  nominate?: readonly [number, number, string];
  action?: Action;
  post?: { post: DefencePostName; space: 'row' | 'meeple' };
}

/** Draw, siege symbols, prize tile, the land tile, nomination, action, post meeple, end of turn. */
export function play(t: Table, turn: Turn2025): Scored[] {
  const p = t.player;
  const events: GameEvent[] = [];
  events.push(...t.do({ type: 'drawTile', player: p, tile: turn.tile }));
  for (const post of turn.siege ?? []) events.push(...t.do({ type: 'resolveSiegeSymbol', player: p, post }));
  if (turn.prize) events.push(...t.do({ type: 'placePrizeTile', player: p, tile: turn.prize.tile, at: turn.prize.at, rot: turn.prize.rot ?? 0 }));
  events.push(...t.do({ type: 'placeTile', player: p, tile: turn.tile, at: turn.at, rot: turn.rot ?? 0 }));
  if (turn.nominate) events.push(...t.do({ type: 'nominate', player: p, at: [turn.nominate[0], turn.nominate[1]], on: turn.nominate[2] }));
  if (turn.action) events.push(...t.do(actionCommand(p, turn.action)));
  if (turn.post) events.push(...t.do({ type: 'placeAtDefencePost', player: p, ...turn.post }));
  events.push(...t.do({ type: 'endTurn', player: p }));
  return events.filter((e): e is Scored => e.type === 'scored');
}
