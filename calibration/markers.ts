import type { Cv } from './cv.js';
import { fitHomography, applyHomography, type Homography, type Point, type Quad } from './geometry.js';
import { frameToGrayMat, checkFrame, type Frame } from './frame.js';
import { markerCornersMm, type SheetLayout } from './sheet/layout.js';
import { fail, ok, type Result } from './result.js';

export interface MarkerDetection {
  id: number;
  /** Image pixels, in the marker's own TL, TR, BR, BL order. */
  corners: Quad;
}

const CORNER_REFINE_SUBPIX = 1;

/** A rectangle of a frame, whole pixels, and the one marker looked for there (any where absent). */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
  id?: number;
}

/**
 * Finds ArUco markers of one dictionary in a frame (opencv's ArucoDetector, sub-pixel corners), or
 * only within `regions` of it, each giving its own marker only (corners still in the frame's pixels).
 */
export function detectMarkers(cv: Cv, frame: Frame, dictionary: SheetLayout['dictionary'], regions?: readonly Region[]): MarkerDetection[] {
  const whole = frameToGrayMat(cv, frame);
  const dict = cv.getPredefinedDictionary(cv[dictionary]);
  const params = new cv.aruco_DetectorParameters();
  params.cornerRefinementMethod = CORNER_REFINE_SUBPIX;
  params.cornerRefinementWinSize = 4;
  params.cornerRefinementMaxIterations = 50;
  params.cornerRefinementMinAccuracy = 0.01;
  const refine = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_ArucoDetector(dict, params, refine);
  const detectIn = (region: Region | null): MarkerDetection[] => {
    const gray = region ? whole.roi(new cv.Rect(region.x, region.y, region.width, region.height)) : whole;
    const dx = region?.x ?? 0, dy = region?.y ?? 0;
    const corners = new cv.MatVector();
    const rejected = new cv.MatVector();
    const ids = new cv.Mat();
    try {
      detector.detectMarkers(gray, corners, ids, rejected);
      const out: MarkerDetection[] = [];
      for (let i = 0; i < ids.rows * ids.cols; i++) {
        const id = ids.data32S[i] as number;
        if (region?.id !== undefined && id !== region.id) continue;
        const c = corners.get(i);
        const f = c.data32F as Float32Array;
        out.push({ id, corners: [0, 1, 2, 3].map((k) => ({ x: f[2 * k]! + dx, y: f[2 * k + 1]! + dy })) as Quad });
        c.delete();
      }
      return out;
    } finally {
      for (const m of [corners, rejected, ids]) m.delete();
      if (gray !== whole) gray.delete();
    }
  };
  try {
    const found = regions ? regions.flatMap((r) => detectIn(r)) : detectIn(null);
    return found.sort((a, b) => a.id - b.id);
  } finally {
    for (const m of [whole, dict, params, refine, detector]) m.delete?.();
  }
}

export interface SheetHomography {
  /** Table millimetres (the sheet's own frame) → image pixels. */
  tableToImage: Homography;
  markerIds: number[];
  /** Root-mean-square reprojection error of the marker corners, pixels. */
  rmsPx: number;
  /** Where the markers were looked for: only where the plane given as `near` puts them, or the whole frame. */
  searched: 'regions' | 'frame';
}

/**
 * Where a plane puts each of the sheet's markers in a frame: its box widened on every side by its
 * side, so that the marker is found there with the surroundings the whole frame gives it (the
 * detector's thresholds look a few pixels around each edge). A marker the plane does not put wholly
 * in the frame has none.
 */
export function markerRegions(plane: Homography, layout: SheetLayout, frame: Pick<Frame, 'width' | 'height'>): Region[] {
  const out: Region[] = [];
  for (const m of layout.markers) {
    const q = markerCornersMm(layout, m.id)!.map((c) => applyHomography(plane, c));
    if (q.some((p) => !Number.isFinite(p.x) || !Number.isFinite(p.y) || p.x < 0 || p.y < 0 || p.x > frame.width || p.y > frame.height)) continue;
    const side = Math.max(...q.map((p, i) => Math.hypot(p.x - q[(i + 1) % 4]!.x, p.y - q[(i + 1) % 4]!.y)));
    const xs = q.map((p) => p.x), ys = q.map((p) => p.y);
    // Clipped by the frame's edges as the whole frame is: a marker by an edge has no more around it there.
    const x0 = Math.max(0, Math.floor(Math.min(...xs) - side)), y0 = Math.max(0, Math.floor(Math.min(...ys) - side));
    const x1 = Math.min(frame.width, Math.ceil(Math.max(...xs) + side)), y1 = Math.min(frame.height, Math.ceil(Math.max(...ys) + side));
    if (x1 - x0 < side || y1 - y0 < side) continue;
    out.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, id: m.id });
  }
  return out;
}

/** The plane of a frame just before (the camera not moved since), for `homographyFromSheet` to look near. */
export interface NearPlane {
  readonly tableToImage: Homography;
  /** The markers it was solved from. */
  readonly markerIds: readonly number[];
  /**
   * Markers it puts in view that the whole frame did not give when it was last searched: one by the
   * frame's edge the detector finds now and then, or one a tile or the box lid has covered since
   * the plane was solved from it. The frame has not changed since, so it would not give them now
   * either; they are still looked for in their regions.
   */
  readonly missedByFrame?: readonly number[];
}

/**
 * The table-plane homography from a photo of the calibration sheet. Every corner of every marker
 * that belongs to the layout is used; duplicates and foreign ids are ignored. Needs at least two
 * markers (8 corners) so that one misread marker cannot define the plane alone. With `near` (the
 * plane of a frame just before, the camera not moved since), each marker is looked for only where
 * that plane puts it (`markerRegions`). The whole frame is looked at instead where the plane was not
 * solved from every marker it puts in view (it may put the others a little off; a marker the whole
 * frame did not give either, `missedByFrame`, is no reason), where the regions
 * together cover half the frame, and where a marker the plane was solved from is not found in its region
 * (unless the whole frame did not give it either).
 */
export function homographyFromSheet(cv: Cv, frame: Frame, layout: SheetLayout, minMarkers = 2, near?: NearPlane): Result<SheetHomography> {
  const checked = checkFrame(frame);
  if (!checked.ok) return checked;
  const regions = near ? markerRegions(near.tableToImage, layout, frame) : [];
  // Only where the plane was solved from every marker it puts in view (but those the whole frame did
  // not give either) is it sure where they are; and markers close together (a sheet filling the view)
  // would be looked at several times over.
  const known = (id: number) => near!.markerIds.includes(id) || !!near!.missedByFrame?.includes(id);
  const narrower = near !== undefined && near.markerIds.length >= minMarkers && regions.every((r) => known(r.id!)) && regions.reduce((a, r) => a + r.width * r.height, 0) < (frame.width * frame.height) / 2;
  let found = narrower ? detectMarkers(cv, frame, layout.dictionary, regions) : [];
  let searched: SheetHomography['searched'] = 'regions';
  // The regions not looked at; or a marker the plane was solved from not found where it was
  // (covered, or the camera moved).
  if (!near || !narrower || !near.markerIds.every((id) => found.some((d) => d.id === id) || near.missedByFrame?.includes(id))) {
    found = detectMarkers(cv, frame, layout.dictionary);
    searched = 'frame';
  }
  const seen = new Set<number>();
  const tablePts: Point[] = [];
  const imagePts: Point[] = [];
  for (const d of found) {
    const mm = markerCornersMm(layout, d.id);
    if (!mm || seen.has(d.id)) continue;
    seen.add(d.id);
    tablePts.push(...mm);
    imagePts.push(...d.corners);
  }
  if (seen.size === 0)
    return fail('no-markers', `no calibration markers of sheet ${layout.name} (${layout.dictionary}) found in the ${frame.width}×${frame.height} frame`);
  if (seen.size < minMarkers)
    return fail('too-few-markers', `only ${seen.size} marker(s) of sheet ${layout.name} found (ids ${[...seen].join(', ')}); need ${minMarkers}`);
  const h = fitHomography(cv, tablePts, imagePts, 3);
  if (!h) return fail('degenerate-points', `the ${seen.size} markers found do not define a plane`);
  const rmsPx = Math.sqrt(
    tablePts.reduce((s, p, i) => {
      const q = applyHomography(h, p);
      return s + (q.x - imagePts[i]!.x) ** 2 + (q.y - imagePts[i]!.y) ** 2;
    }, 0) / tablePts.length,
  );
  return ok({ tableToImage: h, markerIds: [...seen].sort((a, b) => a - b), rmsPx, searched });
}
