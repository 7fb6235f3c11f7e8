/**
 * The recognition classes: every catalog tile type at each quarter turn, plus what "the same up to
 * symmetry" means for a tile. Shared by the synthesizer, the decoder and the tests.
 */
import type { TileType } from '../engine/catalog/types.js';
import { TERRAINS, type Terrain } from '../engine/catalog/types.js';

export const TERRAIN_CODES: readonly Terrain[] = TERRAINS; // field, road, city, river
export const MEEPLE_SEGMENTS = 13; // 12 edge segments + the tile's interior (cloister, garden, tower)

function signature(tile: TileType, q: number): string {
  const rot = (i: number) => (i + 3 * q) % 12;
  const segs = new Array<string>(12);
  for (let i = 0; i < 12; i++) segs[rot(i)] = tile.segments[i]!;
  const feats = tile.features
    .map((f) => `${f.kind}:${f.segments.map(rot).sort((a, b) => a - b).join(',')}:${f.pennants}:${f.inn}:${f.cathedral}`)
    .sort();
  return `${segs.join('')}|${feats.join(';')}|${tile.riverSpring}|${tile.riverLake}`;
}

const turnsOf = new WeakMap<TileType, readonly number[]>();

/** Quarter turns q (0..3) that leave the tile's topology unchanged; always contains 0. Worked out once per tile type (catalog tiles do not change). */
export function symmetryTurns(tile: TileType): readonly number[] {
  let turns = turnsOf.get(tile);
  if (!turns) {
    const base = signature(tile, 0);
    turns = [0, 1, 2, 3].filter((q) => signature(tile, q) === base);
    turnsOf.set(tile, turns);
  }
  return turns;
}

/** Whether reading rotation qa for a tile whose truth is qb is right up to its symmetry. */
export function sameUpToSymmetry(tile: TileType, qa: number, qb: number): boolean {
  return symmetryTurns(tile).includes((((qa - qb) % 4) + 4) % 4);
}

/** Terrain of the 12 segments as seen when the tile is turned q quarter turns clockwise. */
export function turnedSegments(tile: TileType, q: number): Terrain[] {
  const out = new Array<Terrain>(12);
  for (let i = 0; i < 12; i++) out[(i + 3 * q) % 12] = tile.segments[i]!;
  return out;
}

export interface ClassTable {
  readonly tileIds: readonly string[];
  /** Class index = tileIndex * 4 + quarter turns. */
  classOf(tileId: string, q: number): number;
  decode(cls: number): { tileId: string; q: number };
}

export function classTable(tiles: readonly TileType[]): ClassTable {
  const tileIds = tiles.map((t) => t.id);
  const index = new Map(tileIds.map((id, i) => [id, i]));
  return {
    tileIds,
    classOf(tileId, q) {
      const i = index.get(tileId);
      if (i === undefined) throw new Error(`tile ${tileId} is not a recognition class`);
      return i * 4 + q;
    },
    decode(cls) {
      const tileId = tileIds[Math.floor(cls / 4)];
      if (tileId === undefined) throw new Error(`class ${cls} is out of range`);
      return { tileId, q: cls % 4 };
    },
  };
}
