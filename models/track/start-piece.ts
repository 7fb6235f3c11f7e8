/**
 * The start piece (the start tile, or the Jousts & Crests tournament tile) as the manual fallback
 * when no marker sheet lies on the table: its outline in the table's frame, the plane that puts it
 * on four image corners, and the piece found in a picture by itself (a rectangle of its size and
 * shape whose turn the piece's own drawing decides).
 */
import type { Cv } from '../../calibration/cv.js';
import { decodeFrame, frameToMat } from '../../calibration/frame.js';
import { homographyFromCorners, homographyFromStartPiece } from '../../calibration/fallbacks.js';
import { multiplyHomography, type Homography, type Point, type Quad } from '../../calibration/geometry.js';
import type { Cell } from '../../calibration/lattice.js';
import type { Board } from '../../engine/features/board.js';
import { ROTATIONS } from '../../engine/geometry/segments.js';
import { PITCH_MM, TILE_MM } from '../scene/render.js';
import { cellCrop } from './cell-crops.js';
import { matchTemplate, type TileTemplates } from './templates.js';

/**
 * The start piece's drawing must fit a found rectangle at least this well (`matchTemplate`'s mean
 * distance over its cells, best turn): the piece itself fitted 0.001 (the tournament tile of the
 * bundled recordings) to 0.01 (a start tile, tuning games 7113–7114), the marker sheet's squares that
 * the rectangle finder offered first 0.47–0.59.
 */
const START_PIECE_FIT = 0.1;

/** The start piece on the board: the cells it covers, the board's tiles (its own among them), their drawings. */
export interface PieceOnBoard {
  readonly cells: readonly Cell[];
  readonly tiles: Board['tiles'];
  readonly templates: TileTemplates;
}

/** The start piece's outline in the table's frame (the cells the setup laid, north-west corner first). */
export function startOutline(cells: readonly Cell[]): { quad: Quad; widthMm: number; heightMm: number } {
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const x0 = Math.min(...xs) * PITCH_MM - TILE_MM / 2, y0 = Math.min(...ys) * PITCH_MM - TILE_MM / 2;
  const x1 = Math.max(...xs) * PITCH_MM + TILE_MM / 2, y1 = Math.max(...ys) * PITCH_MM + TILE_MM / 2;
  return { quad: [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }], widthMm: x1 - x0, heightMm: y1 - y0 };
}

/** The table plane that puts the start piece's outline on these image corners (NW, NE, SE, SW). */
export function planeFromCorners(cells: readonly Cell[], corners: readonly Point[]): { ok: true; plane: Homography } | { ok: false; why: string } {
  const o = startOutline(cells);
  const r = homographyFromCorners([...corners], o);
  if (!r.ok) return { ok: false, why: r.error.message };
  return { ok: true, plane: multiplyHomography(r.value.tableToImage, [1, 0, -o.quad[0].x, 0, 1, -o.quad[0].y, 0, 0, 1]) };
}

/**
 * Without a marker sheet, before the first tile: the start piece looked for in a picture
 * (calibration/fallbacks.ts `homographyFromStartPiece`: a rectangle of the piece's size and shape),
 * its corners put in the game's order by the piece's own drawing — each turn of the outline the
 * piece's shape allows is tried, and the one where the start tiles fit their templates best wins.
 * `sure` is false when another turn fits nearly as well (a piece that looks alike turned). The
 * table confirms the corners (`startPieceCorners`) before anything is read with them.
 */
export async function findStartPiece(cv: Cv, bytes: Uint8Array, label: string, piece: PieceOnBoard): Promise<{ ok: true; corners: Point[]; sure: boolean } | { ok: false; why: string }> {
  const decoded = await decodeFrame(bytes, label);
  if (!decoded.ok) return { ok: false, why: decoded.error.message };
  const o = startOutline(piece.cells);
  const square = Math.abs(o.widthMm - o.heightMm) < 1;
  const mat = frameToMat(cv, decoded.value);
  try {
    // A rectangle of the piece's shape that does not look like it (a marker, a box lid) is passed over.
    let turn: ReturnType<typeof startPieceTurn> = null;
    const found = homographyFromStartPiece(cv, decoded.value, { name: square ? 'start tile' : 'start piece', widthMm: o.widthMm, heightMm: o.heightMm }, (f) => {
      turn = startPieceTurn(cv, mat, f.imageCorners, square, piece);
      return turn !== null && turn.d < START_PIECE_FIT;
    });
    if (!found.ok) return { ok: false, why: found.error.message };
    const { corners, sure } = turn!;
    return { ok: true, corners, sure };
  } finally {
    mat.delete();
  }
}

/**
 * The turn of a found outline that puts the start piece's drawing where the game has it: each turn
 * the piece's shape allows is tried (four for a square, two for an oblong), best fit first.
 */
function startPieceTurn(cv: Cv, mat: unknown, imageCorners: Quad, square: boolean, piece: PieceOnBoard): { corners: Point[]; d: number; sure: boolean } | null {
  // A camera looking down sees the table unmirrored: north-west, north-east, south-east, south-west
  // run clockwise on the picture (y down), whatever order the outline came in.
  const q = [...imageCorners];
  const area = q.reduce((s, p, i) => s + p.x * q[(i + 1) % 4]!.y - q[(i + 1) % 4]!.x * p.y, 0);
  const clockwise = area > 0 ? q : [q[0]!, q[3]!, q[2]!, q[1]!];
  const fits: { corners: Point[]; d: number }[] = [];
  for (let k = 0; k < 4; k += square ? 1 : 2) {
    const corners = [0, 1, 2, 3].map((i) => clockwise[(i + k) % 4]!);
    const plane = planeFromCorners(piece.cells, corners);
    if (!plane.ok) continue;
    let d = 0, n = 0;
    for (const t of piece.tiles) {
      if (!piece.cells.some(([x, y]) => x === t.x && y === t.y)) continue;
      const tpl = piece.templates.get(t.view.tile.id, ROTATIONS.indexOf(t.view.rot));
      if (tpl) { d += matchTemplate(cellCrop(cv, mat, plane.plane, t.x, t.y), tpl).d; n++; }
    }
    fits.push({ corners, d: d / Math.max(1, n) });
  }
  fits.sort((a, b) => a.d - b.d);
  if (fits.length === 0) return null;
  return { ...fits[0]!, sure: fits.length === 1 || fits[1]!.d > fits[0]!.d * 1.5 };
}
