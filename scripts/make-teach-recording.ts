/**
 * The bundled teach recording (tests/fixtures/teach/, issue 30): two still frames of one teach on a
 * plain table (models/teach/scene.ts), the first with some base tiles, the second with the same ones
 * where they lay and more laid since. The bundled one is the second-edition scans (never trained on):
 * `TEACH_ART=realart TEACH_SEED=8 TEACH_FIRST=BASE_D,BASE_U,BASE_E,BASE_R,BASE_H TEACH_LATER=BASE_V,BASE_K,BASE_S`
 * (68 kB; the seed chosen so that one card is read wrong first with the truth in its top 3, as the tests need, after the finder fitted squares to the tiles' side and seed 5 read every card right); without TEACH_ART, the first-edition scans (the tuning art). Written as an MJPEG
 * file Chromium's fake camera plays (--use-file-for-fake-video-capture) and truth.json: each
 * frame's tiles, their ids and corners (frame pixels). Run: `npx tsx scripts/make-teach-recording.ts [out dir]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TileCatalog } from '../engine/catalog/registry.js';
import { realFacesByTile } from '../models/eval/realart.js';
import { printFacesByTile } from '../models/synth/print-faces.js';
import { makeTeachScene } from '../models/teach/scene.js';

const out = process.argv[2] ?? join(import.meta.dirname, '../tests/fixtures/teach');
const FIRST = (process.env.TEACH_FIRST ?? 'BASE_D,BASE_U,BASE_E,BASE_R').split(',');
const LATER = (process.env.TEACH_LATER ?? 'BASE_V,BASE_K').split(',');
const SEED = Number(process.env.TEACH_SEED ?? 4);

const ids = TileCatalog.classic().all().map((t) => t.id);
const ART = process.env.TEACH_ART ?? 'c1';
const faces = ART === 'realart' ? await realFacesByTile(ids) : await printFacesByTile(ids);
const spec = (id: string) => ({ face: faces.get(id)!, label: id });
const common = { width: 960, height: 720, viewMm: 440, tableColour: [110, 112, 118] as const, format: 'jpeg' as const, tableSeed: SEED, handProb: 0, figureProb: 0, touching: 0 };
const first = await makeTeachScene({ ...common, seed: SEED, tiles: FIRST.map(spec) });
const second = await makeTeachScene({ ...common, seed: SEED + 1, tiles: LATER.map(spec), keep: first.tiles.map((t) => t.placement) });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'video.mjpeg'), Buffer.concat([Buffer.from(first.bytes), Buffer.from(second.bytes)]));
const truth = [first, second].map((s) => s.tiles.map((t) => ({ tile: t.label, corners: t.corners.map((p) => [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10]) })));
writeFileSync(join(out, 'truth.json'), JSON.stringify({ seed: SEED, edition: ART === 'realart' ? 'C2' : 'C1', art: ART, expansions: ['base'], width: 960, height: 720, frames: truth }, null, 1) + '\n');
console.log(`wrote ${out}: ${first.bytes.length + second.bytes.length} bytes; frame 1 ${first.tiles.length} tiles, frame 2 ${second.tiles.length}`);
