/** Jousts & Crests' land stacks: the setup charts (data) and how the tiles are split (digest §1.2). */
import chart from '../data/jousts-crests.json' with { type: 'json' };
import type { Stack } from './state.js';

/** The chart row (S stacks, P prizes per stack) for this many land tiles and players (§1.2). */
export function chartFor(landTiles: number, players: number): { S: number; P: number } {
  const col = chart.players.indexOf(Math.min(Math.max(players, 2), 6));
  const extra = Math.max(0, landTiles - chart.baseLandTiles);
  let row = chart.charts[0]!;
  for (const r of chart.charts) if (extra >= r.extraAtLeast) row = r;
  return { S: row.S[col]!, P: row.P[col]! };
}

/** Stacks as counts: ⌊N/S⌋ land tiles each, the remainder on stack 1, P prize tiles on stacks 2..S. */
export function buildStacks(landTiles: number, S: number, P: number, prizeTiles: number): { stacks: Stack[]; finalPrizes: number } {
  const per = Math.floor(landTiles / S);
  const stacks: Stack[] = [];
  let prizesLeft = prizeTiles;
  for (let i = 0; i < S; i++) {
    const prizes = i === 0 ? 0 : Math.min(P, prizesLeft);
    prizesLeft -= prizes;
    stacks.push({ land: per + (i === 0 ? landTiles - per * S : 0), prizes });
  }
  return { stacks, finalPrizes: prizesLeft };
}
