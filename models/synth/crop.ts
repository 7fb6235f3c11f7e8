/**
 * One rectified cell crop as the app will see it after rectification, drawn from a seed: the cell's
 * tile (or none) with its neighbours bleeding in, gaps of 0–2 mm, rotation jitter up to ±3°, shifts up
 * to ±2 mm on 45 mm tiles, meeples standing on features, a hand covering part of the view, the
 * residue of perspective from a camera 40–90 cm up and up to 30° off vertical (tile sides, parallax,
 * a slightly skewed rectification), lens blur, noise, uneven light, shadows and white-balance shifts.
 * JPEG compression is applied to whole batches (see dataset.ts). Pure computation: no Node APIs.
 */
import type { TileType } from '../../engine/catalog/types.js';
import { TERRAIN_CODES, turnedSegments } from '../classes.js';
import type { TileLayout } from '../render/layout.js';
import { between, gauss, pick, rng, type Rng } from '../render/random.js';
import { sampleBilinear, type Rgba } from './image.js';

export const TILE_MM = 45;

/** A drawn or scanned tile face; `baseQ` = quarter turns clockwise of the image against the catalog. */
export interface TileFace {
  readonly image: Rgba;
  readonly tileIndex: number;
  readonly baseQ: number;
}

export interface SynthWorld {
  readonly tiles: readonly TileType[];
  readonly layouts: readonly TileLayout[];
  /** Sprites by kind (0 meeple, 1 big, 2 abbot) and colour (0..5). */
  readonly sprites: readonly (readonly Rgba[])[];
  centreFace(r: Rng): TileFace;
  neighbourFace(r: Rng): TileFace;
}

export interface CropOptions {
  readonly size: number;
  /** Crop window = the cell plus this fraction of the pitch on every side. */
  readonly margin: number;
  readonly emptyProb: number;
  readonly meepleProb: number;
  readonly handProb: number;
  /**
   * Training only (`COVER=1`): the chance that a figure on the cell tile stands on a city, cloister
   * or garden — where pennants, gardens and cloisters are drawn — rather than on any feature. Absent:
   * no random draw is made for it, so crops stay byte for byte what they were.
   */
  readonly markCover?: number;
  /** Scales every perturbation (0 = a clean, centred tile; 1 = the full ranges above). */
  readonly severity: number;
  /** Forces the cell tile's rotation in the crop (quarter turns against the catalog). */
  readonly centreQ?: number;
  /** Forces a tile into the cell (never empty). */
  readonly forcePresent?: boolean;
  /**
   * Draws this face in the cell instead of the seed's, turned to `q` quarter turns in the crop, with
   * everything else as the seed has it — neighbours, light, the figures and where they stand, the
   * hand, the noise; the labels stay the seed's. The same scene with another tile under the same
   * figure and hand: what a look-alike would have looked like (bench/ambiguity.ts).
   */
  readonly centreDrawnAs?: { readonly face: TileFace; readonly q: number };
  /**
   * The fewest pixels across the crop a far camera gives it (half the crops are drawn at `size`,
   * half between this and `size`, then scaled up). Absent: 30.
   */
  readonly lowResolutionFrom?: number;
  /** Every crop drawn between these many pixels across (inclusive), then scaled up (benches: a far camera). */
  readonly drawnAt?: readonly [number, number];
  /**
   * The box, mm, each figure's drawing is laid in: follower, big follower, abbot (`FIGURE_SIZES=real`:
   * pieces.ts `DRAWN_FIGURE_BOX_MM.real`, as large as real figures). Absent: `LEARNT_FIGURE_BOX_MM`.
   */
  readonly figureBoxMm?: readonly [number, number, number];
}

/**
 * The boxes both committed models learnt figures in: a follower about 10 mm from head to feet, a big
 * one 18, smaller than real ones (16 and 21 mm); kept so that their recipes reproduce them.
 */
export const LEARNT_FIGURE_BOX_MM: readonly [number, number, number] = [15, 19, 16];

export const DEFAULT_CROP: CropOptions = { size: 64, margin: 0.1, emptyProb: 0.08, meepleProb: 0.35, handProb: 0.08, severity: 1 };

export interface CropLabels {
  readonly present: boolean;
  readonly tileIndex: number; // -1 when empty
  readonly q: number; // quarter turns of the tile in the crop against the catalog
  readonly seg12: readonly number[]; // terrain code per crop-frame segment (0 field, 1 road, 2 city, 3 river); -1 when empty
  readonly meeple: boolean;
  readonly meepleColour: number; // -1 when none
  readonly meepleSegment: number; // crop-frame segment 0..11, 12 = interior; -1 when none
  readonly meepleKind: number; // 0 follower, 1 big follower, 2 abbot; -1 when none
  /** A hand reaches into the crop (for the benchmark's breakdown; not a training label). */
  readonly hand: boolean;
}

export interface Crop {
  readonly rgb: Uint8Array; // size*size*3
  readonly labels: CropLabels;
  /** Pixels across the crop the scene was drawn at before it was scaled up to `size`. */
  readonly drawnAt: number;
}

interface Placed {
  face: TileFace;
  q: number;
  cx: number;
  cy: number;
  cos: number;
  sin: number;
}

interface Sprite {
  img: Rgba;
  cx: number;
  cy: number;
  half: number;
  cos: number;
  sin: number;
}

const TABLES: readonly (readonly [number, number, number])[] = [
  [150, 105, 70], [120, 80, 50], [185, 150, 110], [90, 60, 40], [60, 90, 60], [40, 50, 70], [200, 200, 195], [110, 110, 115], [170, 40, 40], [230, 225, 210],
];
const SKIN: readonly (readonly [number, number, number])[] = [
  [233, 190, 160], [210, 160, 125], [170, 120, 90], [120, 80, 55], [245, 210, 185],
];

function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const l2 = dx * dx + dy * dy || 1;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / l2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** Point in a tile's face, as (u, v) in 0..1 image coordinates, or null when outside. */
function faceCoords(t: Placed, x: number, y: number): [number, number] | null {
  const dx = x - t.cx;
  const dy = y - t.cy;
  // Undo the small jitter rotation, then the quarter turns (counter-clockwise q times).
  let lx = (dx * t.cos + dy * t.sin) / TILE_MM;
  let ly = (-dx * t.sin + dy * t.cos) / TILE_MM;
  if (lx < -0.5 || lx >= 0.5 || ly < -0.5 || ly >= 0.5) return null;
  for (let k = 0; k < t.q; k++) {
    const tmp = lx;
    lx = ly;
    ly = -tmp;
  }
  return [lx + 0.5, ly + 0.5];
}

function insideFootprint(t: Placed, x: number, y: number): boolean {
  const dx = x - t.cx;
  const dy = y - t.cy;
  const lx = (dx * t.cos + dy * t.sin) / TILE_MM;
  const ly = (-dx * t.sin + dy * t.cos) / TILE_MM;
  return lx >= -0.5 && lx < 0.5 && ly >= -0.5 && ly < 0.5;
}

function chooseMeepleSegment(tile: TileType, r: Rng, marked = false): number {
  const interior = tile.features.some((f) => f.kind === 'cloister' || f.kind === 'garden' || f.kind === 'tower');
  const features = tile.features.filter((f) => f.segments.length > 0 || f.kind === 'cloister' || f.kind === 'garden');
  const onMarks = features.filter((f) => f.kind === 'city' || f.kind === 'cloister' || f.kind === 'garden');
  const f = pick(r, marked && onMarks.length > 0 ? onMarks : features);
  if (f.segments.length === 0) return interior ? 12 : pick(r, [0, 4, 7, 10]);
  return pick(r, f.segments);
}

export function synthCrop(world: SynthWorld, seed: number, options: CropOptions = DEFAULT_CROP): Crop {
  const r = rng(seed);
  const sev = options.severity;
  const S = options.size;
  const pitch = TILE_MM + between(r, 0, 2) * sev;
  const lo = -options.margin * pitch;
  const hi = (1 + options.margin) * pitch;

  const present = r() >= options.emptyProb || options.forcePresent === true;
  const placed: Placed[] = [];
  let centre: Placed | null = null;
  for (let j = -1; j <= 1; j++)
    for (let i = -1; i <= 1; i++) {
      const isCentre = i === 0 && j === 0;
      if (isCentre ? !present : r() < 0.3) continue;
      const face = isCentre ? world.centreFace(r) : world.neighbourFace(r);
      const th = (between(r, -3, 3) * sev * Math.PI) / 180;
      const t: Placed = {
        face,
        q: Math.floor(r() * 4),
        cx: (i + 0.5) * pitch + between(r, -2, 2) * sev,
        cy: (j + 0.5) * pitch + between(r, -2, 2) * sev,
        cos: Math.cos(th),
        sin: Math.sin(th),
      };
      if (isCentre) {
        if (options.centreQ !== undefined) t.q = (((options.centreQ - face.baseQ) % 4) + 4) % 4;
        centre = t;
      } else placed.push(t);
    }
  if (centre) placed.push(centre); // the cell's own tile lies on top

  // Camera: tilt and azimuth give the visible tile sides and the parallax of standing pieces.
  const tilt = (between(r, 0, 30) * sev * Math.PI) / 180;
  const az = r() * 2 * Math.PI;
  const side = 2 * Math.tan(tilt); // 2 mm thick cardboard
  const sideX = Math.cos(az) * side;
  const sideY = Math.sin(az) * side;
  const shadowLen = between(r, 0.3, 2.5) * sev;
  const shAz = r() * 2 * Math.PI;
  const shX = Math.cos(shAz) * shadowLen;
  const shY = Math.sin(shAz) * shadowLen;
  const sideTone = between(r, 0.35, 0.7);

  const sprites: Sprite[] = [];
  let meeple = false;
  let meepleColour = -1;
  let meepleSegment = -1;
  let meepleKind = -1;
  const addMeeple = (t: Placed, seg: number, kind: number, colour: number) => {
    const layout = world.layouts[t.face.tileIndex]!;
    // Catalog-frame spot turned by the image's own rotation and the placement's quarter turns.
    let sx = (layout.meepleSpots[seg]![0] - 50) / 100;
    let sy = (layout.meepleSpots[seg]![1] - 50) / 100;
    const turns = t.face.baseQ + t.q;
    for (let k = 0; k < turns; k++) {
      const tmp = sx;
      sx = -sy;
      sy = tmp;
    }
    const mx = sx * TILE_MM + between(r, -2, 2) * sev;
    const my = sy * TILE_MM + between(r, -2, 2) * sev;
    const lean = 5 * Math.tan(tilt);
    const a = r() * 2 * Math.PI;
    const size = (options.figureBoxMm ?? LEARNT_FIGURE_BOX_MM)[kind]! * between(r, 0.9, 1.1);
    sprites.push({
      img: world.sprites[kind]![colour]!,
      cx: t.cx + mx * t.cos - my * t.sin - Math.cos(az) * lean,
      cy: t.cy + mx * t.sin + my * t.cos - Math.sin(az) * lean,
      half: size / 2,
      cos: Math.cos(a),
      sin: Math.sin(a),
    });
  };
  if (centre && r() < options.meepleProb) {
    const tile = world.tiles[centre.face.tileIndex]!;
    const seg = chooseMeepleSegment(tile, r, options.markCover !== undefined && r() < options.markCover);
    const interiorKinds = tile.features.filter((f) => f.kind === 'cloister' || f.kind === 'garden');
    const kind = seg === 12 && interiorKinds.length > 0 && r() < 0.4 ? 2 : r() < 0.15 ? 1 : 0;
    meepleColour = Math.floor(r() * 6);
    const turns = centre.face.baseQ + centre.q;
    meepleSegment = seg === 12 ? 12 : (seg + 3 * turns) % 12;
    meeple = true;
    meepleKind = kind;
    addMeeple(centre, seg, kind, meepleColour);
  }
  for (const t of placed) {
    if (t === centre || r() > 0.25) continue;
    addMeeple(t, Math.floor(r() * 12), 0, Math.floor(r() * 6));
  }

  // A hand reaching in from outside the window.
  const hands: number[][] = [];
  if (r() < options.handProb * sev) {
    const ang = r() * 2 * Math.PI;
    const cxw = (lo + hi) / 2;
    const ox = cxw + Math.cos(ang) * pitch;
    const oy = cxw + Math.sin(ang) * pitch;
    const reach = between(r, 0.15, 0.45) * pitch;
    const tx = cxw + Math.cos(ang) * (pitch * 0.6 - reach);
    const ty = cxw + Math.sin(ang) * (pitch * 0.6 - reach);
    const rad = between(r, 7, 12);
    hands.push([ox, oy, tx, ty, rad]);
    const fingers = 1 + Math.floor(r() * 3);
    for (let k = 0; k < fingers; k++) {
      const fa = ang + Math.PI + between(r, -0.6, 0.6);
      const fl = between(r, 8, 16);
      hands.push([tx, ty, tx + Math.cos(fa) * fl, ty + Math.sin(fa) * fl, between(r, 2.5, 4)]);
    }
  }
  const skin = pick(r, SKIN);

  // Every random draw that depends on the cell's tile is made: another face may stand in from here.
  const swap = centre && options.centreDrawnAs;
  const drawn: readonly Placed[] = swap
    ? placed.map((t) => (t === centre ? { ...t, face: swap.face, q: (((swap.q - swap.face.baseQ) % 4) + 4) % 4 } : t))
    : placed;

  // The rectification residue: the four window corners each off by up to ~1.5 % of the window.
  const span = hi - lo;
  const jit = () => gauss(r) * 0.008 * span * sev;
  const c00 = [lo + jit(), lo + jit()];
  const c10 = [hi + jit(), lo + jit()];
  const c01 = [lo + jit(), hi + jit()];
  const c11 = [hi + jit(), hi + jit()];

  const table = pick(r, TABLES).map((c) => c * between(r, 0.85, 1.15));
  const grainAmp = between(r, 2, 14);
  const woodFreq = between(r, 0.2, 1.2);
  const woodPhase = r() * 10;

  // Far cameras see fewer pixels per tile: draw at a lower resolution and scale up.
  const R = options.drawnAt
    ? Math.round(between(r, options.drawnAt[0], options.drawnAt[1]))
    : sev > 0 && r() < 0.5 ? Math.round(between(r, options.lowResolutionFrom ?? 30, S)) : S;
  const low = new Float32Array(R * R * 3);
  const px = new Float32Array(4);
  for (let yi = 0; yi < R; yi++) {
    const fy = (yi + 0.5) / R;
    for (let xi = 0; xi < R; xi++) {
      const fx = (xi + 0.5) / R;
      const x = (1 - fx) * (1 - fy) * c00[0]! + fx * (1 - fy) * c10[0]! + (1 - fx) * fy * c01[0]! + fx * fy * c11[0]!;
      const y = (1 - fx) * (1 - fy) * c00[1]! + fx * (1 - fy) * c10[1]! + (1 - fx) * fy * c01[1]! + fx * fy * c11[1]!;
      const wood = Math.sin((y * woodFreq + Math.sin(x * 0.05) * 2 + woodPhase) * 0.9) * grainAmp;
      let cr = table[0]! + wood;
      let cg = table[1]! + wood * 0.8;
      let cb = table[2]! + wood * 0.6;
      let top = false;
      for (const t of drawn) if (insideFootprint(t, x, y)) top = true;
      if (!top) {
        let shadow = false;
        let sideHit = false;
        for (const t of drawn) {
          if (insideFootprint(t, x - shX, y - shY)) shadow = true;
          if (insideFootprint(t, x - sideX, y - sideY)) sideHit = true;
        }
        if (shadow) {
          cr *= 0.6;
          cg *= 0.6;
          cb *= 0.62;
        }
        if (sideHit) {
          cr = 150 * sideTone;
          cg = 140 * sideTone;
          cb = 120 * sideTone;
        }
      }
      for (const t of drawn) {
        const uv = faceCoords(t, x, y);
        if (!uv) continue;
        const img = t.face.image;
        sampleBilinear(img, uv[0] * img.width, uv[1] * img.height, px);
        const a = px[3]! / 255;
        cr = px[0]! * a + cr * (1 - a);
        cg = px[1]! * a + cg * (1 - a);
        cb = px[2]! * a + cb * (1 - a);
      }
      for (const s of sprites) {
        const dx = x - s.cx;
        const dy = y - s.cy;
        const lx = (dx * s.cos + dy * s.sin) / (2 * s.half) + 0.5;
        const ly = (-dx * s.sin + dy * s.cos) / (2 * s.half) + 0.5;
        if (lx < 0 || lx >= 1 || ly < 0 || ly >= 1) continue;
        sampleBilinear(s.img, lx * s.img.width, ly * s.img.height, px);
        const a = px[3]! / 255;
        cr = px[0]! * a + cr * (1 - a);
        cg = px[1]! * a + cg * (1 - a);
        cb = px[2]! * a + cb * (1 - a);
      }
      for (const h of hands) {
        const d = segDist(x, y, h[0]!, h[1]!, h[2]!, h[3]!);
        if (d < h[4]!) {
          const shade = 1 - 0.35 * (d / h[4]!) ** 2;
          cr = skin[0]! * shade;
          cg = skin[1]! * shade;
          cb = skin[2]! * shade;
        }
      }
      const o = (yi * R + xi) * 3;
      low[o] = cr;
      low[o + 1] = cg;
      low[o + 2] = cb;
    }
  }

  let img = R === S ? low : resize(low, R, S);
  const sigma = sev * (r() < 0.6 ? between(r, 0, 1.1) : 0);
  if (sigma > 0.25) img = blur(img, S, sigma);

  // Uneven light, a soft shadow blob, white balance and sensor noise.
  const gAng = r() * 2 * Math.PI;
  const gAmp = between(r, 0, 0.25) * sev;
  const gain = between(r, 0.75, 1.2);
  const wb = [between(r, 0.85, 1.15), 1, between(r, 0.85, 1.15)].map((g) => 1 + (g - 1) * sev);
  const blob = r() < 0.3 * sev ? [r() * S, r() * S, between(r, 0.2, 0.6) * S, between(r, 0.55, 0.85)] : null;
  const noise = between(r, 0, 7) * sev;
  const rgb = new Uint8Array(S * S * 3);
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++) {
      let l = gain * (1 + gAmp * ((x / S - 0.5) * Math.cos(gAng) + (y / S - 0.5) * Math.sin(gAng)) * 2);
      if (blob) {
        const d = Math.hypot(x - blob[0]!, y - blob[1]!) / blob[2]!;
        if (d < 1) l *= blob[3]! + (1 - blob[3]!) * d * d;
      }
      const o = (y * S + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = img[o + c]! * l * wb[c]! + (noise > 0 ? gauss(r) * noise : 0);
        rgb[o + c] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }

  const labels: CropLabels = centre
    ? (() => {
        const c = centre as Placed;
        const q = (c.face.baseQ + c.q) % 4;
        const segs = turnedSegments(world.tiles[c.face.tileIndex]!, q).map((t) => TERRAIN_CODES.indexOf(t));
        return { present: true, tileIndex: c.face.tileIndex, q, seg12: segs, meeple, meepleColour, meepleSegment, meepleKind, hand: hands.length > 0 };
      })()
    : { present: false, tileIndex: -1, q: 0, seg12: new Array(12).fill(-1), meeple: false, meepleColour: -1, meepleSegment: -1, meepleKind: -1, hand: hands.length > 0 };
  return { rgb, labels, drawnAt: R };
}

function resize(src: Float32Array, R: number, S: number): Float32Array {
  const out = new Float32Array(S * S * 3);
  for (let y = 0; y < S; y++) {
    const fy = Math.min(R - 1, Math.max(0, ((y + 0.5) * R) / S - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(R - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < S; x++) {
      const fx = Math.min(R - 1, Math.max(0, ((x + 0.5) * R) / S - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(R - 1, x0 + 1);
      const tx = fx - x0;
      for (let c = 0; c < 3; c++) {
        const a = src[(y0 * R + x0) * 3 + c]! * (1 - tx) + src[(y0 * R + x1) * 3 + c]! * tx;
        const b = src[(y1 * R + x0) * 3 + c]! * (1 - tx) + src[(y1 * R + x1) * 3 + c]! * tx;
        out[(y * S + x) * 3 + c] = a * (1 - ty) + b * ty;
      }
    }
  }
  return out;
}

function blur(src: Float32Array, S: number, sigma: number): Float32Array {
  const rad = Math.ceil(sigma * 2.5);
  const k: number[] = [];
  let sum = 0;
  for (let i = -rad; i <= rad; i++) {
    const v = Math.exp(-(i * i) / (2 * sigma * sigma));
    k.push(v);
    sum += v;
  }
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++)
      for (let c = 0; c < 3; c++) {
        let v = 0;
        for (let i = -rad; i <= rad; i++) v += src[(y * S + Math.min(S - 1, Math.max(0, x + i))) * 3 + c]! * k[i + rad]!;
        tmp[(y * S + x) * 3 + c] = v;
      }
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++)
      for (let c = 0; c < 3; c++) {
        let v = 0;
        for (let i = -rad; i <= rad; i++) v += tmp[(Math.min(S - 1, Math.max(0, y + i)) * S + x) * 3 + c]! * k[i + rad]!;
        out[(y * S + x) * 3 + c] = v;
      }
  return out;
}
