/**
 * Where a figure stands on a laid tile, in the tile's board-frame unit square (0..1, north up). The
 * scene generator draws figures there and the tracker maps a seen figure back to a feature with it,
 * so both sides agree on one convention.
 */
import type { OrientedTile } from '../../engine/geometry/oriented.js';
import { FIELD_SPOT_DEPTH, layoutTile, segmentPoint, type TileLayout } from '../render/layout.js';
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

/**
 * Closer than this (catalog units, 100 = a tile edge; 15 ≈ 7 mm) two features' standing points are
 * one place to a camera at 20–25 px per tile: a figure there could stand on either.
 */
const APART = 15;
/** How near a tile's side (catalog units) a figure's centre may be moved: about 3 mm in. */
const MIN_DEPTH = 7;
const points = new Map<string, (readonly [number, number])[]>();

/**
 * Each feature's standing point in the catalog frame: the spot of its middle segment, unless that
 * lies within `APART` of another feature's point (a field beside a corner city: 1.4 mm apart on
 * BASE_O/P); then the spot of its own segment farthest from the others', or for a feature with one
 * segment (a road ending at a cloister by its side: RIVER_H's were 1 mm apart) a point on that
 * segment nearer the side, no nearer than `MIN_DEPTH`. Features without segments
 * (cloister, garden, tower) keep the tile's interior point.
 */
function standingPoints(view: OrientedTile): (readonly [number, number])[] {
  let pts = points.get(view.tile.id);
  if (pts) return pts;
  const layout = layoutOf(view);
  const feats = view.tile.features;
  const segsOf = (i: number) => [...feats[i]!.segments].sort((a, b) => a - b);
  pts = feats.map((_, i) => {
    const segs = segsOf(i);
    return layout.meepleSpots[segs.length === 0 ? 12 : segs[Math.floor(segs.length / 2)]!]!;
  });
  const gap = (p: readonly [number, number], i: number) => Math.min(Infinity, ...pts!.filter((_, j) => j !== i).map((q) => Math.hypot(p[0] - q[0], p[1] - q[1])));
  for (let i = 0; i < feats.length; i++) {
    const segs = segsOf(i);
    if (segs.length === 0 || gap(pts[i]!, i) >= APART) continue;
    let best = pts[i]!;
    for (const s of segs) if (gap(layout.meepleSpots[s]!, i) > gap(best, i)) best = layout.meepleSpots[s]!;
    // A lone road's end at a cloister (RIVER_H) has no other segment: its figure stands nearer the side.
    if (segs.length === 1 && gap(best, i) < APART) {
      // From a field spot's depth towards the side.
      for (let depth = FIELD_SPOT_DEPTH; depth >= MIN_DEPTH; depth--) {
        best = segmentPoint(segs[0]!, depth);
        if (gap(best, i) >= APART) break;
      }
    }
    pts[i] = best;
  }
  points.set(view.tile.id, pts);
  return pts;
}

/** The standing point of feature `featureIndex` of a laid tile. */
export function featurePoint(view: OrientedTile, featureIndex: number): [number, number] {
  return turnPoint(standingPoints(view)[featureIndex]!, quarterTurns(view.rot));
}

/**
 * Where the tile model's figure heads were taught a figure stands when they name board segment `s`
 * (models/synth/crop.ts draws a figure at its segment's spot): the spot, board frame, 0..1.
 */
export function segmentSpot(view: OrientedTile, s: number): [number, number] {
  const q = quarterTurns(view.rot);
  return turnPoint(layoutOf(view).meepleSpots[(((s - 3 * q) % 12) + 12) % 12]!, q);
}

/**
 * Within this (0..1) of a feature's standing point a segment's spot is that feature's place: half of
 * `APART`, so that no spot is two features' standing points' at once.
 */
export const STANDING_CATCH = APART / 200;

/** The standing point of the feature a record names `on` (board-frame name). */
export function namedPoint(view: OrientedTile, on: string): [number, number] | null {
  const f = view.features.find((g) => g.name === on);
  return f ? featurePoint(view, f.index) : null;
}
