/**
 * `npm run train` step 1: regenerates the training and validation crops deterministically from
 * TRAIN_SEED into models/data/ (git-ignored). Reads the first-edition scans in models/train/print/
 * (training material); never the second-edition scans the benchmark measures printed art on.
 *
 * Each 20 000-crop part has its own seed, so parts can be made by several processes at once with
 * the same result: without PARTS this process forks WORKERS children (default: one per core) and
 * deals the parts out; with PARTS=0,3,val it makes just those.
 */
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { symmetryTurns } from '../classes.js';
import { TRAIN_STYLES } from '../render/styles.js';
import { DRAWN_FIGURE_BOX_MM } from '../render/pieces.js';
import { DEFAULT_CROP } from '../synth/crop.js';
import { makeCropSet, writeCropSet } from '../synth/dataset.js';
import { CROP_SIZE, EVAL_VARIANTS, TRAIN_SEED, TRAIN_VARIANTS, VAL_SEED, plainTrainVariants, variedTrainVariants } from '../synth/splits.js';
import { loadPrintScans, printFaces, PRINT_DIR, PRINT_SETS } from '../synth/print-faces.js';
import { makeWorld, renderFaces, renderSprites } from '../synth/world.js';
import { FOREIGN_SET, loadForeignPrints } from '../synth/foreign-prints.js';
import { mixSeed } from '../render/random.js';

const count = Number(process.env.TRAIN_CROPS ?? 200_000);
/** Plain faces per style (variants 0..n-1); the recipe's 6 unless PLAIN_FACES says otherwise. */
const plainVariants = process.env.PLAIN_FACES ? plainTrainVariants(Number(process.env.PLAIN_FACES)) : TRAIN_VARIANTS;
/**
 * Varied faces per style besides the plain ones (docs/recognition.md, "Varied drawings"); 0 gives
 * the earlier recipe's data, byte for byte.
 */
const varied = Number(process.env.VARIED_FACES ?? 18);
/** With varied faces: VARIED_PENNANTS=1 puts each pennant anywhere in its city (measured worse on printed art). */
const movePennants = process.env.VARIED_PENNANTS === '1';
/** With varied faces: VARIED_MARKS=1 draws pennants, cloisters, gardens, cathedrals and inns in several forms (measured, not kept: docs/recognition.md). */
const varyMarks = process.env.VARIED_MARKS === '1';
/** With varied faces: VARIED_PAINT=1 draws three varied faces in four through a paint filter (wobbled edges, mottled fills, grain). */
const paint = process.env.VARIED_PAINT === '1';
/** With varied faces: VARIED_WARP=1 bends each varied face through its own smooth displacement field (models/synth/warp.ts). */
const warp = process.env.VARIED_WARP === '1';
/**
 * COVER=1: more covered marks in the training crops (not in validation): hands in 20 % of crops
 * instead of 8 %, and half the figures on the cell tile on a city, cloister or garden. The share of
 * crops with a figure (what the meeple head learns as its prior) stays the bench's 35 %.
 */
const cover = process.env.COVER === '1';
/**
 * Printed art (models/train/print/: the first-edition scans): a share of the training crops' tiles,
 * centre and neighbours alike, drawn from the scans under PRINT_COPIES print looks each
 * (models/synth/print-faces.ts) instead of the renderer's drawings. PRINT_SHARE=0 gives the
 * drawings-only recipe's data byte for byte. Validation stays drawings only.
 */
const printShare = Number(process.env.PRINT_SHARE ?? 0.3);
const printCopies = Number(process.env.PRINT_COPIES ?? 12);
/**
 * FOREIGN_SHARE=p: with probability p a crop's tile (centre or neighbour) is a first-edition print of
 * another expansion's tile (models/synth/foreign-prints.ts), under PRINT_COPIES looks each: edges,
 * presence and figures are learnt on it, never a type. 0 (the default) gives the recipe's data byte for byte.
 */
const foreignShare = Number(process.env.FOREIGN_SHARE ?? 0);
/** The scan sets the print is drawn from (default both; one alone leaves the other as an unseen copy of the print). */
const printSets = process.env.PRINT_SETS ? process.env.PRINT_SETS.split(',') : [...PRINT_SETS];
const unknownSet = printSets.find((s) => !(PRINT_SETS as readonly string[]).includes(s));
if (unknownSet !== undefined) {
  console.error(`make-data: PRINT_SETS=${process.env.PRINT_SETS}: "${unknownSet}" is not a scan set (${PRINT_SETS.join(', ')})`);
  process.exit(2);
}
/**
 * LOW_RES_FROM=n: the fewest pixels across a far camera's crop (models/synth/crop.ts; 30 before).
 * CAMERA_JPEG=p: the share of those crops JPEG-compressed at their own scale, as a webcam compresses
 * its frames (`cameraScaleJpeg`), rather than in a mosaic at the crop's size. Training crops only.
 */
const lowResFrom = Number(process.env.LOW_RES_FROM ?? 30);
const cameraJpeg = Number(process.env.CAMERA_JPEG ?? 0);
/**
 * DRAWN_AT=a,b: every training crop drawn at a to b pixels across (`CropOptions.drawnAt`), for a model
 * that reads only a far camera's cells; with CAMERA_JPEG=1 every one is compressed at that scale.
 */
const drawnAt = process.env.DRAWN_AT ? (process.env.DRAWN_AT.split(',').map(Number) as [number, number]) : undefined;
if (drawnAt && (drawnAt.length !== 2 || !drawnAt.every((n) => Number.isInteger(n) && n >= 8 && n <= CROP_SIZE) || drawnAt[0] > drawnAt[1])) {
  console.error(`make-data: DRAWN_AT=${process.env.DRAWN_AT}: give two whole numbers of pixels, a,b with 8 <= a <= b <= ${CROP_SIZE}`);
  process.exit(2);
}
/**
 * FIGURE_SIZES=real: figures drawn as large as real ones (pieces.ts `DRAWN_FIGURE_BOX_MM.real`) in the
 * training and validation crops, for a model whose kind head tells a follower from a big one by size.
 */
const figureSizes = process.env.FIGURE_SIZES ?? 'drawing';
if (figureSizes !== 'drawing' && figureSizes !== 'real') {
  console.error(`make-data: FIGURE_SIZES=${figureSizes}: give "real" or "drawing"`);
  process.exit(2);
}
const figureBoxMm = figureSizes === 'real' ? ([DRAWN_FIGURE_BOX_MM.real.meeple, DRAWN_FIGURE_BOX_MM.real.big, DRAWN_FIGURE_BOX_MM.real.abbot] as const) : undefined;
const dir = process.env.DATA_DIR ?? new URL('../data/', import.meta.url).pathname;
const CHUNK = 20_000;
const partNames = [...Array.from({ length: Math.ceil(count / CHUNK) }, (_, i) => String(i)), 'val'];

if (!process.env.PARTS) {
  const workers = Math.max(1, Math.min(partNames.length, Number(process.env.WORKERS ?? availableParallelism())));
  const t0 = Date.now();
  const runs = Array.from({ length: workers }, (_, w) => {
    const parts = partNames.filter((_, i) => i % workers === w).join(',');
    return new Promise<number>((done) => fork(process.argv[1]!, [], { env: { ...process.env, PARTS: parts } }).on('exit', (code) => done(code ?? 1)));
  });
  const codes = await Promise.all(runs);
  if (codes.some((c) => c !== 0)) {
    console.error(`make-data: ${codes.filter((c) => c !== 0).length} of ${workers} workers failed`);
    process.exit(1);
  }
  console.log(`data: ${count} training crops + validation in ${((Date.now() - t0) / 1000).toFixed(0)} s with ${workers} workers`);
  process.exit(0);
}

const only = new Set(process.env.PARTS.split(','));
const tiles = TileCatalog.classic().all();
const sprites = await renderSprites();
const tileMeta = tiles.map((t) => ({ id: t.id, symmetry: symmetryTurns(t) }));
const options = { ...DEFAULT_CROP, size: CROP_SIZE, ...(figureBoxMm ? { figureBoxMm } : {}) };
const trainOptions = { ...(cover ? { ...options, handProb: 0.2, markCover: 0.5 } : options), ...(lowResFrom !== 30 ? { lowResolutionFrom: lowResFrom } : {}), ...(drawnAt ? { drawnAt } : {}) };
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

const trainParts = partNames.filter((p) => p !== 'val' && only.has(p)).map(Number);
if (trainParts.length > 0) {
  const faces = [
    ...(await renderFaces(tiles, TRAIN_STYLES, plainVariants)),
    ...(varied > 0 ? await renderFaces(tiles, TRAIN_STYLES, variedTrainVariants(varied), { vary: true, movePennants, varyMarks, paint, warp }) : []),
  ];
  const prints = printShare > 0 ? await printFaces(tiles, await loadPrintScans(tiles.map((t) => t.id), PRINT_DIR, printSets), { copies: printCopies, seed: TRAIN_SEED }) : null;
  console.log(`training faces: ${faces.length} drawn, ${prints ? prints.reduce((n, f) => n + f.length, 0) : 0} printed (${elapsed()})`);
  const foreign = foreignShare > 0 ? { ...(await loadForeignPrints(tiles.length, { copies: printCopies, seed: mixSeed(TRAIN_SEED, 0xf0e1) })), share: foreignShare } : undefined;
  if (foreign) console.log(`foreign prints: ${foreign.tiles.length} tiles, ${foreign.faces.length} faces, share ${foreignShare}`);
  const train = makeWorld(tiles, sprites, faces, faces, prints ? { byTile: prints, share: printShare } : undefined, foreign);
  for (const part of trainParts) {
    const n = Math.min(CHUNK, count - part * CHUNK);
    const set = await makeCropSet(train, n, TRAIN_SEED + part * 1_000_003, trainOptions, true, cameraJpeg);
    writeCropSet(dir, `train-${part}`, set, { seed: TRAIN_SEED, part, styles: TRAIN_STYLES.map((s) => s.name), ...(varied > 0 ? { faces: { plain: plainVariants.length, varied, movePennants, ...(varyMarks ? { varyMarks } : {}), ...(paint ? { paint } : {}), ...(warp ? { warp } : {}) } } : {}), ...(cover ? { cover: { handProb: trainOptions.handProb, markCover: trainOptions.markCover } } : {}), ...(prints ? { print: { share: printShare, copies: printCopies, sets: printSets } } : {}), ...(foreign ? { foreign: { share: foreignShare, set: FOREIGN_SET, tiles: foreign.tiles.length } } : {}), ...(lowResFrom !== 30 ? { lowResolutionFrom: lowResFrom } : {}), ...(cameraJpeg > 0 ? { cameraJpeg } : {}), ...(drawnAt ? { drawnAt } : {}), ...(figureBoxMm ? { figureBoxMm } : {}), tiles: tileMeta });
    console.log(`train part ${part}: ${n} crops (${elapsed()})`);
  }
}
if (only.has('val')) {
  const val = await makeCropSet(makeWorld(tiles, sprites, await renderFaces(tiles, TRAIN_STYLES, EVAL_VARIANTS)), 4000, VAL_SEED, options);
  writeCropSet(dir, 'val', val, { seed: VAL_SEED, styles: TRAIN_STYLES.map((s) => s.name), tiles: tileMeta });
  console.log(`val: 4000 crops (${elapsed()})`);
}
