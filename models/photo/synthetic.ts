/**
 * Photo-like images of one tile lying on a table, for the photo reader's benchmark and tests: a
 * tile's scan laid on a synthetic table (wood, cloth or plain, any colour), seen by a pinhole camera
 * from straight above to 30° off vertical at any in-plane angle, the tile's cardboard sides and its
 * shadow, lens blur, uneven light, a shadow across the frame, white balance, sensor noise, JPEG or
 * PNG, and sometimes a hand coming in from the frame's edge. Pure pixel loops, deterministic from a
 * seed. It draws test images only: nothing is tuned on what the reader makes of them.
 */
import sharp from 'sharp';
import { invertHomography, type Homography, type Point, type Quad } from '../../calibration/geometry.js';
import { rng, type Rng } from '../../engine/sim/rng.js';
import type { Rgba } from '../synth/image.js';

export const TILE_MM = 45;
/** Cardboard thickness (mm). */
const THICK_MM = 2;

export type TableKind = 'wood' | 'cloth' | 'plain';

export interface PhotoOptions {
  /** The tile's face (a scan), drawn upright; null: a photo of the table with no tile. */
  readonly face: Rgba | null;
  readonly seed: number;
  /** Frame size; drawn from a few phone-like sizes when absent. */
  readonly width?: number;
  readonly height?: number;
  /** The tile's extent in the frame (its outline's bounding box over the frame's shorter side), 0.1–0.95. */
  readonly size?: number;
  /** Camera off vertical, degrees (0–30). */
  readonly tiltDeg?: number;
  /** In-plane angle of the tile in the frame, degrees. */
  readonly rollDeg?: number;
  /** Probability of a hand coming in from the frame's edge. */
  readonly handProb?: number;
  readonly format?: 'jpeg' | 'png';
}

export interface Photo {
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly format: 'jpeg' | 'png';
  /** The tile's top face in the image: the face's top-left, top-right, bottom-right, bottom-left corners. */
  readonly corners: Quad | null;
  readonly table: TableKind;
  readonly tiltDeg: number;
  readonly rollDeg: number;
  readonly size: number;
  readonly hand: boolean;
}

const SIZES: readonly (readonly [number, number])[] = [[1024, 768], [768, 1024], [1280, 960], [960, 720], [900, 900], [1200, 900]];

export interface Table {
  kind: TableKind;
  base: [number, number, number];
  /** Grain direction (radians), frequency, amplitude (fraction), fine noise amplitude (levels). */
  angle: number;
  freq: number;
  amp: number;
  fine: number;
}

export function drawTable(r: Rng): Table {
  const kind: TableKind = (['wood', 'cloth', 'plain'] as const)[Math.floor(r() * 3)]!;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const jitter = (c: readonly number[]): [number, number, number] => c.map((v) => Math.max(0, Math.min(255, v * (0.85 + 0.3 * r())))) as [number, number, number];
  if (kind === 'wood') {
    return { kind, base: jitter(pick([[190, 150, 100], [110, 70, 45], [160, 155, 145], [205, 175, 130], [70, 45, 30]])), angle: r() * Math.PI, freq: 0.2 + r() * 0.5, amp: 0.06 + r() * 0.1, fine: 3 };
  }
  if (kind === 'cloth') {
    return { kind, base: jitter(pick([[40, 110, 60], [40, 60, 120], [140, 40, 40], [90, 90, 95], [150, 120, 70]])), angle: r() * Math.PI, freq: 1.5 + r(), amp: 0.03, fine: 8 };
  }
  return { kind, base: jitter(pick([[235, 235, 230], [30, 30, 32], [128, 128, 128], [215, 200, 170], [200, 210, 220]])), angle: 0, freq: 0, amp: 0, fine: 2 };
}

/** Hash noise in [-1, 1) for a table-millimetre cell: the cloth's weave and the wood's pores. */
function cellNoise(x: number, y: number): number {
  let h = Math.imul(Math.floor(x * 3) | 0, 374761393) ^ Math.imul(Math.floor(y * 3) | 0, 668265263);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) & 0xffff) / 32768 - 1;
}

export function tableAt(t: Table, x: number, y: number, out: Float32Array): void {
  let g = 0;
  if (t.kind === 'wood') {
    const along = x * Math.cos(t.angle) + y * Math.sin(t.angle);
    const across = -x * Math.sin(t.angle) + y * Math.cos(t.angle);
    g = Math.sin(across * t.freq + Math.sin(along * 0.013) * 3) * 0.7 + Math.sin(across * t.freq * 4.3 + along * 0.02) * 0.3;
  } else if (t.kind === 'cloth') {
    g = Math.sin(x * t.freq) * Math.sin(y * t.freq);
  }
  const n = cellNoise(x, y) * t.fine;
  for (let k = 0; k < 3; k++) out[k] = t.base[k]! * (1 + t.amp * g) + n;
}

/** A pinhole camera over the table: table (x, y, z) mm, z up, to pixels. */
export interface Camera {
  /** Rows of the rotation (camera right, down, forward) and the camera's position. */
  R: number[][];
  C: [number, number, number];
  F: number;
  cx: number;
  cy: number;
}

export function planeHomography(cam: Camera, z: number): Homography {
  const { R, C, F, cx, cy } = cam;
  // p_cam = R (X, Y, z) - R C = X R[:,0] + Y R[:,1] + (z R[:,2] - R C)
  const t = [0, 1, 2].map((i) => z * R[i]![2]! - (R[i]![0]! * C[0] + R[i]![1]! * C[1] + R[i]![2]! * C[2]));
  const col = (j: number) => [R[0]![j]!, R[1]![j]!, R[2]![j]!];
  const c0 = col(0), c1 = col(1);
  const k = (v: number[]) => [F * v[0]! + cx * v[2]!, F * v[1]! + cy * v[2]!, v[2]!];
  const a = k(c0), b = k(c1), c = k(t);
  return [a[0]!, b[0]!, c[0]!, a[1]!, b[1]!, c[1]!, a[2]!, b[2]!, c[2]!];
}

export function project(h: Homography, x: number, y: number): Point {
  const w = h[6] * x + h[7] * y + h[8];
  return { x: (h[0] * x + h[1] * y + h[2]) / w, y: (h[3] * x + h[4] * y + h[5]) / w };
}

const normalize = (v: number[]) => {
  const l = Math.hypot(...v);
  return v.map((x) => x / l);
};
const cross = (a: number[], b: number[]) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];

export function makeCamera(tiltDeg: number, azimuth: number, rollDeg: number, F: number, cx: number, cy: number): Camera {
  const tilt = (tiltDeg * Math.PI) / 180;
  const D = 400;
  const C: [number, number, number] = [D * Math.sin(tilt) * Math.cos(azimuth), D * Math.sin(tilt) * Math.sin(azimuth), D * Math.cos(tilt)];
  const f = normalize([-C[0], -C[1], -C[2]]);
  // Image "up" is the table's -y turned by the roll; the camera's right and down follow.
  const roll = (rollDeg * Math.PI) / 180;
  const upHint = [Math.sin(roll), -Math.cos(roll), 0];
  let right = normalize(cross(f, upHint).map((x) => -x));
  if (!Number.isFinite(right[0]!)) right = [1, 0, 0];
  const down = cross(right, f);
  return { R: [right, down, f], C, F, cx, cy };
}

/** Renders one photo. */
export async function makePhoto(o: PhotoOptions): Promise<Photo> {
  const r = rng(o.seed * 2654435761 + 12345);
  const [W, H] = o.width && o.height ? [o.width, o.height] : SIZES[Math.floor(r() * SIZES.length)]!;
  const size = o.size ?? 0.1 + r() * 0.85;
  const tiltDeg = o.tiltDeg ?? r() * 30;
  const rollDeg = o.rollDeg ?? r() * 360;
  const azimuth = r() * Math.PI * 2;
  const table = drawTable(r);
  const format = o.format ?? (r() < 0.8 ? 'jpeg' : 'png');
  // Size the tile: measure its extent at a nominal focal length, then zoom; place it anywhere it fits.
  const F0 = 0.8 * Math.max(W, H);
  const h = TILE_MM / 2;
  const outline = (cam: Camera) => {
    const top = planeHomography(cam, THICK_MM), base = planeHomography(cam, 0);
    return [top, base].flatMap((m) => [project(m, -h, -h), project(m, h, -h), project(m, h, h), project(m, -h, h)]);
  };
  const probe = outline(makeCamera(tiltDeg, azimuth, rollDeg, F0, 0, 0));
  const extent = (ps: Point[]) => Math.max(Math.max(...ps.map((p) => p.x)) - Math.min(...ps.map((p) => p.x)), Math.max(...ps.map((p) => p.y)) - Math.min(...ps.map((p) => p.y)));
  const F = (F0 * size * Math.min(W, H)) / extent(probe);
  const pts = outline(makeCamera(tiltDeg, azimuth, rollDeg, F, 0, 0));
  const minX = Math.min(...pts.map((p) => p.x)), maxX = Math.max(...pts.map((p) => p.x));
  const minY = Math.min(...pts.map((p) => p.y)), maxY = Math.max(...pts.map((p) => p.y));
  const cx = -minX + (W - (maxX - minX)) * (0.02 + 0.96 * r());
  const cy = -minY + (H - (maxY - minY)) * (0.02 + 0.96 * r());
  const cam = makeCamera(tiltDeg, azimuth, rollDeg, F, cx, cy);
  const topH = planeHomography(cam, THICK_MM), baseH = planeHomography(cam, 0);
  const invTop = invertHomography(topH), invBase = invertHomography(baseH);
  const corners: Quad | null = o.face ? [project(topH, -h, -h), project(topH, h, -h), project(topH, h, h), project(topH, -h, h)] : null;

  const shadowDx = (r() - 0.5) * 4, shadowDy = (r() - 0.5) * 4, shadowSoft = 0.8 + r() * 2.5, shadowDark = 0.1 + r() * 0.4;
  const rim = r() * 0.25;
  const side: [number, number, number] = [190 + r() * 40, 180 + r() * 40, 165 + r() * 40];
  const out = new Float32Array(W * H * 3);
  const px = new Float32Array(4);
  const face = o.face;
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      const uu = u + 0.5, vv = v + 0.5;
      const o3 = (v * W + u) * 3;
      if (face) {
        const t = project(invTop, uu, vv);
        if (Math.abs(t.x) < h && Math.abs(t.y) < h) {
          sampleFace(face, (t.x + h) / TILE_MM, (t.y + h) / TILE_MM, px);
          // The die cut rounds the face's edge a little darker.
          const edge = h - Math.max(Math.abs(t.x), Math.abs(t.y));
          const k = edge < 0.5 ? 1 - rim * (1 - edge / 0.5) : 1;
          out[o3] = px[0]! * k; out[o3 + 1] = px[1]! * k; out[o3 + 2] = px[2]! * k;
          continue;
        }
      }
      const b = project(invBase, uu, vv);
      if (face && Math.abs(b.x) < h && Math.abs(b.y) < h) {
        // Between the top face's outline and the base's: the cardboard side the camera sees.
        out[o3] = side[0] * 0.7; out[o3 + 1] = side[1] * 0.7; out[o3 + 2] = side[2] * 0.7;
        continue;
      }
      tableAt(table, b.x, b.y, px);
      let shade = 1;
      if (face) {
        const d = Math.max(Math.abs(b.x - shadowDx), Math.abs(b.y - shadowDy)) - h;
        if (d < shadowSoft) shade = 1 - shadowDark * Math.min(1, Math.max(0, (shadowSoft - d) / (2 * shadowSoft)));
      }
      out[o3] = px[0]! * shade; out[o3 + 1] = px[1]! * shade; out[o3 + 2] = px[2]! * shade;
    }

  let hand = false;
  if (r() < (o.handProb ?? 0.2)) {
    hand = true;
    drawHand(out, W, H, r, corners, F * TILE_MM / 400);
  }

  const encoded = await lightAndEncode(out, W, H, r, format);
  return { bytes: new Uint8Array(encoded), width: W, height: H, format, corners, table: table.kind, tiltDeg, rollDeg, size, hand };
}

/**
 * The camera's side of a photo, shared with the teach scenes (models/teach/scene.ts): light (a
 * gradient in any direction, a vignette, a soft shadow across the frame, white balance, exposure),
 * sensor noise, lens blur, then JPEG (4:2:0) or PNG. `out` is the scene's linear RGB.
 */
export async function lightAndEncode(out: Float32Array, W: number, H: number, r: Rng, format: 'jpeg' | 'png'): Promise<Buffer> {
  // Light: a gradient in any direction, a vignette, a soft shadow across the frame, white balance, noise.
  const gAng = r() * Math.PI * 2, gAmp = r() * 0.5;
  const gx = Math.cos(gAng) * gAmp, gy = Math.sin(gAng) * gAmp;
  const vig = r() * 0.3;
  const blob = r() < 0.5 ? { x: r() * W, y: r() * H, rx: (0.15 + r() * 0.4) * W, ry: (0.15 + r() * 0.4) * H, dark: 0.15 + r() * 0.3 } : null;
  const wb = [1 + (r() - 0.5) * 0.3, 1, 1 + (r() - 0.5) * 0.3];
  const exposure = 0.8 + r() * 0.35;
  const noise = 1 + r() * 5;
  const bytes = new Uint8Array(W * H * 3);
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      const nx = u / W - 0.5, ny = v / H - 0.5;
      let gain = exposure * (1 + gx * nx + gy * ny) * (1 - vig * (nx * nx + ny * ny) * 2);
      if (blob) {
        const d = ((u - blob.x) / blob.rx) ** 2 + ((v - blob.y) / blob.ry) ** 2;
        if (d < 1) gain *= 1 - blob.dark * Math.min(1, (1 - d) * 3);
      }
      const o3 = (v * W + u) * 3;
      for (let k = 0; k < 3; k++) {
        const n = (r() + r() + r() - 1.5) * 2 * noise;
        const x = out[o3 + k]! * gain * wb[k]! + n;
        bytes[o3 + k] = x < 0 ? 0 : x > 255 ? 255 : x;
      }
    }
  let img = sharp(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), { raw: { width: W, height: H, channels: 3 } });
  const blur = (0.3 + r() * 1.2) * (Math.max(W, H) / 1000);
  if (blur > 0.3) img = img.blur(blur);
  const quality = 55 + Math.floor(r() * 41);
  return format === 'jpeg' ? await img.jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer() : await img.png({ compressionLevel: 6 }).toBuffer();
}

/** Bilinear sample of the face at (u, v) in [0, 1); the face's alpha is ignored (scans are opaque). */
export function sampleFace(img: Rgba, u: number, v: number, out: Float32Array): void {
  const w = img.width, hh = img.height;
  const fx = Math.max(0, Math.min(w - 1.001, u * w - 0.5)), fy = Math.max(0, Math.min(hh - 1.001, v * hh - 0.5));
  const x0 = Math.floor(fx), y0 = Math.floor(fy), tx = fx - x0, ty = fy - y0;
  const d = img.data;
  const o00 = (y0 * w + x0) * 4, o10 = o00 + 4, o01 = o00 + w * 4, o11 = o01 + 4;
  const a = (1 - tx) * (1 - ty), b = tx * (1 - ty), c = (1 - tx) * ty, e = tx * ty;
  for (let k = 0; k < 3; k++) out[k] = d[o00 + k]! * a + d[o10 + k]! * b + d[o01 + k]! * c + d[o11 + k]! * e;
}

/**
 * A hand and arm reaching in from the frame's edge towards the tile, its fingertips 0.95–1.45 of the
 * tile's side from the tile's centre — short of its middle, at times over a corner (a photo taken
 * with the other hand steadying the table or the tile) — with its own shadow.
 */
function drawHand(out: Float32Array, W: number, H: number, r: Rng, corners: Quad | null, tilePx: number): void {
  const c = corners ? { x: corners.reduce((s, p) => s + p.x, 0) / 4, y: corners.reduce((s, p) => s + p.y, 0) / 4 } : { x: W / 2, y: H / 2 };
  drawArm(out, W, H, r, c, tilePx, { reach: [0.95, 0.5] });
}

export interface ArmOptions {
  /** How far the fingertips come towards `c`, in tile sides: from reach[0] to reach[0] + reach[1]. */
  readonly reach: readonly [number, number];
  /** Told of every pixel the arm's skin covers (index v·W + u), e.g. to count what it hides. */
  readonly onSkin?: (pixel: number) => void;
}

/**
 * An arm from the frame's edge towards `c` (a random direction), shaded skin over an RGB float frame,
 * with a shadow beside it. Random draws in a fixed order (angle, reach, palm, skin), so that a
 * generator's frames stay the same for the same seed.
 */
export function drawArm(out: Float32Array, W: number, H: number, r: Rng, c: Point, tilePx: number, o: ArmOptions): void {
  const ang = r() * Math.PI * 2;
  const dir = { x: Math.cos(ang), y: Math.sin(ang) };
  // From `c` out to the frame's edge in that direction.
  const tMax = Math.min(dir.x > 0 ? (W - c.x) / dir.x : dir.x < 0 ? -c.x / dir.x : Infinity, dir.y > 0 ? (H - c.y) / dir.y : dir.y < 0 ? -c.y / dir.y : Infinity);
  const from = { x: c.x + dir.x * tMax, y: c.y + dir.y * tMax };
  const tipDist = Math.min(tMax * 0.9, tilePx * (o.reach[0] + r() * o.reach[1]));
  const tip = { x: c.x + dir.x * tipDist, y: c.y + dir.y * tipDist };
  const palm = Math.max(12, tilePx * (0.35 + r() * 0.2));
  const skin = [[225, 180, 150], [190, 140, 105], [120, 80, 55], [240, 205, 185]][Math.floor(r() * 4)]!;
  const dx = tip.x - from.x, dy = tip.y - from.y;
  const l2 = dx * dx + dy * dy || 1;
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      const t = Math.max(0, Math.min(1, ((u - from.x) * dx + (v - from.y) * dy) / l2));
      const d = Math.hypot(u - from.x - t * dx, v - from.y - t * dy);
      const width = palm * (0.45 + 0.9 * (1 - t));
      const o3 = (v * W + u) * 3;
      if (d < width) {
        const shade = 0.75 + 0.25 * (1 - d / width);
        for (let k = 0; k < 3; k++) out[o3 + k] = skin[k]! * shade;
        o.onSkin?.(v * W + u);
      } else if (d < width * 1.4) {
        for (let k = 0; k < 3; k++) out[o3 + k] = out[o3 + k]! * 0.75;
      }
    }
}

/** The best cyclic match of found corners to true ones: the worst corner's error over the side, and the shift (found[i] ≈ truth[(i + k) % 4]). */
export function matchCorners(found: Quad, truth: Quad): { error: number; shift: number } {
  const side = truth.reduce((s, p, i) => s + Math.hypot(p.x - truth[(i + 1) % 4]!.x, p.y - truth[(i + 1) % 4]!.y), 0) / 4;
  let best = { error: Infinity, shift: 0 };
  for (let k = 0; k < 4; k++) {
    const e = Math.max(...found.map((p, i) => Math.hypot(p.x - truth[(i + k) % 4]!.x, p.y - truth[(i + k) % 4]!.y))) / side;
    if (e < best.error) best = { error: e, shift: k };
  }
  return best;
}
