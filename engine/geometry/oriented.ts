/** A tile type seen at one rotation, in the board frame, precomputed for fast matching. */
import type { FeatureDef, Terrain, TileType } from '../catalog/types.js';
import { rotateSegment, type Rotation, SEGMENT_NAMES } from './segments.js';

const TERRAIN_CODE: Record<Terrain, number> = { field: 0, road: 1, city: 2, river: 3 };

export interface OrientedFeature {
  readonly def: FeatureDef;
  /** Index of the feature in the tile type's feature list. */
  readonly index: number;
  /** Board-frame segments. */
  readonly segments: readonly number[];
  /** Board-frame sides this feature reaches (0 N, 1 E, 2 S, 3 W), each once. */
  readonly sides: readonly number[];
  /** The name a record uses for this feature: a board segment, CLOISTER/GARDEN/TOWER, or the catalog id. */
  readonly name: string;
  /** Fields: indices (in the tile's feature list) of the cities this field borders. */
  readonly cityIndices: readonly number[];
  /** Open ends a new part of this feature starts with (sides reached, for roads, cities and rivers). */
  readonly openEnds: number;
}

export interface OrientedTile {
  readonly tile: TileType;
  readonly rot: Rotation;
  /** Board-frame terrain code per segment. */
  readonly terrain: readonly number[];
  /** Per side, the three terrain codes packed as seen clockwise. */
  readonly sideCode: readonly number[];
  /** Per side, the code the neighbour's facing side must show. */
  readonly matchCode: readonly number[];
  /** The four match codes packed 6 bits per side (N lowest), for one-comparison fit tests (Board's holes). */
  readonly matchPacked: number;
  readonly features: readonly OrientedFeature[];
  /** Board segment → index into features. */
  readonly segmentFeature: readonly number[];
  /** Sides that carry the river. */
  readonly riverSides: readonly number[];
}

const INTERIOR_NAME: Record<string, string> = { cloister: 'CLOISTER', garden: 'GARDEN', tower: 'TOWER', fortress: 'FORTRESS' };

/** The segment a record names a feature by: the middle of a side for roads and cities, else the first. */
export function canonicalSegment(segments: readonly number[], kind: string): number {
  const sorted = [...segments].sort((a, b) => a - b);
  if (kind === 'road' || kind === 'city' || kind === 'river') {
    const mid = sorted.find((s) => s % 3 === 1);
    if (mid !== undefined) return mid;
  }
  return sorted[0]!;
}

export function orient(tile: TileType, rot: Rotation): OrientedTile {
  const terrain = new Array<number>(12);
  for (let i = 0; i < 12; i++) terrain[rotateSegment(i, rot)] = TERRAIN_CODE[tile.segments[i]!];
  const sideCode: number[] = [];
  const matchCode: number[] = [];
  for (let s = 0; s < 4; s++) {
    const a0 = terrain[s * 3]!, a1 = terrain[s * 3 + 1]!, a2 = terrain[s * 3 + 2]!;
    sideCode.push(a0 | (a1 << 2) | (a2 << 4));
    matchCode.push(a2 | (a1 << 2) | (a0 << 4));
  }
  const segmentFeature = new Array<number>(12).fill(-1);
  const features: OrientedFeature[] = tile.features.map((def, index) => {
    const segments = def.segments.map((s) => rotateSegment(s, rot)).sort((a, b) => a - b);
    for (const s of segments) segmentFeature[s] = index;
    const sides = [...new Set(segments.map((s) => Math.floor(s / 3)))];
    const interior = INTERIOR_NAME[def.kind];
    const name = interior ?? (segments.length > 0 ? SEGMENT_NAMES[canonicalSegment(segments, def.kind)]! : def.id);
    const cityIndices = def.adjacentCities.map((c) => tile.features.findIndex((g) => g.id === c)).filter((i) => i >= 0);
    const openEnds = def.kind === 'road' || def.kind === 'city' || def.kind === 'river' ? sides.length : 0;
    return { def, index, segments, sides, name, cityIndices, openEnds };
  });
  const riverSides = features.filter((f) => f.def.kind === 'river').flatMap((f) => f.sides);
  const matchPacked = matchCode[0]! | (matchCode[1]! << 6) | (matchCode[2]! << 12) | (matchCode[3]! << 18);
  return { tile, rot, terrain, sideCode, matchCode, matchPacked, features, segmentFeature, riverSides };
}
