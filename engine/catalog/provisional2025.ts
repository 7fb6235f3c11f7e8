/**
 * The 2025 tiles (Jousts & Crests, Siege & Defense) from their provisional data: no source shows
 * their drawings, so every shape is a placeholder marked `provisional` until the table confirms it.
 * Beside the tile types, the data says which tiles are prize tiles (and where the statue stands),
 * which cells make up the multi-cell pieces, and which siege symbols a tile shows.
 */
import raw from './data/tiles-2025-provisional.json' with { type: 'json' };
import { segmentIndex } from '../geometry/segments.js';
import type { ExpansionId, FeatureDef, FeatureKind, SiegeSymbol, Terrain, TileType } from './types.js';

export type { SiegeSymbol } from './types.js';

interface RawFeature {
  id: string;
  type: string;
  segments: string[];
  pennants?: number;
  adjacentCities?: string[];
}

interface RawTile {
  id: string;
  expansion: ExpansionId;
  name: string;
  segments12: Terrain[];
  features: RawFeature[];
  count: number;
  riverCount?: number;
  prizeCount?: number;
  statue?: string;
  piece?: string;
  cell?: [number, number];
  siege?: SiegeSymbol[];
}

export interface PieceCell {
  readonly tile: string;
  /** [col, row] inside the piece at rotation 0. */
  readonly cell: readonly [number, number];
}

export interface Tiles2025 {
  readonly tiles: readonly TileType[];
  /** Prize tile id → copies and the feature id of the city holding the statue. */
  readonly prizeTiles: ReadonlyMap<string, { readonly count: number; readonly statue: string }>;
  /** Multi-cell piece id → its cells. */
  readonly pieces: ReadonlyMap<string, readonly PieceCell[]>;
  /** Tile id → siege symbols, left to right as printed. */
  readonly siege: ReadonlyMap<string, readonly SiegeSymbol[]>;
  /** River tiles an expansion shuffles into the river tiles when The River is played, by expansion. */
  readonly riverTiles: ReadonlyMap<string, { readonly expansion: ExpansionId; readonly count: number }>;
}

function feature(tileId: string, f: RawFeature): FeatureDef {
  const kind = f.type as FeatureKind;
  return {
    id: f.id,
    kind,
    segments: f.segments.map((s) => {
      const i = segmentIndex(s);
      if (i === undefined) throw new Error(`2025 catalog: tile ${tileId} feature ${f.id} has bad segment ${s}`);
      return i;
    }),
    pennants: f.pennants ?? 0,
    inn: false,
    cathedral: false,
    adjacentCities: f.adjacentCities ?? [],
  };
}

let cached: Tiles2025 | null = null;

export function tiles2025(): Tiles2025 {
  if (cached) return cached;
  const tiles: TileType[] = [];
  const prizeTiles = new Map<string, { count: number; statue: string }>();
  const pieces = new Map<string, PieceCell[]>();
  const siege = new Map<string, SiegeSymbol[]>();
  const riverTiles = new Map<string, { expansion: ExpansionId; count: number }>();
  for (const t of (raw as unknown as { tiles: RawTile[] }).tiles) {
    const counts = t.count > 0 ? { C1: t.count, C2: t.count, C3: t.count } : {};
    tiles.push({
      id: t.id,
      expansion: t.expansion,
      name: t.name,
      segments: t.segments12,
      features: t.features.map((f) => feature(t.id, f)),
      counts,
      riverSpring: false,
      riverLake: false,
      provisional: true,
      ...(t.siege ? { siege: t.siege } : {}),
      ...(t.prizeCount ? { statue: t.statue ?? 'city1' } : {}),
    });
    if (t.prizeCount) prizeTiles.set(t.id, { count: t.prizeCount, statue: t.statue ?? 'city1' });
    if (t.piece && t.cell) {
      const list = pieces.get(t.piece) ?? [];
      list.push({ tile: t.id, cell: t.cell });
      pieces.set(t.piece, list);
    }
    if (t.siege) siege.set(t.id, t.siege);
    if (t.riverCount) riverTiles.set(t.id, { expansion: t.expansion, count: t.riverCount });
  }
  cached = { tiles, prizeTiles, pieces, siege, riverTiles };
  return cached;
}
