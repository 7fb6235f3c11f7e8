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

/** Cells that look different now than in `cells` (their last looks), beyond a change of light over the whole table; most changed first. */
export function changedCells(cells: ReadonlyMap<number, CellCrop>, crop: (x: number, y: number) => CellCrop): ChangedCell[] {
  const rows: { key: number; ratio: number[]; d: number; now: CellCrop }[] = [];
  for (const [key, before] of cells) {
    const now = crop(keyX(key), keyY(key));
    const mean = (c: CellCrop, k: number) => { let s = 0; for (let i = k; i < c.length; i += 3) s += c[i]!; return s / (c.length / 3) + 1; };
    const ratio = [0, 1, 2].map((k) => mean(now, k) / mean(before, k));
    // The unshifted distance bounds the best shift's from above: the drift search is only needed
    // where the cell may pass the threshold below (a full board has a hundred holes).
    rows.push({ key, ratio, d: matchTemplate(now, before, 0).d, now });
  }
  if (rows.length === 0) return [];
  const med = [0, 1, 2].map((k) => rows.map((r) => r.ratio[k]!).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!);
  for (const r of rows) if (Math.max(...r.ratio.map((x, k) => Math.abs(x / med[k]! - 1))) + r.d * 10 > 0.2) r.d = matchTemplate(r.now, cells.get(r.key)!).d;
  if (process.env.TRACK_DEBUG) console.error(`cells: ${rows.map((r) => `${keyX(r.key)},${keyY(r.key)}:${(Math.max(...r.ratio.map((x, k) => Math.abs(x / med[k]! - 1))) + r.d * 10).toFixed(2)}`).sort((a, b) => Number(b.split(':')[1]) - Number(a.split(':')[1])).slice(0, 3).join(' ')}`);
  return rows
    .map((r) => ({ key: r.key, now: r.now, score: Math.max(...r.ratio.map((x, k) => Math.abs(x / med[k]! - 1))) + r.d * 10 }))
    .filter((r) => r.score > 0.2)
    .sort((a, b) => b.score - a.score);
}
