/** Tile geometry checks, with no catalog data attached (the display runs them as the table types). */
import { SEGMENT_NAMES } from '../geometry/segments.js';
import type { TileType } from './types.js';

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
