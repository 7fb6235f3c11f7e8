import type { Cv, Mat } from './cv.js';
import { checkFrame, frameToGrayMat, frameToMat, matToFrame, type Frame } from './frame.js';
import type { Point } from './geometry.js';
import { fail, ok, type Result } from './result.js';

/** A printed ChArUco board: a chessboard with ArUco markers in its white squares. */
export interface CharucoSpec {
  squaresX: number;
  squaresY: number;
  squareMm: number;
  markerMm: number;
  dictionary: 'DICT_4X4_50' | 'DICT_5X5_50' | 'DICT_6X6_50';
}

/** Fits on A4 with margins: 7×5 squares of 28 mm. */
export const CHARUCO_A4: CharucoSpec = { squaresX: 7, squaresY: 5, squareMm: 28, markerMm: 21, dictionary: 'DICT_5X5_50' };

function makeBoard(cv: Cv, spec: CharucoSpec): { board: Cv; dict: Cv } {
  const dict = cv.getPredefinedDictionary(cv[spec.dictionary]);
  const board = new cv.aruco_CharucoBoard(new cv.Size(spec.squaresX, spec.squaresY), spec.squareMm, spec.markerMm, dict, new cv.Mat());
  return { board, dict };
}

/** The board as a grey image at `pxPerMm` (opencv's own drawing of it), for printing and tests. */
export function charucoImage(cv: Cv, spec: CharucoSpec, pxPerMm: number): Frame {
  const { board, dict } = makeBoard(cv, spec);
  const img = new cv.Mat();
  try {
    board.generateImage(new cv.Size(Math.round(spec.squaresX * spec.squareMm * pxPerMm), Math.round(spec.squaresY * spec.squareMm * pxPerMm)), img, 0, 1);
    return matToFrame(img);
  } finally {
    img.delete();
    board.delete();
    dict.delete();
  }
}

export interface CharucoView {
  /** Inner chessboard corners found, with their board positions (mm) and image positions (px). */
  board: Point[];
  image: Point[];
}

/** Finds the board's inner corners in one frame (opencv's CharucoDetector, sub-pixel). */
export function detectCharuco(cv: Cv, frame: Frame, spec: CharucoSpec): CharucoView {
  const { board, dict } = makeBoard(cv, spec);
  const gray = frameToGrayMat(cv, frame);
  const detector = new cv.aruco_CharucoDetector(board, new cv.aruco_CharucoParameters(), new cv.aruco_DetectorParameters(), new cv.aruco_RefineParameters(10, 3, true));
  const corners = new cv.Mat(), ids = new cv.Mat(), mc = new cv.MatVector(), mi = new cv.Mat();
  const objPts = board.getChessboardCorners();
  try {
    detector.detectBoard(gray, corners, ids, mc, mi);
    const view: CharucoView = { board: [], image: [] };
    for (let i = 0; i < ids.rows; i++) {
      const id = ids.data32S[i] as number;
      const o = objPts.get(id);
      view.board.push({ x: o.x, y: o.y });
      view.image.push({ x: corners.data32F[2 * i]!, y: corners.data32F[2 * i + 1]! });
    }
    return view;
  } finally {
    for (const m of [board, dict, gray, detector, corners, ids, mc, mi, objPts]) m.delete?.();
  }
}

export interface LensCalibration {
  /** 3×3 camera matrix, row-major. */
  intrinsics: number[];
  /** k1, k2, p1, p2, k3. */
  distortion: number[];
  rmsPx: number;
  views: number;
}

/**
 * Intrinsics and lens distortion from several captures of the ChArUco board at different angles
 * (cv.calibrateCameraExtended). Views with fewer than 8 corners are left out; at least 3 are needed.
 */
export function calibrateLens(cv: Cv, frames: Frame[], spec: CharucoSpec): Result<LensCalibration> {
  if (frames.length === 0) return fail('too-few-views', 'no captures of the ChArUco board were given');
  const first = checkFrame(frames[0]);
  if (!first.ok) return first;
  const { width, height } = first.value;
  const views: CharucoView[] = [];
  for (const [i, f] of frames.entries()) {
    const c = checkFrame(f, `capture ${i + 1}`);
    if (!c.ok) return c;
    if (f.width !== width || f.height !== height) return fail('frame-size-mismatch', `capture ${i + 1} is ${f.width}×${f.height}, capture 1 is ${width}×${height}`);
    const v = detectCharuco(cv, f, spec);
    if (v.board.length >= 8) views.push(v);
  }
  if (views.length < 3)
    return fail('too-few-views', `the ChArUco board was found in ${views.length} of ${frames.length} captures; need 3 or more, taken at different angles`);
  const objectPoints = new cv.MatVector(), imagePoints = new cv.MatVector();
  const k = new cv.Mat(), d = new cv.Mat(), rvecs = new cv.MatVector(), tvecs = new cv.MatVector();
  const sdi = new cv.Mat(), sde = new cv.Mat(), pve = new cv.Mat();
  const made: Mat[] = [];
  try {
    for (const v of views) {
      const o = cv.matFromArray(v.board.length, 1, cv.CV_32FC3, v.board.flatMap((p) => [p.x, p.y, 0]));
      const im = cv.matFromArray(v.image.length, 1, cv.CV_32FC2, v.image.flatMap((p) => [p.x, p.y]));
      objectPoints.push_back(o);
      imagePoints.push_back(im);
      made.push(o, im);
    }
    const criteria = new cv.TermCriteria(cv.TermCriteria_COUNT + cv.TermCriteria_EPS, 100, 1e-9);
    // Tangential and k3 terms are fixed: a handful of board views cannot separate them reliably.
    const flags = cv.CALIB_ZERO_TANGENT_DIST | cv.CALIB_FIX_K3;
    const rms = cv.calibrateCameraExtended(objectPoints, imagePoints, new cv.Size(width, height), k, d, rvecs, tvecs, sdi, sde, pve, flags, criteria);
    return ok({ intrinsics: Array.from(k.data64F as Float64Array), distortion: Array.from(d.data64F as Float64Array).slice(0, 5), rmsPx: rms, views: views.length });
  } finally {
    for (const m of [objectPoints, imagePoints, k, d, rvecs, tvecs, sdi, sde, pve, ...made]) m.delete();
  }
}

/** The frame as an ideal pinhole camera would have seen it (same camera matrix). */
export function undistortFrame(cv: Cv, frame: Frame, lens: Pick<LensCalibration, 'intrinsics' | 'distortion'>): Frame {
  const src = frameToMat(cv, frame);
  const k = cv.matFromArray(3, 3, cv.CV_64F, lens.intrinsics);
  const d = cv.matFromArray(1, 5, cv.CV_64F, lens.distortion);
  const out = new cv.Mat();
  try {
    cv.undistort(src, out, k, d, k);
    return matToFrame(out);
  } finally {
    for (const m of [src, k, d, out]) m.delete();
  }
}
