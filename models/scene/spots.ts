/**
 * Where a figure stands on a laid tile, in the tile's board-frame unit square (0..1, north up). The
 * scene generator draws figures there and the tracker maps a seen figure back to a feature with it,
 * so both sides agree on one convention.
 */
import type { OrientedTile } from '../../engine/geometry/oriented.js';
import { layoutTile, type TileLayout } from '../render/layout.js';
import { quarterTurns } from '../../engine/geometry/segments.js';

const layouts = new Map<string, TileLayout>();
function layoutOf(view: OrientedTile): TileLayout {
  let l = layouts.get(view.tile.id);
  if (!l) layouts.set(view.tile.id, (l = layoutTile(view.tile)));
  return l;
}

/** Catalog-frame point (0..100) turned clockwise by the tile's rotation, as 0..1. */
export function turnPoint(p: readonly [number, number], q: number): [number, number] {
  let [u, v] = p;
  for (let k = 0; k < q; k++) [u, v] = [100 - v, u];
  return [u / 100, v / 100];
}

/** The standing point of feature `featureIndex` of a laid tile. */
export function featurePoint(view: OrientedTile, featureIndex: number): [number, number] {
  const def = view.tile.features[featureIndex]!;
  const layout = layoutOf(view);
  const segs = [...def.segments].sort((a, b) => a - b);
  const seg = segs.length === 0 ? 12 : segs[Math.floor(segs.length / 2)]!;
  return turnPoint(layout.meepleSpots[seg]!, quarterTurns(view.rot));
}

/** The standing point of the feature a record names `on` (board-frame name). */
export function namedPoint(view: OrientedTile, on: string): [number, number] | null {
  const f = view.features.find((g) => g.name === on);
  return f ? featurePoint(view, f.index) : null;
}
