/**
 * The move a cell's edges alone name. The model's type head learnt one edition's print and reads
 * another poorly (docs/recognition.md: the second edition's tiles 64 % raw), but its segment head
 * reads the terrain along the twelve edge segments of any print almost as well as the drawings'
 * (99.5 % on the second-edition scans). Where the rules leave a cell several legal moves and only
 * one of them shows the terrain the segments read, the edges tell the move without the type.
 */
import type { TileCatalog } from '../../engine/catalog/registry.js';
import { placementProblem, tileProblem } from '../../engine/game/placement.js';
import type { GameState } from '../../engine/game/state.js';
import { sameUpToSymmetry, symmetryTurns } from '../classes.js';
import type { TileType } from '../../engine/catalog/types.js';
import type { CropReading } from '../runner.js';
import type { Reading } from './reading.js';

export interface EdgesReading {
  /** The one legal move whose edges the segments read. */
  readonly reading: Reading;
  /** Its edges' probability among the legal moves' distinct edges (the segment head's alone). */
  readonly p: number;
}

/**
 * The legal readings grouped by the terrain they show on the twelve edge segments (crop frame, the
 * decoder's convention), each group weighed by the segment head alone (its log-probabilities summed
 * over the twelve), and the best group's probability among the groups — where that group holds one
 * move (one type, one turn up to the tile's symmetry) and its edges are the segment head's own
 * reading, each segment's likeliest terrain: among the legal moves alone the best is the best of
 * what the rules allow, however poorly it fits (a single legal move would always be sure). Null
 * where the best edges fit several moves: twins (a pennant, a garden, a tower's foundation) or tiles
 * whose features join differently behind the same edges; which of those lies there is the type
 * head's to tell, or the table's.
 */
export function edgesAlone(reading: Pick<CropReading, 'segments'>, terrains: readonly string[], catalog: TileCatalog, readings: readonly Reading[]): EdgesReading | null {
  const terrainIndex = new Map(terrains.map((t, i) => [t, i]));
  const n = terrains.length;
  const groups = new Map<string, { logP: number; own: boolean; moves: Reading[] }>();
  for (const r of readings) {
    const tile = catalog.get(r.tile);
    if (!tile) continue;
    const shown = Array.from({ length: 12 }, (_, i) => tile.segments[(i - 3 * r.q + 12) % 12]!);
    const key = shown.join();
    let g = groups.get(key);
    if (!g) {
      let logP = 0, own = true;
      shown.forEach((t, i) => {
        const k = terrainIndex.get(t);
        const s = reading.segments.subarray(i * n, i * n + n);
        logP += k === undefined ? -Infinity : Math.log(Math.max(1e-12, s[k]!));
        if (k === undefined || s.some((v) => v > s[k]!)) own = false;
      });
      g = { logP, own, moves: [] };
      groups.set(key, g);
    }
    if (!g.moves.some((m) => m.tile === r.tile && sameUpToSymmetry(tile, m.q, r.q))) g.moves.push(r);
  }
  let best: { logP: number; own: boolean; moves: Reading[] } | null = null;
  for (const g of groups.values()) if (!best || g.logP > best.logP) best = g;
  if (!best || !best.own || best.moves.length !== 1) return null;
  let z = 0;
  for (const g of groups.values()) z += Math.exp(g.logP - best.logP);
  return { reading: best.moves[0]!, p: 1 / z };
}

/**
 * How many legal moves at `at` in `state` (a type the supply still holds, a turn up to the tile's
 * symmetry) show the edges `tile` shows at `q` quarter turns: 1 where those edges name it alone, the
 * most `edgesAlone` can tell there.
 */
export function movesShowingEdges(state: GameState, tile: string, q: number, at: readonly [number, number]): number {
  const edges = state.catalog.view(tile, q).terrain.join();
  let n = 0;
  for (const t of state.catalog.all()) {
    if (tileProblem(state, t) || !(state.supply.get(t.id) ?? 0)) continue;
    const turns = new Set<number>();
    for (let k = 0; k < 4; k++) {
      const view = state.catalog.view(t.id, k);
      if (view.terrain.join() === edges && !placementProblem(state, view, at[0], at[1])) turns.add(Math.min(...symmetryTurns(t).map((s) => (k + s) % 4)));
    }
    n += turns.size;
  }
  return n;
}

/**
 * Which of `turns` (quarter turns) of `tile` a cell's edges show: each turn's probability among them
 * by the segment head alone (its log-probabilities summed over the twelve edge segments, crop frame),
 * best first (turns showing the same edges equally likely). For a tile the table named itself (a
 * photo, "Another tile…") at the cell the camera asked about: the segment head reads the edges of any
 * print.
 */
export function turnsByEdges(reading: Pick<CropReading, 'segments'>, terrains: readonly string[], tile: TileType, turns: readonly number[]): { q: number; p: number }[] {
  const terrainIndex = new Map(terrains.map((t, i) => [t, i]));
  const n = terrains.length;
  const logPs = turns.map((q) => {
    let logP = 0;
    for (let i = 0; i < 12; i++) {
      const k = terrainIndex.get(tile.segments[(i - 3 * q + 12) % 12]!);
      logP += k === undefined ? Math.log(1e-12) : Math.log(Math.max(1e-12, reading.segments[i * n + k]!));
    }
    return logP;
  });
  const top = Math.max(...logPs);
  const w = logPs.map((l) => Math.exp(l - top));
  const z = w.reduce((a, b) => a + b, 0);
  return turns.map((q, i) => ({ q, p: w[i]! / z })).sort((a, b) => b.p - a.p);
}
