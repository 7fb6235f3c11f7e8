import sharp from 'sharp';
import { TileCatalog } from '../engine/catalog/registry.js';
import { rng } from '../engine/sim/rng.js';
import { matchCorners } from '../models/photo/synthetic.js';
import { pieceSvg } from '../models/render/pieces.js';
import { rasterise } from '../models/render/rasterise.js';
import { TileRecognizer } from '../models/runner.js';
import { printFacesByTile } from '../models/synth/print-faces.js';
import { readTeachFrame } from '../models/teach/read.js';
import { makeTeachScene } from '../models/teach/scene.js';
const catalog = TileCatalog.classic();
const faces = await printFacesByTile(catalog.all().map((t) => t.id), 'c1-jcz');
const figure = await rasterise(pieceSvg('meeple', 'red'), 48);
const recognizer = await TileRecognizer.load();
const box: string[] = [];
for (const e of ['base', 'river', 'inns-cathedrals'] as const) for (const t of catalog.ofExpansion(e)) for (let k = 0; k < (t.counts.C1 ?? 0); k++) if (faces.has(t.id)) box.push(t.id);
const seed0 = 31_000; const frameArg = Number(process.argv[2] ?? 0);
const r = rng(seed0);
const order = [...box].sort(() => r() - 0.5);
for (let f = 0; f * 14 < order.length; f++) {
  if (f !== frameArg) continue;
  const ids = order.slice(f * 14, (f + 1) * 14);
  const scene = await makeTeachScene({ seed: seed0 + f, tiles: ids.map((id) => ({ face: faces.get(id)!, label: id })), figure, handProb: 0.3, figureProb: 0.3, touching: 0.3 });
  const read = await readTeachFrame(recognizer, scene.bytes, { edition: 'C1', expansions: ['base', 'river', 'inns-cathedrals'] });
  if (!read.ok) throw new Error(read.reason);
  const pts = (q: readonly { x: number; y: number }[]) => q.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}">`;
  for (const t of scene.tiles) svg += `<polygon points="${pts(t.corners)}" fill="none" stroke="#0f0" stroke-width="1"/>`;
  for (const c of read.value) svg += `<polygon points="${pts(c.corners)}" fill="none" stroke="${c.why ? '#f0f' : '#f00'}" stroke-width="1"/>`;
  svg += '</svg>';
  await sharp(scene.bytes).composite([{ input: Buffer.from(svg) }]).png().toFile(`/tmp/teach-${f}.png`);
  for (const t of scene.tiles) {
    const cc = read.value.map((c) => ({ c, m: matchCorners(c.corners, t.corners) })).sort((a, b) => a.m.error - b.m.error)[0];
    console.log(t.label, `side ${t.sidePx.toFixed(0)}`, `table ${scene.table}`, t.coveredBy ?? '', cc ? `${(cc.m.error * 45).toFixed(1)} mm ${cc.c.why ?? 'read ' + cc.c.readings[0]?.tileId}` : 'no card');
  }
}
