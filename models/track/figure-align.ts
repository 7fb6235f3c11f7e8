/**
 * Where a figure is read, the tile must sit where it really lies: a 14 mm figure is 6–7 px wide at
 * 20–25 px per tile, and one pixel off it fits the tile's own drawing as well as a neighbouring spot.
 */
import { matchTemplate, type CellCrop } from './templates.js';

/** Drift searched when the tile's own search ended at its edge (pixels; the crop's inner margin allows 3). */
export const FIGURE_SHIFT = 3;

type Match = ReturnType<typeof matchTemplate>;

/**
 * The tile's match for reading a figure: as read, unless it ended at the edge of the tile reading's
 * ±2 px drift search. Then the tile probably lies further off (the table plane solved a few mm off,
 * as after a bump; seen on the tuning recordings, where whole games matched at +2 or −2), and the
 * search is widened to `FIGURE_SHIFT`.
 */
export function figureMatch(now: CellCrop, tpl: CellCrop, read: Match): Match {
  if (Math.max(Math.abs(read.sx), Math.abs(read.sy)) < 2) return read;
  const wide = matchTemplate(now, tpl, FIGURE_SHIFT);
  return wide.d < read.d ? wide : read;
}
