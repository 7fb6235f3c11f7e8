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
import { ROTATIONS } from '../geometry/segments.js';
import { validateTile } from './validate.js';

export { validateTile };

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
