/**
 * Where a table would click a recording's start piece — the tournament tile, cells (0,0)…(2,1), in
 * the bundled recordings — in the first frame: its corners under the marker sheet's plane, each moved
 * by `slips` (pixels), as a click is off.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCv } from '../../../calibration/cv.js';
import { decodeFrame } from '../../../calibration/frame.js';
import { applyHomography } from '../../../calibration/geometry.js';
import { homographyFromSheet } from '../../../calibration/markers.js';
import type { SheetLayout } from '../../../calibration/sheet/layout.js';
import { readManifest, splitMjpeg, VIDEO_FILE } from '../../../models/scene/recording.js';
import { PITCH_MM, TILE_MM } from '../../../models/scene/render.js';

export async function clickedStartPiece(dir: string, slips: readonly (readonly [number, number])[] = [[0, 0], [0, 0], [0, 0], [0, 0]]): Promise<[number, number][]> {
  const m = readManifest(dir);
  if (!m.ok) throw new Error(m.error);
  const f = await decodeFrame([...splitMjpeg(new Uint8Array(readFileSync(join(dir, VIDEO_FILE))))][0]!, 'frame 0');
  if (!f.ok) throw new Error(f.error.message);
  const sheet = homographyFromSheet(await loadCv(), f.value, (m.value.source as { markers: SheetLayout }).markers);
  if (!sheet.ok) throw new Error(sheet.error.message);
  const x0 = -TILE_MM / 2, y0 = -TILE_MM / 2, x1 = 2 * PITCH_MM + TILE_MM / 2, y1 = PITCH_MM + TILE_MM / 2;
  return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]].map(([x, y], i) => {
    const p = applyHomography(sheet.value.tableToImage, { x: x!, y: y! });
    return [p.x + slips[i]![0], p.y + slips[i]![1]];
  });
}
