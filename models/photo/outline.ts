/**
 * Finds the one square tile lying on a table in a photo: its four corners, and how sure the outline
 * is. Two steps, each on a downscaled copy of the photo:
 *  1. search (longest side SEARCH_PX): the table's colours are learnt from the frame's outermost
 *     ring of pixels, every pixel's distance to the nearest of them (Lab, lightness weighed low so
 *     light gradients and shadows stay table) marks what is not table, and so does busy drawing
 *     (the art's strokes); the largest blob gives first quadrilaterals (its convex hull simplified
 *     to four corners, and its smallest rotated rectangle);
 *  2. refine (longest side REFINE_PX): along each side the outermost strong colour edge across it
 *     is found at points all along, a line is fitted through them with outliers left out, and the
 *     corners are where adjacent lines meet. Done twice, the second time in a narrower band; of
 *     the first quadrilaterals refined, the one that passes the checks with the most edge support.
 * The outline is then judged (`judgeOutline`): a view of a square from at most ~30° off vertical
 * is a convex quadrilateral with near-right angles and sides of similar length, whose sides are
 * real edges all along. What fails that is reported with the reason, never guessed at.
 */
import { edgeSquares, labGradients, squareEdgeScore } from './edge-squares.js';
import type { Cv } from '../../calibration/cv.js';
import type { Point, Quad } from '../../calibration/geometry.js';
import { fail, ok, type Result } from '../../engine/result.js';

export const SEARCH_PX = 480;
export const REFINE_PX = 1600;

/** Raw RGB pixels. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

export interface Outline {
  /** Corners in the refine image's pixels, clockwise on screen; the first two span the side facing the frame's top. */
  readonly corners: Quad;
  /** Share of the points along the four sides that sit on a clear edge within a pixel or two of the fitted side. */
  readonly edgeSupport: number;
  /** Largest and smallest interior angle (degrees) and the longest over the shortest side. */
  readonly angles: readonly [number, number];
  readonly sideRatio: number;
}

/** What an outline must be to count as a tile (docs/photos.md "When a photo is not read"). */
export const OUTLINE_RULES = {
  /** Interior angles within 90° ± this (a square seen up to ~30° off vertical, at any turn, stays within ~25°). */
  maxAngleOff: 35,
  /** Longest side over shortest side. */
  maxSideRatio: 1.6,
  /** Shortest side over the frame's shorter side. */
  minSide: 0.04,
  /** Share of side points on a clear edge. */
  minEdgeSupport: 0.6,
} as const;

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Lab (OpenCV's 8-bit scaling) of an RGB image, lightly blurred so noise and fine texture drop out. */
function labOf(cv: Cv, img: RgbImage): Uint8Array {
  const src = cv.matFromArray(img.height, img.width, cv.CV_8UC3, img.data);
  const blurred = new cv.Mat();
  const lab = new cv.Mat();
  try {
    cv.GaussianBlur(src, blurred, new cv.Size(5, 5), 0);
    cv.cvtColor(blurred, lab, cv.COLOR_RGB2Lab);
    return new Uint8Array(lab.data);
  } finally {
    for (const m of [src, blurred, lab]) m.delete();
  }
}

const L_WEIGHT = 0.35;
/** Distance (Lab units) from every table colour of the ring beyond which a pixel is not table. */
const NOT_TABLE = 16;

/** 255 where a pixel is unlike every colour of the frame's outer ring. */
function notTableMask(lab: Uint8Array, W: number, H: number, lWeight = L_WEIGHT): Uint8Array {
  const ring: number[][] = [];
  const seen = new Set<number>();
  const take = (x: number, y: number) => {
    const o = (y * W + x) * 3;
    const l = lab[o]! * lWeight, a = lab[o + 1]!, b = lab[o + 2]!;
    const key = (Math.round(l / 3) << 16) | (Math.round(a / 3) << 8) | Math.round(b / 3);
    if (seen.has(key)) return;
    seen.add(key);
    ring.push([l, a, b]);
  };
  for (let k = 0; k < 2; k++) {
    for (let x = 0; x < W; x++) { take(x, k); take(x, H - 1 - k); }
    for (let y = 0; y < H; y++) { take(k, y); take(W - 1 - k, y); }
  }
  // Deduplicated, the ring is a few hundred colours; every pixel is compared with each.
  const n = ring.length;
  const rl = Float32Array.from(ring, (c) => c[0]!), ra = Float32Array.from(ring, (c) => c[1]!), rb = Float32Array.from(ring, (c) => c[2]!);
  const out = new Uint8Array(W * H);
  const t2 = NOT_TABLE * NOT_TABLE;
  for (let i = 0, o = 0; i < W * H; i++, o += 3) {
    const l = lab[o]! * lWeight, a = lab[o + 1]!, b = lab[o + 2]!;
    let near = false;
    for (let j = 0; j < n; j++) {
      const dl = l - rl[j]!, da = a - ra[j]!, db = b - rb[j]!;
      if (dl * dl + da * da + db * db < t2) { near = true; break; }
    }
    out[i] = near ? 0 : 255;
  }
  return out;
}

/**
 * 255 where the picture is busy: the tile's art is drawn in small strokes, a table is smooth or has
 * a grain much weaker than a drawing. Local mean gradient of the lightness against the ring's.
 */
function busyMask(cv: Cv, lab: Uint8Array, W: number, H: number): Uint8Array {
  const L = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) L[i] = lab[i * 3]!;
  const src = cv.matFromArray(H, W, cv.CV_8UC1, L);
  const gx = new cv.Mat(), gy = new cv.Mat(), mag = new cv.Mat(), avg = new cv.Mat();
  try {
    cv.Sobel(src, gx, cv.CV_32F, 1, 0, 3);
    cv.Sobel(src, gy, cv.CV_32F, 0, 1, 3);
    cv.magnitude(gx, gy, mag);
    cv.blur(mag, avg, new cv.Size(7, 7));
    const a = avg.data32F as Float32Array;
    const ring: number[] = [];
    for (let x = 4; x < W - 4; x += 2) ring.push(a[4 * W + x]!, a[(H - 5) * W + x]!);
    for (let y = 4; y < H - 4; y += 2) ring.push(a[y * W + 4]!, a[y * W + W - 5]!);
    ring.sort((p, q) => p - q);
    const t = Math.max(BUSY_FLOOR, 2 * ring[Math.floor(ring.length * 0.9)]!);
    const out = new Uint8Array(W * H);
    for (let i = 0; i < W * H; i++) out[i] = a[i]! > t ? 255 : 0;
    // A lone edge (a hand's outline, a shadow's) is a thin band of it: only wide areas stay.
    const m = cv.matFromArray(H, W, cv.CV_8UC1, out);
    const k = cv.getStructuringElement(cv.MORPH_ELLIPSE, new cv.Size(9, 9));
    try {
      cv.morphologyEx(m, m, cv.MORPH_OPEN, k);
      return new Uint8Array(m.data);
    } finally {
      m.delete();
      k.delete();
    }
  } finally {
    for (const m of [src, gx, gy, mag, avg]) m.delete();
  }
}
/** Mean Sobel magnitude (lightness) below which nothing counts as busy. */
const BUSY_FLOOR = 40;

/**
 * First quadrilaterals from the largest blobs of the mask (up to FIRST_BLOBS, largest first): each
 * blob's convex hull simplified to four corners, and its smallest enclosing rotated rectangle (right
 * when a side of the tile was half lost in a table of its colour and the hull will not simplify to
 * the tile). Not only the largest: a hand's shadow or a shadow across the table can stand out more
 * than a small tile does, and only the refinement's straight edges tell them apart. Empty: no blob
 * worth one.
 */
function firstQuads(cv: Cv, mask: Uint8Array, W: number, H: number): Quad[] {
  const m = cv.matFromArray(H, W, cv.CV_8UC1, mask);
  const k3 = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3));
  const k5 = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(5, 5));
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  try {
    cv.morphologyEx(m, m, cv.MORPH_OPEN, k3);
    cv.morphologyEx(m, m, cv.MORPH_CLOSE, k5);
    cv.findContours(m, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    const minSide = OUTLINE_RULES.minSide * Math.min(W, H);
    const blobs: { i: number; area: number }[] = [];
    for (let i = 0; i < contours.size(); i++) {
      const area = cv.contourArea(contours.get(i));
      if (area >= minSide * minSide) blobs.push({ i, area });
    }
    blobs.sort((a, b) => b.area - a.area);
    const out: Quad[] = [];
    for (const { i } of blobs.slice(0, FIRST_BLOBS)) {
      const hull = new cv.Mat();
      const approx = new cv.Mat();
      try {
        cv.convexHull(contours.get(i), hull, false, true);
        const perimeter = cv.arcLength(hull, true);
        for (let eps = 0.02; eps < 0.2; eps += 0.01) {
          cv.approxPolyDP(hull, approx, eps * perimeter, true);
          if (approx.rows <= 4) break;
        }
        if (approx.rows === 4) {
          const d = approx.data32S as Int32Array;
          out.push([0, 1, 2, 3].map((k) => ({ x: d[k * 2]! + 0.5, y: d[k * 2 + 1]! + 0.5 })) as Quad);
        }
        const rect = cv.minAreaRect(hull);
        const pts = cv.RotatedRect.points(rect) as Point[];
        out.push(pts.map((p) => ({ x: p.x + 0.5, y: p.y + 0.5 })) as Quad);
      } finally {
        hull.delete();
        approx.delete();
      }
    }
    return out;
  } finally {
    for (const x of [m, k3, k5, hierarchy]) x.delete();
    contours.delete();
  }
}
/** Blobs, largest first, whose outlines are tried. */
const FIRST_BLOBS = 4;

/** Clockwise on screen, starting at the left end of the side facing the frame's top. */
export function orderCorners(q: readonly Point[]): Quad {
  let pts = [...q];
  const area = pts.reduce((s, p, i) => { const n = pts[(i + 1) % 4]!; return s + p.x * n.y - n.x * p.y; }, 0);
  if (area < 0) pts = pts.reverse();
  const c = { x: pts.reduce((s, p) => s + p.x, 0) / 4, y: pts.reduce((s, p) => s + p.y, 0) / 4 };
  // The side whose midpoint lies most above the centre, relative to its distance, faces the top.
  let start = 0, bestUp = -Infinity;
  for (let i = 0; i < 4; i++) {
    const a = pts[i]!, b = pts[(i + 1) % 4]!;
    const mx = (a.x + b.x) / 2 - c.x, my = (a.y + b.y) / 2 - c.y;
    const up = -my / Math.hypot(mx, my);
    if (up > bestUp) { bestUp = up; start = i; }
  }
  return [0, 1, 2, 3].map((i) => pts[(start + i) % 4]!) as Quad;
}

/** Strength of the colour edge across direction (nx, ny) at (x, y): the largest channel difference over two pixels. */
export function edgeAcross(img: RgbImage, x: number, y: number, nx: number, ny: number, rgbA: Float32Array, rgbB: Float32Array): number {
  bilinear(img, x - nx, y - ny, rgbA);
  bilinear(img, x + nx, y + ny, rgbB);
  return Math.abs(rgbA[0]! - rgbB[0]!) + Math.abs(rgbA[1]! - rgbB[1]!) + Math.abs(rgbA[2]! - rgbB[2]!);
}

/** The image at (x, y), bilinear, pixel centres at +0.5, clamped to the frame. */
export function bilinear(img: RgbImage, x: number, y: number, out: Float32Array): void {
  const { width: W, height: H, data } = img;
  const fx = Math.max(0, Math.min(W - 1.001, x - 0.5)), fy = Math.max(0, Math.min(H - 1.001, y - 0.5));
  const x0 = Math.floor(fx), y0 = Math.floor(fy), tx = fx - x0, ty = fy - y0;
  const o00 = (y0 * W + x0) * 3, o10 = o00 + 3, o01 = o00 + W * 3, o11 = o01 + 3;
  const a = (1 - tx) * (1 - ty), b = tx * (1 - ty), c = (1 - tx) * ty, e = tx * ty;
  for (let k = 0; k < 3; k++) out[k] = data[o00 + k]! * a + data[o10 + k]! * b + data[o01 + k]! * c + data[o11 + k]! * e;
}

/** Colour difference (summed over RGB, across two pixels) below which nothing is an edge. */
const EDGE_FLOOR = 24;

interface Line { px: number; py: number; dx: number; dy: number }

function fitLine(points: readonly Point[]): Line | null {
  if (points.length < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length, my = points.reduce((s, p) => s + p.y, 0) / points.length;
  let sxx = 0, sxy = 0, syy = 0;
  for (const p of points) { sxx += (p.x - mx) ** 2; sxy += (p.x - mx) * (p.y - my); syy += (p.y - my) ** 2; }
  const ang = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { px: mx, py: my, dx: Math.cos(ang), dy: Math.sin(ang) };
}

const lineDistance = (l: Line, p: Point) => Math.abs((p.x - l.px) * l.dy - (p.y - l.py) * l.dx);

/** A line through points, fitted again up to three times without those over 2.5 median residuals off (while six remain). */
function robustLine(points: readonly Point[]): { line: Line | null; used: readonly Point[] } {
  let used = points;
  let line = fitLine(used);
  for (let it = 0; it < 3 && line; it++) {
    const res = used.map((p) => lineDistance(line!, p));
    const med = [...res].sort((x, y) => x - y)[Math.floor(res.length / 2)] ?? 0;
    const keep = used.filter((_, j) => res[j]! <= Math.max(1, 2.5 * med));
    if (keep.length < 6) break;
    used = keep;
    line = fitLine(used);
  }
  return { line, used };
}

/** The quadrilateral whose sides lie on four lines in order (corner i where side i-1 meets side i); null where two are parallel. */
function quadOf(lines: readonly Line[]): Quad | null {
  const corners: Point[] = [];
  for (let i = 0; i < 4; i++) {
    const p = intersect(lines[(i + 3) % 4]!, lines[i]!);
    if (!p) return null;
    corners.push(p);
  }
  return corners as Quad;
}

function intersect(a: Line, b: Line): Point | null {
  const det = a.dx * b.dy - a.dy * b.dx;
  if (Math.abs(det) < 1e-9) return null;
  const t = ((b.px - a.px) * b.dy - (b.py - a.py) * b.dx) / det;
  return { x: a.px + t * a.dx, y: a.py + t * a.dy };
}

/** Where along each side's normal the edge is strongest, sides refitted; null when a side has no edge. */
function refine(img: RgbImage, q: Quad, band: number, strongest = false): { quad: Quad; support: number } | null {
  const lines: Line[] = [];
  let supported = 0, total = 0;
  const A = new Float32Array(3), B = new Float32Array(3);
  // A contrast floor: the median edge strength of the image along the sides is what texture gives.
  for (let i = 0; i < 4; i++) {
    const a = q[i]!, b = q[(i + 1) % 4]!;
    const len = dist(a, b);
    const tx = (b.x - a.x) / len, ty = (b.y - a.y) / len;
    // Clockwise on screen: the outward normal is the side's direction turned a quarter anticlockwise.
    const nx = ty, ny = -tx;
    const w = Math.max(3, band * len);
    const found: { p: Point; s: number }[] = [];
    const samples = 48;
    for (let k = 0; k < samples; k++) {
      const t = 0.08 + (0.84 * k) / (samples - 1);
      const cx = a.x + (b.x - a.x) * t, cy = a.y + (b.y - a.y) * t;
      // The tile's edge is the outermost strong edge across the side: art inside it (a city wall
      // along the border) may be stronger, the table outside it is not.
      const prof: number[] = [];
      for (let o = -w; o <= w; o += 0.5) prof.push(edgeAcross(img, cx + nx * o, cy + ny * o, nx, ny, A, B));
      const top = Math.max(...prof);
      let at = prof.length - 1;
      const strong = Math.max(0.5 * top, EDGE_FLOOR);
      while (at > 0 && !(prof[at]! >= strong && prof[at]! >= prof[at - 1]! && (at + 1 >= prof.length || prof[at]! >= prof[at + 1]!))) at--;
      // Teach frames: the strongest edge (a shadow's rim or a touching neighbour's art lies outside the tile's edge).
      if (strongest) at = prof.indexOf(top);
      const bestO = -w + at * 0.5;
      found.push({ p: { x: cx + nx * bestO, y: cy + ny * bestO }, s: prof[at]! });
    }
    const strengths = found.map((f) => f.s).sort((x, y) => x - y);
    const floor = Math.max(EDGE_FLOOR, strengths[Math.floor(strengths.length * 0.5)]! * 0.35);
    const { line, used } = robustLine(found.filter((f) => f.s >= floor).map((f) => f.p));
    if (!line || used.length < 6) return null;
    const near = Math.max(1.5, 0.006 * len);
    supported += found.filter((f) => f.s >= floor && lineDistance(line!, f.p) <= near).length;
    total += samples;
    lines.push(line);
  }
  const quad = quadOf(lines);
  return quad && { quad, support: supported / total };
}

/** A quadrilateral as an outline to judge: its corner angles' range, its longest over shortest side. */
export function outlineOf(quad: Quad, support: number): Outline {
  const angles = interiorAngles(quad);
  const sides = quad.map((p, i) => dist(p, quad[(i + 1) % 4]!));
  return { corners: quad, edgeSupport: support, angles: [Math.min(...angles), Math.max(...angles)], sideRatio: Math.max(...sides) / Math.min(...sides) };
}

function interiorAngles(q: Quad): number[] {
  return q.map((p, i) => {
    const a = q[(i + 3) % 4]!, b = q[(i + 1) % 4]!;
    const v1 = { x: a.x - p.x, y: a.y - p.y }, v2 = { x: b.x - p.x, y: b.y - p.y };
    const c = (v1.x * v2.x + v1.y * v2.y) / (Math.hypot(v1.x, v1.y) * Math.hypot(v2.x, v2.y));
    return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
  });
}

function isConvex(q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!, b = q[(i + 1) % 4]!, c = q[(i + 2) % 4]!;
    const z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (z === 0) return false;
    if (sign === 0) sign = Math.sign(z);
    else if (Math.sign(z) !== sign) return false;
  }
  return true;
}

/** Null when the outline may be a tile; else why not. */
export function judgeOutline(o: Outline, width: number, height: number): string | null {
  const R = OUTLINE_RULES;
  if (!isConvex(o.corners)) return 'the outline found is not a convex quadrilateral';
  const [lo, hi] = o.angles;
  if (hi - 90 > R.maxAngleOff || 90 - lo > R.maxAngleOff) return `the outline found is not square enough (corner angles ${lo.toFixed(0)}°–${hi.toFixed(0)}°)`;
  if (o.sideRatio > R.maxSideRatio) return `the outline found is not square enough (sides ${o.sideRatio.toFixed(2)}:1)`;
  const sides = o.corners.map((p, i) => dist(p, o.corners[(i + 1) % 4]!));
  if (Math.min(...sides) < R.minSide * Math.min(width, height)) return 'the only candidate outline is too small to be a tile';
  const m = 2;
  if (o.corners.some((p) => p.x < -m || p.y < -m || p.x > width + m || p.y > height + m)) return 'the outline found runs out of the frame (the whole tile must be in the photo)';
  if (o.edgeSupport < R.minEdgeSupport) return `the outline found has no clear edge along much of it (${Math.round(o.edgeSupport * 100)} % of its sides)`;
  return null;
}

/**
 * The tile's outline in `refineImg` (REFINE_PX), searched in `searchImg` (SEARCH_PX, the same photo
 * smaller) and, where that finds nothing or only a small tile, in `fineImg()` too (FINE_SEARCH_PX: a
 * tile a tenth of the frame is some 40 pixels in the search image, where its art's strokes and a
 * stripe of the table are alike). A failure says why no tile was found.
 */
export async function findOutline(cv: Cv, searchImg: RgbImage, refineImg: RgbImage, fineImg?: () => Promise<RgbImage>): Promise<Result<Outline>> {
  const found = outlinesFrom(cv, searchImg, refineImg);
  const small = (o: Outline) => meanSide(o.corners) < FINE_SEARCH_BELOW * Math.min(refineImg.width, refineImg.height);
  if (fineImg && (found.passed.length === 0 || small(outermost(found.passed)))) {
    const fine = outlinesFrom(cv, await fineImg(), refineImg);
    found.passed.push(...fine.passed);
    if (!found.failed || (fine.failed && fine.failed.outline.edgeSupport > found.failed.outline.edgeSupport)) found.failed = fine.failed;
  }
  if (found.passed.length === 0) return fail(`no tile found (${found.failed ? found.failed.why : found.problem})`);
  return ok(outermost(found.passed));
}
/** Searched again in the finer image when the tile found spans less than this share of the frame's shorter side. */
const FINE_SEARCH_BELOW = 0.2;
export const FINE_SEARCH_PX = 960;

interface Candidates {
  readonly passed: Outline[];
  failed: { outline: Outline; why: string } | null;
  readonly problem: string;
}

/** Every first outline of `searchImg` refined in `refineImg`: those that pass the checks, and the best of those that do not. */
function outlinesFrom(cv: Cv, searchImg: RgbImage, refineImg: RgbImage): Candidates {
  const lab = labOf(cv, searchImg);
  const W = searchImg.width, H = searchImg.height;
  const busy = busyMask(cv, lab, W, H);
  // Unlike the table's colours with lightness weighed down, and by colour alone (a shadow touching
  // the tile darkens the table into the tile's blob); each alone, and with the busy art (a tile whose
  // colours are the table's), which also takes in a hand's or a shadow's rim touching the tile.
  const firsts: Quad[] = [];
  for (const lWeight of [L_WEIGHT, 0]) {
    const colour = notTableMask(lab, W, H, lWeight);
    firsts.push(...firstQuads(cv, colour, W, H));
    for (let i = 0; i < colour.length; i++) colour[i] = colour[i]! | busy[i]!;
    firsts.push(...firstQuads(cv, colour, W, H));
  }
  const s = refineImg.width / searchImg.width;
  const passed: Outline[] = [];
  let failed: Candidates['failed'] = null;
  let problem = firsts.length === 0 ? 'nothing stands out from the table' : 'the outline of what stands out from the table has no straight edges';
  for (const first of firsts) {
    let quad = orderCorners(first.map((p) => ({ x: p.x * s, y: p.y * s })));
    let support = 0;
    let refined = true;
    for (const band of [0.08, 0.03]) {
      const r = refine(refineImg, quad, band);
      if (!r || !isConvex(r.quad)) {
        problem = r ? 'the edges found do not make a quadrilateral' : problem;
        refined = false;
        break;
      }
      quad = orderCorners(r.quad);
      support = r.support;
    }
    if (!refined) continue;
    const outline = outlineOf(quad, support);
    const why = judgeOutline(outline, refineImg.width, refineImg.height);
    if (why === null) passed.push(outline);
    else if (!failed || support > failed.outline.edgeSupport) failed = { outline, why };
  }
  return { passed, failed, problem };
}

/**
 * Of outlines that pass the checks, the one with the most edge support, unless one much larger holds
 * it: a tile's road or city wall can bound a quarter of the tile as straight as the tile's edge
 * bounds all of it (a blob of the tile's colours split by roads of the table's colour).
 */
function outermost(passed: readonly Outline[]): Outline {
  const area = (q: Quad) => Math.abs(q.reduce((a, p, i) => { const n = q[(i + 1) % 4]!; return a + p.x * n.y - n.x * p.y; }, 0)) / 2;
  const bySupport = [...passed].sort((a, b) => b.edgeSupport - a.edgeSupport);
  let best = bySupport[0]!;
  for (;;) {
    const holder = bySupport.find((o) => area(o.corners) >= ENCLOSING_AREA * area(best.corners) && insideConvex(o.corners, centreOf(best.corners)));
    if (!holder) return best;
    best = holder;
  }
}
/** How much larger than another an outline holding it must be to be taken instead. */
const ENCLOSING_AREA = 1.5;

/** Whether p lies in the convex quad q (on its sides included), whichever way round its corners run. */
function insideConvex(q: Quad, p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i]!, b = q[(i + 1) % 4]!;
    const c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (c !== 0) {
      if (sign !== 0 && Math.sign(c) !== sign) return false;
      sign = Math.sign(c);
    }
  }
  return true;
}

/** A tile outline found among several (`findOutlines`), or a place where one is and why it is not taken. */
export interface FoundTile {
  /** Corners in the refine image's pixels, clockwise on screen. */
  readonly corners: Quad;
  readonly outline: Outline | null;
  /** Null when the outline may be read; else why not (reported on the tile's card). */
  readonly why: string | null;
  /** Share of the outline's inside that the search saw as not table (a hand reaching in from the frame's edge counts as table). */
  readonly filled: number;
  /** Found on colour edges alone (`tilesOnEdges`): no mask saw anything there. */
  readonly onEdges?: boolean;
}

/** The tiles found in a frame, and the tiles' side across it when the frame showed enough lone tiles to learn it (refine pixels). */
export interface FoundOutlines {
  readonly tiles: FoundTile[];
  readonly field: SideField | null;
}

/**
 * A frame learns the tiles' side across it from at least this many lone tiles (`SideField` fits its
 * plane from six; with fewer, their median); with fewer it takes the teach's (`findOutlines` prior).
 */
const SIDE_FROM_FRAME = 6;
/** With no lone tile in a frame, how many of its largest blobs give a guess at the tiles' side. */
const SIDE_GUESSES = 4;

/** The search size for many tiles in one frame: a tile of a 520 mm-wide view spans ~55 px. */
export const MULTI_SEARCH_PX = 640;
/** Refine bands for teach frames, each narrower (share of the side either way), and the strongest edge taken (not the outermost). */
const TEACH_BANDS = [0.1, 0.05, 0.02];
const TEACH_STRONGEST = true;

/**
 * Every tile lying on the table in a still frame (teach mode, issue 30): loose, at any angle, apart
 * or touching side to side. The same masks as `findOutline` plus a colour-edge mask; every blob, not
 * just the largest. The tile's side in pixels is learnt from the blobs that are one square tile;
 * squares of that side are packed into each blob (`packSquares`: one for a lone tile, several for
 * tiles touching, each at its own angle), and each square is refined like a single tile's outline,
 * taking the strongest edge across each side. A blob nothing packs into (two tiles overlapping, a box
 * lid) is reported once, with why. docs/teach.md.
 */
export function findOutlines(cv: Cv, searchImg: RgbImage, refineImg: RgbImage, prior: SideField | null = null): FoundOutlines {
  const W = searchImg.width, H = searchImg.height;
  const s = refineImg.width / W;
  const lab = labOf(cv, searchImg);
  const mask = notTableMask(lab, W, H);
  const busy = busyMask(cv, lab, W, H);
  const rim = edgeMask(cv, lab, W, H);
  for (let i = 0; i < mask.length; i++) mask[i] = mask[i]! | busy[i]! | rim[i]!;
  const blobs = blobsOf(cv, mask, W, H);
  const minSide = OUTLINE_RULES.minSide * Math.min(W, H);
  let singleBlobs = blobs.filter((b) => b.area > minSide * minSide && b.aspect < 1.25 && b.fill > 0.8);
  if (singleBlobs.length < 3) {
    // A table the colour of the tiles' fields (a pale green) leaves lone tiles as open outlines, blobs
    // of a tile's frame half filled: their convex hulls stand for them (the fit to the side follows).
    const open = blobs.filter((b) => b.hullArea > minSide * minSide && b.aspect < 1.3 && b.hullArea / Math.max(1, b.rectSize[0] * b.rectSize[1]) > OPEN_HULL_FILL);
    if (open.length >= 3) {
      for (const b of open) { b.pixels = b.hullPixels; b.area = b.hullArea; b.fill = b.hullArea / Math.max(1, b.rectSize[0] * b.rectSize[1]); }
      singleBlobs = open;
    }
  }
  const singles = singleBlobs.map((b) => Math.sqrt(b.area));
  if (singles.length === 0 && blobs.length === 0) return { tiles: [], field: null };
  singles.sort((a, b) => a - b);
  if (singles.length === 0 && !prior) {
    // No lone tile to learn the side from (a teach's last few tiles laid in pairs, a pale table that
    // leaves each tile's blob half filled): the largest blobs' shorter sides and square roots of
    // their areas are guesses at it (a pair side by side, a lone tile), and the guess that outlines
    // the most tiles is taken; with enough of them, the side across the frame learnt from those.
    const guesses: number[] = [];
    for (const b of [...blobs].sort((x, y) => y.area - x.area).slice(0, SIDE_GUESSES))
      for (const g of [Math.min(...b.rectSize), Math.sqrt(b.area)])
        if (g >= minSide && !guesses.some((x) => Math.abs(g / x - 1) < 0.05)) guesses.push(g);
    if (guesses.length) {
      const good = (f: FoundOutlines) => f.tiles.filter((t) => t.outline && !t.why);
      const better = (a: FoundOutlines, b: FoundOutlines) => (good(b).length > good(a).length ? b : a);
      const best = guesses.map((g) => findOutlines(cv, searchImg, refineImg, SideField.fit([], g * s))).reduce(better);
      const sure = good(best);
      if (sure.length < SIDE_FROM_FRAME) return best;
      const learnt = SideField.fit(sure.map((t) => ({ at: centreOf(t.corners), side: meanSide(t.corners) })), meanSide(sure[0]!.corners));
      return better(best, findOutlines(cv, searchImg, refineImg, learnt));
    }
  }
  // Too few lone tiles to learn the side across the frame from (tiles all touching, a table the
  // colour of the fields, a retake's few tiles): an earlier frame's, where the teach has one (the
  // camera does not move).
  const learns = singleBlobs.length >= SIDE_FROM_FRAME || !prior;
  const searchPrior = prior?.scaled(s) ?? null;
  // The tile's side: the median single; with none, the shorter side of the largest blob.
  const side = !learns ? searchPrior!.at({ x: W / 2, y: H / 2 }) : singles.length ? singles[Math.floor(singles.length / 2)]! : Math.min(...[...blobs].sort((a, b) => b.area - a.area)[0]!.rectSize);
  const out: FoundTile[] = [];
  // The side where each blob lies, from the single tiles' blobs (the camera's tilt makes it vary).
  const blobField = learns ? SideField.fit(singleBlobs.map((b) => ({ at: b.center, side: Math.sqrt(b.area) })), side) : searchPrior!;
  const filledIn = (q: Quad) => quadFill(mask, W, H, q.map((p) => ({ x: p.x / s, y: p.y / s })) as Quad);
  // Each packed square refined (free); then the tiles' side across the frame learnt from the squares
  // that refined into a tile (`SideField`), and every square fitted again to that side.
  const refinedSquares: { start: Quad; quad: Quad | null; support: number }[] = [];
  for (const b of blobs) {
    if (b.area < 0.45 * side * side) continue; // a figure, a crumb, a shadow's corner: not a tile
    // Squares of the tile's side packed into the blob (one for a lone tile, several for tiles touching).
    const squares = packSquares(b, W, H, blobField.at(b.center));
    if (!squares) {
      const corners = orderCorners(b.rectQuad.map((p) => ({ x: p.x * s, y: p.y * s })));
      const touchesEdge = corners.some((p) => p.x < 2 * s || p.y < 2 * s || p.x > refineImg.width - 2 * s || p.y > refineImg.height - 2 * s);
      out.push({ corners, outline: null, filled: 1, why: touchesEdge ? 'the tile runs out of the frame (the whole tile must be in view)' : 'not one tile: two tiles overlapping, or something that is not a tile (lift it off, or lay the tiles apart)' });
      continue;
    }
    for (const sq of squares) {
      const start = orderCorners(sq.map((p) => ({ x: p.x * s, y: p.y * s })));
      let quad: Quad | null = start;
      let support = 0;
      for (const band of TEACH_BANDS) {
        const r = refine(refineImg, quad, band, TEACH_STRONGEST);
        if (!r || !isConvex(r.quad)) { quad = null; break; }
        quad = orderCorners(r.quad);
        support = r.support;
      }
      refinedSquares.push({ start, quad, support });
    }
  }
  let field = SideField.fit(
    refinedSquares.filter((r) => r.quad && !judgeOutline(outlineOf(r.quad, r.support), refineImg.width, refineImg.height)).map((r) => ({ at: centreOf(r.quad!), side: meanSide(r.quad!) })),
    side * s,
  );
  // Fitted to that side; then the side learnt again from the fitted squares whose edges are clear
  // all round (a square the free refine left off by a few millimetres no longer pulls it), and fitted again.
  const fitAll = (f: SideField) => refinedSquares.map(({ start, quad: free }) => {
    // From the free refine's outline, or the packed square where that failed.
    const fitted = fitToSide(refineImg, free ?? start, f.at(centreOf(free ?? start)));
    return fitted && isConvex(fitted.quad) ? { quad: orderCorners(fitted.quad), support: fitted.support } : null;
  });
  let fits = FIT_TO_SIDE ? fitAll(field) : [];
  if (FIT_TO_SIDE) {
    const clear = fits.filter((f): f is { quad: Quad; support: number } => !!f && f.support >= 0.8 && !judgeOutline(outlineOf(f.quad, f.support), refineImg.width, refineImg.height));
    field = SideField.fit(clear.map((f) => ({ at: centreOf(f.quad), side: meanSide(f.quad) })), side * s);
    fits = fitAll(field);
  }
  for (const [k, { start, quad: free, support: freeSupport }] of refinedSquares.entries()) {
    let quad = free, support = freeSupport;
    const fitted = fits[k];
    if (fitted) { quad = fitted.quad; support = fitted.support; }
    if (!quad) {
      out.push({ corners: free ?? start, outline: null, filled: filledIn(free ?? start), why: 'the edges found do not make a quadrilateral' });
      continue;
    }
    const outline = outlineOf(quad, support);
    let why = judgeOutline(outline, refineImg.width, refineImg.height);
    if (why?.startsWith('the outline found runs out of the frame')) why = 'the tile runs out of the frame (the whole tile must be in view)';
    const mean = meanSide(quad), expected = field.at(centreOf(quad));
    if (!why && Math.abs(mean / expected - 1) > 0.2) why = `not the size of the other tiles (${Math.round(mean)} px against ${Math.round(expected)} px)`;
    out.push({ corners: quad, outline, why, filled: filledIn(quad) });
  }
  const onEdges = tilesOnEdges(refineImg, lab, W, H, s, field, out);
  // A blob that packed into no square, or a square that failed its checks, over a tile found on
  // edges was that tile (with its neighbours or a shadow), not two tiles overlapping: its card goes.
  const tiles = [...out.filter((f) => (f.outline && !f.why) || !onEdges.some((e) => insideConvex(f.corners, centreOf(e.corners)))), ...onEdges];
  return { tiles, field: singleBlobs.length >= SIDE_FROM_FRAME ? field : null };
}

/** An edge square's weakest side against the median of the tiles found by their blobs (same score)… */
const EDGE_SQUARE_SHARE = 0.3;
/** …and at least this (Lab units across two pixels, summed over the channels). */
const EDGE_SQUARE_FLOOR = 6;

/**
 * Teach frames: the tiles the masks left no blob for (a table the colour of the tiles' fields, a
 * shadow over tiles), looked for as squares of the side field's side on colour edges
 * (edge-squares.ts), away from the tiles already found; each fitted to the side and judged as the
 * others, and kept only when it passes every check.
 */
function tilesOnEdges(refineImg: RgbImage, lab: Uint8Array, W: number, H: number, s: number, field: SideField, found: readonly FoundTile[]): FoundTile[] {
  const g = labGradients(lab, W, H, L_WEIGHT);
  const toSearch = (p: Point) => ({ x: p.x / s, y: p.y / s });
  const angleOf = (q: Quad) => Math.atan2(q[1].y - q[0].y, q[1].x - q[0].x);
  const good = found.filter((f) => f.outline && !f.why);
  const ref = good.map((f) => squareEdgeScore(g, toSearch(centreOf(f.corners)), angleOf(f.corners), meanSide(f.corners) / s)).sort((a, b) => a - b);
  const median = ref.length ? ref[Math.floor(ref.length / 2)]! : 0;
  const minScore = Math.max(EDGE_SQUARE_FLOOR, EDGE_SQUARE_SHARE * median);
  // Only outlines that passed: a square packed into a shadow or left without clear edges may sit on a tile.
  const taken = good.map((f) => toSearch(centreOf(f.corners)));
  const out: FoundTile[] = [];
  for (const e of edgeSquares(g, (p) => field.at({ x: p.x * s, y: p.y * s }) / s, taken, minScore)) {
    const start = orderCorners(e.corners.map((p) => ({ x: p.x * s, y: p.y * s })));
    const fitted = fitToSide(refineImg, start, field.at(centreOf(start)));
    if (!fitted || !isConvex(fitted.quad)) continue;
    const quad = orderCorners(fitted.quad);
    const c = centreOf(quad), side = meanSide(quad);
    if ([...good, ...out].some((f) => dist(centreOf(f.corners), c) < 0.75 * side)) continue;
    const outline = outlineOf(quad, fitted.support);
    // Only what passes every check: a square on edges alone that does not is no tile, not a card.
    if (judgeOutline(outline, refineImg.width, refineImg.height)) continue;
    if (Math.abs(side / field.at(c) - 1) > 0.2) continue;
    // The masks did not see it (that is why it is looked for here): its edges all round are the evidence.
    out.push({ corners: quad, outline, why: null, filled: 1, onEdges: true });
  }
  return out;
}

/**
 * 255 on strong colour edges (Lab, lightness weighed low as for the table's colours), thickened by
 * a pixel: a tile's outline is a closed loop of them even where its border's colour is the table's
 * (a tan city on brown wood), and the blob's filled contour then covers the whole tile.
 */
function edgeMask(cv: Cv, lab: Uint8Array, W: number, H: number): Uint8Array {
  const mag = new Float32Array(W * H);
  for (let y = 1; y < H - 1; y++)
    for (let x = 1; x < W - 1; x++) {
      const o = (y * W + x) * 3;
      let m = 0;
      for (let k = 0; k < 3; k++) {
        const w = k === 0 ? L_WEIGHT : 1;
        const gx = (lab[o + 3 + k]! - lab[o - 3 + k]!) * w, gy = (lab[o + W * 3 + k]! - lab[o - W * 3 + k]!) * w;
        m += gx * gx + gy * gy;
      }
      mag[y * W + x] = Math.sqrt(m);
    }
  const ring: number[] = [];
  for (let x = 2; x < W - 2; x++) ring.push(mag[2 * W + x]!, mag[(H - 3) * W + x]!);
  for (let y = 2; y < H - 2; y++) ring.push(mag[y * W + 2]!, mag[y * W + W - 3]!);
  ring.sort((a, b) => a - b);
  const t = Math.max(EDGE_MASK_FLOOR, 2 * ring[Math.floor(ring.length * 0.98)]!);
  const out = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) out[i] = mag[i]! > t ? 255 : 0;
  const m = cv.matFromArray(H, W, cv.CV_8UC1, out);
  const k = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3));
  try {
    cv.dilate(m, m, k);
    return new Uint8Array(m.data);
  } finally {
    m.delete();
    k.delete();
  }
}
/** Lab gradient (over two pixels) below which nothing is an edge for `edgeMask`. */
const EDGE_MASK_FLOOR = 12;

interface Blob {
  area: number;
  /** Longer over shorter side of the smallest rotated rectangle, that rectangle's fill and sides. */
  aspect: number;
  fill: number;
  rectSize: [number, number];
  center: Point;
  rectQuad: Quad;
  /** The blob's own pixels (its filled contour), in search pixels. */
  pixels: Uint8Array;
  /** The blob's convex hull, filled (search pixels), and its area. */
  hullPixels: Uint8Array;
  hullArea: number;
}

function blobsOf(cv: Cv, mask: Uint8Array, W: number, H: number): Blob[] {
  const m = cv.matFromArray(H, W, cv.CV_8UC1, mask);
  const k3 = cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3));
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  const out: Blob[] = [];
  try {
    // A close of 3 (not 5 as for one tile): touching tiles must keep the gap between them.
    cv.morphologyEx(m, m, cv.MORPH_OPEN, k3);
    cv.morphologyEx(m, m, cv.MORPH_CLOSE, k3);
    cv.findContours(m, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    for (let i = 0; i < contours.size(); i++) {
      const c = contours.get(i);
      const area = cv.contourArea(c);
      if (area < 64) continue;
      const rect = cv.minAreaRect(c);
      const { width: rw, height: rh } = rect.size;
      const pts = (cv.RotatedRect.points(rect) as Point[]).map((p) => ({ x: p.x + 0.5, y: p.y + 0.5 })) as Quad;
      const filled = cv.Mat.zeros(H, W, cv.CV_8UC1);
      const one = new cv.MatVector();
      one.push_back(c);
      cv.drawContours(filled, one, 0, new cv.Scalar(255), -1);
      one.delete();
      const pixels = new Uint8Array(filled.data);
      filled.delete();
      const hull = new cv.Mat();
      cv.convexHull(c, hull);
      const hullArea = cv.contourArea(hull);
      const hullFilled = cv.Mat.zeros(H, W, cv.CV_8UC1);
      const hv = new cv.MatVector();
      hv.push_back(hull);
      cv.drawContours(hullFilled, hv, 0, new cv.Scalar(255), -1);
      hv.delete();
      hull.delete();
      const hullPixels = new Uint8Array(hullFilled.data);
      hullFilled.delete();
      out.push({ area, aspect: Math.max(rw, rh) / Math.max(1, Math.min(rw, rh)), fill: area / Math.max(1, rw * rh), rectSize: [rw, rh], center: rect.center, rectQuad: pts, pixels, hullPixels, hullArea });
    }
  } finally {
    for (const x of [m, k3, hierarchy]) x.delete();
    contours.delete();
  }
  return out;
}

/** Share of a quadrilateral's inside (search pixels) that the mask marks. */
function quadFill(mask: Uint8Array, W: number, H: number, q: Quad): number {
  const x0 = Math.max(0, Math.floor(Math.min(...q.map((p) => p.x)))), x1 = Math.min(W - 1, Math.ceil(Math.max(...q.map((p) => p.x))));
  const y0 = Math.max(0, Math.floor(Math.min(...q.map((p) => p.y)))), y1 = Math.min(H - 1, Math.ceil(Math.max(...q.map((p) => p.y))));
  let inside = 0, on = 0;
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5, py = y + 0.5;
      let inQ = true;
      for (let i = 0; i < 4 && inQ; i++) {
        const a = q[i]!, b = q[(i + 1) % 4]!;
        if ((b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x) < 0) inQ = false;
      }
      if (!inQ) continue;
      inside++;
      if (mask[y * W + x]) on++;
    }
  return inside ? on / inside : 0;
}


/**
 * Squares of side `side` (search pixels) fitted into a blob, one at a time: of every position and
 * angle (1.5° steps), the square that the blob fills most while the ring just outside it is least
 * blob (a square on a real tile has table, or a tile already taken, along its sides; one straddling
 * two touching tiles has blob outside two of them). Its pixels are then taken and the search runs
 * again on what is left, until what is left is no tile. Null when nothing fits (two tiles
 * overlapping, a box lid, a blob of another shape).
 */
/** Least share of a packed square the blob must fill. */
const MIN_SQUARE_FILL = 0.75;

function packSquares(b: Blob, W: number, H: number, side: number): Quad[] | null {
  const S = Math.max(4, Math.round(side));
  const ringW = Math.max(2, Math.round(side * 0.05));
  const R = Math.ceil(Math.hypot(b.rectSize[0], b.rectSize[1]) / 2 + side * 0.75) + ringW + 2;
  const N = 2 * R + 1;
  const taken = new Uint8Array(W * H);
  const grid = new Uint8Array(N * N);
  const I = new Int32Array((N + 1) * (N + 1));
  const out: Quad[] = [];
  let left = 0;
  for (let i = 0; i < W * H; i++) if (b.pixels[i]) left++;
  for (let round = 0; round < 12 && left > 0.4 * side * side; round++) {
    type Best = { score: number; fill: number; a: number; x: number; y: number };
    const at = (deg: number): Best | null => {
      let best: Best | null = null;
      const a = (deg * Math.PI) / 180;
      const c = Math.cos(a), sn = Math.sin(a);
      for (let y = 0; y < N; y++)
        for (let x = 0; x < N; x++) {
          const px = b.center.x + (x - R) * c - (y - R) * sn, py = b.center.y + (x - R) * sn + (y - R) * c;
          const xi = Math.floor(px), yi = Math.floor(py);
          grid[y * N + x] = xi >= 0 && yi >= 0 && xi < W && yi < H && b.pixels[yi * W + xi] && !taken[yi * W + xi] ? 1 : 0;
        }
      for (let y = 0; y < N; y++) {
        let row = 0;
        for (let x = 0; x < N; x++) {
          row += grid[y * N + x]!;
          I[(y + 1) * (N + 1) + x + 1] = I[y * (N + 1) + x + 1]! + row;
        }
      }
      const sum = (x0: number, y0: number, x1: number, y1: number) => I[y1 * (N + 1) + x1]! - I[y0 * (N + 1) + x1]! - I[y1 * (N + 1) + x0]! + I[y0 * (N + 1) + x0]!;
      const inner = S * S, outer = (S + 2 * ringW) ** 2 - inner;
      for (let y = ringW; y + S + ringW <= N; y++)
        for (let x = ringW; x + S + ringW <= N; x++) {
          const f = sum(x, y, x + S, y + S) / inner;
          if (f < MIN_SQUARE_FILL - 0.05) continue;
          const ring = (sum(x - ringW, y - ringW, x + S + ringW, y + S + ringW) - f * inner) / outer;
          const score = f - ring;
          if (!best || score > best.score) best = { score, fill: f, a, x, y };
        }
      return best;
    };
    // Every 3°, then around the best to the degree.
    let best: Best | null = null;
    const better = (x: Best | null) => { if (x && (!best || x.score > best.score)) best = x; };
    for (let deg = 0; deg < 90; deg += 3) better(at(deg));
    if (best) { const d0 = ((best as Best).a * 180) / Math.PI; for (const dd of [-2, -1, 1, 2]) better(at(d0 + dd)); }
    if (!best || (best as Best).fill < MIN_SQUARE_FILL) break;
    const chosen = best as Best;
    const c = Math.cos(chosen.a), sn = Math.sin(chosen.a);
    const toImage = (x: number, y: number) => ({ x: b.center.x + (x - R) * c - (y - R) * sn, y: b.center.y + (x - R) * sn + (y - R) * c });
    const q = [toImage(chosen.x, chosen.y), toImage(chosen.x + S, chosen.y), toImage(chosen.x + S, chosen.y + S), toImage(chosen.x, chosen.y + S)] as Quad;
    out.push(q);
    // Take the square's pixels (and a ring's width around it: the gap and rim between touching tiles).
    for (let y = chosen.y - ringW; y < chosen.y + S + ringW; y++)
      for (let x = chosen.x - ringW; x < chosen.x + S + ringW; x++) {
        for (const [dx, dy] of [[0, 0], [0.5, 0.5]] as const) {
          const p = toImage(x + dx, y + dy);
          const xi = Math.floor(p.x), yi = Math.floor(p.y);
          if (xi >= 0 && yi >= 0 && xi < W && yi < H && b.pixels[yi * W + xi] && !taken[yi * W + xi]) { taken[yi * W + xi] = 1; left--; }
        }
      }
  }
  return out.length ? out : null;
}

/** Teach frames: every square fitted to the tiles' side where it lies (`fitToSide`) after the free refine. */
const FIT_TO_SIDE = true;
/** Least share of its smallest rectangle a lone tile's open outline's convex hull fills. */
const OPEN_HULL_FILL = 0.8;

/** A quadrilateral's centre (the mean of its corners). */
export const centreOf = (q: Quad): Point => ({ x: (q[0].x + q[1].x + q[2].x + q[3].x) / 4, y: (q[0].y + q[1].y + q[2].y + q[3].y) / 4 });
/** A quadrilateral's mean side length. */
export const meanSide = (q: Quad) => q.reduce((a, p, i) => a + dist(p, q[(i + 1) % 4]!), 0) / 4;

/**
 * The tiles' side in pixels across a frame. A camera up to ~12° off vertical sees the table nearer
 * on one side (a tile there ~10 % larger than across the frame), and the inverse depth of a plane is
 * affine in the image, so the side is fitted as a + b·x + c·y over the tiles already outlined
 * (least squares, those more than 4 % off left out, twice); with under six tiles, their median, or
 * the blobs' side.
 */
export class SideField {
  private constructor(private readonly a: number, private readonly b: number, private readonly c: number) {}

  static fit(tiles: readonly { at: Point; side: number }[], fallback: number): SideField {
    const sorted = tiles.map((t) => t.side).sort((x, y) => x - y);
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : fallback;
    let field = new SideField(median, 0, 0);
    let use = tiles.filter((t) => Math.abs(t.side / median - 1) < 0.15);
    for (let it = 0; it < 3 && use.length >= 6; it++) {
      const f = SideField.leastSquares(use);
      if (!f) break;
      field = f;
      use = tiles.filter((t) => Math.abs(t.side / field.at(t.at) - 1) < 0.04);
    }
    return field;
  }

  private static leastSquares(tiles: readonly { at: Point; side: number }[]): SideField | null {
    // Normal equations of side = a + b·x + c·y (x, y centred for conditioning).
    const mx = tiles.reduce((s, t) => s + t.at.x, 0) / tiles.length, my = tiles.reduce((s, t) => s + t.at.y, 0) / tiles.length;
    const M = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], v = [0, 0, 0];
    for (const t of tiles) {
      const r = [1, t.at.x - mx, t.at.y - my];
      for (let i = 0; i < 3; i++) { v[i]! += r[i]! * t.side; for (let j = 0; j < 3; j++) M[i]![j]! += r[i]! * r[j]!; }
    }
    const det = (m: number[][]) => m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) - m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) + m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
    const D = det(M);
    if (Math.abs(D) < 1e-6) return null;
    const sol = [0, 1, 2].map((k) => det(M.map((row, i) => row.map((x, j) => (j === k ? v[i]! : x)))) / D);
    return new SideField(sol[0]! - sol[1]! * mx - sol[2]! * my, sol[1]!, sol[2]!);
  }

  at(p: Point): number {
    return this.a + this.b * p.x + this.c * p.y;
  }

  /** The same field on the image scaled down k times (k < 1: up). */
  scaled(k: number): SideField {
    return new SideField(this.a / k, this.b, this.c);
  }
}

/** Share of the side either way that `fitToSide` looks for each side's edge in. */
const FIT_BAND = 0.2;
/** How far (share of the side) two opposite sides' distance may be from the tiles' side. */
const FIT_TOLERANCE = 0.025;
/** Degrees either way the fitted square is turned from the free refine's, and the step. */
const FIT_TURN = 7;
const FIT_TURN_STEP = 1;
/**
 * Rounds of each side's line fit: the first through the strongest edge near the offset chosen, each
 * next near the last round's line. The turn is chosen to the degree, and a side a degree or two off
 * over ~115 px sits 1–2 px off the edge at its ends, outside one round's window (±1.5 px).
 */
const FIT_ROUNDS = 3;

/**
 * A square fitted to a known side: for each pair of opposite sides, of the offsets along their
 * normals (within FIT_BAND of the side) whose distance apart is the tiles' side (within
 * FIT_TOLERANCE), the pair with the strongest colour edges all along (each side's edge strength
 * at an offset, averaged over points along it). Where a tile's border is the table's colour one side's
 * own edge is weak, and the free refine takes art inside the tile or the shadow's rim instead; the
 * opposite side, strong, then places it. The square is turned by up to FIT_TURN degrees either
 * way to where its pairs are strongest. Each side's line is then fitted through the strongest edge
 * within a pixel and a half of the offset chosen, and again (FIT_ROUNDS) within a pixel and a half
 * of the line before. Null when no pair of offsets is the side apart.
 */
function fitToSide(img: RgbImage, from: Quad, side: number): { quad: Quad; support: number } | null {
  const q0 = squareAround(from, side);
  // The square turned by up to FIT_TURN either way: the free refine's sides may be skewed several
  // degrees by art along them, and the lines fitted below can turn a side only within their window.
  // Climbed from the free refine's angle (a step either way, then on while the pairs grow stronger):
  // the pairs' strength has one peak over these turns, and a climb looks at 3–5 turns, not 15.
  const at = (d: number) => sidePairs(img, turned(q0, (d * Math.PI) / 180), side);
  let pick: SidePairs | null = at(0);
  let turn = 0;
  for (const dir of [1, -1]) {
    for (let d = dir * FIT_TURN_STEP; Math.abs(d) <= FIT_TURN; d += dir * FIT_TURN_STEP) {
      const p = at(d);
      if (!p || (pick && p.score <= pick.score)) break;
      pick = p;
      turn = d;
    }
    if (turn !== 0) break;
  }
  if (!pick) return null;
  const { geo, prof, chosen, n, w, samples, step } = pick;
  const lines: Line[] = [];
  let supported = 0, total = 0;
  for (let i = 0; i < 4; i++) {
    const g = geo[i]!;
    let prev: Line | null = null;
    let line: Line | null = null;
    let pts: { p: Point; s: number }[] = [];
    let floor = 0;
    for (let round = 0; round < FIT_ROUNDS; round++) {
      pts = [];
      for (let k = 0; k < samples; k++) {
        const t = 0.1 + (0.8 * k) / (samples - 1);
        const cx = g.a.x + (g.b.x - g.a.x) * t, cy = g.a.y + (g.b.y - g.a.y) * t;
        const row = prof[i]![k]!;
        // The window's centre: the offset chosen, then where the last round's line crosses this sample's normal.
        let centre = chosen[i]!;
        if (prev) {
          const den = g.nx * prev.dy - g.ny * prev.dx;
          if (Math.abs(den) > 1e-6) centre = Math.round(((((prev.px - cx) * prev.dy - (prev.py - cy) * prev.dx) / den) + w) / step);
        }
        if (centre < 0 || centre >= n) continue;
        let strongest = centre;
        for (let d = -3; d <= 3; d++) { const o = centre + d; if (o >= 0 && o < n && row[o]! > row[strongest]!) strongest = o; }
        const off = -w + strongest * step;
        pts.push({ p: { x: cx + g.nx * off, y: cy + g.ny * off }, s: row[strongest]! });
      }
      if (!pts.length) break;
      floor = Math.max(EDGE_FLOOR, [...pts.map((x) => x.s)].sort((x, y) => x - y)[Math.floor(pts.length / 2)]! * 0.35);
      const use = pts.filter((x) => x.s >= floor).map((x) => x.p);
      const fitted = use.length >= 6 ? robustLine(use).line : null;
      if (!fitted) break;
      line = fitted;
      prev = fitted;
    }
    // Too few clear points: the side's line moved to the offset chosen, as it was.
    const off = -w + chosen[i]! * step;
    if (!line) line = { px: g.mid.x + g.nx * off, py: g.mid.y + g.ny * off, dx: -g.ny, dy: g.nx };
    const near = Math.max(1.5, 0.006 * dist(g.a, g.b));
    supported += pts.filter((x) => x.s >= floor && lineDistance(line!, x.p) <= near).length;
    total += samples;
    lines.push(line);
  }
  const quad = quadOf(lines);
  return quad && { quad, support: supported / total };
}

interface SidePairs {
  readonly geo: { a: Point; b: Point; nx: number; ny: number; mid: Point }[];
  readonly prof: Float32Array[][];
  readonly chosen: number[];
  readonly n: number;
  readonly w: number;
  readonly samples: number;
  readonly step: number;
  /** The chosen offsets' edge strengths, summed over the four sides. */
  readonly score: number;
}

/**
 * For each pair of opposite sides of square `q`, of the offsets along their normals (within
 * FIT_BAND of the side) whose distance apart is the tiles' side (within FIT_TOLERANCE), the pair
 * with the strongest colour edges all along (each side's edge strength at an offset, averaged over
 * points along it). Null when no pair of offsets is the side apart.
 */
function sidePairs(img: RgbImage, q: Quad, side: number): SidePairs | null {
  const A = new Float32Array(3), B = new Float32Array(3);
  const samples = 40, step = 0.5;
  const w = FIT_BAND * side;
  const n = Math.floor((2 * w) / step) + 1;
  const geo = [0, 1, 2, 3].map((i) => {
    const a = q[i]!, b = q[(i + 1) % 4]!;
    const len = dist(a, b);
    const tx = (b.x - a.x) / len, ty = (b.y - a.y) / len;
    return { a, b, nx: ty, ny: -tx, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  });
  // prof[i][k][o]: edge strength across side i at sample k, offset -w + o·step.
  const prof = geo.map((g) => {
    const rows: Float32Array[] = [];
    for (let k = 0; k < samples; k++) {
      const t = 0.1 + (0.8 * k) / (samples - 1);
      const cx = g.a.x + (g.b.x - g.a.x) * t, cy = g.a.y + (g.b.y - g.a.y) * t;
      const row = new Float32Array(n);
      for (let o = 0; o < n; o++) { const off = -w + o * step; row[o] = edgeAcross(img, cx + g.nx * off, cy + g.ny * off, g.nx, g.ny, A, B); }
      rows.push(row);
    }
    return rows;
  });
  // Each side's strength at each offset: the mean over the points of their strongest edge within a pixel of it.
  const strength = prof.map((rows) => {
    const out = new Float32Array(n);
    for (const row of rows)
      for (let o = 0; o < n; o++) {
        let m = 0;
        for (let d = -2; d <= 2; d++) { const x = row[o + d]; if (x !== undefined && x > m) m = x; }
        out[o] += m / rows.length;
      }
    return out;
  });
  const chosen = [0, 0, 0, 0];
  let score = 0;
  for (const [i, j] of [[0, 2], [1, 3]] as const) {
    // Distance apart now: side j's midpoint from side i's line, along i's inward normal.
    const gi = geo[i]!, gj = geo[j]!;
    const sep0 = -((gj.mid.x - gi.mid.x) * gi.nx + (gj.mid.y - gi.mid.y) * gi.ny);
    let best = -1;
    for (let oi = 0; oi < n; oi++)
      for (let oj = 0; oj < n; oj++) {
        const sep = sep0 + (-w + oi * step) + (-w + oj * step);
        if (Math.abs(sep / side - 1) > FIT_TOLERANCE) continue;
        const sc = strength[i]![oi]! + strength[j]![oj]!;
        if (sc > best) { best = sc; chosen[i] = oi; chosen[j] = oj; }
      }
    if (best < 0) return null;
    score += best;
  }
  return { geo, prof, chosen, n, w, samples, step, score };
}

/** A quadrilateral turned by `angle` (radians) about its centre. */
function turned(q: Quad, angle: number): Quad {
  if (angle === 0) return q;
  const c = centreOf(q), cs = Math.cos(angle), sn = Math.sin(angle);
  return q.map((p) => ({ x: c.x + (p.x - c.x) * cs - (p.y - c.y) * sn, y: c.y + (p.x - c.x) * sn + (p.y - c.y) * cs })) as unknown as Quad;
}

/**
 * A square of `side` at a quadrilateral's centre, turned as most of its sides are (the side whose
 * direction, modulo a quarter turn, is nearest the other three's): a free refine that took one side
 * along art or a neighbour leaves that side skewed, and fitting from it would keep the skew.
 */
function squareAround(q: Quad, side: number): Quad {
  const c = centreOf(q);
  const dirs = q.map((p, i) => { const n = q[(i + 1) % 4]!; return Math.atan2(n.y - p.y, n.x - p.x); });
  const off = (a: number, b: number) => { const d = (((a - b) % (Math.PI / 2)) + Math.PI / 2) % (Math.PI / 2); return Math.min(d, Math.PI / 2 - d); };
  let best = dirs[0]!, bestSum = Infinity;
  for (const a of dirs) {
    const sum = dirs.reduce((t, b) => t + off(a, b), 0);
    if (sum < bestSum) { bestSum = sum; best = a; }
  }
  const h = side / 2, cs = Math.cos(best), sn = Math.sin(best);
  return orderCorners([[-h, -h], [h, -h], [h, h], [-h, h]].map(([u, v]) => ({ x: c.x + u! * cs - v! * sn, y: c.y + u! * sn + v! * cs })));
}
