import type { Cv, Mat } from './cv.js';
import { applyHomography, distance, fitHomography, multiplyHomography, type Homography, type Point, type Quad } from './geometry.js';
import { refinePiece, poseFromQuad } from './refine.js';
import { refitPlane } from './lattice.js';
import { fail, ok, type Result } from './result.js';

export interface ImageMotion {
  /** Old image px → new image px. The table is a plane, so a camera move is a homography. */
  motion: Homography;
  matches: number;
  inliers: number;
}

/**
 * How the picture moved between two grey frames: ORB features matched both ways and a RANSAC
 * homography. Tiles and table texture give plenty of features; hands and a newly laid tile are
 * outliers.
 */
export function estimateImageMotion(cv: Cv, before: Mat, after: Mat): ImageMotion | undefined {
  const orb = new cv.ORB(1500);
  const none = new cv.Mat();
  const k1 = new cv.KeyPointVector(), k2 = new cv.KeyPointVector();
  const d1 = new cv.Mat(), d2 = new cv.Mat();
  const bf = new cv.BFMatcher(cv.NORM_HAMMING, true);
  const matches = new cv.DMatchVector();
  try {
    orb.detectAndCompute(before, none, k1, d1);
    orb.detectAndCompute(after, none, k2, d2);
    if (d1.rows < 8 || d2.rows < 8) return undefined;
    bf.match(d1, d2, matches);
    const from: Point[] = [], to: Point[] = [];
    for (let i = 0; i < matches.size(); i++) {
      const m = matches.get(i);
      const a = k1.get(m.queryIdx).pt, b = k2.get(m.trainIdx).pt;
      from.push({ x: a.x, y: a.y });
      to.push({ x: b.x, y: b.y });
    }
    const motion = fitHomography(cv, from, to, 2);
    if (!motion) return undefined;
    const inliers = from.filter((p, i) => distance(applyHomography(motion, p), to[i]!) < 2).length;
    return { motion, matches: from.length, inliers };
  } finally {
    for (const x of [orb, none, k1, k2, d1, d2, bf, matches]) x.delete();
  }
}

export interface CameraMoveCheck {
  moved: boolean;
  /** Largest displacement of a known tile's centre in the image, px. */
  shiftPx: number;
  motion: Homography;
}

/**
 * Was the camera bumped? True when the known tiles' centres moved by more than `thresholdPx`
 * under a motion that most features agree on.
 */
export function detectCameraMove(cv: Cv, before: Mat, after: Mat, knownCentresPx: Point[], thresholdPx = 1.5): Result<CameraMoveCheck> {
  const est = estimateImageMotion(cv, before, after);
  if (!est || est.inliers < 12)
    return fail('no-tiles-found', `cannot tell whether the camera moved: only ${est?.inliers ?? 0} image features agree between the frames (is the view covered?)`);
  const shiftPx = Math.max(0, ...knownCentresPx.map((p) => distance(p, applyHomography(est.motion, p))));
  return ok({ moved: shiftPx > thresholdPx, shiftPx, motion: est.motion });
}

/** A tile already on the board: its quad on the table as it was committed. */
export interface KnownTile {
  key: string;
  tableQuad: Quad;
}

/**
 * Re-solves the table plane after a bump: the old plane carried through the image motion, then
 * every known tile refound by its own edges and the plane refitted to all their corners (table
 * quads as committed ↔ image quads found now), twice.
 */
export function resolveAfterBump(cv: Cv, image: Mat, oldTableToImage: Homography, motion: Homography, known: KnownTile[]): Result<Homography> {
  if (known.length === 0) return fail('no-tiles-found', 'no known tiles to re-solve the camera from');
  let h = multiplyHomography(motion, oldTableToImage);
  for (let iter = 0; iter < 2; iter++) {
    const tablePts: Point[] = [], imagePts: Point[] = [];
    for (const k of known) {
      const nominal = poseFromQuad(k.tableQuad);
      const found = refinePiece(cv, image, h, nominal, { searchMm: 3, searchDeg: 2, pxPerMm: 4, sizeToleranceMm: 0.6 });
      tablePts.push(...k.tableQuad);
      imagePts.push(...found.tableQuad.map((p) => applyHomography(h, p)));
    }
    const refit = refitPlane(cv, known.map((k, i) => ({ tableQuad: k.tableQuad, imageQuad: imagePts.slice(4 * i, 4 * i + 4) as Quad })));
    if (!refit) return fail('degenerate-points', 'the known tiles found after the bump do not define a plane');
    h = refit;
  }
  return ok(h);
}
