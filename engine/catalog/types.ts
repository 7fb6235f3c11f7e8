/** Tile types as data: what the engine knows about a printed tile, in catalog orientation (rotation 0). */

export type Terrain = 'field' | 'road' | 'city' | 'river';
export const TERRAINS: readonly Terrain[] = ['field', 'road', 'city', 'river'];

/** Edge features join across tiles; interior features live on one tile. */
export type EdgeFeatureKind = 'road' | 'city' | 'field' | 'river';
/** `fortress`: the Siege & Defense fortress, a city for farmers that no meeple may enter. */
export type InteriorFeatureKind = 'cloister' | 'garden' | 'tower' | 'fortress';
export type FeatureKind = EdgeFeatureKind | InteriorFeatureKind;

export type Edition = 'C1' | 'C2' | 'C3';

/** Siege & Defense's symbols printed on a tile (`any` = the question mark). */
export type SiegeSymbol = 'knights' | 'travelers' | 'monks' | 'any';

/** Expansion ids as written in game records. */
export type ExpansionId =
  | 'base'
  | 'river'
  | 'abbot'
  | 'inns-cathedrals'
  | 'tower'
  | 'jousts-crests'
  | 'siege-defense';

export interface FeatureDef {
  /** Local id on the tile, e.g. `city1`. */
  readonly id: string;
  readonly kind: FeatureKind;
  /** Catalog-frame segment indices 0..11 (empty for interior features and enclosed fields). */
  readonly segments: readonly number[];
  readonly pennants: number;
  readonly inn: boolean;
  readonly cathedral: boolean;
  /** Fields only: local ids of the city features this field borders on the tile. */
  readonly adjacentCities: readonly string[];
}

export interface TileType {
  readonly id: string;
  readonly expansion: ExpansionId;
  readonly name: string;
  /** Terrain of each catalog-frame segment N0..W2. */
  readonly segments: readonly Terrain[];
  readonly features: readonly FeatureDef[];
  /** Copies in a box, per edition; absent = not printed in that edition. */
  readonly counts: Partial<Record<Edition, number>>;
  readonly riverSpring: boolean;
  readonly riverLake: boolean;
  /** Geometry not confirmed against a physical tile (the table confirms it once). */
  readonly provisional: boolean;
  /** Siege & Defense: the siege symbols printed on the tile, left to right (absent: none). */
  readonly siege?: readonly SiegeSymbol[];
  /** Jousts & Crests prize tiles: the id of the city feature the statue stands in. */
  readonly statue?: string;
}
