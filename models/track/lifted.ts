/**
 * Whether a laid tile seems lifted (the tracker's laid-tile check): the cell looks far more like it
 * did empty than like the tile, by the tile's drawing and by the camera's own last look at it, and its
 * colour is the table's again. Only a notice comes of it; the table decides.
 */
import { chroma, matchTemplate, type CellCrop } from './templates.js';

/** How far apart two crops' mean chromaticities are (`chroma`: the light level cancels out). */
export function chromaGap(a: CellCrop, b: CellCrop): number {
  const [ra, ga] = chroma(a), [rb, gb] = chroma(b);
  return Math.hypot(ra - rb, ga - gb);
}

/**
 * `now`: the cell's crop in this still frame; `empty`: how it looked before the tile came; `last`: how
 * the camera saw the tile at the last still frame; `dKnown`: how well the tile's drawing fits `now`
 * at its best (`matchTemplate`'s distance, a figure drawn in, the cell searched around).
 */
export function seemsLifted(now: CellCrop, looks: { readonly empty: CellCrop; readonly last: CellCrop }, dKnown: number): boolean {
  const dEmpty = matchTemplate(now, looks.empty).d;
  // The drawing alone fits any camera picture loosely, so a large change it does not explain (a tower
  // floor not yet entered) came out nearer the empty look than the drawing; the last look is a camera
  // picture like the empty one and tells them apart.
  if (!(dEmpty < dKnown * 0.5 && dEmpty < matchTemplate(now, looks.last).d * 0.5)) return false;
  // Each distance matches the channels' gains (light and white balance), so a cell of nearly one
  // colour — a field, cut a little off-centre by a plane that jumped — fits the bare table's look as
  // well as the tile's. Chromaticity tells wood from a green field under any light level.
  return chromaGap(now, looks.empty) < chromaGap(now, looks.last);
}
