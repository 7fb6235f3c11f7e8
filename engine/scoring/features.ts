/** Points for a feature, itemised, with the enabled modules' adjustments (inns, cathedrals…). */
import type { FeatureData, MeepleOnBoard } from '../features/board.js';
import type { GameEvent, ScoreItem, Scored } from '../game/events.js';
import type { GameState } from '../game/state.js';
import { owners, pointerMeeple } from './majority.js';

function baseItems(state: GameState, part: number, d: FeatureData, tiles: number, complete: boolean): ScoreItem[] {
  const items: ScoreItem[] = [];
  switch (d.kind) {
    case 'road':
      items.push({ name: 'tiles', count: tiles, points: tiles });
      break;
    case 'city': {
      const tiny = complete && tiles === 2 && state.setup.rules.tinyCity === 2;
      const per = complete && !tiny ? 2 : 1;
      items.push({ name: 'tiles', count: tiles, points: tiles * per });
      if (d.pennants > 0) items.push({ name: 'pennants', count: d.pennants, points: d.pennants * per });
      break;
    }
    case 'cloister':
    case 'garden': {
      const n = complete ? 9 : 1 + state.board.neighbourCount(state.board.tiles[state.board.partTile[part]!]!);
      items.push({ name: 'tiles', count: n, points: n });
      break;
    }
    default:
      break;
  }
  return items;
}

export function featureScore(state: GameState, part: number, complete: boolean): { kind: string; items: ScoreItem[]; points: number } {
  const board = state.board;
  const feature = board.feature(part);
  const tiles = feature.kind === 'cloister' || feature.kind === 'garden' ? 1 : board.tileCount(part);
  let items = baseItems(state, part, feature, tiles, complete);
  for (const hook of state.pipeline.featureScore) items = hook({ state, feature, tiles, complete }, items);
  const points = items.reduce((s, i) => s + i.points, 0);
  return { kind: complete ? feature.kind : `${feature.kind}.incomplete`, items, points };
}

function ref(meeple: MeepleOnBoard | undefined) {
  return meeple ? { at: [meeple.x, meeple.y] as const, on: meeple.on } : undefined;
}

/** The score for a feature's owners, and every meeple on it going home (unless it is a field). */
export function scoreFeatureEvents(state: GameState, part: number, complete: boolean, final: boolean): GameEvent[] {
  const d = state.board.feature(part);
  const players = owners(d.meeples);
  if (players.length === 0) return [];
  const s = featureScore(state, part, complete);
  const scored: Scored = {
    type: 'scored',
    players,
    points: s.points,
    kind: s.kind,
    feature: ref(pointerMeeple(d.meeples, players)),
    items: s.items,
    final,
  };
  const out: GameEvent[] = [scored];
  if (!final) {
    for (const m of d.meeples) out.push({ type: 'meepleReturned', player: m.player, kind: m.kind, at: [m.x, m.y], on: m.on });
  }
  return out;
}

/** A field at the end: 3 points per completed city bordering it, each city once. */
export function fieldEvent(state: GameState, part: number): Scored | null {
  const board = state.board;
  const d = board.feature(part);
  const players = owners(d.meeples);
  if (players.length === 0) return null;
  const cities = new Set<number>();
  for (const c of d.cities) {
    const root = board.find(c);
    if (!cities.has(root) && board.isComplete(root)) cities.add(root);
  }
  const n = cities.size;
  return {
    type: 'scored',
    players,
    points: 3 * n,
    kind: 'field',
    feature: ref(pointerMeeple(d.meeples, players)),
    items: n > 0 ? [{ name: 'cities', count: n, points: 3 * n }] : [],
    final: true,
  };
}
