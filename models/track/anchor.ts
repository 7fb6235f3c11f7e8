/**
 * The laid tiles as the table plane's anchors. The marker plane can be a few pixels off where the
 * tiles lie (a plane solved from three markers moved the whole board by up to 4 px of 32 from one
 * still frame to the next on a tuning recording, with the camera still), more than the tile
 * reading's ±2 px drift search absorbs. The tiles around a new one show where the lattice really is:
 * each is found in a wider cut of its cell, and the new tile's crop is cut around the median of
 * their offsets (see docs/tracking.md, "Anchored crops").
 */
import { CROP_PX, type CellCrop } from './templates.js';

/** Pixels (crop scale) searched each way around a laid tile's cell: ±7 mm, past any plane jitter seen. */
export const ANCHOR_MARGIN = 5;
/** Width of the wider cut a laid tile is found in. */
export const ANCHOR_PX = CROP_PX + 2 * ANCHOR_MARGIN;
const INNER = 3;

/**
 * Where a laid tile's template sits in a wider cut of its cell (`ANCHOR_PX` square, the cell in its
 * middle), pixels from the centre; per-channel gain matched like the tile reading. `d` is the mean
 * squared distance there (a tile that no longer looks like its template says nothing reliable).
 */
export function tileOffset(wide: CellCrop, tpl: CellCrop): { sx: number; sy: number; d: number } {
  let best = { sx: 0, sy: 0, d: Infinity };
  const M = ANCHOR_MARGIN;
  for (let sy = -M; sy <= M; sy++)
    for (let sx = -M; sx <= M; sx++) {
      const sc = [0, 0, 0], st = [0, 0, 0];
      for (let v = INNER; v < CROP_PX - INNER; v++)
        for (let u = INNER; u < CROP_PX - INNER; u++) {
          const t = (v * CROP_PX + u) * 3;
          if (Number.isNaN(tpl[t]!)) continue;
          const c = ((v + M + sy) * ANCHOR_PX + (u + M + sx)) * 3;
          for (let k = 0; k < 3; k++) { sc[k] += wide[c + k]!; st[k] += tpl[t + k]!; }
        }
      const g = [st[0]! / (sc[0]! || 1), st[1]! / (sc[1]! || 1), st[2]! / (sc[2]! || 1)];
      let d = 0, n = 0;
      for (let v = INNER; v < CROP_PX - INNER; v++)
        for (let u = INNER; u < CROP_PX - INNER; u++) {
          const t = (v * CROP_PX + u) * 3;
          if (Number.isNaN(tpl[t]!)) continue;
          const c = ((v + M + sy) * ANCHOR_PX + (u + M + sx)) * 3;
          for (let k = 0; k < 3; k++) { const e = (wide[c + k]! * g[k]! - tpl[t + k]!) / 255; d += e * e; }
          n++;
        }
      d /= n || 1;
      if (d < best.d) best = { sx, sy, d };
    }
  return best;
}

/**
 * The median of the anchors' offsets, each axis apart — when they agree: with two or more anchors,
 * at least half of them must lie within a pixel of it (each axis). Tiles the templates do not draw
 * like the table's (printed art before its templates are enrolled, a tile under a hand) give
 * scattered offsets, and a median of those would move the crop at random; then the plane is kept.
 */
export function agreedOffset(offsets: readonly { sx: number; sy: number }[]): { sx: number; sy: number } | null {
  const m = medianOffset(offsets);
  if (!m || offsets.length < 2) return m;
  const near = offsets.filter((o) => Math.abs(o.sx - m.sx) <= 1 && Math.abs(o.sy - m.sy) <= 1).length;
  return 2 * near >= offsets.length ? m : null;
}

/** The median of the anchors' offsets, each axis apart. */
export function medianOffset(offsets: readonly { sx: number; sy: number }[]): { sx: number; sy: number } | null {
  if (offsets.length === 0) return null;
  const mid = (xs: number[]) => {
    xs.sort((a, b) => a - b);
    const h = xs.length >> 1;
    return xs.length % 2 ? xs[h]! : (xs[h - 1]! + xs[h]!) / 2;
  };
  return { sx: mid(offsets.map((o) => o.sx)), sy: mid(offsets.map((o) => o.sy)) };
}
