/**
 * Comparing a replay with a record's expectations: per turn the multiset of (sorted players, points,
 * kind) must be equal; `at`/`on` are resolved to the joined feature and `items` compared where the
 * record gives them (../spec/game-record.md, corpus README).
 */
import type { Board } from '../features/board.js';
import type { GameEvent, Scored, TournamentResolved } from '../game/events.js';
import type { RecordScoreEvent } from './schema.js';

function key(players: readonly number[], points: number, kind: string): string {
  return `${[...players].sort((a, b) => a - b).join(',')}|${points}|${kind}`;
}

export function describeScore(e: { players: readonly number[]; points: number; kind: string; at?: readonly number[]; on?: string }): string {
  const where = e.at ? ` at [${e.at[0]}, ${e.at[1]}]${e.on ? ` ${e.on}` : ''}` : '';
  return `${e.kind} ${e.points} to player${e.players.length === 1 ? '' : 's'} ${e.players.join('+')}${where}`;
}

function itemsKey(items: readonly { name: string; count?: number | undefined; points: number }[]): string {
  return items.map((i) => `${i.name}:${i.count ?? '-'}:${i.points}`).sort().join(';');
}

function sameFeature(board: Board, exp: RecordScoreEvent, act: Scored): boolean {
  if (!exp.at || !exp.on) return true;
  if (!act.feature) return false;
  const a = board.partAt(exp.at[0], exp.at[1], exp.on);
  const b = board.partAt(act.feature.at[0], act.feature.at[1], act.feature.on);
  if (a === undefined || b === undefined) return false;
  return board.find(a) === board.find(b);
}

/** The first difference between expected and actual scores, or null when they agree. */
export function compareScores(expected: readonly RecordScoreEvent[], actual: readonly Scored[], board: Board): string | null {
  if (expected.length === 0 && actual.length === 0) return null;
  const left = [...actual];
  const keys = new Map(actual.map((a) => [a, key(a.players, a.points, a.kind)]));
  for (const exp of expected) {
    const k = key(exp.players, exp.points, exp.kind);
    const candidates = left.filter((a) => keys.get(a) === k);
    if (candidates.length === 0) {
      const near = left.find((a) => a.kind === exp.kind);
      return `expected ${describeScore(exp)}${near ? `, got ${describeScore({ ...near, ...near.feature })}` : ', got no such score'}`;
    }
    const placed = candidates.find((a) => sameFeature(board, exp, a));
    if (!placed) return `expected ${describeScore(exp)}, but the engine scored that on another feature`;
    if (exp.items && itemsKey(exp.items) !== itemsKey(placed.items)) {
      return `expected ${describeScore(exp)} as ${itemsKey(exp.items)}, got ${itemsKey(placed.items)}`;
    }
    left.splice(left.indexOf(placed), 1);
  }
  if (left.length > 0) return `unexpected ${describeScore({ ...left[0]!, ...left[0]!.feature })}`;
  return null;
}

export interface TournamentExpectation {
  readonly ranking?: readonly { readonly player: number; readonly value: number }[] | undefined;
  readonly prizes?: readonly number[] | undefined;
  readonly kept?: number | null | undefined;
}

const list = (xs: readonly number[]) => (xs.length ? xs.join(', ') : 'nobody');

/** The first difference between a turn's tournament and the record's expectation, or null. */
export function compareTournament(expected: TournamentExpectation, events: readonly GameEvent[]): string | null {
  const r = events.find((e): e is TournamentResolved => e.type === 'tournamentResolved');
  if (!r) return 'the record expects a tournament this turn; none was resolved';
  if (expected.ranking) {
    const got = r.ranking.map((x) => `${x.player}:${x.value}`).join(' ');
    const want = expected.ranking.map((x) => `${x.player}:${x.value}`).join(' ');
    if (got !== want) return `tournament ranking (player:value) ${got}; the record expects ${want}`;
  }
  if (expected.prizes && expected.prizes.join(',') !== r.prizes.join(',')) {
    return `prize tiles drawn by ${list(r.prizes)}; the record expects ${list(expected.prizes)}`;
  }
  if (expected.kept !== undefined && (r.kept?.player ?? null) !== expected.kept) {
    return `emblem kept by ${r.kept ? `player ${r.kept.player}` : 'nobody'}; the record expects ${expected.kept === null ? 'nobody' : `player ${expected.kept}`}`;
  }
  return null;
}
