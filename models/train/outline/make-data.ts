/**
 * Training data for the outline refiner (models/photo/outline-net.ts): teach frames of the
 * first-edition scans (c1-jcz, c1-wiki — never the second edition), or with `--photos` single-tile
 * photos of them (read-tile's: 10–95 % of the frame, up to 30° off vertical), and for every tile
 * wholly in view and not under another tile, crops around outlines near it with the offsets that
 * take each outline to the tile's true corners. The outlines: the finder's own (its real mistakes:
 * a bevel's inner edge, a shadow's rim, a neighbour's art) and the true outline moved at random
 * (shifted up to ±6 mm, turned up to ±5°, scaled ±5 %, each corner jittered by up to 1 mm).
 *
 *   tsx models/train/outline/make-data.ts [--photos] --frames N --seed S --out models/data/outline-S
 *
 * Writes OUT.u8 (N × NET_PX² × 3), OUT.f32 (N × 8 offsets) and OUT.json. Seeds 50 000 and up:
 * the teach bench's tuning seeds are 31 000–35 999.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadCv } from '../../../calibration/cv.js';
import type { Quad } from '../../../calibration/geometry.js';
import { TileCatalog } from '../../../engine/catalog/registry.js';
import { rng } from '../../../engine/sim/rng.js';
import { findOutline, findOutlines, meanSide, MULTI_SEARCH_PX, REFINE_PX, SEARCH_PX } from '../../photo/outline.js';
import { cropAroundQuad, NET_PX, offsetsTo } from '../../photo/outline-net.js';
import { decodeAt } from '../../photo/read.js';
import { makePhoto, matchCorners } from '../../photo/synthetic.js';
import { pieceSvg } from '../../render/pieces.js';
import { rasterise } from '../../render/rasterise.js';
import { printFacesByTile } from '../../synth/print-faces.js';
import { makeTeachScene } from '../../teach/scene.js';

const arg = (name: string, d: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1]! : d; };
const frames = Number(arg('--frames', '100'));
const seed0 = Number(arg('--seed', '50000'));
const out = arg('--out', `models/data/outline-${seed0}`);
const PER_FRAME = 14;
const RANDOM_PER_TILE = 2;

const catalog = TileCatalog.classic();
const ids = catalog.all().map((t) => t.id);
const arts = { 'c1-jcz': await printFacesByTile(ids, 'c1-jcz'), 'c1-wiki': await printFacesByTile(ids, 'c1-wiki') };
const figure = await rasterise(pieceSvg('meeple', 'red'), 48);
const cv = await loadCv();
fs.mkdirSync(path.dirname(out), { recursive: true });
const xs = fs.openSync(`${out}.u8`, 'w');
const ys: number[] = [];
let n = 0, finderSamples = 0;
const t0 = Date.now();

const photos = process.argv.includes('--photos');

/** The true outline moved at random (turned, scaled, shifted, jittered), its corners numbered from any of them. */
function movedAtRandom(r: () => number, corners: Quad, big: boolean): { q: Quad; truth: Quad } {
  const mm = meanSide(corners) / 45;
  const cx = corners.reduce((a, p) => a + p.x, 0) / 4, cy = corners.reduce((a, p) => a + p.y, 0) / 4;
  const a = ((r() * 2 - 1) * (big ? 5 : 1.5) * Math.PI) / 180, sc = 1 + (r() * 2 - 1) * (big ? 0.05 : 0.02);
  const dx = (r() * 2 - 1) * (big ? 6 : 1.5) * mm, dy = (r() * 2 - 1) * (big ? 6 : 1.5) * mm;
  const c = Math.cos(a), sn = Math.sin(a);
  const moved = corners.map((p) => {
    const ux = (p.x - cx) * sc, uy = (p.y - cy) * sc;
    return { x: cx + ux * c - uy * sn + dx + (r() * 2 - 1) * mm, y: cy + ux * sn + uy * c + dy + (r() * 2 - 1) * mm };
  });
  const shift = Math.floor(r() * 4);
  const order = [0, 1, 2, 3].map((i) => (i + shift) % 4);
  return { q: order.map((i) => moved[i]!) as Quad, truth: order.map((i) => corners[i]!) as Quad };
}

/** The finder's outline against the true one, when within 6 mm at every corner (corners renumbered to match). */
function againstTruth(q: Quad, corners: Quad): { q: Quad; truth: Quad } | null {
  const m = matchCorners(q, corners);
  return m.error * 45 > 6 ? null : { q, truth: [0, 1, 2, 3].map((i) => corners[(i + m.shift) % 4]!) as Quad };
}

for (let f = 0; f < frames; f++) {
  const seed = seed0 + f;
  const r = rng(seed * 7919 + 17);
  const faces = f % 2 === 0 ? arts['c1-jcz'] : arts['c1-wiki'];
  const pool = [...faces.keys()];
  const starts: { q: Quad; truth: Quad }[] = [];
  let refine;
  if (photos) {
    // One tile in a photo (read-tile's finder): 10–95 % of the frame, up to 30° off vertical.
    const photo = await makePhoto({ face: faces.get(pool[Math.floor(r() * pool.length)]!)!, seed, handProb: 0.25 });
    refine = await decodeAt(photo.bytes, REFINE_PX);
    const s = refine.width / photo.width;
    const corners = photo.corners!.map((p) => ({ x: p.x * s, y: p.y * s })) as Quad;
    const found = await findOutline(cv, await decodeAt(photo.bytes, SEARCH_PX), refine);
    const m = found.ok ? againstTruth(found.value.corners, corners) : null;
    if (m) { starts.push(m); finderSamples++; }
    for (let k = 0; k < RANDOM_PER_TILE; k++) starts.push(movedAtRandom(r, corners, k > 0 || r() < 0.5));
  } else {
    const chosen = Array.from({ length: PER_FRAME }, () => pool[Math.floor(r() * pool.length)]!);
    const scene = await makeTeachScene({ seed, tiles: chosen.map((id) => ({ face: faces.get(id)!, label: id })), figure, handProb: 0.3, figureProb: 0.3, touching: 0.35, bevel: r() < 0.8 });
    refine = await decodeAt(scene.bytes, REFINE_PX);
    const s = refine.width / scene.width;
    const truths = scene.tiles.filter((t) => t.outside === 0 && !t.overlapping && !t.faceDown && t.covered < 0.3)
      .map((t) => t.corners.map((p) => ({ x: p.x * s, y: p.y * s })) as Quad);
    // The finder's outlines, each against the tile it lies on.
    for (const found of findOutlines(cv, await decodeAt(scene.bytes, MULTI_SEARCH_PX), refine).tiles) {
      if (!found.outline) continue;
      for (const corners of truths) {
        const m = againstTruth(found.corners, corners);
        if (m) { starts.push(m); finderSamples++; }
      }
    }
    for (const corners of truths) for (let k = 0; k < RANDOM_PER_TILE; k++) starts.push(movedAtRandom(r, corners, k > 0 || r() < 0.5));
  }
  for (const { q, truth } of starts) {
    fs.writeSync(xs, cropAroundQuad(refine, q));
    ys.push(...offsetsTo(q, truth));
    n++;
  }
  if (f % 20 === 19) console.error(`${f + 1}/${frames} ${photos ? 'photos' : 'frames'}, ${n} samples (${finderSamples} from the finder), ${Math.round((Date.now() - t0) / 1000)} s`);
}
fs.closeSync(xs);
fs.writeFileSync(`${out}.f32`, Buffer.from(new Float32Array(ys).buffer));
fs.writeFileSync(`${out}.json`, JSON.stringify({ count: n, size: NET_PX, finderSamples, frames, photos, seed: seed0 }, null, 1));
console.error(`wrote ${n} samples to ${out} in ${Math.round((Date.now() - t0) / 1000)} s`);
