/**
 * The box's counts across a teach session (issue 30): a table teaching its tiles lays out one box,
 * and the edition prints each type a known number of times (the catalog's `counts`). The model
 * reads each card alone; on a print it has not been trained on, look-alikes are read as the same
 * type more often than the box holds it. Over every card of the session, each card takes one of its
 * three readings so that no type is taken more often than its count and the sum of the readings'
 * −log confidence is least (a minimum-cost flow: cards → types → the box). A card's first reading
 * is kept unless the count moves it; the model's confidences are not changed.
 */
import type { PhotoReading } from '../photo/read.js';

export interface Assignable {
  /** The model's readings, best first (more than the three a card shows: `TeachCard.alternatives`). */
  readonly readings: readonly PhotoReading[];
  /** A type the table has already answered for this card: it takes one of that type's copies, fixed. */
  readonly answered?: string | null;
}

/** The confidence below which a reading counts as this improbable (−log of it caps the cost). */
const FLOOR = 1e-9;
/** What breaking a count costs: more than any reading's −log confidence, so only when no assignment keeps every count. */
const OVER = 100;

/**
 * For each card, the index of the reading the counts give it (null: answered, or no readings).
 * Types missing from `counts` are not limited.
 */
export function assignByCounts(cards: readonly Assignable[], counts: ReadonlyMap<string, number>): (number | null)[] {
  const left = new Map(counts);
  for (const c of cards) if (c.answered && left.has(c.answered)) left.set(c.answered, Math.max(0, left.get(c.answered)! - 1));
  const open = cards.map((c, i) => ({ c, i })).filter(({ c }) => !c.answered && c.readings.length > 0);
  const out: (number | null)[] = cards.map(() => null);
  if (!open.length) return out;
  // Nodes: source, the open cards, the limited types, "over" (a count broken), sink.
  const types = [...new Set(open.flatMap(({ c }) => c.readings.map((r) => r.tileId)).filter((t) => left.has(t)))];
  const typeNode = new Map(types.map((t, k) => [t, 1 + open.length + k]));
  const S = 0, OVER_NODE = 1 + open.length + types.length, T = OVER_NODE + 1, N = T + 1;
  const to: number[] = [], cap: number[] = [], cost: number[] = [], head = new Array<number>(N).fill(-1), next: number[] = [];
  const edge = (a: number, b: number, c: number, w: number) => {
    for (const [x, y, cc, ww] of [[a, b, c, w], [b, a, 0, -w]] as const) {
      to.push(y); cap.push(cc); cost.push(ww); next.push(head[x]!); head[x] = to.length - 1;
    }
    return to.length - 2;
  };
  // Each card's edge to each reading's type (or straight to the sink for a type with no limit).
  const choice: { card: number; k: number; e: number }[] = [];
  open.forEach(({ c }, n) => {
    edge(S, 1 + n, 1, 0);
    c.readings.forEach((r, k) => {
      const w = -Math.log(Math.max(FLOOR, r.confidence));
      choice.push({ card: n, k, e: edge(1 + n, typeNode.get(r.tileId) ?? T, 1, w) });
    });
    choice.push({ card: n, k: 0, e: edge(1 + n, OVER_NODE, 1, -Math.log(Math.max(FLOOR, c.readings[0]!.confidence)) + OVER) });
  });
  for (const t of types) edge(typeNode.get(t)!, T, left.get(t)!, 0);
  edge(OVER_NODE, T, open.length, 0);
  // Successive shortest paths (Bellman–Ford on the residual graph: its reverse edges cost less than nothing).
  for (let f = 0; f < open.length; f++) {
    const dist = new Array<number>(N).fill(Infinity), via = new Array<number>(N).fill(-1);
    dist[S] = 0;
    for (let round = 0, changed = true; round < N && changed; round++) {
      changed = false;
      for (let a = 0; a < N; a++) {
        if (dist[a] === Infinity) continue;
        for (let e = head[a]!; e !== -1; e = next[e]!)
          if (cap[e]! > 0 && dist[a]! + cost[e]! < dist[to[e]!]! - 1e-12) { dist[to[e]!] = dist[a]! + cost[e]!; via[to[e]!] = e; changed = true; }
      }
    }
    if (dist[T] === Infinity) break;
    for (let v = T; v !== S; v = to[via[v]! ^ 1]!) { cap[via[v]!]!--; cap[via[v]! ^ 1]!++; }
  }
  for (const ch of choice) if (cap[ch.e] === 0) out[open[ch.card]!.i] = ch.k;
  return out;
}

/** Each type's copies in a box: the catalog's counts for an edition, of the session's candidates. */
export function boxCounts(tiles: readonly { id: string; counts: Partial<Record<string, number>> }[], edition: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tiles) {
    const n = t.counts[edition];
    if (n !== undefined && n > 0) out.set(t.id, n);
  }
  return out;
}
