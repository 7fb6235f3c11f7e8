/**
 * The outline refiner (models/photo/outline-net.ts) with the committed model, on teach frames of
 * seeds it was never trained on (training: 50 000–51 999; validation 58 000 and up).
 */
import { describe, expect, it } from 'vitest';
import type { Quad } from '../../calibration/geometry.js';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { rng } from '../../engine/sim/rng.js';
import { realFacesByTile } from '../../models/eval/realart.js';
import { cropAroundQuad, NET_PX, offsetsTo, OutlineRefiner, quadFromOffsets } from '../../models/photo/outline-net.js';
import { decodeAt } from '../../models/photo/read.js';
import { REFINE_PX } from '../../models/photo/outline.js';
import { matchCorners } from '../../models/photo/synthetic.js';
import { printFacesByTile } from '../../models/synth/print-faces.js';
import type { Rgba } from '../../models/synth/image.js';
import { makeTeachScene } from '../../models/teach/scene.js';

const ids = TileCatalog.classic().all().map((t) => t.id);
const mm = (q: Quad, truth: Quad) => matchCorners(q, truth).error * 45;

/** Every tile of a teach frame wholly in view with nothing over it, its outline moved 3–4 mm and turned 2° off. */
async function movedOutlines(faces: Map<string, Rgba>, seed: number, bevel: boolean) {
  const r = rng(seed);
  const pool = [...faces.keys()];
  const scene = await makeTeachScene({ seed, tiles: Array.from({ length: 14 }, () => { const id = pool[Math.floor(r() * pool.length)]!; return { face: faces.get(id)!, label: id }; }), touching: 0.3, bevel });
  const img = await decodeAt(scene.bytes, REFINE_PX);
  const tiles = scene.tiles.filter((t) => t.outside === 0 && !t.overlapping && t.covered === 0);
  return {
    img,
    cases: tiles.map((t) => {
      const truth = t.corners;
      const cx = truth.reduce((a, p) => a + p.x, 0) / 4, cy = truth.reduce((a, p) => a + p.y, 0) / 4;
      const dir = r() * 2 * Math.PI, shift = (3 + r()) * (t.sidePx / 45), turn = ((r() < 0.5 ? -2 : 2) * Math.PI) / 180;
      const c = Math.cos(turn), s = Math.sin(turn);
      const moved = truth.map((p) => ({ x: cx + (p.x - cx) * c - (p.y - cy) * s + shift * Math.cos(dir), y: cy + (p.x - cx) * s + (p.y - cy) * c + shift * Math.sin(dir) })) as Quad;
      return { truth, moved };
    }),
  };
}

/** The moved outlines of the frames of `seeds` refined by the committed model: how many end within 2 mm, of how many. */
async function refinedWithin2mm(faces: Map<string, Rgba>, seeds: readonly number[], bevel: boolean) {
  const refiner = await OutlineRefiner.load();
  let within = 0, n = 0;
  for (const seed of seeds) {
    const { img, cases } = await movedOutlines(faces, seed, bevel);
    const refined = await refiner.refine(img, cases.map((c) => c.moved));
    cases.forEach((c, i) => { expect(mm(c.moved, c.truth)).toBeGreaterThan(2.5); n++; if (mm(refined[i]!, c.truth) <= 2) within++; });
  }
  return { within, n };
}

describe('the outline refiner', () => {
  it('moves an outline by offsets that take it onto the truth exactly (the training target and the reading agree)', () => {
    const r = rng(5);
    for (let k = 0; k < 50; k++) {
      const q = [0, 1, 2, 3].map((i) => ({ x: 100 + 80 * (i === 1 || i === 2 ? 1 : 0) + r() * 10, y: 50 + 80 * (i >= 2 ? 1 : 0) + r() * 10 })) as Quad;
      const truth = q.map((p) => ({ x: p.x + (r() - 0.5) * 12, y: p.y + (r() - 0.5) * 12 })) as Quad;
      const back = quadFromOffsets(q, offsetsTo(q, truth));
      back.forEach((p, i) => { expect(p.x).toBeCloseTo(truth[i]!.x, 6); expect(p.y).toBeCloseTo(truth[i]!.y, 6); });
    }
  });

  it('crops the outline with its margin, the same however the corners are numbered', async () => {
    const img = { width: 200, height: 200, data: new Uint8Array(200 * 200 * 3) };
    for (let y = 60; y < 140; y++) for (let x = 60; x < 140; x++) img.data.fill(200, (y * 200 + x) * 3, (y * 200 + x) * 3 + 3);
    const q: Quad = [{ x: 60, y: 60 }, { x: 140, y: 60 }, { x: 140, y: 140 }, { x: 60, y: 140 }];
    const crop = cropAroundQuad(img, q);
    expect(crop.length).toBe(NET_PX * NET_PX * 3);
    // The tile fills the middle, the margin is table: a quarter of the side on every side (NET_MARGIN).
    expect(crop[((NET_PX / 2) * NET_PX + NET_PX / 2) * 3]).toBe(200);
    expect(crop[(2 * NET_PX + 2) * 3]).toBe(0);
    const turned = cropAroundQuad(img, [q[1], q[2], q[3], q[0]]);
    expect(turned[((NET_PX / 2) * NET_PX + NET_PX / 2) * 3]).toBe(200);
  });

  it('brings outlines 3–4 mm and 2° off a first-edition tile within 2 mm', async () => {
    const { within, n } = await refinedWithin2mm(await printFacesByTile(ids, 'c1-jcz'), [57001, 57002], true);
    expect(n).toBeGreaterThan(15);
    // Measured: every one of them (issue 30's bench asks 99 % of tiles found within 2 mm).
    expect(within / n).toBeGreaterThanOrEqual(0.95);
  });

  it('carries over to the second edition (never trained on): outlines 3–4 mm off come within 2 mm', async () => {
    const { within, n } = await refinedWithin2mm(await realFacesByTile(ids), [57011, 57012], false);
    expect(n).toBeGreaterThan(15);
    expect(within / n).toBeGreaterThanOrEqual(0.95);
  });
});
