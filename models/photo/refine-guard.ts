/**
 * Whether the outline refiner (outline-net.ts) pulled one corner of a photo's outline off the edges
 * the finder had fitted: a hand lying over a tile's corner hides it, the finder's sides run on along
 * the edges it does see, and the network — which only sees a crop — puts the hidden corner where the
 * hand's outline suggests. Its move is then one corner alone, and a side at that corner leaves the
 * edge it lay on. Where the refiner is right the finder's side was on another edge (a shadow's rim, a
 * hand's), and the refined side finds the tile's own edge, or the move is of more than one corner.
 *
 * Set on first-edition photo-like images with a hand in every photo, three sets of 204 (docs/photos.md,
 * "Finding").
 */
import type { Point, Quad } from '../../calibration/geometry.js';
import { edgeAcross, meanSide, type RgbImage } from './outline.js';

/** A corner move (share of the side) that counts as the refiner's own; the others must stay under LONE_MOVE_OTHERS. */
const LONE_MOVE = 0.025;
const LONE_MOVE_OTHERS = 0.015;
/** A side at the moved corner losing more than this share of its edge support is pulled off its edge. */
const SUPPORT_LOST = 0.2;
/** Colour difference (summed over RGB, across two pixels) of a local edge maximum that supports a side. */
const SIDE_EDGE = 40;
const SAMPLES = 48;

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Per side (corner i to i + 1), the share of points along it with a local colour-edge maximum within
 * max(1.5 px, 0.6 % of the side) of it: any edge, not only the outermost, so that a side on the tile's
 * edge counts as supported even where a shadow's rim runs beside it.
 */
export function sideEdgeSupport(img: RgbImage, q: Quad): number[] {
  const A = new Float32Array(3), B = new Float32Array(3);
  return [0, 1, 2, 3].map((i) => {
    const a = q[i]!, b = q[(i + 1) % 4]!;
    const len = dist(a, b);
    const nx = (b.y - a.y) / len, ny = -(b.x - a.x) / len;
    const near = Math.max(1.5, 0.006 * len);
    let supported = 0;
    for (let k = 0; k < SAMPLES; k++) {
      const t = 0.08 + (0.84 * k) / (SAMPLES - 1);
      const cx = a.x + (b.x - a.x) * t, cy = a.y + (b.y - a.y) * t;
      const prof: number[] = [];
      for (let o = -near - 1; o <= near + 1; o += 0.5) prof.push(edgeAcross(img, cx + nx * o, cy + ny * o, nx, ny, A, B));
      const offset = (j: number) => -near - 1 + j * 0.5;
      let found = false;
      for (let j = 1; j < prof.length - 1 && !found; j++) found = Math.abs(offset(j)) <= near && prof[j]! >= SIDE_EDGE && prof[j]! >= prof[j - 1]! && prof[j]! >= prof[j + 1]!;
      if (found) supported++;
    }
    return supported / SAMPLES;
  });
}

/** Whether `refined` (the refiner's move of `found`, corners in any cyclic order) moved one corner alone and pulled a side at it off its edge. */
export function pulledOffAnEdge(img: RgbImage, found: Quad, refined: Quad): boolean {
  const side = meanSide(found);
  // The refined corners numbered as the finder's (orderCorners may start them elsewhere).
  let moves: number[] = [], matched = refined;
  for (let k = 0, worst = Infinity; k < 4; k++) {
    const turned = found.map((_, i) => refined[(i + k) % 4]!) as Quad;
    const m = found.map((p, i) => dist(p, turned[i]!) / side);
    if (Math.max(...m) < worst) [worst, moves, matched] = [Math.max(...m), m, turned];
  }
  const c = moves.indexOf(Math.max(...moves));
  if (moves[c]! < LONE_MOVE || moves.some((m, i) => i !== c && m >= LONE_MOVE_OTHERS)) return false;
  const before = sideEdgeSupport(img, found), after = sideEdgeSupport(img, matched);
  return [(c + 3) % 4, c].some((s) => before[s]! - after[s]! > SUPPORT_LOST);
}
