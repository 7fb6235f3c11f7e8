/** The outline refiner's one-corner pulls off the finder's edges (models/photo/refine-guard.ts), on first-edition tuning photos with a hand. */
import { describe, expect, it } from 'vitest';
import type { Quad } from '../../calibration/geometry.js';
import { loadCv } from '../../calibration/cv.js';
import { FINE_SEARCH_PX, findOutline, REFINE_PX, SEARCH_PX } from '../../models/photo/outline.js';
import { OutlineRefiner } from '../../models/photo/outline-net.js';
import { decodeAt } from '../../models/photo/read.js';
import { pulledOffAnEdge, sideEdgeSupport } from '../../models/photo/refine-guard.js';
import { matchCorners } from '../../models/photo/synthetic.js';
import { c1Photo } from './helpers/c1-photo.js';

/** bench:photos's generator on a first-edition scan (c1-jcz, tuning seeds 61 000 on), a hand in the photo. */
async function handPhoto(file: string, seed: number, band: readonly [number, number]) {
  const photo = await c1Photo(file, seed, band, 1);
  const img = await decodeAt(photo.bytes, REFINE_PX);
  const found = await findOutline(await loadCv(), await decodeAt(photo.bytes, SEARCH_PX), img, () => decodeAt(photo.bytes, FINE_SEARCH_PX));
  if (!found.ok) throw new Error(found.reason);
  const [refined] = await (await OutlineRefiner.shared()).refine(img, [found.value.corners]);
  const s = photo.width / img.width;
  const off = (q: Quad) => matchCorners(q.map((p) => ({ x: p.x * s, y: p.y * s })) as Quad, photo.corners!).error;
  return { img, found: found.value.corners, refined: refined!, off };
}

describe('the refiner pulling a corner off the edges', { timeout: 60_000 }, () => {
  it('is told where a hand covers a corner: the refiner moved that corner alone, and a side at it left its edge', async () => {
    const p = await handPhoto('IC_I.jpg', 61_422, [0.6, 0.95]);
    expect(p.off(p.found)).toBeLessThan(0.01);
    expect(p.off(p.refined)).toBeGreaterThan(0.03);
    expect(pulledOffAnEdge(p.img, p.found, p.refined)).toBe(true);
    // The finder's sides lie on the tile's edges; the refined outline's do not all.
    expect(Math.min(...sideEdgeSupport(p.img, p.found))).toBeGreaterThan(0.65);
    expect(pulledOffAnEdge(p.img, p.found, p.found)).toBe(false);
  });

  it('is not told where the refiner moves the outline off a wrong edge onto the tile', async () => {
    const p = await handPhoto('BASE_H.jpg', 61_070, [0.1, 0.3]);
    expect(p.off(p.found)).toBeGreaterThan(0.05);
    expect(p.off(p.refined)).toBeLessThan(0.01);
    expect(pulledOffAnEdge(p.img, p.found, p.refined)).toBe(false);
  });
});
