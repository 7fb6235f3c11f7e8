/**
 * `npm run train` step 1: regenerates the training and validation crops deterministically from
 * TRAIN_SEED into models/data/ (git-ignored). Never reads the printed scans.
 */
import { TileCatalog } from '../../engine/catalog/registry.js';
import { symmetryTurns } from '../classes.js';
import { TRAIN_STYLES } from '../render/styles.js';
import { DEFAULT_CROP } from '../synth/crop.js';
import { makeCropSet, writeCropSet } from '../synth/dataset.js';
import { CROP_SIZE, EVAL_VARIANTS, TRAIN_SEED, TRAIN_VARIANTS, VAL_SEED } from '../synth/splits.js';
import { makeWorld, renderFaces, renderSprites } from '../synth/world.js';

const count = Number(process.env.TRAIN_CROPS ?? 100_000);
const dir = new URL('../data/', import.meta.url).pathname;
const tiles = TileCatalog.classic().all();
const sprites = await renderSprites();
const tileMeta = tiles.map((t) => ({ id: t.id, symmetry: symmetryTurns(t) }));
const options = { ...DEFAULT_CROP, size: CROP_SIZE };

const t0 = Date.now();
const trainFaces = await renderFaces(tiles, TRAIN_STYLES, TRAIN_VARIANTS);
const train = makeWorld(tiles, sprites, trainFaces);
const CHUNK = 20_000;
for (let start = 0, part = 0; start < count; start += CHUNK, part++) {
  const n = Math.min(CHUNK, count - start);
  const set = await makeCropSet(train, n, TRAIN_SEED + part * 1_000_003, options);
  writeCropSet(dir, `train-${part}`, set, { seed: TRAIN_SEED, part, styles: TRAIN_STYLES.map((s) => s.name), tiles: tileMeta });
  console.log(`train part ${part}: ${n} crops (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
const valFaces = await renderFaces(tiles, TRAIN_STYLES, EVAL_VARIANTS);
const val = await makeCropSet(makeWorld(tiles, sprites, valFaces), 4000, VAL_SEED, options);
writeCropSet(dir, 'val', val, { seed: VAL_SEED, styles: TRAIN_STYLES.map((s) => s.name), tiles: tileMeta });
console.log(`val: 4000 crops (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
