/**
 * Cutting a board cell out of a camera picture under the table plane: the templates' crop, the
 * model's crop, where the laid neighbours say a cell really lies, and which cells changed between
 * two looks. Table millimetres: cell (x, y) is centred on (x · PITCH_MM, y · PITCH_MM).
 */
import type { Cv } from '../../calibration/cv.js';
import type { Frame } from '../../calibration/frame.js';
import { applyHomography, type Homography, type Quad } from '../../calibration/geometry.js';
import { rectifyCell } from '../../calibration/rectify.js';
import type { Board } from '../../engine/features/board.js';
import { keyX, keyY } from '../../engine/geometry/position.js';
import { ROTATIONS } from '../../engine/geometry/segments.js';
import { PITCH_MM } from '../scene/render.js';
import { agreedOffset, ANCHOR_PX, tileOffset } from './anchor.js';
import { CROP_PX, matchTemplate, type CellCrop, type TileTemplates } from './templates.js';

/** Smallest cell (pixels per pitch) the issue-4 model is asked about (its training range starts at 30). */
export const MODEL_MIN_CELL_PX = 30;

/** The cell's crop (`px` square over `PITCH_MM · px / CROP_PX`), its centre moved by (ox, oy) table mm. */
export function cellCrop(cv: Cv, mat: unknown, H: Homography, x: number, y: number, px = CROP_PX, ox = 0, oy = 0): CellCrop {
  const h = (PITCH_MM / 2) * (px / CROP_PX);
  const c = (dx: number, dy: number) => applyHomography(H, { x: x * PITCH_MM + ox + dx, y: y * PITCH_MM + oy + dy });
  const quad: Quad = [c(-h, -h), c(h, -h), c(h, h), c(-h, h)];
  const f = rectifyCell(cv, mat, quad, px);
  return Float32Array.from(f.data);
}

/** The issue-4 model's crop convention: the cell plus 10 % of the pitch on every side, `size` px. */
export function modelCrop(cv: Cv, mat: unknown, H: Homography, x: number, y: number, size: number, ox = 0, oy = 0): Frame {
  const h = PITCH_MM * 0.6;
  const c = (dx: number, dy: number) => applyHomography(H, { x: x * PITCH_MM + ox + dx, y: y * PITCH_MM + oy + dy });
  return rectifyCell(cv, mat, [c(-h, -h), c(h, -h), c(h, h), c(-h, h)], size);
}

/** Whether cell (x, y) is large enough in the picture for the model (its training range starts at 30 px). */
export function modelReadsCell(H: Homography, x: number, y: number): boolean {
  const a = applyHomography(H, { x: x * PITCH_MM, y: y * PITCH_MM }), b = applyHomography(H, { x: (x + 1) * PITCH_MM, y: y * PITCH_MM });
  return Math.hypot(a.x - b.x, a.y - b.y) >= MODEL_MIN_CELL_PX;
}

/**
 * Where the hole's laid neighbours say the lattice is (anchor.ts), table mm from where the plane puts
 * the cell: each laid tile of the 3×3 block around it is found in a wider cut of its cell, and the
 * median of their offsets is taken when they agree (`agreedOffset`). Null when no neighbour is laid,
 * they disagree, or they sit where the plane says. Only neighbours whose template `anchors` (the
 * tracker: a picture of the table's own tile, or a drawing the table's art fits) count: a drawing
 * matched against a print it does not describe finds its best fit anywhere in the wider cut.
 */
export function anchorOffset(cv: Cv, mat: unknown, H: Homography, x: number, y: number, tiles: Board['tiles'], templates: TileTemplates, anchors: (tileId: string) => boolean): { ox: number; oy: number } | null {
  const offsets: { sx: number; sy: number }[] = [];
  for (const t of tiles) {
    if (Math.abs(t.x - x) > 1 || Math.abs(t.y - y) > 1 || (t.x === x && t.y === y)) continue;
    if (!anchors(t.view.tile.id)) continue;
    const tpl = templates.get(t.view.tile.id, ROTATIONS.indexOf(t.view.rot));
    if (!tpl) continue;
    offsets.push(tileOffset(cellCrop(cv, mat, H, t.x, t.y, ANCHOR_PX), tpl));
  }
  const m = agreedOffset(offsets);
  if (process.env.TRACK_DEBUG) console.error(`anchor (${x},${y}): ${offsets.map((o) => `${o.sx},${o.sy}`).join(' ')} → ${m ? `${m.sx},${m.sy}` : '-'}`);
  if (!m || (m.sx === 0 && m.sy === 0)) return null;
  const mm = PITCH_MM / CROP_PX;
  return { ox: m.sx * mm, oy: m.sy * mm };
}

/** A cell that looks different now: its key, how much, and its crop now. */
export interface ChangedCell {
  readonly key: number;
  readonly score: number;
  readonly now: CellCrop;
}

/** A cell changed when its colour's change (against the whole table's) plus ten times its texture distance passes this. */
const CHANGED = 0.2;
/**
 * For holes, crop pixels on each side left out of a cell's colour: a hole's crop takes in its laid
 * neighbours' edges where they lie askew past the cell's edge (a few mm) or the plane is a pixel off,
 * and a hole left for a later turn is compared with its look from before they were laid. On the
 * drawn held-out game 9101 (wood-grain table, 22 px per cell) such empty holes changed colour by
 * 0.10–0.17 against all holes' median with no tile laid, every difference in the crop's border.
 */
const HOLE_MARGIN = 4;

/**
 * Cells that look different now than in `cells` (their last looks), beyond a change of light over the
 * whole table; most changed first. `holes`: the cells are holes, where only a tile laid counts. Their
 * colour is taken without the border (`HOLE_MARGIN`), their texture softened, and the change must
 * span the cell, three of its four quarters passing `CHANGED`: a tile covers the whole cell, what
 * reaches in from a neighbour a side or a corner. On 9101 empty holes were asked 18 times as a tile
 * no one laid (8 with the margin alone, 5 with the softened texture, none with the quarters), every
 * move read as before. Laid tiles (laid-tiles.ts) are compared whole: a figure come or gone is a change
 * there, and a lifted tile is told by its texture alone when it is the only one compared (the colour
 * is measured against the cells' median).
 */
export function changedCells(cells: ReadonlyMap<number, CellCrop>, crop: (x: number, y: number) => CellCrop, holes = false): ChangedCell[] {
  const margin = holes ? HOLE_MARGIN : 0;
  const rows = [...cells].map(([key, before]) => {
    const now = crop(keyX(key), keyY(key));
    const look = lookOf(now, before, holes);
    // The unshifted distance of the looks as cut bounds the best shift's from above, and the softened
    // looks' as good as (a box blur only takes from a difference): the rest is only needed where the
    // cell may pass (a full board has a hundred holes).
    return { key, now, look, ratio: look.ratio(margin, margin, CROP_PX - margin, CROP_PX - margin), d: matchTemplate(now, before, 0).d };
  });
  if (rows.length === 0) return [];
  const med = [0, 1, 2].map((k) => rows.map((r) => r.ratio[k]!).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!);
  const colour = (ratio: readonly number[]) => Math.max(...ratio.map((x, k) => Math.abs(x / med[k]! - 1)));
  const scored = rows.map((r) => {
    const c = colour(r.ratio);
    let score = c + r.d * 10;
    if (score <= CHANGED) return { ...r, score };
    const m = matchTemplate(r.look.softNow(), r.look.softBefore());
    score = c + m.d * 10;
    if (holes && score > CHANGED) {
      const h = CROP_PX / 2, lo = HOLE_MARGIN, hi = CROP_PX - HOLE_MARGIN;
      const quarters = ([[lo, lo, h, h], [h, lo, hi, h], [lo, h, h, hi], [h, h, hi, hi]] as const).map(([u0, v0, u1, v1]) => colour(r.look.ratio(u0, v0, u1, v1)) + r.look.distance(u0, v0, u1, v1, m) * 10).sort((a, b) => a - b);
      score = quarters[1]!;
    }
    return { ...r, score };
  });
  if (process.env.TRACK_DEBUG) console.error(`cells: ${scored.map((r) => `${keyX(r.key)},${keyY(r.key)}:${r.score.toFixed(2)}`).sort((a, b) => Number(b.split(':')[1]) - Number(a.split(':')[1])).slice(0, 3).join(' ')}`);
  return scored
    .filter((r) => r.score > CHANGED)
    .sort((a, b) => b.score - a.score)
    .map((r) => ({ key: r.key, now: r.now, score: r.score }));
}

/** A cell now and at its last look, for the parts of `changedCells`. */
interface Look {
  /** The looks the texture is compared on (softened for holes), made when first asked for. */
  softNow(): CellCrop;
  softBefore(): CellCrop;
  /** Mean colour now over before, per channel, in the crop's region [u0, u1) × [v0, v1). */
  ratio(u0: number, v0: number, u1: number, v1: number): number[];
  /** Mean squared difference of the softened looks over the region, under a match's shift and gain (as `matchTemplate`'s d). */
  distance(u0: number, v0: number, u1: number, v1: number, m: { sx: number; sy: number; gain: readonly number[] }): number;
}

function lookOf(now: CellCrop, before: CellCrop, soft: boolean): Look {
  // A hole's texture is compared softened: a table's grain at 20–30 px per cell differs by more under
  // a sub-pixel move and the camera's JPEG than the drift search's whole pixels undo (on 9101 that
  // alone put empty holes at 0.15–0.23); a tile laid changes far more than its finest detail.
  let softNow: CellCrop | undefined, softBefore: CellCrop | undefined;
  const look: Look = {
    softNow: () => (softNow ??= soft ? softened(now) : now),
    softBefore: () => (softBefore ??= soft ? softened(before) : before),
    ratio(u0, v0, u1, v1) {
      const a = [0, 0, 0], b = [0, 0, 0];
      for (let v = v0; v < v1; v++)
        for (let u = u0; u < u1; u++)
          for (let k = 0; k < 3; k++) { a[k] += now[(v * CROP_PX + u) * 3 + k]!; b[k] += before[(v * CROP_PX + u) * 3 + k]!; }
      const n = (v1 - v0) * (u1 - u0);
      // +1: a black cell has a ratio.
      return [0, 1, 2].map((k) => (a[k]! / n + 1) / (b[k]! / n + 1));
    },
    distance(u0, v0, u1, v1, m) {
      const sn = look.softNow(), sb = look.softBefore();
      let d = 0;
      for (let v = v0; v < v1; v++)
        for (let u = u0; u < u1; u++) {
          const t = (v * CROP_PX + u) * 3;
          const c = (Math.min(CROP_PX - 1, Math.max(0, v + m.sy)) * CROP_PX + Math.min(CROP_PX - 1, Math.max(0, u + m.sx))) * 3;
          for (let k = 0; k < 3; k++) { const e = (sn[c + k]! * m.gain[k]! - sb[t + k]!) / 255; d += e * e; }
        }
      return d / ((v1 - v0) * (u1 - u0));
    },
  };
  return look;
}

/** The crop under a 3×3 box blur (the border averaged over the pixels it has). */
function softened(c: CellCrop): CellCrop {
  const out = new Float32Array(c.length);
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++) {
      const v0 = Math.max(0, v - 1), v1 = Math.min(CROP_PX - 1, v + 1), u0 = Math.max(0, u - 1), u1 = Math.min(CROP_PX - 1, u + 1);
      const n = (v1 - v0 + 1) * (u1 - u0 + 1);
      for (let k = 0; k < 3; k++) {
        let s = 0;
        for (let y = v0; y <= v1; y++) for (let x = u0; x <= u1; x++) s += c[(y * CROP_PX + x) * 3 + k]!;
        out[(v * CROP_PX + u) * 3 + k] = s / n;
      }
    }
  return out;
}
