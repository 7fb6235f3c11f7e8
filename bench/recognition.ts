/**
 * `npm run --silent bench:recognition`: recognition accuracy and speed on held-out crops (seeds and
 * style variants never used in training), in the training styles, in the held-out style, and on the
 * printed scans; constrained figures decode against real game states replayed from the golden corpus.
 * Prints `name: value unit` lines.
 */
import { TileCatalog } from '../engine/catalog/registry.js';
import { sameUpToSymmetry } from '../models/classes.js';
import { decodeReading, rawBest, type DecodeContext, type DecodeOptions } from '../models/decode.js';
import { decodeWithSecondLook } from '../models/second-look.js';
import { loadRealFaces } from '../models/eval/realart.js';
import { loadPrintScans } from '../models/synth/print-faces.js';
import { HELD_OUT_STYLE, TRAIN_STYLES } from '../models/render/styles.js';
import { DEFAULT_CROP, type CropOptions, type SynthWorld, type TileFace } from '../models/synth/crop.js';
import { corpusPlacements, corpusRecords, forEachPlacement } from '../models/eval/corpus.js';
import { cropSet, farCameraSet, type FaceTurn } from '../models/eval/crop-sets.js';
import { enrollFirstFaces } from '../models/eval/enroll-faces.js';
import { BENCH_SEED, EVAL_VARIANTS } from '../models/synth/splits.js';
import { makeWorld, renderFaces, renderSprites } from '../models/synth/world.js';
import { TileRecognizer, type CropReading, type Views } from '../models/runner.js';

/**
 * 12 000 raw crops per style: at ~1.3 % mistakes, one standard error is ~0.1 point (3 000 gave
 * ~0.2, as large as the differences between the recipes compared on it; docs/recognition.md).
 */
const RAW_CROPS = Number(process.env.BENCH_CROPS ?? 12_000);
/** BENCH_CONFUSIONS=1 lists the raw reader's most frequent mistakes per set on stderr. */
let CONFUSIONS: Map<string, number> | null = process.env.BENCH_CONFUSIONS ? new Map() : null;
function dumpConfusions(set: string): void {
  if (!CONFUSIONS) return;
  const top = [...CONFUSIONS].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.error(`${set}: ${top.map(([k, v]) => `${k} ×${v}`).join('; ')}`);
  CONFUSIONS = new Map();
}
/** Every corpus game by default: the first 30 (the default until the thirteenth session) lay base and river tiles only. */
const GAMES = Number(process.env.BENCH_GAMES ?? Infinity);

// BENCH_VIEWS=1|2|4 compares the number of turned views read per crop (models/runner.ts); default the app's.
// BENCH_MODEL=path/to/model.onnx measures another model (its .json beside it) than the committed one.
const rec = await TileRecognizer.load(process.env.BENCH_MODEL || undefined, undefined, process.env.BENCH_VIEWS ? (Number(process.env.BENCH_VIEWS) as Views) : undefined);
const catalog = TileCatalog.classic();
const tiles = rec.info.tiles.map((id) => {
  const t = catalog.get(id);
  if (!t) throw new Error(`the model knows ${id}, the catalog does not`);
  return t;
});
const S = rec.size;
const options: CropOptions = { ...DEFAULT_CROP, size: S };
const sprites = await renderSprites();
const pct = (a: number, n: number) => (n === 0 ? 'n/a' : ((100 * a) / n).toFixed(2));
const print = (name: string, value: string, unit: string) => console.log(`${name}: ${value} ${unit}`);

async function readAll(crops: Uint8Array[]): Promise<CropReading[]> {
  const out: CropReading[] = [];
  for (let i = 0; i < crops.length; i += 256) out.push(...(await rec.readPrepared(crops.slice(i, i + 256))));
  return out;
}

/** Crops from a world, JPEG-compressed in mosaics like the training data. */
const cropsFrom = (world: SynthWorld, n: number, seed: number, opts: CropOptions, fixed?: (i: number) => FaceTurn) => cropSet(world, n, seed, opts, fixed);

const argmax = (v: ArrayLike<number>) => {
  let best = 0;
  for (let k = 1; k < v.length; k++) if (v[k]! > v[best]!) best = k;
  return best;
};

function rawScores(readings: CropReading[], labels: { present: boolean; tileIndex: number; q: number; seg12: readonly number[]; meeple: boolean; meepleColour: number; meepleKind: number; hand: boolean }[]) {
  let tr = 0, n = 0, seg = 0, mp = 0, mc = 0, mcn = 0, pres = 0;
  // The kind head (a model with `meepleKinds`): every figure, and the big followers alone.
  let mk = 0, mkBig = 0, mkBigN = 0;
  // The same measure on tiles with neither a piece standing on them nor a hand in view.
  let clearRight = 0, clearN = 0;
  // Where the mistakes are: a figure on the tile (with or without a hand), a hand only, neither.
  const wrong = { figure: 0, hand: 0, neither: 0 };
  readings.forEach((r, i) => {
    const l = labels[i]!;
    if ((r.present > 0.5) === l.present) pres++;
    if (!l.present) return;
    n++;
    const b = rawBest(r, rec.info);
    const tile = tiles[l.tileIndex]!;
    const right = b.tileId === tile.id && sameUpToSymmetry(tile, b.rot / 90, l.q);
    if (!l.meeple && !l.hand) {
      clearN++;
      if (right) clearRight++;
    }
    if (!right) wrong[l.meeple ? 'figure' : l.hand ? 'hand' : 'neither']++;
    if (right) tr++;
    else if (CONFUSIONS) {
      const key = b.tileId === tile.id ? `${tile.id} turned wrong` : `${tile.id} read as ${b.tileId}`;
      CONFUSIONS.set(key, (CONFUSIONS.get(key) ?? 0) + 1);
    }
    for (let s = 0; s < 12; s++) {
      let best = 0;
      for (let k = 1; k < 4; k++) if (r.segments[s * 4 + k]! > r.segments[s * 4 + best]!) best = k;
      if (best === l.seg12[s]) seg++;
    }
    if ((r.meeple > 0.5) === l.meeple) mp++;
    if (l.meeple) {
      mcn++;
      if (argmax(r.meepleColour) === l.meepleColour) mc++;
      if (r.meepleKind) {
        const k = argmax(r.meepleKind);
        if (k === l.meepleKind) mk++;
        if (l.meepleKind === 1) {
          mkBigN++;
          if (k === 1) mkBig++;
        }
      }
    }
  });
  return { tr, n, seg, segN: n * 12, mp, mc, mcn, mk, mkBig, mkBigN, pres, total: readings.length, clearRight, clearN, wrong };
}

// Placements from the golden corpus: the tile and its rotation, in the order they are replayed.
const records = corpusRecords(GAMES);
const spots = corpusPlacements(records).map((p) => ({ tileIndex: rec.info.tiles.indexOf(p.tile), q: p.q }));

type SpotCrop = { readonly reading: CropReading; readonly crop: Uint8Array };
/** Placements decoded so far, and how many of them took a second look (models/second-look.ts). */
const looks = { decoded: 0, second: 0 };
// BENCH_SECOND_LOOK=0 decodes the first reading only, to compare.
const SECOND_LOOK = process.env.BENCH_SECOND_LOOK !== '0';

/** Replays the corpus and decodes every placement's reading in its real game state, as the tracker does. */
async function constrainedAccuracy(spots: Map<number, SpotCrop>, decodeOptions: DecodeOptions): Promise<{ right: number; n: number; second: number }> {
  let right = 0;
  let second = 0;
  let n = 0;
  await forEachPlacement(records, async (p) => {
    const spot = spots.get(p.index);
    if (!spot) return;
    const ctx: DecodeContext = { state: p.state, at: p.at };
    const decode = (r: CropReading) => decodeReading(r, rec.info, catalog, ctx, decodeOptions);
    const looked = SECOND_LOOK ? await decodeWithSecondLook(rec, spot.crop, spot.reading, decode) : { decoded: decode(spot.reading), secondLook: false };
    const d = looked.decoded;
    looks.decoded++;
    if (looked.secondLook) {
      looks.second++;
      second++;
    }
    const tile = catalog.get(p.tile)!;
    n++;
    if (d.best && d.best.tileId === p.tile && sameUpToSymmetry(tile, d.best.rot / 90, p.q)) right++;
    else if (CONFUSIONS) {
      const key = d.best?.tileId === p.tile ? `${p.tile} turned wrong` : `${p.tile} read as ${d.best?.tileId ?? 'nothing'}`;
      CONFUSIONS.set(key, (CONFUSIONS.get(key) ?? 0) + 1);
    }
  });
  return { right, n, second };
}

async function spotReadings(world: SynthWorld, faceFor: (tileIndex: number, i: number) => TileFace | null, seed: number): Promise<Map<number, SpotCrop>> {
  const idx: number[] = [];
  const faces: TileFace[] = [];
  spots.forEach((s, i) => {
    const f = s.tileIndex >= 0 ? faceFor(s.tileIndex, i) : null;
    if (f) {
      idx.push(i);
      faces.push(f);
    }
  });
  const { crops } = await cropsFrom(world, idx.length, seed, options, (i) => ({ face: faces[i]!, q: spots[idx[i]!]!.q }));
  const readings = await readAll(crops);
  return new Map(idx.map((spot, i) => [spot, { reading: readings[i]!, crop: crops[i]! }]));
}

/** One exemplar per type from the first of `faces` (models/eval/enroll-faces.ts). */
const enrollOne = (world: SynthWorld, faces: readonly TileFace[], seed: number) => enrollFirstFaces(rec, tiles, world, faces, seed, options);

// In-style: training styles, unseen variants, unseen seeds.
const inFaces = await renderFaces(tiles, TRAIN_STYLES, EVAL_VARIANTS);
const inWorld = makeWorld(tiles, sprites, inFaces);
const inSet = await cropsFrom(inWorld, RAW_CROPS, BENCH_SEED, options);
const inRaw = rawScores(await readAll(inSet.crops), inSet.labels);
dumpConfusions("in-style");
const facesByTile = (faces: readonly TileFace[]) => {
  const m = new Map<number, TileFace[]>();
  for (const f of faces) m.set(f.tileIndex, [...(m.get(f.tileIndex) ?? []), f]);
  return m;
};
const inByTile = facesByTile(inFaces);
const inCon = await constrainedAccuracy(await spotReadings(inWorld, (t, i) => inByTile.get(t)![i % inByTile.get(t)!.length]!, BENCH_SEED + 1), {});
dumpConfusions('in-style constrained');

// Held-out style: never used in training; one enrolled exemplar per type (another variant, another seed).
const heldFaces = await renderFaces(tiles, [HELD_OUT_STYLE], EVAL_VARIANTS);
const heldWorld = makeWorld(tiles, sprites, heldFaces);
const heldSet = await cropsFrom(heldWorld, RAW_CROPS, BENCH_SEED + 2, options);
const heldRaw = rawScores(await readAll(heldSet.crops), heldSet.labels);
dumpConfusions("held-out style");
const heldByTile = facesByTile(heldFaces);
const heldReadings = await spotReadings(heldWorld, (t, i) => heldByTile.get(t)![i % heldByTile.get(t)!.length]!, BENCH_SEED + 3);
const heldEnrollFaces = await renderFaces(tiles, [HELD_OUT_STYLE], [103]);
const heldEnrollment = await enrollOne(heldWorld, heldEnrollFaces, BENCH_SEED + 4);
const heldCon = await constrainedAccuracy(heldReadings, {});
dumpConfusions('held-out style constrained');
const heldConEnr = await constrainedAccuracy(heldReadings, { enrollment: heldEnrollment });
dumpConfusions('held-out style constrained+enrolled');

// Real printed art: scans under the same camera perturbations, neighbours drawn from other scans.
const realFaces = await loadRealFaces(rec.info.tiles);
const realWorld = makeWorld(tiles, sprites, realFaces);
const realSet = await cropsFrom(realWorld, Math.max(realFaces.length * 16, 1), BENCH_SEED + 5, options, (i) => ({ face: realFaces[i % realFaces.length]!, q: Math.floor(i / realFaces.length) % 4 }));
const realRaw = rawScores(await readAll(realSet.crops), realSet.labels);
dumpConfusions("real art");
const realByTile = facesByTile(realFaces);
const realReadings = await spotReadings(realWorld, (t, i) => {
  const fs = realByTile.get(t);
  return fs ? fs[i % fs.length]! : null;
}, BENCH_SEED + 6);
const realEnrollment = await enrollOne(realWorld, realFaces, BENCH_SEED + 7);
const realCon = await constrainedAccuracy(realReadings, {});
dumpConfusions('real art constrained');
const realConEnr = await constrainedAccuracy(realReadings, { enrollment: realEnrollment });
dumpConfusions('real art constrained+enrolled');

// First-edition print: the scans training draws its printed faces from (models/train/print/), under
// the camera perturbations with bench seeds training never used, neighbours from other scans.
const c1Faces = await loadPrintScans(rec.info.tiles);
const c1World = makeWorld(tiles, sprites, c1Faces);
const c1Set = await cropsFrom(c1World, Math.max(c1Faces.length * 16, 1), BENCH_SEED + 11, options, (i) => ({ face: c1Faces[i % c1Faces.length]!, q: Math.floor(i / c1Faces.length) % 4 }));
const c1Raw = rawScores(await readAll(c1Set.crops), c1Set.labels);
dumpConfusions('first-edition art');
// The same scans as a far webcam sees them (22–34 px across the crop, JPEG at that scale): what a
// 640×480 camera over a full board gives the tracker.
const c1FarSet = await farCameraSet(c1World, Math.max(c1Faces.length * 16, 1), BENCH_SEED + 12, options, (i) => ({ face: c1Faces[i % c1Faces.length]!, q: Math.floor(i / c1Faces.length) % 4 }));
const c1Far = rawScores(await readAll(c1FarSet.crops), c1FarSet.labels);
dumpConfusions('first-edition art, far webcam');

// Speed: batches of 256 prepared crops; single crops one at a time. Medians.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const batch = inSet.crops.slice(0, 256);
await rec.readPrepared(batch);
// The machine is shared, so wall-clock rates swing with other sessions' load; the CPU time the
// process spends (all of onnxruntime's threads included) shared over the 2 cores the target names
// is the steadier figure. Both are printed.
const rates: number[] = [];
const wallRates: number[] = [];
for (let k = 0; k < 9; k++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await rec.readPrepared(batch);
  const c = process.cpuUsage(c0);
  wallRates.push((batch.length * 1000) / (performance.now() - t0));
  rates.push((batch.length * 1e6 * 2) / Math.max(1, c.user + c.system));
}
// Four views, for what the second looks cost.
const rates4: number[] = [];
for (let k = 0; k < 3; k++) {
  const c0 = process.cpuUsage();
  await rec.readPrepared(batch, 4);
  const c = process.cpuUsage(c0);
  rates4.push((batch.length * 1e6 * 2) / Math.max(1, c.user + c.system));
}
const lat: number[] = [];
for (let k = 0; k < 60; k++) {
  const t0 = performance.now();
  await rec.readPrepared([inSet.crops[k]!]);
  lat.push(performance.now() - t0);
}

print('in-style type+rotation', pct(inRaw.tr, inRaw.n), '%');
print(`in-style type+rotation, no figure or hand on the tile (${inRaw.clearN} tiles)`, pct(inRaw.clearRight, inRaw.clearN), '%');
print('in-style constrained', pct(inCon.right, inCon.n), '%');
print('held-out style type+rotation', pct(heldRaw.tr, heldRaw.n), '%');
print(`held-out style type+rotation, no figure or hand on the tile (${heldRaw.clearN} tiles)`, pct(heldRaw.clearRight, heldRaw.clearN), '%');
print('held-out style constrained', pct(heldCon.right, heldCon.n), '%');
print('held-out style constrained+enrolled', pct(heldConEnr.right, heldConEnr.n), '%');
print('real art type+rotation', pct(realRaw.tr, realRaw.n), '%');
print(`real art type+rotation, no figure or hand on the tile (${realRaw.clearN} tiles)`, pct(realRaw.clearRight, realRaw.clearN), '%');
print('real art constrained', pct(realCon.right, realCon.n), '%');
print('real art constrained+enrolled', pct(realConEnr.right, realConEnr.n), '%');
print('edge segments', pct(inRaw.seg, inRaw.segN), '%');
print('held-out style edge segments', pct(heldRaw.seg, heldRaw.segN), '%');
print('real art edge segments', pct(realRaw.seg, realRaw.segN), '%');
print('first-edition art type+rotation', pct(c1Raw.tr, c1Raw.n), '%');
print('first-edition art, far webcam type+rotation', pct(c1Far.tr, c1Far.n), '%');
print('first-edition art, far webcam meeple presence', pct(c1Far.mp, c1Far.n), '%');
if (rec.info.meepleKinds) {
  print('first-edition art, far webcam meeple kind', pct(c1Far.mk, c1Far.mcn), '%');
  print('first-edition art, far webcam big followers told', pct(c1Far.mkBig, c1Far.mkBigN), '%');
}
print('meeple presence', pct(inRaw.mp, inRaw.n), '%');
print('meeple colour', pct(inRaw.mc, inRaw.mcn), '%');
print('cell occupancy', pct(inRaw.pres, inRaw.total), '%');
print('crops/s batched', median(rates).toFixed(0), 'crops/s');
print('crops/s batched (wall clock, shared machine)', median(wallRates).toFixed(0), 'crops/s');
print('single crop latency', median(lat).toFixed(2), 'ms');
const secondShare = looks.second / Math.max(1, looks.decoded);
print('second looks (unsure readings read again at the quarter turns not yet read)', pct(looks.second, looks.decoded), '% of constrained placements');
const causes = (r: ReturnType<typeof rawScores>) => `${r.wrong.figure}/${r.wrong.hand}/${r.wrong.neither}`;
print('raw type+rotation mistakes with a figure on the tile / a hand only / neither', `in-style ${causes(inRaw)}, held-out ${causes(heldRaw)}, real art ${causes(realRaw)}`, '');
print('second looks by set', `in-style ${pct(inCon.second, inCon.n)}, held-out ${pct(heldCon.second, heldCon.n)}, held-out enrolled ${pct(heldConEnr.second, heldConEnr.n)}, real art ${pct(realCon.second, realCon.n)}, real art enrolled ${pct(realConEnr.second, realConEnr.n)}`, '%');
// Every crop read at the default views; the unsure share read again at the quarter turns not yet
// read ((4 − views) of a four-view read's four).
const missingShare = (4 - rec.views) / 4;
print('crops/s batched with second looks (CPU time)', (1 / (1 / median(rates) + (secondShare * missingShare) / median(rates4))).toFixed(0), 'crops/s');
print('views per crop', String(rec.views), '');
print('crops evaluated', `${inRaw.total}+${heldRaw.total}+${realRaw.total}+${c1Raw.total} raw (in-style, held-out, real art, first-edition art), ${inCon.n}+${heldCon.n}+${realCon.n} constrained from ${records.length} corpus games`, '');
