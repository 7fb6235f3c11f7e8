/**
 * Rasterises an overhead view of the table: tiles (pre-rasterised faces from the procedural
 * renderer) laid with drift, figures, tower floors, ArUco markers, a hand, under a camera homography,
 * with lighting, noise, blur and JPEG. Pure pixel loops (no SVG per frame) so a 640×480 frame costs
 * tens of milliseconds.
 */
import { rng } from '../../engine/sim/rng.js';
import sharp from 'sharp';
import { invertHomography, type Homography } from '../../calibration/geometry.js';
import type { Rgba } from '../synth/image.js';

export const PITCH_MM = 46;
export const TILE_MM = 45;

export interface SceneTile {
  readonly x: number;
  readonly y: number;
  /** Quarter turns clockwise. */
  readonly q: number;
  readonly face: Rgba;
  /** Drift of the laid tile: centre offset (mm) and small rotation (radians). */
  readonly dx: number;
  readonly dy: number;
  readonly angle: number;
}

export interface SceneSprite {
  readonly img: Rgba;
  /** Centre on the table, mm, and edge length, mm. */
  readonly x: number;
  readonly y: number;
  readonly sizeMm: number;
}

export interface SceneMarker {
  /** Marker cells (true = black), border included; square at (x, y) mm top-left, side sizeMm. */
  readonly cells: boolean[][];
  readonly x: number;
  readonly y: number;
  readonly sizeMm: number;
}

export interface SceneHand {
  /** Fingertip on the table (mm) and the image edge point the arm comes from (px). */
  readonly tipX: number;
  readonly tipY: number;
  readonly fromU: number;
  readonly fromV: number;
  readonly skin: readonly [number, number, number];
}

export interface Scene {
  readonly width: number;
  readonly height: number;
  /** Table millimetres → image pixels. */
  readonly tableToImage: Homography;
  readonly tiles: readonly SceneTile[];
  readonly sprites: readonly SceneSprite[];
  readonly markers: readonly SceneMarker[];
  readonly hand: SceneHand | null;
  /** Overall light gain per channel, and a left-to-right gradient (fraction). */
  readonly light: readonly [number, number, number];
  readonly gradient: number;
  readonly noise: number;
  readonly blur: number;
  readonly jpegQuality: number;
  readonly seed: number;
}

function tableColour(x: number, y: number, out: Float32Array): void {
  // Wood: warm brown with grain along x.
  const g = Math.sin(y * 0.35 + Math.sin(x * 0.013) * 3) * 0.5 + Math.sin(y * 1.7 + x * 0.02) * 0.2;
  out[0] = 150 + 18 * g;
  out[1] = 105 + 13 * g;
  out[2] = 70 + 9 * g;
}

function sample(img: Rgba, u: number, v: number, out: Float32Array): boolean {
  const w = img.width;
  const h = img.height;
  const fx = u * w - 0.5;
  const fy = v * h - 0.5;
  const x0 = Math.max(0, Math.min(w - 2, Math.floor(fx)));
  const y0 = Math.max(0, Math.min(h - 2, Math.floor(fy)));
  const tx = Math.max(0, Math.min(1, fx - x0));
  const ty = Math.max(0, Math.min(1, fy - y0));
  const d = img.data;
  const o00 = (y0 * w + x0) * 4, o10 = o00 + 4, o01 = o00 + w * 4, o11 = o01 + 4;
  const a = (1 - tx) * (1 - ty), b = tx * (1 - ty), c = (1 - tx) * ty, e = tx * ty;
  out[3] = d[o00 + 3]! * a + d[o10 + 3]! * b + d[o01 + 3]! * c + d[o11 + 3]! * e;
  if (out[3] < 8) return false;
  for (let k = 0; k < 3; k++) out[k] = d[o00 + k]! * a + d[o10 + k]! * b + d[o01 + k]! * c + d[o11 + k]! * e;
  return true;
}


/** Raw RGB pixels of the scene before blur and JPEG. */
export function renderRaw(scene: Scene): Uint8Array {
  const { width: W, height: H } = scene;
  const inv = invertHomography(scene.tableToImage);
  // Tiles by cell for lookup; later-laid tiles win where drift makes them overlap.
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const t of scene.tiles) {
    minX = Math.min(minX, t.x); maxX = Math.max(maxX, t.x); minY = Math.min(minY, t.y); maxY = Math.max(maxY, t.y);
  }
  const gw = scene.tiles.length ? maxX - minX + 3 : 1;
  const gh = scene.tiles.length ? maxY - minY + 3 : 1;
  // Tile index per cell (-1: none); arrays rather than maps, this runs for every pixel.
  const grid = new Int32Array(gw * gh).fill(-1);
  scene.tiles.forEach((t, i) => {
    grid[(t.y - minY + 1) * gw + (t.x - minX + 1)] = i;
  });
  const cos = Float64Array.from(scene.tiles, (t) => Math.cos(t.angle));
  const sin = Float64Array.from(scene.tiles, (t) => Math.sin(t.angle));
  const out = new Uint8Array(W * H * 3);
  const px = new Float32Array(4);
  const rnd = rng(scene.seed);
  const half = TILE_MM / 2;
  for (let v = 0; v < H; v++) {
    for (let u = 0; u < W; u++) {
      const uu = u + 0.5, vv = v + 0.5;
      const w = inv[6] * uu + inv[7] * vv + inv[8];
      const x = (inv[0] * uu + inv[1] * vv + inv[2]) / w;
      const y = (inv[3] * uu + inv[4] * vv + inv[5]) / w;
      let done = false;
      // Markers first: they lie outside the play area.
      for (const m of scene.markers) {
        const pad = m.sizeMm * 0.25;
        if (x >= m.x - pad && x < m.x + m.sizeMm + pad && y >= m.y - pad && y < m.y + m.sizeMm + pad) {
          const n = m.cells.length;
          const cx = Math.floor(((x - m.x) / m.sizeMm) * n);
          const cy = Math.floor(((y - m.y) / m.sizeMm) * n);
          const black = cx >= 0 && cy >= 0 && cx < n && cy < n && m.cells[cy]![cx]!;
          px[0] = px[1] = px[2] = black ? 25 : 235;
          done = true;
          break;
        }
      }
      if (!done && scene.tiles.length) {
        const gx = Math.round(x / PITCH_MM), gy = Math.round(y / PITCH_MM);
        let best = -1;
        let bu = 0, bv = 0;
        for (let j = -1; j <= 1; j++)
          for (let i = -1; i <= 1; i++) {
            const cx = gx + i - minX + 1, cy = gy + j - minY + 1;
            if (cx < 0 || cy < 0 || cx >= gw || cy >= gh) continue;
            const ti = grid[cy * gw + cx]!;
            if (ti < 0) continue;
            const t = scene.tiles[ti]!;
            const c = cos[ti]!, s = sin[ti]!;
            const dx = x - (t.x * PITCH_MM + t.dx), dy = y - (t.y * PITCH_MM + t.dy);
            const lx = dx * c + dy * s, ly = -dx * s + dy * c;
            if (lx < -half || lx >= half || ly < -half || ly >= half) continue;
            if (best > ti) continue;
            best = ti;
            // Undo the quarter turns: board-frame (lx, ly) to catalog-frame face coordinates.
            let fu = lx / TILE_MM, fv = ly / TILE_MM;
            for (let k = 0; k < t.q; k++) { const w = fu; fu = fv; fv = -w; }
            bu = fu + 0.5;
            bv = fv + 0.5;
          }
        if (best >= 0) {
          sample(scene.tiles[best]!.face, bu, bv, px);
          done = true;
        }
      }
      if (!done) tableColour(x, y, px);
      const o = (v * W + u) * 3;
      out[o] = px[0]!; out[o + 1] = px[1]!; out[o + 2] = px[2]!;
    }
  }
  // Figures: forward-map each sprite's box, sample back.
  for (const s of scene.sprites) drawSprite(out, W, H, scene.tableToImage, inv, s);
  if (scene.hand) drawHand(out, W, H, scene.tableToImage, scene.hand);
  // Light, gradient and sensor noise.
  const [lr, lg, lb] = scene.light;
  // Defined once: a closure made per pixel costs more than the pixel (tsx names every function).
  const n = () => (rnd() + rnd() + rnd() - 1.5) * 2 * scene.noise;
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      const gain = 1 + scene.gradient * (u / W - 0.5);
      const o = (v * W + u) * 3;
      out[o] = clamp(out[o]! * lr * gain + n());
      out[o + 1] = clamp(out[o + 1]! * lg * gain + n());
      out[o + 2] = clamp(out[o + 2]! * lb * gain + n());
    }
  return out;
}

const clamp = (x: number) => (x < 0 ? 0 : x > 255 ? 255 : x);

function project(h: Homography, x: number, y: number): [number, number] {
  const w = h[6] * x + h[7] * y + h[8];
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}

function drawSprite(out: Uint8Array, W: number, H: number, h: Homography, inv: Homography, s: SceneSprite): void {
  const r = s.sizeMm / 2;
  const corners = [project(h, s.x - r, s.y - r), project(h, s.x + r, s.y - r), project(h, s.x + r, s.y + r), project(h, s.x - r, s.y + r)];
  const u0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0]))));
  const u1 = Math.min(W - 1, Math.ceil(Math.max(...corners.map((c) => c[0]))));
  const v0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1]))));
  const v1 = Math.min(H - 1, Math.ceil(Math.max(...corners.map((c) => c[1]))));
  const px = new Float32Array(4);
  for (let v = v0; v <= v1; v++)
    for (let u = u0; u <= u1; u++) {
      const [x, y] = project(inv, u + 0.5, v + 0.5);
      const su = (x - (s.x - r)) / s.sizeMm, sv = (y - (s.y - r)) / s.sizeMm;
      if (su < 0 || sv < 0 || su >= 1 || sv >= 1) continue;
      if (!sample(s.img, su, sv, px)) continue;
      const a = px[3]! / 255;
      const o = (v * W + u) * 3;
      for (let k = 0; k < 3; k++) out[o + k] = out[o + k]! * (1 - a) + px[k]! * a;
    }
}

function drawHand(out: Uint8Array, W: number, H: number, h: Homography, hand: SceneHand): void {
  const [tu, tv] = project(h, hand.tipX, hand.tipY);
  const palm = Math.min(W, H) * 0.09;
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      // Distance to the arm segment, widening away from the fingertips.
      const ax = hand.fromU, ay = hand.fromV;
      const dx = tu - ax, dy = tv - ay;
      const l2 = dx * dx + dy * dy || 1;
      const t = Math.max(0, Math.min(1, ((u - ax) * dx + (v - ay) * dy) / l2));
      const d = Math.hypot(u - ax - t * dx, v - ay - t * dy);
      const width = palm * (0.45 + 0.9 * (1 - t));
      const o = (v * W + u) * 3;
      if (d < width) {
        const shade = 0.8 + 0.2 * (1 - d / width);
        for (let k = 0; k < 3; k++) out[o + k] = hand.skin[k]! * shade;
      } else if (d < width * 1.5) {
        for (let k = 0; k < 3; k++) out[o + k] = out[o + k]! * 0.7; // its shadow
      }
    }
}

export async function encodeScene(scene: Scene): Promise<Uint8Array> {
  const raw = renderRaw(scene);
  let img = sharp(Buffer.from(raw.buffer, raw.byteOffset, raw.length), { raw: { width: scene.width, height: scene.height, channels: 3 } });
  if (scene.blur > 0.3) img = img.blur(scene.blur);
  const jpg = await img.jpeg({ quality: scene.jpegQuality, chromaSubsampling: '4:2:0', mozjpeg: true }).toBuffer();
  return new Uint8Array(jpg);
}
