/**
 * Experiment (docs/recognition.md, "Tried and not kept": test-time adaptation): writes unlabelled crops for
 * `adabn.py` as raw uint8 N×64×64×3 — `source` from the training styles and variants, `table`
 * from the printed scans under the camera perturbations (seeds the benchmark never uses), as a
 * table's camera would see them during a game; `held-out` from the held-out style (a variant the
 * benchmark does not draw), to try the method on a shift of style alone.
 *
 *   npx tsx models/train/experiments/adabn-crops.ts source|held-out OUT.u8
 *   npx tsx models/train/experiments/adabn-crops.ts table OUT.u8 [crops per scan, default 8]
 */
import { writeFileSync } from 'node:fs';
import { TileCatalog } from '../../../engine/catalog/registry.js';
import { loadRealFaces } from '../../eval/realart.js';
import { HELD_OUT_STYLE, TRAIN_STYLES } from '../../render/styles.js';
import { DEFAULT_CROP, type SynthWorld } from '../../synth/crop.js';
import { cropSet, type FaceTurn } from '../../eval/crop-sets.js';
import { TRAIN_VARIANTS } from '../../synth/splits.js';
import { makeWorld, renderFaces, renderSprites } from '../../synth/world.js';
import { TileRecognizer } from '../../runner.js';

const SOURCE_SEED = 55501;
const TABLE_SEED = 66601;
const HELD_OUT_SEED = 55502;
const [which, out, perScan] = process.argv.slice(2);
if (!['source', 'held-out', 'table'].includes(which ?? '') || !out) throw new Error('usage: adabn-crops.ts source|held-out|table OUT.u8 [crops per scan]');

const rec = await TileRecognizer.load();
const catalog = TileCatalog.classic();
const tiles = rec.info.tiles.map((id) => catalog.get(id)!);
const S = rec.size;
const options = { ...DEFAULT_CROP, size: S };
const sprites = await renderSprites();

async function write(world: SynthWorld, n: number, seed: number, fixed?: (i: number) => FaceTurn) {
  const { crops } = await cropSet(world, n, seed, options, fixed);
  const flat = new Uint8Array(n * S * S * 3);
  crops.forEach((c, i) => flat.set(c, i * S * S * 3));
  writeFileSync(out!, flat);
  console.log(`${out}: ${n} crops`);
}

if (which === 'source') {
  const faces = await renderFaces(tiles, TRAIN_STYLES, TRAIN_VARIANTS);
  await write(makeWorld(tiles, sprites, faces), 2048, SOURCE_SEED);
} else if (which === 'held-out') {
  const faces = await renderFaces(tiles, [HELD_OUT_STYLE], [104]);
  await write(makeWorld(tiles, sprites, faces), 1024, HELD_OUT_SEED);
} else {
  const real = await loadRealFaces(rec.info.tiles);
  const per = Number(perScan ?? 8);
  await write(makeWorld(tiles, sprites, real), real.length * per, TABLE_SEED, (i) => ({ face: real[i % real.length]!, q: Math.floor(i / real.length) % 4 }));
}
