import type { Cv } from './cv.js';
import { checkFrame, frameToMat, type Frame } from './frame.js';
import { isGoodQuad, orderQuad, applyHomography, type Homography, type Point, type Quad } from './geometry.js';
import { refinePiece } from './refine.js';
import { fail, ok, type Result } from './result.js';

/** A known piece that can stand in for the calibration sheet: its size on the table. */
export interface KnownPiece {
  name: string;
  widthMm: number;
  heightMm: number;
}

export const TILE_MM = 45;
export const START_TILE: KnownPiece = { name: 'start tile', widthMm: TILE_MM, heightMm: TILE_MM };
/** The Jousts & Crests tournament tile covers 2×3 cells (rules digest §1.4). */
export const TOURNAMENT_TILE: KnownPiece = { name: 'tournament tile', widthMm: 3 * TILE_MM, heightMm: 2 * TILE_MM };
/**
 * Siege & Defense: two 2×3 fortress tiles laid side by side; the digest's reading (SD setup,
 * [INTERP]) is that each is 2×3, so the pair is a 4×3 (or 2×6) block. Both shapes are offered.
 */
export const FORTRESS_4X3: KnownPiece = { name: 'fortress (two tiles, 4×3)', widthMm: 4 * TILE_MM, heightMm: 3 * TILE_MM };
export const FORTRESS_2X6: KnownPiece = { name: 'fortress (two tiles, 2×6)', widthMm: 6 * TILE_MM, heightMm: 2 * TILE_MM };

export interface PieceHomography {
  /** Table millimetres → image pixels; the table frame has the piece's corners at (0,0)…(w,h). */
  tableToImage: Homography;
  /** The piece's corners in the image, TL, TR, BR, BL of the piece. */
  imageCorners: Quad;
}

/**
 * Manual fallback: four clicked image points at the corners of a known rectangle (the sheet's paper,
 * the start tile…), in the rectangle's TL, TR, BR, BL order; clicks made the other way round are
 * accepted and turned so the table is never mirrored.
 */
export function homographyFromCorners(clicked: Point[], rect: { widthMm: number; heightMm: number }): Result<PieceHomography> {
  if (!Array.isArray(clicked) || clicked.length !== 4)
    return fail('degenerate-points', `need exactly 4 clicked corners, got ${Array.isArray(clicked) ? clicked.length : 'none'}`);
  const bad = clicked.findIndex((p) => !p || !Number.isFinite(p.x) || !Number.isFinite(p.y));
  if (bad >= 0) return fail('degenerate-points', `corner ${bad + 1} is not a point with finite x and y`);
  if (!(rect.widthMm > 0 && rect.heightMm > 0)) return fail('degenerate-points', 'the rectangle needs a positive width and height in mm');
  if (!isGoodQuad(clicked, 15))
    return fail('degenerate-points', 'the four corners do not form a convex quadrilateral (two clicks too close, crossed, or in a line)');
  // Signed area < 0 means counter-clockwise on screen: mirror the order so TL stays TL.
  const area = clicked.reduce((s, p, i) => { const q = clicked[(i + 1) % 4]!; return s + p.x * q.y - q.x * p.y; }, 0);
  const pts = (area < 0 ? [clicked[0], clicked[3], clicked[2], clicked[1]] : clicked) as Quad;
  const { widthMm: w, heightMm: h } = rect;
  const tableToImage = homographyFrom4(pts, w, h);
  return ok({ tableToImage, imageCorners: pts });
}

/** Exact homography mapping (0,0),(w,0),(w,h),(0,h) to the quad. */
function homographyFrom4(q: Quad, w: number, h: number): Homography {
  // Closed form (Heckbert): unit square → quad, then scale.
  const [p0, p1, p2, p3] = q;
  const sx = p0.x - p1.x + p2.x - p3.x, sy = p0.y - p1.y + p2.y - p3.y;
  const dx1 = p1.x - p2.x, dx2 = p3.x - p2.x, dy1 = p1.y - p2.y, dy2 = p3.y - p2.y;
  const den = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / den;
  const hh = (dx1 * sy - sx * dy1) / den;
  const a = p1.x - p0.x + g * p1.x, b = p3.x - p0.x + hh * p3.x, c = p0.x;
  const d = p1.y - p0.y + g * p1.y, e = p3.y - p0.y + hh * p3.y, f = p0.y;
  return [a / w, b / h, c, d / w, e / h, f, g / w, hh / h, 1];
}

/**
 * Without markers: finds the start piece (a bright rectangle of known size and aspect) in the
 * frame, then refines its four sides top-down. The table frame has the piece's corners at
 * (0,0)…(w,h) with the piece's long side along x. A square piece's rotation is fixed arbitrarily
 * (its first corner is the one nearest the image's top-left); the recogniser reads the tile's
 * real rotation later. `accept` may turn a found rectangle down (a marker, a box lid: not the piece by
 * its look), and the next one is tried.
 */
export function homographyFromStartPiece(cv: Cv, frame: Frame, piece: KnownPiece, accept: (found: PieceHomography) => boolean = () => true): Result<PieceHomography> {
  const checked = checkFrame(frame);
  if (!checked.ok) return checked;
  const image = frameToMat(cv, frame);
  try {
    const candidates = findRectangles(cv, image, frame, piece.widthMm / piece.heightMm);
    for (const quad of candidates) {
      // Long side along x: start the order at a corner followed by a long side.
      const q = orientLongSide(quad, piece.widthMm >= piece.heightMm);
      let h = homographyFrom4(q, piece.widthMm, piece.heightMm);
      let contrast = 0;
      for (let iter = 0; iter < 3; iter++) {
        const refined = refinePiece(cv, image, h, { centre: { x: piece.widthMm / 2, y: piece.heightMm / 2 }, angleDeg: 0, widthMm: piece.widthMm, heightMm: piece.heightMm }, { searchMm: iter === 0 ? 5 : 2, searchDeg: iter === 0 ? 4 : 2, pxPerMm: 4, sizeToleranceMm: (1.5 * Math.max(piece.widthMm, piece.heightMm)) / TILE_MM });
        contrast = refined.contrast;
        // The four sides as found (a general quad), not the best rectangle: the rough plane is
        // still skewed, and the quad carries the correction.
        const img = refined.tableQuad.map((p) => applyHomography(h, p)) as Quad;
        h = homographyFrom4(img, piece.widthMm, piece.heightMm);
      }
      if (contrast < 1.5) continue;
      const corners = [0, 1, 2, 3].map((k) => applyHomography(h, [{ x: 0, y: 0 }, { x: piece.widthMm, y: 0 }, { x: piece.widthMm, y: piece.heightMm }, { x: 0, y: piece.heightMm }][k]!)) as Quad;
      const found = { tableToImage: h, imageCorners: corners };
      if (!accept(found)) continue;
      return ok(found);
    }
    return fail('start-piece-not-found', `no ${piece.name} (${piece.widthMm}×${piece.heightMm} mm) found in the ${frame.width}×${frame.height} frame; use the calibration sheet or click its four corners`);
  } finally {
    image.delete();
  }
}

function orientLongSide(q: Quad, longAlongX: boolean): Quad {
  const d = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
  const firstLong = d(q[0], q[1]) + d(q[2], q[3]) >= d(q[1], q[2]) + d(q[3], q[0]);
  return firstLong === longAlongX ? q : ([q[1], q[2], q[3], q[0]] as Quad);
}

/** Convex quadrilaterals from the frame's edges whose side ratio is near `aspect`, best first. */
function findRectangles(cv: Cv, image: unknown, frame: Frame, aspect: number): Quad[] {
  const blurred = new cv.Mat();
  const edges = new cv.Mat();
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  // Closing by ~0.4 % of the frame joins the art's edges to the outline they touch, so a piece
  // becomes one blob whose convex hull is its outline even where a side is faint.
  const k = Math.max(3, Math.round(frame.width / 250) | 1);
  const kernel = cv.Mat.ones(k, k, cv.CV_8U);
  try {
    // Edges in every colour channel: a green tile on a brown table can vanish in grey.
    cv.GaussianBlur(image, blurred, new cv.Size(5, 5), 0);
    const planes = new cv.MatVector();
    cv.split(blurred, planes);
    const one = new cv.Mat();
    for (let c = 0; c < planes.size(); c++) {
      const plane = planes.get(c);
      cv.Canny(plane, one, 40, 120);
      if (c === 0) one.copyTo(edges);
      else cv.bitwise_or(edges, one, edges);
      plane.delete();
    }
    one.delete();
    planes.delete();
    // Closing (not just dilating) keeps the outline on the edges themselves, so the rough quad
    // has the piece's size and the refinement starts close.
    cv.morphologyEx(edges, edges, cv.MORPH_CLOSE, kernel);
    cv.findContours(edges, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    const frameArea = frame.width * frame.height;
    const want = Math.max(aspect, 1 / aspect);
    const found: { quad: Quad; score: number }[] = [];
    for (let i = 0; i < contours.size(); i++) {
      const c = contours.get(i);
      // The hull closes outlines that the art interrupts: where a city runs to the tile's edge on
      // a table of similar colour the side is missing, but the art's own edges end at its corners.
      const hull = new cv.Mat();
      cv.convexHull(c, hull, false, true);
      const approx = new cv.Mat();
      const peri = cv.arcLength(hull, true);
      cv.approxPolyDP(hull, approx, 0.03 * peri, true);
      hull.delete();
      const area = Math.abs(cv.contourArea(approx));
      if (approx.rows === 4 && area > frameArea * 0.0005 && area < frameArea * 0.5) {
        const pts = [0, 1, 2, 3].map((k) => ({ x: approx.data32S[2 * k]!, y: approx.data32S[2 * k + 1]! }));
        if (isGoodQuad(pts, 50)) {
          const q = orderQuad(pts);
          const d = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
          const s1 = (d(q[0], q[1]) + d(q[2], q[3])) / 2, s2 = (d(q[1], q[2]) + d(q[3], q[0])) / 2;
          const ratio = Math.max(s1, s2) / Math.min(s1, s2);
          const err = Math.abs(Math.log(ratio / want));
          if (err < 0.25) found.push({ quad: q, score: -area });
        }
      }
      approx.delete();
      c.delete();
    }
    // Largest first: the start piece is the biggest rectangle of its shape on an empty table.
    return found.sort((a, b) => a.score - b.score).map((f) => f.quad);
  } finally {
    for (const m of [blurred, edges, contours, hierarchy, kernel]) m.delete();
  }
}

