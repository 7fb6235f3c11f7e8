/** Catalogs made of the standard tiles and the table's descriptions (see definition.ts). */
import { classicTiles } from './classic.js';
import { confirmedTile, definitionProblem, type TileDefinition } from './definition.js';
import { tiles2025 } from './provisional2025.js';
import { TileCatalog } from './registry.js';
import type { TileType } from './types.js';
import { fail, ok, type Result } from '../result.js';

export { confirmedTile, definitionOf, definitionProblem, type TileDefinition } from './definition.js';

/** Every tile the app plays with, before any definition: classic plus the provisional 2025 tiles. */
export function standardTiles(): TileType[] {
  return [...classicTiles(), ...tiles2025().tiles];
}

/**
 * The standard catalog with each definition in place of the type it confirms (the last one per tile
 * wins). Refused, naming the tile, when a definition does not fit.
 */
export function catalogWith(definitions: readonly TileDefinition[]): Result<TileCatalog> {
  const byTile = new Map(definitions.map((d) => [d.tile, d]));
  const base = standardTiles();
  const ids = new Set(base.map((t) => t.id));
  for (const d of byTile.values()) if (!ids.has(d.tile)) return fail(`tile ${d.tile} is not in the catalog`);
  const catalog = new TileCatalog();
  for (const t of base) {
    const d = byTile.get(t.id);
    if (d) {
      const problem = definitionProblem(d, t);
      if (problem) return fail(`tile ${t.id}: ${problem}`);
    }
    const added = catalog.add(d ? confirmedTile(t, d) : t);
    if (!added.ok) return added;
  }
  return ok(catalog);
}
