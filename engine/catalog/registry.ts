/**
 * The tile catalog the engine plays with: the printed catalog plus tiles the table described at run
 * time (a tile the catalog lacks is described once and saved). Validates every description so that
 * the rest of the engine can trust tile geometry.
 */
import { classicTiles } from './classic.js';
import { tiles2025 } from './provisional2025.js';
import type { TileType } from './types.js';
import { fail, ok, type Result } from '../result.js';
import { orient, type OrientedTile } from '../geometry/oriented.js';
import { ROTATIONS, SEGMENT_NAMES } from '../geometry/segments.js';

export class TileCatalog {
  private readonly byId = new Map<string, TileType>();
  private readonly oriented = new Map<string, readonly OrientedTile[]>();
  /** Tiles by expansion, worked out on first use after an addition (every game's setup asks). */
  private byExpansion: Map<string, TileType[]> | null = null;

  constructor(tiles: readonly TileType[] = []) {
    for (const t of tiles) {
      const r = this.add(t);
      if (!r.ok) throw new Error(`catalog: ${r.reason}`);
    }
  }

  /** The classic catalog (base, River, Abbot gardens, Inns & Cathedrals, The Tower). */
  static classic(): TileCatalog {
    return new TileCatalog(classicTiles());
  }

  /** The classic catalog plus the 2025 tiles with their provisional geometry. */
  static standard(): TileCatalog {
    return new TileCatalog([...classicTiles(), ...tiles2025().tiles]);
  }

  add(tile: TileType): Result<TileType> {
    const problem = validateTile(tile);
    if (problem) return fail(`tile ${tile.id}: ${problem}`);
    if (this.byId.has(tile.id)) return fail(`tile ${tile.id} is already in the catalog`);
    this.byId.set(tile.id, tile);
    this.byExpansion = null;
    this.oriented.set(tile.id, ROTATIONS.map((r) => orient(tile, r)));
    return ok(tile);
  }

  get(id: string): TileType | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The tile seen with rotation index q (0..3 quarter turns clockwise). */
  view(id: string, q: number): OrientedTile {
    const v = this.oriented.get(id);
    if (!v) throw new Error(`unknown tile ${id}`);
    return v[q]!;
  }

  /** The tile at each rotation index 0..3. */
  views(id: string): readonly OrientedTile[] {
    const v = this.oriented.get(id);
    if (!v) throw new Error(`unknown tile ${id}`);
    return v;
  }

  /** The tiles of one expansion, in catalog order (do not change the list). */
  ofExpansion(expansion: string): readonly TileType[] {
    if (!this.byExpansion) {
      this.byExpansion = new Map();
      for (const t of this.byId.values()) {
        const list = this.byExpansion.get(t.expansion);
        if (list) list.push(t);
        else this.byExpansion.set(t.expansion, [t]);
      }
    }
    return this.byExpansion.get(expansion) ?? [];
  }

  all(): TileType[] {
    return [...this.byId.values()];
  }

  /** A copy that can grow without changing this one. */
  clone(): TileCatalog {
    return new TileCatalog(this.all());
  }
}

/** Why a tile description is inconsistent, or null when it is sound. */
export function validateTile(t: TileType): string | null {
  if (!/^[A-Za-z0-9_\-]+$/.test(t.id)) return 'id must be letters, digits, _ or -';
  if (t.segments.length !== 12) return 'needs 12 edge segments';
  const owner = new Array<string | null>(12).fill(null);
  const ids = new Set<string>();
  for (const f of t.features) {
    if (ids.has(f.id)) return `feature id ${f.id} is used twice`;
    ids.add(f.id);
    for (const s of f.segments) {
      if (!Number.isInteger(s) || s < 0 || s > 11) return `feature ${f.id} has segment ${s} out of range`;
      if (owner[s] !== null) return `segment ${SEGMENT_NAMES[s]} belongs to ${owner[s]} and ${f.id}`;
      owner[s] = f.id;
      const terrain = t.segments[s];
      const expected = f.kind === 'road' || f.kind === 'city' || f.kind === 'field' || f.kind === 'river' ? f.kind : null;
      if (expected === null) return `interior feature ${f.id} cannot touch an edge`;
      if (terrain !== expected) return `segment ${SEGMENT_NAMES[s]} is ${terrain} but feature ${f.id} is a ${f.kind}`;
    }
    if (f.kind !== 'field' && f.adjacentCities.length > 0) return `only fields list adjacent cities (${f.id})`;
    if (f.kind === 'road' || f.kind === 'city' || f.kind === 'river') {
      if (f.segments.length === 0) return `${f.kind} ${f.id} touches no edge`;
    }
  }
  for (let s = 0; s < 12; s++) if (owner[s] === null) return `segment ${SEGMENT_NAMES[s]} belongs to no feature`;
  for (const f of t.features) {
    for (const c of f.adjacentCities) {
      const city = t.features.find((g) => g.id === c);
      if (!city || (city.kind !== 'city' && city.kind !== 'fortress')) return `field ${f.id} borders ${c}, which is not a city on this tile`;
    }
  }
  // A road or river sits on the middle segment of its sides; a city covers whole sides.
  for (const f of t.features) {
    if (f.kind === 'road' || f.kind === 'river') {
      if (f.segments.some((s) => s % 3 !== 1)) return `${f.kind} ${f.id} must use middle segments only`;
    }
    if (f.kind === 'city') {
      for (const s of f.segments) {
        const side = Math.floor(s / 3);
        for (let k = 0; k < 3; k++) if (!f.segments.includes(side * 3 + k)) return `city ${f.id} must cover whole sides`;
      }
    }
  }
  return null;
}
