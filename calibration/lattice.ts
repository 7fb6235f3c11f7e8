import type { Cv, Mat } from './cv.js';
import { applyHomography, fitHomography, type Homography, type Point, type Quad } from './geometry.js';
import { refinePiece, type PiecePose } from './refine.js';

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
export function refineCell(cv: Cv, image: Mat, tableToImage: Homography, lattice: Lattice, cell: Cell): RefinedCell {
  const r = refinePiece(cv, image, tableToImage, latticePose(lattice, cell), { searchMm: 3.5, searchDeg: 4, pxPerMm: 4, sizeToleranceMm: 0.6 });
  return { cell, pose: r.pose, tableQuad: r.tableQuad, imageQuad: r.tableQuad.map((p) => applyHomography(tableToImage, p)) as Quad, contrast: r.contrast };
}

/**
 * Grows the grid over the occupied cells in breadth-first order from the start piece, refitting
 * the lattice after each tile so that drift far from the start is followed. This is how the
 * tracker re-reads a whole board (after a camera bump, or at start-up from a game in progress).
 */
export function solveGrid(cv: Cv, image: Mat, tableToImage: Homography, prior: Lattice, occupied: Cell[]): { lattice: Lattice; cells: Map<string, RefinedCell> } {
  const keys = new Set(occupied.map(cellKey));
  const cells = new Map<string, RefinedCell>();
  let lattice = prior;
  const queue: Cell[] = keys.has('0,0') ? [[0, 0]] : occupied.slice(0, 1);
  const queued = new Set(queue.map(cellKey));
  while (queue.length > 0) {
    const c = queue.shift()!;
    const found = refineCell(cv, image, tableToImage, lattice, c);
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
  for (const c of occupied) if (!cells.has(cellKey(c))) cells.set(cellKey(c), refineCell(cv, image, tableToImage, lattice, c));
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
