import { loadCv } from '../calibration/cv.js';
import { TileCatalog } from '../engine/catalog/registry.js';
import { rng } from '../engine/sim/rng.js';
import { matchCorners } from '../models/photo/synthetic.js';
import { pieceSvg } from '../models/render/pieces.js';
import { rasterise } from '../models/render/rasterise.js';
import { printFacesByTile } from '../models/synth/print-faces.js';
import { findOutlines, MULTI_SEARCH_PX, REFINE_PX } from '../models/photo/outline.js';
import { decodeAt } from '../models/photo/read.js';
import { makeTeachScene } from '../models/teach/scene.js';
const catalog = TileCatalog.classic();
const faces = await printFacesByTile(catalog.all().map((t) => t.id), 'c1-jcz');
const figure = await rasterise(pieceSvg('meeple', 'red'), 48);
const cv = await loadCv();
const box: string[] = [];
for (const e of ['base', 'river', 'inns-cathedrals'] as const) for (const t of catalog.ofExpansion(e)) for (let k = 0; k < (t.counts.C1 ?? 0); k++) if (faces.has(t.id)) box.push(t.id);
const seed0 = 31_000;
const rows: string[] = [];
for (let b = 0; b < 2; b++) {
  const r = rng(seed0 + b);
  const order = [...box].sort(() => r() - 0.5);
  for (let f = 0; f * 14 < order.length; f++) {
    const ids = order.slice(f * 14, (f + 1) * 14);
    const scene = await makeTeachScene({ seed: seed0 + b * 100 + f, tiles: ids.map((id) => ({ face: faces.get(id)!, label: id })), figure, handProb: 0.3, figureProb: 0.3, touching: 0.3 });
    const refineImg = await decodeAt(scene.bytes, REFINE_PX);
    const searchImg = await decodeAt(scene.bytes, MULTI_SEARCH_PX);
    const found = findOutlines(cv, searchImg, refineImg);
    const s = scene.width / refineImg.width;
    for (const fo of found) {
      const corners = fo.corners.map((p) => ({ x: p.x * s, y: p.y * s }));
      const cc = { x: corners.reduce((a, p) => a + p.x, 0) / 4, y: corners.reduce((a, p) => a + p.y, 0) / 4 };
      let best: any = null;
      for (const t of scene.tiles) {
        const tc = { x: t.corners.reduce((a, p) => a + p.x, 0) / 4, y: t.corners.reduce((a, p) => a + p.y, 0) / 4 };
        const d = Math.hypot(cc.x - tc.x, cc.y - tc.y);
        if (d > t.sidePx / 2 || (best && d >= best.d)) continue;
        best = { t, d, mm: matchCorners(corners as any, t.corners).error * 45 };
      }
      rows.push([scene.table, best ? best.t.coveredBy ?? '-' : 'none', best ? best.t.covered.toFixed(2) : '', best ? best.mm.toFixed(1) : '', fo.filled.toFixed(3), fo.outline?.edgeSupport?.toFixed(2) ?? '', (fo.why ?? 'ok').slice(0, 40)].join('\t'));
    }
  }
}
console.log('table\tcoveredBy\tcovered\tmm\tfilled\tsupport\twhy');
console.log(rows.join('\n'));
