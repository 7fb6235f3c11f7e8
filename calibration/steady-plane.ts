import { applyHomography, multiplyHomography, type Homography, type Point } from './geometry.js';
import type { SheetHomography } from './markers.js';
import { markerCornersMm, type SheetLayout } from './sheet/layout.js';

/** The table plane in use, and the markers it was solved from. */
export interface Plane {
  readonly tableToImage: Homography;
  readonly markerIds: readonly number[];
}

/** Mean movement of the markers' corners (pixels) below which the camera is taken to be where it was. */
export const STEADY_PX = 1.5;

/**
 * The plane to use for a new still frame, given the one in use and the one solved from this frame's
 * markers. A plane solved from two markers on one side of the table fits them exactly and
 * extrapolates poorly across it: on a generated full game at 640×480, where the top-left marker was
 * often missed in the darker half of the table, the far side of the board came out up to 40 px
 * (more than a tile) off, and every hole there looked changed. So:
 * - the markers found sit where the plane in use puts them (the camera has not moved): the plane in
 *   use stays, unless the new one rests on more markers (a steady plane also keeps the crops of one
 *   still scene comparable with the last one's);
 * - they moved (the camera was bumped): a plane from as many markers as the one in use is taken as it
 *   is; one from fewer (three extrapolate by a few pixels too) corrects the plane in use by the
 *   similarity that carries its marker corners onto the new ones.
 */
export function steadyPlane(inUse: Plane | null, found: SheetHomography, layout: SheetLayout): Plane {
  if (!inUse) return found;
  const from: Point[] = [], to: Point[] = [];
  for (const id of found.markerIds)
    for (const c of markerCornersMm(layout, id) ?? []) {
      from.push(applyHomography(inUse.tableToImage, c));
      to.push(applyHomography(found.tableToImage, c));
    }
  if (from.length === 0) return found;
  const moved = from.reduce((s, p, i) => s + Math.hypot(p.x - to[i]!.x, p.y - to[i]!.y), 0) / from.length;
  if (moved < STEADY_PX) return found.markerIds.length >= inUse.markerIds.length ? found : inUse;
  if (found.markerIds.length >= inUse.markerIds.length) return found;
  return { tableToImage: multiplyHomography(similarity(from, to), inUse.tableToImage), markerIds: inUse.markerIds };
}

/** Least-squares similarity (turn, scale, shift) of the image carrying `from` onto `to`. */
function similarity(from: Point[], to: Point[]): Homography {
  const n = from.length;
  const mx = from.reduce((s, p) => s + p.x, 0) / n, my = from.reduce((s, p) => s + p.y, 0) / n;
  const nx = to.reduce((s, p) => s + p.x, 0) / n, ny = to.reduce((s, p) => s + p.y, 0) / n;
  let uu = 0, sa = 0, sb = 0;
  for (let i = 0; i < n; i++) {
    const u = from[i]!.x - mx, v = from[i]!.y - my, x = to[i]!.x - nx, y = to[i]!.y - ny;
    uu += u * u + v * v;
    sa += u * x + v * y;
    sb += u * y - v * x;
  }
  const a = uu > 0 ? sa / uu : 1, b = uu > 0 ? sb / uu : 0;
  return [a, -b, nx - (a * mx - b * my), b, a, ny - (b * mx + a * my), 0, 0, 1];
}
