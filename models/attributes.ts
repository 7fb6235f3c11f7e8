/**
 * The attributes a tile shares with other tiles (a model's `attributes` head, models/train/train.py
 * `attribute_table`): its marks (pennant, cloister, garden, inn, cathedral, tower foundation), for
 * each pair of edge segments whether one feature joins them, and which segments belong to a city
 * with a pennant or a road with an inn — all in the crop frame. The model's metadata names them
 * (`attributeNames`); everything here follows those names, so the order is the model's.
 */
import type { TileType } from '../engine/catalog/types.js';

const SEGMENTS = ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'];

type Attribute =
  | { readonly kind: 'flag'; readonly flag: string }
  | { readonly kind: 'same'; readonly a: number; readonly b: number }
  | { readonly kind: 'pennantCity' | 'innRoad'; readonly segment: number };

function parse(name: string): Attribute {
  const seg = (s: string) => {
    const i = SEGMENTS.indexOf(s);
    if (i < 0) throw new Error(`attribute ${name}: unknown segment ${s}`);
    return i;
  };
  const same = /^same:(\w\d)-(\w\d)$/.exec(name);
  if (same) return { kind: 'same', a: seg(same[1]!), b: seg(same[2]!) };
  const mark = /^(pennantCity|innRoad):(\w\d)$/.exec(name);
  if (mark) return { kind: mark[1] as 'pennantCity' | 'innRoad', segment: seg(mark[2]!) };
  if (['pennant', 'cloister', 'garden', 'inn', 'cathedral', 'towerFoundation'].includes(name)) return { kind: 'flag', flag: name };
  throw new Error(`attribute ${name} is not one this app knows`);
}

function nameOf(a: Attribute): string {
  if (a.kind === 'flag') return a.flag;
  if (a.kind === 'same') return `same:${SEGMENTS[Math.min(a.a, a.b)]}-${SEGMENTS[Math.max(a.a, a.b)]}`;
  return `${a.kind}:${SEGMENTS[a.segment]}`;
}

export interface AttributeTable {
  readonly names: readonly string[];
  /** What the tile turned q quarter turns clockwise shows, 0 or 1 per attribute (cached). */
  expected(tile: TileType, q: number): Uint8Array;
  /** For a view turned `turn` quarter turns clockwise: where each crop-frame attribute is in it. */
  viewIndex(turn: number): Int32Array;
}

export function attributeTable(names: readonly string[]): AttributeTable {
  const attrs = names.map(parse);
  const index = new Map(names.map((n, i) => [n, i]));
  const views = [0, 1, 2, 3].map((turn) => {
    const move = (s: number) => (s + 3 * turn) % 12;
    return Int32Array.from(attrs, (a) => {
      const moved: Attribute = a.kind === 'flag' ? a : a.kind === 'same' ? { kind: 'same', a: move(a.a), b: move(a.b) } : { ...a, segment: move(a.segment) };
      const i = index.get(nameOf(moved));
      if (i === undefined) throw new Error(`attribute ${nameOf(a)} has no turned counterpart ${nameOf(moved)} among the model's`);
      return i;
    });
  });
  const cache = new WeakMap<TileType, Uint8Array[]>();
  return {
    names,
    viewIndex: (turn) => views[((turn % 4) + 4) % 4]!,
    expected(tile, q) {
      let perTurn = cache.get(tile);
      if (!perTurn) cache.set(tile, (perTurn = []));
      let out = perTurn[q];
      if (out) return out;
      const feature = new Array<number>(12).fill(-1);
      tile.features.forEach((f, k) => f.segments.forEach((s) => (feature[(s + 3 * q) % 12] = k)));
      const kinds = new Set(tile.features.map((f) => f.kind));
      const flags: Record<string, boolean> = {
        pennant: tile.features.some((f) => f.pennants > 0),
        cloister: kinds.has('cloister'),
        garden: kinds.has('garden'),
        inn: tile.features.some((f) => f.inn),
        cathedral: tile.features.some((f) => f.cathedral),
        towerFoundation: kinds.has('tower'),
      };
      out = Uint8Array.from(attrs, (a) => {
        if (a.kind === 'flag') return flags[a.flag] ? 1 : 0;
        if (a.kind === 'same') return feature[a.a]! >= 0 && feature[a.a] === feature[a.b] ? 1 : 0;
        const f = tile.features[feature[a.segment]!];
        if (!f) return 0;
        return (a.kind === 'pennantCity' ? f.kind === 'city' && f.pennants > 0 : f.kind === 'road' && f.inn) ? 1 : 0;
      });
      perTurn[q] = out;
      return out;
    },
  };
}

/** Log-likelihood of a tile's expected attributes under the model's probabilities. */
export function attributeLogLikelihood(probabilities: Float32Array, expected: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < expected.length; i++) {
    const p = Math.min(1 - 1e-3, Math.max(1e-3, probabilities[i]!));
    s += Math.log(expected[i] ? p : 1 - p);
  }
  return s;
}
