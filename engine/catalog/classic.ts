/** The classic catalog (base, River, Abbot gardens, Inns & Cathedrals, The Tower) from its JSON data. */
import raw from './data/tiles-classic.json' with { type: 'json' };
import { segmentIndex } from '../geometry/segments.js';
import type { Edition, ExpansionId, FeatureDef, FeatureKind, Terrain, TileType } from './types.js';

interface RawFeature {
  id: string;
  type: string;
  segments?: string[];
  pennants?: number;
  inn?: boolean;
  cathedral?: boolean;
  adjacentCities?: string[];
}

interface RawTile {
  id: string;
  name: string;
  segments12: string[];
  features: RawFeature[];
  countC2C3?: number | null;
  countC1?: number | null;
  countC2?: number | null;
  countC3?: number | null;
  riverSpring?: boolean;
  riverLake?: boolean;
  uncertain?: string;
}

const EXPANSION_KEYS: Record<string, ExpansionId> = {
  base: 'base',
  river: 'river',
  innsAndCathedrals: 'inns-cathedrals',
  tower: 'tower',
};

const KIND: Record<string, FeatureKind> = {
  road: 'road',
  city: 'city',
  field: 'field',
  river: 'river',
  cloister: 'cloister',
  garden: 'garden',
  towerFoundation: 'tower',
};

function feature(tileId: string, f: RawFeature): FeatureDef {
  const kind = KIND[f.type];
  if (!kind) throw new Error(`catalog: tile ${tileId} feature ${f.id} has unknown type ${f.type}`);
  const segments = (f.segments ?? []).map((s) => {
    const i = segmentIndex(s);
    if (i === undefined) throw new Error(`catalog: tile ${tileId} feature ${f.id} has bad segment ${s}`);
    return i;
  });
  return {
    id: f.id,
    kind,
    segments,
    pennants: f.pennants ?? 0,
    inn: f.inn ?? false,
    cathedral: f.cathedral ?? false,
    adjacentCities: f.adjacentCities ?? [],
  };
}

function counts(t: RawTile, expansion: ExpansionId): Partial<Record<Edition, number>> {
  const out: Partial<Record<Edition, number>> = {};
  const put = (e: Edition, n: number | null | undefined) => {
    if (typeof n === 'number' && n > 0) out[e] = n;
  };
  put('C1', t.countC1);
  if (expansion === 'river') {
    put('C2', t.countC2);
    put('C3', t.countC3);
  } else {
    put('C2', t.countC2C3);
    put('C3', t.countC2C3);
  }
  return out;
}

function tile(t: RawTile, expansion: ExpansionId): TileType {
  return {
    id: t.id,
    expansion,
    name: t.name,
    segments: t.segments12 as Terrain[],
    features: t.features.map((f) => feature(t.id, f)),
    counts: counts(t, expansion),
    riverSpring: t.riverSpring === true,
    riverLake: t.riverLake === true,
    provisional: false,
  };
}

export function classicTiles(): TileType[] {
  const out: TileType[] = [];
  const expansions = (raw as unknown as { expansions: Record<string, { tiles?: RawTile[] }> }).expansions;
  for (const [key, exp] of Object.entries(expansions)) {
    const id = EXPANSION_KEYS[key];
    if (!id || !exp.tiles) continue;
    for (const t of exp.tiles) out.push(tile(t, id));
  }
  return out;
}
