/**
 * Teach scenes (issue 30): still frames of the table's overhead camera with loose tiles lying face
 * up anywhere in view, at any angle (0–360°), apart or touching side to side; sometimes a hand
 * reaching in or a figure standing on a tile or on the table. The table, the pinhole camera (here
 * 0–12° off vertical, as an overhead camera is mounted), the tiles' cardboard sides and shadows and
 * every camera imperfection (light, white balance, noise, lens blur, JPEG 4:2:0) come from the
 * photo synthesizer (models/photo/synthetic.ts), so a teach frame looks like the photos and the game
 * recordings. Bad inputs on request: a tile half out of view, two tiles overlapping, a tile face
 * down, a box lid. Pure pixel loops, deterministic from a seed; for the bench and tests only.
 */
import { invertHomography, type Homography, type Point, type Quad } from '../../calibration/geometry.js';
import { rng, type Rng } from '../../engine/sim/rng.js';
import { drawArm, drawTable, lightAndEncode, makeCamera, planeHomography, project, sampleFace, tableAt, TILE_MM, type TableKind } from '../photo/synthetic.js';
import type { Rgba } from '../synth/image.js';

const THICK_MM = 2;
const HALF = TILE_MM / 2;

export interface TeachTileSpec {
  /** The face drawn upright (a scan); null: the tile lies face down (its back is drawn). */
  readonly face: Rgba | null;
  /** Anything the caller wants back with the truth (the tile id, the scan's rotation…). */
  readonly label: string;
}

export interface TeachSceneOptions {
  readonly tiles: readonly TeachTileSpec[];
  readonly seed: number;
  readonly width?: number;
  readonly height?: number;
  /** Table millimetres across the frame's width (the camera's height over the table). */
  readonly viewMm?: number;
  /** Share of tiles laid touching an earlier one side to side. */
  readonly touching?: number;
  readonly handProb?: number;
  readonly figureProb?: number;
  /** A meeple sprite (RGBA) for the figures; none drawn without it. */
  readonly figure?: Rgba | null;
  /** Bad inputs: the last tile half out of the frame; the last tile lying over the one before; a box lid in view. */
  readonly halfOut?: boolean;
  readonly overlap?: boolean;
  readonly lid?: boolean;
  /** Tiles already on the table (a later frame of the same teach): kept where they are unless `moved`. */
  readonly keep?: readonly TeachPlacement[];
  readonly format?: 'jpeg' | 'png';
  readonly tiltDeg?: number;
  /** Frames of one teach: the camera and the table drawn from this seed, the same in each. */
  readonly tableSeed?: number;
  /** A plain table of this colour instead of one drawn from the seed (tests). */
  readonly tableColour?: readonly [number, number, number];
  /**
   * Draw each tile's bevel: the die-cut edge of a printed tile is pressed into a narrow slope,
   * darker on the sides facing away from the light and a little lighter on those facing it. For
   * faces without one (the first-edition scans: c1-jcz is cut inside it, c1-wiki's margins are
   * white); a scan that shows its bevel (the second edition's) needs none drawn.
   */
  readonly bevel?: boolean;
}

export interface TeachPlacement {
  readonly spec: TeachTileSpec;
  /** Centre on the table (mm) and angle (radians, clockwise on the table as the camera sees it). */
  readonly x: number;
  readonly y: number;
  readonly angle: number;
}

export interface TeachTruth {
  readonly label: string;
  readonly faceDown: boolean;
  /** The top face's corners in the frame: the face's top-left, top-right, bottom-right, bottom-left. */
  readonly corners: Quad;
  /** The tile's side in pixels (mean of the four), for tolerances in millimetres. */
  readonly sidePx: number;
  /** Share of the top face hidden by a hand, a figure, a lid or another tile. */
  readonly covered: number;
  /** What hides most of what is hidden: 'hand', 'figure', 'lid', 'tile' (another tile over it) or null. */
  readonly coveredBy: 'hand' | 'figure' | 'lid' | 'tile' | null;
  /** Share of the top face outside the frame. */
  readonly outside: number;
  /** Lies over part of another tile, or has one over it. */
  readonly overlapping: boolean;
  readonly placement: TeachPlacement;
}

export interface TeachScene {
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly tiles: readonly TeachTruth[];
  readonly table: TableKind;
  readonly hand: boolean;
  readonly figures: number;
  /** Where each figure stands (its centre, image pixels). */
  readonly figuresAt: readonly Point[];
  /** Table millimetres to image pixels at the tiles' top face. */
  readonly topToImage: Homography;
}

const cornersOf = (p: { x: number; y: number; angle: number }): Point[] => {
  const c = Math.cos(p.angle), s = Math.sin(p.angle);
  return [[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]].map(([u, v]) => ({ x: p.x + u! * c - v! * s, y: p.y + u! * s + v! * c }));
};

/** Two tiles' footprints overlap (separating axes of two squares), with `gap` mm to spare. */
function overlaps(a: { x: number; y: number; angle: number }, b: { x: number; y: number; angle: number }, gap = 0): boolean {
  if (Math.hypot(a.x - b.x, a.y - b.y) > TILE_MM * Math.SQRT2 + gap) return false;
  const ca = cornersOf(a), cb = cornersOf(b);
  for (const ang of [a.angle, a.angle + Math.PI / 2, b.angle, b.angle + Math.PI / 2]) {
    const nx = Math.cos(ang), ny = Math.sin(ang);
    const pa = ca.map((p) => p.x * nx + p.y * ny), pb = cb.map((p) => p.x * nx + p.y * ny);
    if (Math.max(...pa) + gap <= Math.min(...pb) || Math.max(...pb) + gap <= Math.min(...pa)) return false;
  }
  return true;
}

/** A tile's back: the second edition's plain back, a light cardboard with a faint mottle. */
function backAt(x: number, y: number, out: Float32Array): void {
  const n = Math.sin(x * 0.9 + Math.sin(y * 0.37) * 2) * 4 + Math.sin(y * 1.3) * 3;
  out[0] = 200 + n; out[1] = 190 + n; out[2] = 160 + n;
}

/** Renders one teach frame. */
export async function makeTeachScene(o: TeachSceneOptions): Promise<TeachScene> {
  const r = rng(o.seed * 2246822519 + 3266489917);
  const W = o.width ?? 1280, H = o.height ?? 960;
  const viewMm = o.viewMm ?? 520;
  const D = 400;
  const F = (W * D) / viewMm;
  // The camera and the table: from the scene's seed, or from `tableSeed` (frames of one teach share them).
  const rt = o.tableSeed === undefined ? r : rng(o.tableSeed * 2246822519 + 7);
  const tiltDeg = o.tiltDeg ?? rt() * 12;
  const cam = makeCamera(tiltDeg, rt() * Math.PI * 2, rt() * 360, F, W / 2, H / 2);
  const topH = planeHomography(cam, THICK_MM), baseH = planeHomography(cam, 0);
  const invTop = invertHomography(topH), invBase = invertHomography(baseH);
  const drawn = drawTable(rt);
  const table = o.tableColour ? { kind: 'plain' as const, base: [...o.tableColour] as [number, number, number], angle: 0, freq: 0, amp: 0, fine: 2 } : drawn;
  const format = o.format ?? (r() < 0.85 ? 'jpeg' : 'png');

  // Placement: tile centres where the whole tile is in the frame (5 px to spare), not overlapping.
  const inFrame = (p: { x: number; y: number; angle: number }, m = 5) =>
    cornersOf(p).every((c) => { const q = project(topH, c.x, c.y); return q.x >= m && q.y >= m && q.x <= W - m && q.y <= H - m; });
  const placed: TeachPlacement[] = [...(o.keep ?? [])];
  const fresh = o.tiles.length;
  for (let i = 0; i < fresh; i++) {
    const spec = o.tiles[i]!;
    const last = i === fresh - 1;
    let done: TeachPlacement | null = null;
    for (let attempt = 0; attempt < 400 && !done; attempt++) {
      let p: TeachPlacement;
      if (last && o.overlap && placed.length > 0) {
        // Lies over a third of the tile before it, at another angle.
        const under = placed[placed.length - 1]!;
        const a = r() * Math.PI * 2;
        p = { spec, x: under.x + Math.cos(a) * TILE_MM * 0.7, y: under.y + Math.sin(a) * TILE_MM * 0.7, angle: r() * Math.PI * 2 };
        if (!inFrame(p)) continue;
        done = p;
        break;
      }
      if (placed.length > 0 && r() < (o.touching ?? 0.3)) {
        // Laid against a side of an earlier tile, edges meeting (a gap of up to a millimetre), slid along it.
        const nb = placed[Math.floor(r() * placed.length)]!;
        const k = Math.floor(r() * 4);
        const along = (r() - 0.5) * TILE_MM * 0.6;
        const gap = 0.2 + r() * 0.8;
        const ang = nb.angle + (k * Math.PI) / 2;
        const nx = Math.cos(ang), ny = Math.sin(ang);
        p = { spec, x: nb.x + nx * (TILE_MM + gap) - ny * along, y: nb.y + ny * (TILE_MM + gap) + nx * along, angle: nb.angle + (r() - 0.5) * 0.02 };
      } else {
        const u = W * (0.05 + 0.9 * r()), v = H * (0.05 + 0.9 * r());
        const t = project(invTop, u, v);
        p = { spec, x: t.x, y: t.y, angle: r() * Math.PI * 2 };
      }
      if (last && o.halfOut) {
        // Half of it past the frame's left edge.
        const mid = project(invTop, 0, H * (0.3 + 0.4 * r()));
        p = { spec, x: mid.x, y: mid.y, angle: r() * Math.PI * 2 };
        if (placed.some((q) => overlaps(p, q, 3))) continue;
        done = p;
        break;
      }
      if (!inFrame(p)) continue;
      if (placed.some((q) => overlaps(p, q, 0.1))) continue;
      done = p;
    }
    if (done) placed.push(done);
  }

  const out = new Float32Array(W * H * 3);
  const px = new Float32Array(4);
  // Which tile's top face each pixel shows (-1: none), for the truth's coverage.
  const owner = new Int32Array(W * H).fill(-1);
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      const b = project(invBase, u + 0.5, v + 0.5);
      tableAt(table, b.x, b.y, px);
      const o3 = (v * W + u) * 3;
      out[o3] = px[0]!; out[o3 + 1] = px[1]!; out[o3 + 2] = px[2]!;
    }
  const bbox = (pts: Point[], pad: number) => ({
    x0: Math.max(0, Math.floor(Math.min(...pts.map((p) => p.x)) - pad)), x1: Math.min(W - 1, Math.ceil(Math.max(...pts.map((p) => p.x)) + pad)),
    y0: Math.max(0, Math.floor(Math.min(...pts.map((p) => p.y)) - pad)), y1: Math.min(H - 1, Math.ceil(Math.max(...pts.map((p) => p.y)) + pad)),
  });
  const pxPerMm = F / D;
  // The bevel and its light: one lamp for a teach (its own stream, so that frames without a bevel are unchanged).
  const rb = o.bevel ? rng((o.tableSeed ?? o.seed) * 2654435761 + 97) : null;
  const bevel = rb ? { light: rb() * Math.PI * 2, width: 0.4 + rb() * 1.2, dark: 0.25 + rb() * 0.4, lift: rb() * 0.15 } : null;
  const looks = placed.map(() => ({ sdx: (r() - 0.5) * 4, sdy: (r() - 0.5) * 4, soft: 0.8 + r() * 2.5, dark: 0.1 + r() * 0.4, rim: r() * 0.25, side: [190 + r() * 40, 180 + r() * 40, 165 + r() * 40] }));
  const local = (p: TeachPlacement, t: Point) => {
    const dx = t.x - p.x, dy = t.y - p.y, c = Math.cos(p.angle), s = Math.sin(p.angle);
    return { x: dx * c + dy * s, y: -dx * s + dy * c };
  };
  // Shadows first (on the table), then each tile's side and face in the order laid (a later tile lies over an earlier one).
  placed.forEach((p, i) => {
    const L = looks[i]!;
    const box = bbox(cornersOf(p).map((c) => project(baseH, c.x, c.y)), 6 * pxPerMm);
    for (let v = box.y0; v <= box.y1; v++)
      for (let u = box.x0; u <= box.x1; u++) {
        const b = local(p, project(invBase, u + 0.5, v + 0.5));
        const d = Math.max(Math.abs(b.x - L.sdx), Math.abs(b.y - L.sdy)) - HALF;
        if (d >= L.soft) continue;
        const shade = 1 - L.dark * Math.min(1, Math.max(0, (L.soft - d) / (2 * L.soft)));
        const o3 = (v * W + u) * 3;
        out[o3]! *= shade; out[o3 + 1]! *= shade; out[o3 + 2]! *= shade;
      }
  });
  // Face pixels each tile would show in the frame with nothing over it.
  const potential = placed.map(() => 0);
  placed.forEach((p, i) => {
    const L = looks[i]!;
    const box = bbox(cornersOf(p).map((c) => project(baseH, c.x, c.y)), 3 * pxPerMm);
    for (let v = box.y0; v <= box.y1; v++)
      for (let u = box.x0; u <= box.x1; u++) {
        const o3 = (v * W + u) * 3;
        const t = local(p, project(invTop, u + 0.5, v + 0.5));
        if (Math.abs(t.x) < HALF && Math.abs(t.y) < HALF) {
          if (p.spec.face) sampleFace(p.spec.face, (t.x + HALF) / TILE_MM, (t.y + HALF) / TILE_MM, px);
          else backAt(t.x, t.y, px);
          const edge = HALF - Math.max(Math.abs(t.x), Math.abs(t.y));
          let k = edge < 0.5 ? 1 - L.rim * (1 - edge / 0.5) : 1;
          if (bevel && edge < bevel.width) k *= bevelShade(bevel, t, p.angle, edge);
          out[o3] = px[0]! * k; out[o3 + 1] = px[1]! * k; out[o3 + 2] = px[2]! * k;
          owner[v * W + u] = i;
          potential[i]!++;
          continue;
        }
        const b = local(p, project(invBase, u + 0.5, v + 0.5));
        // A tile's cardboard side, where no face nearer the camera is already drawn.
        if (Math.abs(b.x) < HALF && Math.abs(b.y) < HALF && owner[v * W + u] === -1) {
          out[o3] = L.side[0]! * 0.7; out[o3 + 1] = L.side[1]! * 0.7; out[o3 + 2] = L.side[2]! * 0.7;
        }
      }
  });

  // Objects over the tiles: figures, a box lid, a hand (drawn last: it is nearest the camera).
  const hidden: Hidden[] = placed.map(() => ({ hand: 0, figure: 0, lid: 0 }));
  let figures = 0;
  const figuresAt: Point[] = [];
  if (o.figure && placed.length > 0 && r() < (o.figureProb ?? 0)) {
    const n = 1 + Math.floor(r() * 2);
    for (let k = 0; k < n; k++) {
      const on = placed[Math.floor(r() * placed.length)]!;
      const onTile = r() < 0.7;
      const at = onTile ? { x: on.x + (r() - 0.5) * 24, y: on.y + (r() - 0.5) * 24 } : project(invTop, W * (0.1 + 0.8 * r()), H * (0.1 + 0.8 * r()));
      drawSprite(out, owner, hidden, W, H, o.figure, project(topH, at.x, at.y), 14 * pxPerMm);
      figuresAt.push(project(topH, at.x, at.y));
      figures++;
    }
  }
  if (o.lid) {
    // A box lid: a large printed rectangle (sky blue and a castle's grey) lying in view.
    const c = project(invTop, W * (0.25 + 0.5 * r()), H * (0.25 + 0.5 * r()));
    const ang = r() * Math.PI;
    const lw = 140, lh = 90;
    for (let v = 0; v < H; v++)
      for (let u = 0; u < W; u++) {
        const t = project(invTop, u + 0.5, v + 0.5);
        const dx = t.x - c.x, dy = t.y - c.y;
        const x = dx * Math.cos(ang) + dy * Math.sin(ang), y = -dx * Math.sin(ang) + dy * Math.cos(ang);
        if (Math.abs(x) > lw / 2 || Math.abs(y) > lh / 2) continue;
        const o3 = (v * W + u) * 3;
        const sky = y < 0;
        const g = Math.sin(x * 0.3) * 10;
        out[o3] = sky ? 90 + g : 120 + g; out[o3 + 1] = sky ? 150 + g : 115 + g; out[o3 + 2] = sky ? 210 : 110 + g;
        if (owner[v * W + u]! >= 0) { hidden[owner[v * W + u]!]!.lid++; owner[v * W + u] = -5; }
      }
  }
  let hand = false;
  if (placed.length > 0 && r() < (o.handProb ?? 0)) {
    hand = true;
    const target = placed[Math.floor(r() * placed.length)]!;
    const c = project(topH, target.x, target.y);
    drawTeachArm(out, owner, hidden, W, H, r, c, TILE_MM * pxPerMm);
  }

  const visible = placed.map(() => 0);
  for (let k = 0; k < owner.length; k++) if (owner[k]! >= 0) visible[owner[k]!]!++;
  const tiles: TeachTruth[] = placed.map((p, i) => {
    const corners = cornersOf(p).map((c) => project(topH, c.x, c.y)) as Quad;
    const sidePx = corners.reduce((s, q, j) => s + Math.hypot(q.x - corners[(j + 1) % 4]!.x, q.y - corners[(j + 1) % 4]!.y), 0) / 4;
    const full = sidePx * sidePx;
    const overlapping = placed.some((q, j) => j !== i && overlaps(p, q, -0.5));
    return {
      label: p.spec.label,
      faceDown: p.spec.face === null,
      corners,
      sidePx,
      covered: Math.max(0, 1 - visible[i]! / Math.max(1, potential[i]!)),
      coveredBy: coverer(hidden[i]!, potential[i]! - visible[i]! - hidden[i]!.hand - hidden[i]!.figure - hidden[i]!.lid),
      outside: inFrame(p, 0) ? 0 : Math.max(0, Math.min(1, 1 - potential[i]! / full)),
      overlapping,
      placement: p,
    };
  });
  const encoded = await lightAndEncode(out, W, H, r, format);
  return { bytes: new Uint8Array(encoded), width: W, height: H, tiles, table: table.kind, hand, figures, figuresAt, topToImage: topH };
}

interface Hidden { hand: number; figure: number; lid: number }

/**
 * A bevel's light at a face point `edge` mm inside the nearest side: the slope faces out of that
 * side, so it is darker the more that side faces away from the light, lighter the more it faces
 * it; its inner boundary softened over 0.2 mm.
 */
function bevelShade(b: { light: number; width: number; dark: number; lift: number }, t: Point, angle: number, edge: number): number {
  // The nearest side's outward normal on the table: local ±x or ±y turned by the tile's angle.
  const local = Math.abs(t.x) >= Math.abs(t.y) ? (t.x >= 0 ? 0 : Math.PI) : t.y >= 0 ? Math.PI / 2 : -Math.PI / 2;
  const facing = Math.cos(local + angle - b.light);
  const full = facing < 0 ? 1 + b.dark * facing : 1 + b.lift * facing;
  const soft = Math.min(1, (b.width - edge) / 0.2);
  return 1 + (full - 1) * soft;
}

/** What hides most of a tile: more than 20 pixels of it, else nothing. */
function coverer(h: Hidden, byTiles: number): TeachTruth['coveredBy'] {
  const all: [TeachTruth['coveredBy'], number][] = [['hand', h.hand], ['figure', h.figure], ['lid', h.lid], ['tile', byTiles]];
  all.sort((a, b) => b[1] - a[1]);
  return all[0]![1] > 20 ? all[0]![0] : null;
}

/** An RGBA sprite centred at `at`, `sizePx` across, its opaque pixels hiding what is below. */
function drawSprite(out: Float32Array, owner: Int32Array, hidden: Hidden[], W: number, H: number, img: Rgba, at: Point, sizePx: number): void {
  const s = sizePx / Math.max(img.width, img.height);
  const w = img.width * s, h = img.height * s;
  const px = new Float32Array(4);
  for (let v = Math.max(0, Math.floor(at.y - h / 2)); v < Math.min(H, Math.ceil(at.y + h / 2)); v++)
    for (let u = Math.max(0, Math.floor(at.x - w / 2)); u < Math.min(W, Math.ceil(at.x + w / 2)); u++) {
      const fx = (u + 0.5 - (at.x - w / 2)) / w, fy = (v + 0.5 - (at.y - h / 2)) / h;
      const xi = Math.min(img.width - 1, Math.max(0, Math.floor(fx * img.width))), yi = Math.min(img.height - 1, Math.max(0, Math.floor(fy * img.height)));
      const o4 = (yi * img.width + xi) * 4;
      const a = img.data[o4 + 3]! / 255;
      if (a < 0.05) continue;
      px[0] = img.data[o4]!; px[1] = img.data[o4 + 1]!; px[2] = img.data[o4 + 2]!;
      const o3 = (v * W + u) * 3;
      for (let k = 0; k < 3; k++) out[o3 + k] = out[o3 + k]! * (1 - a) + px[k]! * a;
      if (a > 0.5 && owner[v * W + u]! >= 0) { hidden[owner[v * W + u]!]!.figure++; owner[v * W + u] = -4; }
    }
}

/** A hand and arm reaching in from the frame's edge towards a tile, its fingertips anywhere from short of the tile to over it. */
function drawTeachArm(out: Float32Array, owner: Int32Array, hidden: Hidden[], W: number, H: number, r: Rng, c: Point, tilePx: number): void {
  drawArm(out, W, H, r, c, tilePx, {
    reach: [0.2, 1.3],
    onSkin: (i) => {
      if (owner[i]! >= 0) {
        hidden[owner[i]!]!.hand++;
        owner[i] = -3;
      }
    },
  });
}
