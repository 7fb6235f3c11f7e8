import { z } from 'zod';
import type { Point, Quad } from '../geometry.js';

/**
 * The physical layout of a printable calibration sheet. Coordinates are millimetres on the paper,
 * origin at the paper's top-left corner, x to the right, y down. When the sheet lies on the table
 * these are the table-plane coordinates the homography maps from.
 */
export const SheetLayoutSchema = z.object({
  name: z.string().min(1),
  paper: z.object({ widthMm: z.number().positive(), heightMm: z.number().positive() }),
  /** An opencv predefined ArUco dictionary name, e.g. DICT_4X4_50. */
  dictionary: z.enum(['DICT_4X4_50', 'DICT_5X5_50', 'DICT_6X6_50']),
  /** Edge of the black marker square, border bits included. */
  markerSizeMm: z.number().positive(),
  /** Top-left corner of each marker's black square. */
  markers: z.array(z.object({ id: z.number().int().nonnegative(), xMm: z.number(), yMm: z.number() })).min(4),
  /** A printed bar of this length lets the user check the print scale with a ruler. */
  scaleBarMm: z.number().positive(),
});
export type SheetLayout = z.infer<typeof SheetLayoutSchema>;

function grid(cols: number[], rows: number[]): SheetLayout['markers'] {
  return rows.flatMap((yMm, r) => cols.map((xMm, c) => ({ id: r * cols.length + c, xMm, yMm })));
}

/** A4 portrait, 12 markers of 40 mm: large enough to read from 90 cm with a 1080p webcam. */
export const A4_SHEET: SheetLayout = {
  name: 'a4-4x4-40mm',
  paper: { widthMm: 210, heightMm: 297 },
  dictionary: 'DICT_4X4_50',
  markerSizeMm: 40,
  markers: grid([15, 85, 155], [20, 87, 154, 221]),
  scaleBarMm: 100,
};

/** A3 portrait, 20 markers of 50 mm, for cameras higher than about a metre. */
export const A3_SHEET: SheetLayout = {
  name: 'a3-4x4-50mm',
  paper: { widthMm: 297, heightMm: 420 },
  dictionary: 'DICT_4X4_50',
  markerSizeMm: 50,
  markers: grid([18, 91, 164, 237], [20, 95, 170, 245, 320]),
  scaleBarMm: 150,
};

export const SHEET_LAYOUTS: readonly SheetLayout[] = [A4_SHEET, A3_SHEET];

/** The four corners of a marker in the order opencv reports them (TL, TR, BR, BL of the marker). */
export function markerCornersMm(layout: SheetLayout, id: number): Quad | undefined {
  const m = layout.markers.find((k) => k.id === id);
  if (!m) return undefined;
  const s = layout.markerSizeMm;
  const p = (x: number, y: number): Point => ({ x: m.xMm + x, y: m.yMm + y });
  return [p(0, 0), p(s, 0), p(s, s), p(0, s)];
}
