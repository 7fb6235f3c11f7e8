import type { Cv, Mat } from './cv.js';
import { applyHomography, distance, fitHomography, invertHomography, multiplyHomography, type Homography, type Point, type Quad } from './geometry.js';
import { poseCorners, refinePiece, type PiecePose } from './refine.js';

/** A board position as the engine counts it: [x, y], the start piece at [0, 0]. */
export type Cell = readonly [number, number];
export const cellKey = (c: Cell): string => `${c[0]},${c[1]}`;

/**
 * The ideal grid on the table plane: where cell [x, y] would be if no tile ever drifted. Pitch is
 * the tile size plus the average gap; angle is the grid's x axis against the table's x axis.
 */
export interface Lattice {
  originMm: Point; // centre of cell [0, 0]
  pitchMm: number;
  angleDeg: number;
  tileMm: number;
}

export function latticeCentre(l: Lattice, c: Cell): Point {
  const a = (l.angleDeg * Math.PI) / 180;
  const u = c[0] * l.pitchMm, v = c[1] * l.pitchMm;
  return { x: l.originMm.x + u * Math.cos(a) - v * Math.sin(a), y: l.originMm.y + u * Math.sin(a) + v * Math.cos(a) };
}

export function latticePose(l: Lattice, c: Cell): PiecePose {
  return { centre: latticeCentre(l, c), angleDeg: l.angleDeg, widthMm: l.tileMm, heightMm: l.tileMm };
}

/** A tile as found on the table: its own pose, which may differ from the lattice's by drift. */
export interface CellObservation {
  cell: Cell;
  pose: PiecePose;
}

/**
 * Least-squares similarity from cell indices to observed centres: centre ≈ origin + pitch·R(angle)·cell.
 * With one observation only (the start piece) the pitch stays at the prior and the angle is the
 * piece's own.
 */
export function fitLattice(obs: CellObservation[], prior: Lattice): Lattice {
  if (obs.length === 0) return prior;
  if (obs.length === 1) {
    const o = obs[0]!;
    const l = { ...prior, angleDeg: o.pose.angleDeg };
    const c = latticeCentre({ ...l, originMm: { x: 0, y: 0 } }, o.cell);
    return { ...l, originMm: { x: o.pose.centre.x - c.x, y: o.pose.centre.y - c.y } };
  }
  // Solve [x; y] = [a -b tx; b a ty]·[u; v; 1] by normal equations (4 unknowns).
  const n = obs.length;
  const mu = obs.reduce((s, o) => s + o.cell[0], 0) / n, mv = obs.reduce((s, o) => s + o.cell[1], 0) / n;
  const mx = obs.reduce((s, o) => s + o.pose.centre.x, 0) / n, my = obs.reduce((s, o) => s + o.pose.centre.y, 0) / n;
  let sxx = 0, sa = 0, sb = 0;
  for (const o of obs) {
    const u = o.cell[0] - mu, v = o.cell[1] - mv, x = o.pose.centre.x - mx, y = o.pose.centre.y - my;
    sxx += u * u + v * v;
    sa += u * x + v * y;
    sb += u * y - v * x;
  }
  if (sxx === 0) return fitLattice([obs[0]!], prior);
  const a = sa / sxx, b = sb / sxx;
  const pitchMm = Math.hypot(a, b);
  let angleDeg = (Math.atan2(b, a) * 180) / Math.PI;
  // Collinear observations (a single row) leave the angle determined only up to the row's own
  // direction, which is still the grid axis: fine. Keep it near the prior's quarter turn.
  while (angleDeg - prior.angleDeg > 45) angleDeg -= 90;
  while (angleDeg - prior.angleDeg < -45) angleDeg += 90;
  const l = { ...prior, pitchMm, angleDeg };
  const c = latticeCentre({ ...l, originMm: { x: 0, y: 0 } }, [mu, mv]);
  return { ...l, originMm: { x: mx - c.x, y: my - c.y } };
}

/** How far from the lattice a tile is looked for, and how far its size may be from the nominal. */
export interface CellSearch {
  readonly searchMm: number;
  readonly sizeToleranceMm: number;
}
/** Under a plane that is right where the tile lies. */
const TIGHT: CellSearch = { searchMm: 3.5, sizeToleranceMm: 0.6 };
/** At the edge of what a plane has been fitted to (`growPlane`). */
const LOOSE: CellSearch = { searchMm: 6, sizeToleranceMm: 3 };

export interface RefinedCell {
  cell: Cell;
  pose: PiecePose;
  /** The tile's own quad on the table, as its four edges were found. */
  tableQuad: Quad;
  /** The same quad in the image, TL, TR, BR, BL in the lattice's frame. */
  imageQuad: Quad;
  contrast: number;
}

/**
 * `image` is the frame as an RGB Mat (colour edges find a green field on a brown table that grey
 * cannot) or a grey one.
 *
 * Finds one cell's tile by its own edges, starting from where the lattice expects it. Real tiles
 * sit up to a couple of millimetres and degrees off the grid, so the recogniser's crop must come
 * from the tile's own quad, not the lattice's.
 */
export function refineCell(cv: Cv, image: Mat, tableToImage: Homography, lattice: Lattice, cell: Cell, search: CellSearch = TIGHT): RefinedCell {
  const r = refinePiece(cv, image, tableToImage, latticePose(lattice, cell), { searchMm: search.searchMm, searchDeg: 4, pxPerMm: 4, sizeToleranceMm: search.sizeToleranceMm });
  return { cell, pose: r.pose, tableQuad: r.tableQuad, imageQuad: r.tableQuad.map((p) => applyHomography(tableToImage, p)) as Quad, contrast: r.contrast };
}

/**
 * Grows the grid over the occupied cells in breadth-first order from the start piece, refitting
 * the lattice after each tile so that drift far from the start is followed. This is how the
 * tracker re-reads a whole board (after a camera bump, or at start-up from a game in progress).
 */
export function solveGrid(cv: Cv, image: Mat, tableToImage: Homography, prior: Lattice, occupied: Cell[], search: CellSearch = TIGHT): { lattice: Lattice; cells: Map<string, RefinedCell> } {
  const keys = new Set(occupied.map(cellKey));
  const cells = new Map<string, RefinedCell>();
  let lattice = prior;
  const queue: Cell[] = keys.has('0,0') ? [[0, 0]] : occupied.slice(0, 1);
  const queued = new Set(queue.map(cellKey));
  while (queue.length > 0) {
    const c = queue.shift()!;
    const found = refineCell(cv, image, tableToImage, lattice, c, search);
    cells.set(cellKey(c), found);
    lattice = fitLattice([...cells.values()].map((f) => ({ cell: f.cell, pose: f.pose })), lattice);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
      const n: Cell = [c[0] + dx, c[1] + dy];
      if (keys.has(cellKey(n)) && !queued.has(cellKey(n))) {
        queued.add(cellKey(n));
        queue.push(n);
      }
    }
  }
  // Cells not connected to the start (should not happen in Carcassonne) are read from the lattice.
  for (const c of occupied) if (!cells.has(cellKey(c))) cells.set(cellKey(c), refineCell(cv, image, tableToImage, lattice, c, search));
  return { lattice, cells };
}

/**
 * Refits the table-plane homography to known tiles: their corners on the table (from when they
 * were committed) against their corners found now in the image. Used after a camera bump, and to
 * improve a plane first known only from the start piece as the board grows.
 */
export function refitPlane(cv: Cv, known: { tableQuad: Quad; imageQuad: Quad }[]): Homography | undefined {
  return fitHomography(cv, known.flatMap((k) => k.tableQuad), known.flatMap((k) => k.imageQuad), 2);
}

/**
 * A plane first known from the start piece alone is right over the piece only: its perspective
 * terms rest on one 45 mm square (docs/calibration.md). The board grows outwards from it, as a game
 * does: ring by ring (cells one more step from the start), the tiles are found under the plane so
 * far and the plane refitted to every tile found — four corners each, placed on the table by the
 * lattice to within the tiles' drift. The start piece keeps its own corners, so the table frame
 * stays the piece's; the tiles' known size (not only the pitch, which includes the unknown gap)
 * keeps the scale honest.
 */
export function growPlane(cv: Cv, image: Mat, startPlane: Homography, prior: Lattice, occupied: Cell[]): { plane: Homography; lattice: Lattice; cells: Map<string, RefinedCell> } {
  const ring = ringsFromStart(occupied);
  const last = Math.max(0, ...ring.values());
  let plane = startPlane;
  // At the frontier the plane is extrapolated: a tile may sit millimetres from where it says, and
  // look a millimetre or two larger or smaller, so the search there is loose.
  for (let d = 1; d <= last; d++) {
    const near = occupied.filter((c) => (ring.get(cellKey(c)) ?? Infinity) <= d);
    plane = refitToGrid(cv, startPlane, startTile(prior), near, solveGrid(cv, image, plane, prior, near, LOOSE)) ?? plane;
  }
  return { plane, ...solveGrid(cv, image, plane, prior, occupied) };
}

/** The piece the plane was calibrated on: the board cells it covers and its outline on the table. */
export interface StartPiece {
  readonly cells: readonly Cell[];
  readonly tableQuad: Quad;
}

/** The start tile alone at cell [0, 0]. */
export const startTile = (prior: Lattice): StartPiece => ({ cells: [[0, 0]], tableQuad: poseCorners(latticePose(prior, [0, 0])) });

function refitToGrid(cv: Cv, startPlane: Homography, piece: StartPiece, cells: Cell[], solved: { lattice: Lattice; cells: Map<string, RefinedCell> }): Homography | undefined {
  // The start piece as calibrated, alone on the table: no neighbour's edge to mistake for its own.
  const start = { tableQuad: piece.tableQuad, imageQuad: piece.tableQuad.map((p) => applyHomography(startPlane, p)) as Quad };
  const own = new Set(piece.cells.map(cellKey));
  const others = cells
    .filter((c) => !own.has(cellKey(c)) && solved.cells.has(cellKey(c)))
    .map((c) => ({ tableQuad: poseCorners(latticePose(solved.lattice, c)), imageQuad: solved.cells.get(cellKey(c))!.imageQuad }));
  return robustPlane(cv, [start, ...others]);
}

/**
 * A least-squares plane through every tile's corners, refitted without the tiles it fits worst:
 * a tile whose edges were mistaken (a neighbour's edge, a hand) is far off the plane the others
 * agree on, and would bend it. Known tiles are off by their drift only, a pixel or two, so RANSAC's
 * fixed threshold (refitPlane) would throw good ones away at one camera distance and keep bad ones
 * at another; the median residual scales with the camera (with a floor of 1.5 px, so that a plane
 * every tile fits well keeps them all). The first quad (the start piece) is always kept.
 */
function robustPlane(cv: Cv, known: { tableQuad: Quad; imageQuad: Quad }[]): Homography | undefined {
  const fit = (ks: typeof known) => fitHomography(cv, ks.flatMap((k) => k.tableQuad), ks.flatMap((k) => k.imageQuad));
  let use = known;
  let h = fit(use);
  for (let round = 0; round < 3 && h; round++) {
    const off = known.map((k) => Math.max(...k.tableQuad.map((p, i) => distance(applyHomography(h!, p), k.imageQuad[i]!))));
    const median = [...off].sort((a, b) => a - b)[Math.floor(off.length / 2)]!;
    const keep = known.filter((_, i) => i === 0 || off[i]! <= Math.max(2 * median, 1.5));
    if (keep.length === use.length || keep.length < 3) break;
    use = keep;
    h = fit(use) ?? h;
  }
  return h;
}

/** Steps from the start piece through occupied neighbours, for each occupied cell it reaches. */
function ringsFromStart(occupied: Cell[], start: readonly Cell[] = [[0, 0]]): Map<string, number> {
  const keys = new Set(occupied.map(cellKey));
  const ring = new Map<string, number>(start.map((c) => [cellKey(c), 0]));
  const queue: Cell[] = [...start];
  while (queue.length > 0) {
    const c = queue.shift()!;
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
      const n: Cell = [c[0] + dx, c[1] + dy];
      if (keys.has(cellKey(n)) && !ring.has(cellKey(n))) {
        ring.set(cellKey(n), ring.get(cellKey(c))! + 1);
        queue.push(n);
      }
    }
  }
  return ring;
}

/**
 * `growPlane` as a game grows the board, one still frame at a time: the tiles found so far keep the
 * image quads they were found with, and only new tiles are looked for — each under the plane as
 * refitted to the tiles laid before it, nearest the start first — so a turn costs one tile's search
 * (about 25 ms), not the whole board's (the tracker's plane from the start piece's clicked corners).
 * The price: a tile found at the frontier under an extrapolated plane is never found again, so the
 * plane is less good than `growPlane`'s over the same board, and not always better than the start
 * piece's alone (figures in docs/calibration.md). Regrowing the whole board whenever it had grown by
 * a quarter came within growPlane's figures, but stalled the demo recording's tracker for up to 16 s
 * late in the game (each tile's search draws a 4 px/mm patch whatever the camera's resolution): not
 * used until that search is made cheaper.
 */
export interface GrowingPlane {
  readonly startPlane: Homography;
  readonly prior: Lattice;
  readonly start: StartPiece;
  readonly plane: Homography;
  /** Tiles found, by cell key (the start piece's cells are the plane's own and not among them). */
  readonly found: ReadonlyMap<string, RefinedCell>;
}

export function startGrowing(startPlane: Homography, prior: Lattice, start: StartPiece = startTile(prior)): GrowingPlane {
  return { startPlane, prior, start, plane: startPlane, found: new Map() };
}

/** The plane refitted to the tiles in `occupied` not found yet (cells not joined to the start are left). */
export function growWith(cv: Cv, image: Mat, g: GrowingPlane, occupied: Cell[]): GrowingPlane {
  const ring = ringsFromStart(occupied, g.start.cells);
  const fresh = occupied
    .filter((c) => ring.get(cellKey(c))! > 0 && !g.found.has(cellKey(c)))
    .sort((a, b) => ring.get(cellKey(a))! - ring.get(cellKey(b))!);
  if (fresh.length === 0) return g;
  const found = new Map(g.found);
  let plane = g.plane;
  for (const c of fresh) {
    found.set(cellKey(c), refineCell(cv, image, plane, latticeUnder(plane, g, found), c, LOOSE));
    const cells = [...found.values()].map((f) => f.cell);
    plane = refitToGrid(cv, g.startPlane, g.start, cells, { lattice: latticeUnder(plane, g, found), cells: found }) ?? plane;
  }
  return { ...g, plane, found };
}

/**
 * The lattice the found tiles make under `plane`: each tile's image quad taken back to the table
 * (they were found under earlier planes), the start piece's cells where it was calibrated.
 */
function latticeUnder(plane: Homography, g: GrowingPlane, found: ReadonlyMap<string, RefinedCell>): Lattice {
  const back = invertHomography(plane);
  const obs: CellObservation[] = g.start.cells.map((c) => ({ cell: c, pose: latticePose(g.prior, c) }));
  for (const f of found.values()) {
    const q = f.imageQuad.map((p) => applyHomography(back, p));
    const centre = { x: q.reduce((s, p) => s + p.x, 0) / 4, y: q.reduce((s, p) => s + p.y, 0) / 4 };
    const angleDeg = (Math.atan2(q[1]!.y - q[0]!.y + q[2]!.y - q[3]!.y, q[1]!.x - q[0]!.x + q[2]!.x - q[3]!.x) * 180) / Math.PI;
    obs.push({ cell: f.cell, pose: { ...f.pose, centre, angleDeg } });
  }
  return fitLattice(obs, g.prior);
}

/** The growing plane after the camera moved by `motion` (old image px → new image px; calibration/bump.ts). */
export function carriedBy(g: GrowingPlane, motion: Homography): GrowingPlane {
  const found = new Map([...g.found].map(([k, f]) => [k, { ...f, imageQuad: f.imageQuad.map((p) => applyHomography(motion, p)) as Quad }]));
  return { ...g, startPlane: multiplyHomography(motion, g.startPlane), plane: multiplyHomography(motion, g.plane), found };
}
