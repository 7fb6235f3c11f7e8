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

/** Finds ArUco markers of one dictionary in a frame (opencv's ArucoDetector, sub-pixel corners). */
export function detectMarkers(cv: Cv, frame: Frame, dictionary: SheetLayout['dictionary']): MarkerDetection[] {
  const gray = frameToGrayMat(cv, frame);
  const dict = cv.getPredefinedDictionary(cv[dictionary]);
  const params = new cv.aruco_DetectorParameters();
  params.cornerRefinementMethod = CORNER_REFINE_SUBPIX;
  params.cornerRefinementWinSize = 4;
  params.cornerRefinementMaxIterations = 50;
  params.cornerRefinementMinAccuracy = 0.01;
  const refine = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_ArucoDetector(dict, params, refine);
  const corners = new cv.MatVector();
  const rejected = new cv.MatVector();
  const ids = new cv.Mat();
  try {
    detector.detectMarkers(gray, corners, ids, rejected);
    const out: MarkerDetection[] = [];
    for (let i = 0; i < ids.rows * ids.cols; i++) {
      const c = corners.get(i);
      const f = c.data32F as Float32Array;
      out.push({
        id: ids.data32S[i] as number,
        corners: [0, 1, 2, 3].map((k) => ({ x: f[2 * k]!, y: f[2 * k + 1]! })) as Quad,
      });
      c.delete();
    }
    return out.sort((a, b) => a.id - b.id);
  } finally {
    for (const m of [gray, dict, params, refine, detector, corners, rejected, ids]) m.delete?.();
  }
}

export interface SheetHomography {
  /** Table millimetres (the sheet's own frame) → image pixels. */
  tableToImage: Homography;
  markerIds: number[];
  /** Root-mean-square reprojection error of the marker corners, pixels. */
  rmsPx: number;
}

/**
 * The table-plane homography from a photo of the calibration sheet. Every corner of every marker
 * that belongs to the layout is used; duplicates and foreign ids are ignored. Needs at least two
 * markers (8 corners) so that one misread marker cannot define the plane alone.
 */
export function homographyFromSheet(cv: Cv, frame: Frame, layout: SheetLayout, minMarkers = 2): Result<SheetHomography> {
  const checked = checkFrame(frame);
  if (!checked.ok) return checked;
  const found = detectMarkers(cv, frame, layout.dictionary);
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
  return ok({ tableToImage: h, markerIds: [...seen].sort((a, b) => a - b), rmsPx });
}
