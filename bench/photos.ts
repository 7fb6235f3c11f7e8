/**
 * `npm run --silent bench:photos`: the project's own photo-like images of the second-edition scans
 * (tests/fixtures/realart; evaluation only) read through the same code as `read-tile`.
 * Each scan is laid on a synthetic table three times (the tile spanning 10–30 %, 30–60 % and
 * 60–95 % of the frame's shorter side), camera 0–30° off vertical, any in-plane angle, a hand at
 * the frame's edge in a quarter of them; and a set of photos of tables with no tile.
 *   photos found: the outline's four corners each within FOUND_TOLERANCE of the tile's side;
 *   photos top-1 / top-3: the right type at the right rotation (up to the tile's symmetry) first /
 *   among the three readings, over every photo (one not found or not read counts wrong);
 *   photos top-1 / top-3, the table's pictures enrolled: the same, read with one exemplar per type
 *   enrolled from the scans (as the app reads a photo once the table has taught or answered tiles);
 *   photos without a tile read as one: photos of a bare table that got a reading.
 *   photos top-1 / top-3, answering the camera at a cell: the same, read as the camera's picker reads
 *     a photo that answers its question about a cell (services/session/entry.ts `typesFittingCell`:
 *     only the types that may lie there, at any turn); the cells are where that tile was laid in six
 *     random games of the photos' expansions (the types counted at that moment).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { meanSide } from '../models/photo/outline.js';
import { TileCatalog } from '../engine/catalog/registry.js';
import { sameUpToSymmetry } from '../models/classes.js';
import { enrollFirstFaces } from '../models/eval/enroll-faces.js';
import { loadRealFaces, REALART_DIR } from '../models/eval/realart.js';
import { DEFAULT_CROP } from '../models/synth/crop.js';
import { BENCH_SEED } from '../models/synth/splits.js';
import { makeWorld, renderSprites } from '../models/synth/world.js';
import { readTilePhoto } from '../models/photo/read.js';
import { makePhoto, matchCorners } from '../models/photo/synthetic.js';
import { TileRecognizer } from '../models/runner.js';
import { makeSetup } from '../engine/game/setup.js';
import { randomGame } from '../engine/sim/random-game.js';
import { Game } from '../engine/game/game.js';
import { typesFittingCell } from '../electron/services/session/entry.js';

/** A corner is found when it lies within this share of the tile's side of the true corner. */
const FOUND_TOLERANCE = 0.03;
const SIZE_BANDS: readonly (readonly [number, number])[] = [[0.1, 0.3], [0.3, 0.6], [0.6, 0.95]];
const NO_TILE_PHOTOS = 24;
const SEED = 27_000;
const noRefiner = process.argv.includes('--no-refiner');

interface Entry { file: string; id: string; rotation: number }

const catalog = TileCatalog.classic();
const manifest = (JSON.parse(readFileSync(join(REALART_DIR, 'manifest.json'), 'utf8')) as Entry[]).filter((e) => catalog.has(e.id));
const recognizer = await TileRecognizer.load();
// The table's own pictures: one exemplar per type from a mild camera view of the scans, as
// bench:recognition's `real art constrained+enrolled` enrols them (a table that taught its box, or
// answered the camera's questions).
const modelTiles = recognizer.info.tiles.map((id) => catalog.get(id)!);
const realFaces = await loadRealFaces(recognizer.info.tiles);
const enrollment = await enrollFirstFaces(recognizer, modelTiles, makeWorld(modelTiles, await renderSprites(), realFaces), realFaces, BENCH_SEED + 7, { ...DEFAULT_CROP, size: recognizer.size });
// The cells the camera asks about: where each tile was laid in random games (C2, the photos'
// expansions), with the types that might have lain there by the rules and the supply at that moment.
const laid = new Map<string, ReadonlySet<string>[]>();
for (const seed of [1, 2, 3, 4, 5, 6]) {
  const game = randomGame(makeSetup({ expansions: ['base', 'river', 'inns-cathedrals', 'tower'], players: [{ name: 'a', color: 'red' }, { name: 'b', color: 'blue' }], tileSet: { edition: 'C2' } }), SEED + seed, { finish: false });
  const replay = Game.start(game.setup, game.catalog);
  if (!replay.ok) throw new Error(replay.reason);
  for (const c of game.commands) {
    if (c.type === 'placeTile') {
      const list = laid.get(c.tile) ?? [];
      list.push(typesFittingCell(replay.value, c.at, 'land'));
      laid.set(c.tile, list);
    }
    const r = replay.value.play(c);
    if (!r.ok) throw new Error(r.reason);
  }
}
/** The types that may lie at the cell of the k-th laying of `id` in those games (k wraps round). */
const typesAtACell = (id: string, k: number): ReadonlySet<string> | null => {
  const list = laid.get(id);
  return list ? list[k % list.length]! : null;
};
const t0 = Date.now();
let n = 0, found = 0, top1 = 0, top3 = 0, top1Enrolled = 0, top3Enrolled = 0, top1Cell = 0, top3Cell = 0, startPieces = 0;
const cellSizes: number[] = [];
for (const [j, e] of manifest.entries()) {
  const { data, info } = await sharp(join(REALART_DIR, e.file)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const face = { width: info.width, height: info.height, data: new Uint8Array(data) };
  const tile = catalog.get(e.id)!;
  for (const [b, [lo, hi]] of SIZE_BANDS.entries()) {
    const seed = SEED + j * 10 + b;
    const u = ((seed * 2654435761) >>> 0) / 4294967296;
    const photo = await makePhoto({ face, seed, size: lo + (hi - lo) * u, handProb: 0.25 });
    n++;
    if (!typesAtACell(e.id, 0)) startPieces++;
    const r = await readTilePhoto(recognizer, photo.bytes, noRefiner ? { refiner: null } : {});
    if (!r.ok || !r.value.corners) { if (process.env.PHOTOS_MISSES) console.error(`${e.file} band ${b}: ${r.ok ? 'no outline' : r.reason}`); continue; }
    const m = matchCorners(r.value.corners, photo.corners!);
    if (m.error <= FOUND_TOLERANCE) found++;
    else { if (process.env.PHOTOS_MISSES) console.error(`${e.file} band ${b}: outline ${(m.error * 100).toFixed(1)} % of the side off, its side ${(100 * meanSide(r.value.corners) / meanSide(photo.corners!)).toFixed(1)} % of the tile's`); continue; }
    // The crop's top-left is the scan's corner `shift`: the scan seen turned back that many quarter turns.
    const q = (((e.rotation / 90 - m.shift) % 4) + 4) % 4;
    const right = (x: { tileId: string; rotation: number }) => x.tileId === e.id && sameUpToSymmetry(tile, x.rotation / 90, q);
    if (right(r.value.readings[0]!)) top1++;
    if (r.value.readings.some(right)) top3++;
    const only = typesAtACell(e.id, j * 3 + b);
    if (only) {
      cellSizes.push(only.size);
      const atCell = await readTilePhoto(recognizer, photo.bytes, { ...(noRefiner ? { refiner: null } : {}), only });
      if (atCell.ok && right(atCell.value.readings[0]!)) top1Cell++;
      if (atCell.ok && atCell.value.readings.some(right)) top3Cell++;
    }
    const enrolled = await readTilePhoto(recognizer, photo.bytes, noRefiner ? { refiner: null, enrollment } : { enrollment });
    if (!enrolled.ok) continue;
    if (right(enrolled.value.readings[0]!)) top1Enrolled++;
    if (enrolled.value.readings.some(right)) top3Enrolled++;
  }
}
let falseReads = 0;
for (let k = 0; k < NO_TILE_PHOTOS; k++) {
  const photo = await makePhoto({ face: null, seed: SEED + 9000 + k, handProb: 0.5 });
  const r = await readTilePhoto(recognizer, photo.bytes, noRefiner ? { refiner: null } : {});
  if (r.ok) falseReads++;
}
const pct = (x: number, of: number) => ((100 * x) / of).toFixed(1);
console.log(`photos found: ${pct(found, n)} %`);
console.log(`photos top-1: ${pct(top1, n)} %`);
console.log(`photos top-3: ${pct(top3, n)} %`);
console.log(`photos top-1, the table's pictures enrolled: ${pct(top1Enrolled, n)} %`);
console.log(`photos top-3, the table's pictures enrolled: ${pct(top3Enrolled, n)} %`);
console.log(`photos without a tile read as one: ${falseReads} of ${NO_TILE_PHOTOS}`);
// Over the photos of tiles the camera asks about (not the river's spring, a start piece), one not
// found counting wrong.
const asked = n - startPieces;
console.log(`photos top-1, answering the camera at a cell: ${pct(top1Cell, asked)} %`);
console.log(`photos top-3, answering the camera at a cell: ${pct(top3Cell, asked)} %`);
cellSizes.sort((a, b) => a - b);
console.log(`tile types that may lie at such a cell: median ${cellSizes[cellSizes.length >> 1] ?? 0} (${cellSizes[0] ?? 0}–${cellSizes.at(-1) ?? 0}), over ${asked} photos (${startPieces} of a start piece left out)`);
console.log(`photos read: ${n + NO_TILE_PHOTOS} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
