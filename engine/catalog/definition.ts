/**
 * Tile definitions the table describes: the 2025 tiles ship with provisional geometry (no source
 * shows their drawings), and the table confirms each type once from the real tile. A definition
 * replaces only what is printed (edges, features, coats of arms, inns, cathedrals, siege symbols, the
 * statue's city); what a tile *is* in the game (its id, expansion, copies, prize tile or piece cell)
 * stays the catalog's, so setups and records keep meaning the same thing. No catalog data here: the
 * display runs these checks as the table types; `definitions.ts` builds catalogs from them.
 */
import type { FeatureDef, SiegeSymbol, Terrain, TileType } from './types.js';
import { validateTile } from './validate.js';

export interface TileDefinition {
  /** The catalog id of the tile type it confirms. */
  readonly tile: string;
  /** Terrain of each catalog-frame segment N0..W2. */
  readonly segments: readonly Terrain[];
  readonly features: readonly FeatureDef[];
  /** Siege & Defense tiles: the symbols, left to right. */
  readonly siege?: readonly SiegeSymbol[];
  /** Prize tiles: the city the statue stands in. */
  readonly statue?: string;
}

const SIEGE: readonly SiegeSymbol[] = ['knights', 'travelers', 'monks', 'any'];

const has = (t: { features: readonly FeatureDef[] }, kind: string) => t.features.some((f) => f.kind === kind);

/** The tile type `base` becomes with the table's description. */
export function confirmedTile(base: TileType, d: TileDefinition): TileType {
  const { siege: _s, statue: _t, ...rest } = base;
  return {
    ...rest,
    segments: [...d.segments],
    features: d.features.map((f) => ({ ...f, segments: [...f.segments], adjacentCities: [...f.adjacentCities] })),
    provisional: false,
    ...(d.siege && d.siege.length ? { siege: [...d.siege] } : {}),
    ...(d.statue !== undefined ? { statue: d.statue } : {}),
  };
}

/** The editable description of a catalog tile (what the editor starts from). */
export function definitionOf(t: TileType): TileDefinition {
  return {
    tile: t.id,
    segments: [...t.segments],
    features: t.features.map((f) => ({ ...f, segments: [...f.segments], adjacentCities: [...f.adjacentCities] })),
    ...(t.siege ? { siege: [...t.siege] } : {}),
    ...(t.statue !== undefined ? { statue: t.statue } : {}),
  };
}

/**
 * Why the table's description cannot replace `base`, or null. Beyond the geometry checks every tile
 * gets (validateTile), what the rules find a tile by must stay: a river tile keeps a river (The River
 * and the tournament tile follow it), a fortress cell keeps its fortress, a prize tile names a city
 * for its statue, and only tiles printed with siege symbols carry them.
 */
export function definitionProblem(d: TileDefinition, base: TileType | undefined): string | null {
  if (!base) return `tile ${d.tile} is not in the catalog`;
  if (base.expansion !== 'jousts-crests' && base.expansion !== 'siege-defense') {
    return `tile ${d.tile} is a printed tile of the classic catalog; only the provisional 2025 tiles are described at the table`;
  }
  for (const f of d.features) {
    if (f.pennants < 0 || f.pennants > 9 || !Number.isInteger(f.pennants)) return `feature ${f.id}: coats of arms must be a whole number 0–9`;
    if (f.pennants > 0 && f.kind !== 'city') return `feature ${f.id}: only a city shows coats of arms`;
    if (f.inn && f.kind !== 'road') return `feature ${f.id}: only a road has an inn`;
    if (f.cathedral && f.kind !== 'city') return `feature ${f.id}: only a city has a cathedral`;
  }
  const tile = confirmedTile(base, d);
  const problem = validateTile(tile);
  if (problem) return problem;
  if (has(base, 'river') !== has(tile, 'river')) {
    return has(base, 'river') ? `${d.tile} is a river tile: it must keep its river` : `${d.tile} is not a river tile: it cannot get a river`;
  }
  if (has(base, 'fortress') !== has(tile, 'fortress')) {
    return has(base, 'fortress') ? `${d.tile} is a fortress cell: it must keep the fortress` : `${d.tile} is not part of the fortress`;
  }
  if (base.siege) {
    if (!d.siege || d.siege.length < 1 || d.siege.length > 2) return `${d.tile} shows one or two siege symbols`;
    const bad = d.siege.find((s) => !SIEGE.includes(s));
    if (bad) return `siege symbol ${bad} is not one of ${SIEGE.join(', ')}`;
  } else if (d.siege && d.siege.length) {
    return `${d.tile} is not a Siege & Defense land tile: it shows no siege symbols`;
  }
  if (base.statue !== undefined) {
    const city = d.features.find((f) => f.id === d.statue);
    if (!city || city.kind !== 'city') return `prize tile ${d.tile}: the statue must stand in one of its cities (statue: ${d.statue ?? 'none'})`;
  } else if (d.statue !== undefined) {
    return `${d.tile} is not a prize tile: it has no statue`;
  }
  return null;
}

