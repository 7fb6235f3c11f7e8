/** Who owns a feature: the player(s) with the most strength there (big meeple 2); ties all own it. */
import type { MeepleOnBoard } from '../features/board.js';

export function strength(m: MeepleOnBoard): number {
  return m.kind === 'big' ? 2 : 1;
}

/** Owners in ascending player order; empty when no meeple stands there. */
export function owners(meeples: readonly MeepleOnBoard[]): number[] {
  if (meeples.length === 0) return [];
  if (meeples.length === 1) return [meeples[0]!.player];
  const by = new Map<number, number>();
  let best = 0;
  for (const m of meeples) {
    const s = (by.get(m.player) ?? 0) + strength(m);
    by.set(m.player, s);
    if (s > best) best = s;
  }
  const out: number[] = [];
  for (const [p, s] of by) if (s === best) out.push(p);
  return out.sort((a, b) => a - b);
}

/** The meeple a score event points at: one of the lowest-numbered owner's. */
export function pointerMeeple(meeples: readonly MeepleOnBoard[], players: readonly number[]): MeepleOnBoard | undefined {
  const first = players[0];
  return meeples.find((m) => m.player === first);
}
