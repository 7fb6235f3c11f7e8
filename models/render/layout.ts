/**
 * Where things sit on a tile, derived from catalog data alone (tile units 0..100, catalog orientation,
 * y down): city regions as polygons, roads and rivers as polylines, spots for interior features.
 * No Node APIs: the display reuses this in the browser.
 */
import type { TileType } from '../../engine/catalog/types.js';
import type { Rng } from '../../engine/sim/rng.js';

export type Pt = readonly [number, number];

const CORNER: readonly Pt[] = [[0, 0], [100, 0], [100, 100], [0, 100]];
/** Side s runs clockwise from CORNER[s] to CORNER[s+1]. */
const NORMAL: readonly Pt[] = [[0, 1], [-1, 0], [0, -1], [1, 0]];
/** How far in from its side a field's figure stands (catalog units, a tile is 100). */
export const FIELD_SPOT_DEPTH = 14;

export function sideStart(s: number): Pt {
  return CORNER[s % 4]!;
}
export function sideEnd(s: number): Pt {
  return CORNER[(s + 1) % 4]!;
}
export function sideMid(s: number): Pt {
  const a = sideStart(s);
  const b = sideEnd(s);
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}
export function inward(s: number): Pt {
  return NORMAL[s % 4]!;
}

/** Where segment i (0..11) meets the tile edge, pushed `depth` units inside. */
export function segmentPoint(i: number, depth: number): Pt {
  const s = Math.floor(i / 3);
  const k = i % 3;
  const a = sideStart(s);
  const b = sideEnd(s);
  const t = (k + 0.5) / 3;
  const n = inward(s);
  return [a[0] + (b[0] - a[0]) * t + n[0] * depth, a[1] + (b[1] - a[1]) * t + n[1] * depth];
}

function quad(a: Pt, c: Pt, b: Pt, n = 12): Pt[] {
  const out: Pt[] = [];
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    const u = 1 - t;
    out.push([u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]]);
  }
  return out;
}

function add(a: Pt, b: Pt, k = 1): Pt {
  return [a[0] + b[0] * k, a[1] + b[1] * k];
}

export interface CityShape {
  readonly featureId: string;
  readonly sides: readonly number[];
  /** Closed outline; the part that is not on the tile edge is the wall. */
  readonly outline: readonly Pt[];
  /** The walls: the outline's inner runs, as open polylines (none for a full-tile city). */
  readonly walls: readonly (readonly Pt[])[];
  readonly pennants: number;
  readonly cathedral: boolean;
  /** A point well inside the city (for pennants, cathedrals, meeples). */
  readonly anchor: Pt;
}

export interface PathShape {
  readonly featureId: string;
  readonly kind: 'road' | 'river';
  readonly points: readonly Pt[];
  /** One-ended paths stop inside the tile (at a junction, cloister, tower, spring or lake). */
  readonly ends: number;
  readonly inn: boolean;
}

export interface InteriorShape {
  readonly featureId: string;
  readonly kind: 'cloister' | 'garden' | 'tower';
  readonly at: Pt;
}

export interface TileLayout {
  readonly cities: readonly CityShape[];
  readonly paths: readonly PathShape[];
  readonly interiors: readonly InteriorShape[];
  /** Junction where three or more one-ended roads meet with nothing else there. */
  readonly junction: Pt | null;
  readonly spring: Pt | null;
  readonly lake: Pt | null;
  /**
   * Walls between two fields that no road or city separates (IC_G's wall running down to a corner):
   * without them such a tile looks exactly like its one-field twin.
   */
  readonly fieldWalls: readonly (readonly Pt[])[];
  /** Where a meeple stands on each segment 0..11 and on the tile centre (index 12). */
  readonly meepleSpots: readonly Pt[];
}

function sidesOf(segments: readonly number[]): number[] {
  return [...new Set(segments.map((s) => Math.floor(s / 3)))].sort((a, b) => a - b);
}

/** Moves a curve's control point by up to `amount` units each way (none without a generator). */
type Wobble = (p: Pt, amount: number) => Pt;
const still: Wobble = (p) => p;
function wobbleFrom(r: Rng): Wobble {
  return (p, amount) => [p[0] + (r() * 2 - 1) * amount, p[1] + (r() * 2 - 1) * amount];
}

function cityOutline(sides: readonly number[], depth: number, wob: Wobble = still): { outline: Pt[]; walls: Pt[][] } {
  const set = new Set(sides);
  if (set.size === 4) {
    return { outline: [...CORNER], walls: [] };
  }
  if (set.size === 1) {
    const s = sides[0]!;
    const a = sideStart(s);
    const b = sideEnd(s);
    const wall = [b, ...quad(b, wob(add(sideMid(s), inward(s), depth * 2), 10), a)];
    return { outline: [a, ...wall], walls: [wall] };
  }
  if (set.size === 2) {
    const [s0, s1] = sides as [number, number];
    if ((s1 - s0) % 2 === 0) {
      // Two opposite sides joined by a band; the other two sides are pinched inwards.
      const outline: Pt[] = [sideStart(s0)];
      const walls: Pt[][] = [];
      for (let s = s0; s < s0 + 4; s++) {
        if (set.has(s % 4)) outline.push(sideEnd(s));
        else {
          const w = [sideStart(s), ...quad(sideStart(s), wob(add(sideMid(s), inward(s), depth * 1.2), 6), sideEnd(s))];
          walls.push(w);
          outline.push(...w.slice(1));
        }
      }
      return { outline, walls };
    }
    // Two adjacent sides: the corner between them, cut off by a curve.
    const first = (s0 + 1) % 4 === s1 ? s0 : s1;
    const second = (first + 1) % 4;
    const corner = sideEnd(first);
    const opposite = CORNER[(CORNER.indexOf(corner) + 2) % 4]!;
    const ctrl: Pt = [corner[0] + (opposite[0] - corner[0]) * (0.35 + depth / 100), corner[1] + (opposite[1] - corner[1]) * (0.35 + depth / 100)];
    const wall = [sideEnd(second), ...quad(sideEnd(second), wob(ctrl, 8), sideStart(first))];
    return { outline: [sideStart(first), corner, ...wall], walls: [wall] };
  }
  // Three sides: everything but a cap on the missing side.
  const missing = [0, 1, 2, 3].find((s) => !set.has(s))!;
  const outline: Pt[] = [];
  let wall: Pt[] = [];
  for (let s = missing + 1; s < missing + 4; s++) outline.push(sideStart(s % 4));
  outline.push(sideStart(missing));
  wall = [sideStart(missing), ...quad(sideStart(missing), wob(add(sideMid(missing), inward(missing), depth * 1.1), 8), sideEnd(missing))];
  outline.push(...wall.slice(1));
  return { outline, walls: [wall] };
}

export function pointInPolygon(p: Pt, poly: readonly Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

export function distToPolyline(p: Pt, line: readonly Pt[]): number {
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i]!;
    const b = line[i + 1]!;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const l2 = dx * dx + dy * dy || 1;
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2));
    best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
  }
  return best;
}

function centroid(poly: readonly Pt[]): Pt {
  let x = 0;
  let y = 0;
  for (const p of poly) {
    x += p[0];
    y += p[1];
  }
  return [x / poly.length, y / poly.length];
}

const SPOTS: readonly Pt[] = [
  [50, 50], [50, 68], [68, 50], [50, 32], [32, 50], [30, 70], [70, 70], [70, 30], [30, 30], [50, 78], [78, 50], [22, 50], [50, 22],
];

/**
 * The tile's geometry. Without `vary` it is the one canonical drawing (the display's and the
 * benchmark's); with it, city depths and wall curves, the pennant's place, road bends and interior
 * spots move within what still reads as the same tile, so that a model trained on such drawings
 * learns the tile's structure rather than one drawing's exact shapes (printed art draws every
 * tile its own way).
 */
export function layoutTile(tile: TileType, vary?: Rng, { movePennants = true }: { movePennants?: boolean } = {}): TileLayout {
  const wob = vary ? wobbleFrom(vary) : still;
  const scale = (lo: number, hi: number) => (vary ? lo + (hi - lo) * vary() : 1);
  const cityFeatures = tile.features.filter((f) => f.kind === 'city');
  const multi = cityFeatures.length > 1;
  const cities: CityShape[] = cityFeatures.map((f) => {
    const sides = sidesOf(f.segments);
    const depth = (multi ? (sides.length === 1 ? 24 : 30) : 32) * scale(0.75, 1.2);
    const { outline, walls } = cityOutline(sides, depth, wob);
    let anchor = centroid(outline);
    if (sides.length === 1) {
      const mid = sideMid(sides[0]!);
      anchor = add(mid, inward(sides[0]!), 13);
      if (vary) {
        // Somewhere between the edge and the (moved) wall's middle.
        const w = walls[0]![Math.floor(walls[0]!.length / 2)]!;
        const k = scale(0.4, 0.65);
        anchor = [mid[0] + (w[0] - mid[0]) * k, mid[1] + (w[1] - mid[1]) * k];
      }
    }
    if (vary && movePennants && sides.length > 1) {
      // The pennant sits anywhere well inside the city (clear of walls and of the tile's edge).
      const spots: Pt[] = [];
      for (let x = 12; x <= 88; x += 4)
        for (let y = 12; y <= 88; y += 4)
          if (pointInPolygon([x, y], outline) && walls.every((w) => distToPolyline([x, y], w) > 10)) spots.push([x, y]);
      if (spots.length > 0) anchor = spots[Math.floor(vary() * spots.length)]!;
    }
    return { featureId: f.id, sides, outline, walls, pennants: f.pennants, cathedral: f.cathedral, anchor };
  });

  const through = tile.features.filter((f) => (f.kind === 'road' || f.kind === 'river') && f.segments.length >= 2);
  const throughLines: Pt[][] = through.map((f) => pathThrough(f.segments, wob));
  const interiorsDefs = tile.features.filter((f) => f.kind === 'cloister' || f.kind === 'garden' || f.kind === 'tower');
  const used: Pt[] = [];
  const interiors: InteriorShape[] = [];
  // Cloisters and towers take the best spot first (one-ended roads run to them); gardens take what is left.
  const ordered = [...interiorsDefs].sort((a, b) => (a.kind === 'garden' ? 1 : 0) - (b.kind === 'garden' ? 1 : 0));
  for (const f of ordered) {
    let best: Pt = [50, 50];
    let bestScore = -Infinity;
    for (const s of SPOTS) {
      let clearance = 40;
      for (const l of throughLines) clearance = Math.min(clearance, distToPolyline(s, l) - 9);
      for (const c of cities) if (pointInPolygon(s, c.outline)) clearance = -100;
      for (const c of cities) for (const w of c.walls) clearance = Math.min(clearance, distToPolyline(s, w) - 8);
      for (const u of used) clearance = Math.min(clearance, Math.hypot(s[0] - u[0], s[1] - u[1]) - 26);
      const score = Math.min(clearance, 14) - Math.hypot(s[0] - 50, s[1] - 50) * 0.05;
      if (score > bestScore) {
        bestScore = score;
        best = s;
      }
    }
    if (vary) best = wob(best, 3);
    used.push(best);
    interiors.push({ featureId: f.id, kind: f.kind as InteriorShape['kind'], at: best });
  }

  const hub = interiors.find((i) => i.kind === 'cloister' || i.kind === 'tower')?.at ?? null;
  const oneEnded = tile.features.filter((f) => (f.kind === 'road' || f.kind === 'river') && f.segments.length === 1);
  const oneRoads = oneEnded.filter((f) => f.kind === 'road');
  let junction: Pt | null = null;
  let spring: Pt | null = null;
  let lake: Pt | null = null;
  const paths: PathShape[] = [];
  for (let i = 0; i < through.length; i++) {
    const f = through[i]!;
    paths.push({ featureId: f.id, kind: f.kind as 'road' | 'river', points: throughLines[i]!, ends: 2, inn: f.inn });
  }
  for (const f of oneEnded) {
    const start = segmentPoint(f.segments[0]!, 0);
    let end: Pt = [50, 50];
    if (f.kind === 'river') {
      end = hub && hub[0] === 50 && hub[1] === 50 ? [50, 62] : [50, 50];
      if (tile.riverLake) lake = end;
      else spring = end;
    } else if (hub) end = hub;
    else if (oneRoads.length >= 3 || cities.length === 0) end = [50, 50];
    else {
      // A road that runs into a city ends at its wall.
      end = add(start, inward(Math.floor(f.segments[0]! / 3)), 50);
    }
    if (f.kind === 'road' && !hub && (oneRoads.length >= 3 || (cities.length === 0 && oneRoads.length >= 1))) junction = [50, 50];
    paths.push({ featureId: f.id, kind: f.kind as 'road' | 'river', points: [start, end], ends: 1, inn: f.inn });
  }

  const meepleSpots: Pt[] = [];
  for (let i = 0; i < 12; i++) {
    const f = tile.features.find((g) => g.segments.includes(i));
    const kind = f?.kind ?? 'field';
    if (kind === 'road' || kind === 'river') {
      const p = paths.find((q) => q.featureId === f!.id)!;
      const a = p.points[0]!;
      const start = segmentPoint(i, 0);
      const near = Math.hypot(a[0] - start[0], a[1] - start[1]) < 1 ? p.points : [...p.points].reverse();
      meepleSpots.push(pointAlong(near, 20));
    } else if (kind === 'city') {
      const c = cities.find((q) => q.featureId === f!.id)!;
      meepleSpots.push(c.sides.length >= 3 ? segmentPoint(i, 18) : c.sides.length === 1 ? segmentPoint(i, 11) : segmentPoint(i, 15));
    } else meepleSpots.push(segmentPoint(i, FIELD_SPOT_DEPTH));
  }
  meepleSpots.push(interiors[0]?.at ?? [50, 50]);
  return { cities, paths, interiors, junction, spring, lake, fieldWalls: fieldWalls(tile, cities, paths), meepleSpots };
}

/** Where the edge passes from segment i to segment i+1 (a corner when i ends a side). */
function segmentBoundary(i: number): Pt {
  const s = Math.floor(i / 3);
  const a = sideStart(s);
  const b = sideEnd(s);
  const t = ((i % 3) + 1) / 3;
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

function nearestOn(p: Pt, line: readonly Pt[]): Pt {
  let best: Pt = line[0]!;
  let bestD = Infinity;
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i]!;
    const b = line[i + 1]!;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    const q: Pt = [a[0] + t * dx, a[1] + t * dy];
    const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (d < bestD) {
      bestD = d;
      best = q;
    }
  }
  return best;
}

function fieldWalls(tile: TileType, cities: readonly CityShape[], paths: readonly PathShape[]): Pt[][] {
  const featureOf = (i: number) => tile.features.find((f) => f.segments.includes(i));
  const walls: Pt[][] = [];
  for (let i = 0; i < 12; i++) {
    const a = featureOf(i);
    const b = featureOf((i + 1) % 12);
    if (a?.kind !== 'field' || b?.kind !== 'field' || a.id === b.id) continue;
    const from = segmentBoundary(i);
    // Run the wall to the nearest city wall, else the nearest road, else the centre.
    const targets = cities.length > 0 ? cities.flatMap((c) => c.walls) : paths.map((q) => q.points);
    let to: Pt = [50, 50];
    let bestD = Infinity;
    for (const line of targets) {
      const q = nearestOn(from, line);
      const d = Math.hypot(q[0] - from[0], q[1] - from[1]);
      if (d < bestD) {
        bestD = d;
        to = q;
      }
    }
    walls.push([from, to]);
  }
  return walls;
}

function pointAlong(line: readonly Pt[], dist: number): Pt {
  let left = dist;
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i]!;
    const b = line[i + 1]!;
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (l >= left) return [a[0] + ((b[0] - a[0]) * left) / l, a[1] + ((b[1] - a[1]) * left) / l];
    left -= l;
  }
  return line[line.length - 1]!;
}

function pathThrough(segments: readonly number[], wob: Wobble = still): Pt[] {
  const a = segmentPoint(segments[0]!, 0);
  const b = segmentPoint(segments[1]!, 0);
  const sa = Math.floor(segments[0]! / 3);
  const sb = Math.floor(segments[1]! / 3);
  if (wob === still && (sa + 2) % 4 === sb) return [a, [50, 50], b];
  return [a, ...quad(a, wob([50, 50], (sa + 2) % 4 === sb ? 7 : 9), b, 14)];
}
