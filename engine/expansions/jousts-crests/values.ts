/** Tournament values (emblem + road or city tiles, or the farmer's surroundings) and prize places (digest §1.5). */
import type { MeepleOnBoard } from '../../features/board.js';
import type { ScoreItem, TournamentCategory } from '../../game/events.js';
import type { GameState } from '../../game/state.js';

/** Positions filled around a tile (every multi-cell piece cell counts), and the outer ring when all 8 are. */
export function fieldBonus(state: GameState, x: number, y: number): { bonus: number; items: ScoreItem[] } {
  const board = state.board;
  let inner = 0;
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if ((dx || dy) && board.at(x + dx, y + dy)) inner++;
  const items: ScoreItem[] = [{ name: 'tiles around', count: inner, points: inner }];
  if (inner < 8) return { bonus: inner, items };
  let outer = 0;
  for (let dy = -2; dy <= 2; dy++) {
    for (let dx = -2; dx <= 2; dx++) {
      if (Math.max(Math.abs(dx), Math.abs(dy)) === 2 && board.at(x + dx, y + dy)) outer++;
    }
  }
  items.push({ name: 'outer ring', count: outer, points: outer });
  return { bonus: inner + outer, items };
}

/** The tournament bonus of a meeple: road or city tiles, or the farmer's surroundings. */
export function tournamentBonus(state: GameState, m: MeepleOnBoard, category: TournamentCategory): { bonus: number; items: ScoreItem[] } {
  if (category === 'field') return fieldBonus(state, m.x, m.y);
  const tiles = state.board.tileCount(m.part);
  return { bonus: tiles, items: [{ name: 'tiles', count: tiles, points: tiles }] };
}

/**
 * Who draws prize tiles (JC-A3): places are positions; a tied group is paid only when the prize tiles
 * left cover all of it; inside a group, clockwise from the active player (JC-A4).
 */
export function awardPrizes(
  reveals: readonly { player: number; value: number }[],
  players: number,
  active: number,
  available: number,
): { prizes: number[]; leftover: number; soleWinner: number | null } {
  const places = players >= 5 ? 3 : 2;
  const best = new Map<number, number>();
  for (const r of reveals) best.set(r.player, Math.max(best.get(r.player) ?? -Infinity, r.value));
  const values = [...new Set(best.values())].sort((a, b) => b - a);
  const seat = (p: number) => (p - active + players) % players;
  let left = available;
  let used = 0;
  const prizes: number[] = [];
  for (const v of values) {
    if (used >= places) break;
    const group = [...best.entries()].filter(([, x]) => x === v).map(([p]) => p).sort((a, b) => seat(a) - seat(b));
    if (group.length <= left) {
      prizes.push(...group);
      left -= group.length;
    }
    used += group.length;
  }
  const top = values[0];
  const topGroup = top === undefined ? [] : [...best.entries()].filter(([, x]) => x === top);
  const soleWinner = topGroup.length === 1 && prizes.includes(topGroup[0]![0]) ? topGroup[0]![0] : null;
  return { prizes, leftover: left, soleWinner };
}
