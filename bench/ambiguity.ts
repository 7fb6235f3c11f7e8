/**
 * `npm run --silent bench:ambiguity`: the in-style crops of `bench:recognition` that no reader can
 * read right (by default its first 3 000 raw crops and the first 30 corpus games, the earlier bench's
 * sets; the whole bench would take several times as long). Each crop's scene is drawn again with every look-alike in the cell (a tile type and turn
 * with the same edge terrain: another mark, a pennant more or less, a garden, a tower foundation),
 * drawn with the same decorations, under the same figures and hand, in the same light and noise,
 * JPEG-compressed in the same mosaic. Where that crop is the same as the real one byte for byte, the
 * figure or the hand hides everything that tells the two apart.
 *
 * Such a crop was as likely to come from either tile, so a reader must lose some of them: the floor
 * is, per crop, one minus the largest share of the readings that give exactly this crop (shares by
 * the benchmark's own odds: tile types and turns equally likely for the raw set; the remaining
 * copies of each type, among those the rules allow at the cell, for the constrained set; and how
 * likely the figure's spot is on each tile). A reader told everything about the scene but the tile
 * — and none is told more — still makes that many mistakes in expectation, so the floor bounds what
 * any reader can reach on these sets from below. Prints `name: value unit` lines.
 */
import { TileCatalog } from '../engine/catalog/registry.js';
import type { TileType } from '../engine/catalog/types.js';
import { placementProblem, tileProblem } from '../engine/game/placement.js';
import { sameUpToSymmetry, symmetryTurns, turnedSegments } from '../models/classes.js';
import { decodeReading, rawBest } from '../models/decode.js';
import { corpusPlacements, corpusRecords, forEachPlacement } from '../models/eval/corpus.js';
import { cropSet, type FaceTurn } from '../models/eval/crop-sets.js';
import { layoutTile } from '../models/render/layout.js';
import { pick } from '../models/render/random.js';
import { rasterise } from '../models/render/rasterise.js';
import { TRAIN_STYLES } from '../models/render/styles.js';
import { tileSvg } from '../models/render/svg.js';
import { TileRecognizer, type CropReading } from '../models/runner.js';
import { decodeWithSecondLook } from '../models/second-look.js';
import { DEFAULT_CROP, type CropLabels, type CropOptions, type SynthWorld, type TileFace } from '../models/synth/crop.js';
import { BENCH_SEED, EVAL_VARIANTS } from '../models/synth/splits.js';
import { FACE_PX, faceVariant, makeWorld, renderFaces, renderSprites } from '../models/synth/world.js';

const RAW_CROPS = Number(process.env.BENCH_CROPS ?? 3000);
const GAMES = Number(process.env.BENCH_GAMES ?? 30);
/** A pixel "visibly different" in the looser count: some channel differs by more than this. */
const VISIBLE = 24;

const rec = await TileRecognizer.load();
const catalog = TileCatalog.classic();
const tiles = rec.info.tiles.map((id) => catalog.get(id)!);
const S = rec.size;
const options: CropOptions = { ...DEFAULT_CROP, size: S };
const sprites = await renderSprites();
const layouts = tiles.map((t) => layoutTile(t));
const print = (name: string, value: string, unit: string) => console.log(`${name}: ${value} ${unit}`);
const pct = (a: number, n: number) => ((100 * a) / n).toFixed(2);

// The bench's in-style faces, and where each came from (renderFaces draws tile by style by variant).
const faces = await renderFaces(tiles, TRAIN_STYLES, EVAL_VARIANTS);
const origin = new Map<TileFace, { si: number; variant: number }>();
{
  let k = 0;
  tiles.forEach((_, ti) =>
    TRAIN_STYLES.forEach((_, si) =>
      EVAL_VARIANTS.forEach((v) => {
        const f = faces[k++]!;
        if (f.tileIndex !== ti) throw new Error('renderFaces no longer draws tile by style by variant');
        origin.set(f, { si, variant: faceVariant(v, si, ti) });
      }),
    ),
  );
}
const world = makeWorld(tiles, sprites, faces);

/** Tile `ti` drawn as `face` was drawn (style, decorations), turned to `q` in the crop. */
const drawings = new Map<string, TileFace>();
async function lookAlikeFace(face: TileFace, ti: number): Promise<TileFace> {
  if (ti === face.tileIndex) return face;
  const o = origin.get(face)!;
  const key = `${ti}/${o.si}/${o.variant}`;
  let f = drawings.get(key);
  if (!f) {
    f = { image: await rasterise(tileSvg(tiles[ti]!, TRAIN_STYLES[o.si]!, { variant: o.variant }), FACE_PX), tileIndex: ti, baseQ: 0 };
    drawings.set(key, f);
  }
  return f;
}

interface Hypothesis {
  readonly ti: number;
  readonly q: number;
}
/** Every tile type and turn with these edges in the crop, this one included. */
const bySegments = new Map<string, Hypothesis[]>();
tiles.forEach((t, ti) => {
  for (let q = 0; q < 4; q++) {
    const key = turnedSegments(t, q).join();
    bySegments.set(key, [...(bySegments.get(key) ?? []), { ti, q }]);
  }
});
const sameEdges = (h: Hypothesis) => bySegments.get(turnedSegments(tiles[h.ti]!, h.q).join())!;

/** The chance that the synthesizer puts a figure on catalog segment `seg` of `tile` (crop.ts chooseMeepleSegment). */
function spotChance(tile: TileType, seg: number): number {
  const interior = tile.features.some((f) => f.kind === 'cloister' || f.kind === 'garden' || f.kind === 'tower');
  const features = tile.features.filter((f) => f.segments.length > 0 || f.kind === 'cloister' || f.kind === 'garden');
  let p = 0;
  for (const f of features) {
    if (f.segments.length === 0) p += (interior ? (seg === 12 ? 1 : 0) : [0, 4, 7, 10].includes(seg) ? 0.25 : 0) / features.length;
    else if (f.segments.includes(seg)) p += 1 / features.length / f.segments.length;
  }
  return p;
}
const abbotHome = (tile: TileType) => tile.features.some((f) => f.kind === 'cloister' || f.kind === 'garden');
/** Where a figure on catalog segment `seg` stands in the crop, tile turned `q` (tile units from the centre). */
function spotInCrop(ti: number, seg: number, q: number): [number, number] {
  const p = layouts[ti]!.meepleSpots[seg]!;
  let x = (p[0] - 50) / 100, y = (p[1] - 50) / 100;
  for (let k = 0; k < q; k++) [x, y] = [-y, x];
  return [x, y];
}
/**
 * How likely this crop's figure (none, or its crop-frame segment) is with hypothesis `h` in the cell,
 * 0 where `h` cannot put a figure just there (another spot, or an abbot where `h` has no home for one).
 */
function figureOdds(h: Hypothesis, truth: Hypothesis, l: CropLabels): number {
  if (!l.meeple) return 1;
  const m = l.meepleSegment;
  const seg = (q: number) => (m === 12 ? 12 : (((m - 3 * q) % 12) + 12) % 12);
  const p = spotChance(tiles[h.ti]!, seg(h.q));
  if (p === 0) return 0;
  if (m === 12 && abbotHome(tiles[h.ti]!) !== abbotHome(tiles[truth.ti]!)) return 0;
  const a = spotInCrop(h.ti, seg(h.q), h.q), b = spotInCrop(truth.ti, seg(truth.q), truth.q);
  return Math.hypot(a[0] - b[0], a[1] - b[1]) <= 0.01 ? p : 0;
}

/** A reading: the tile and its turn up to the tile's symmetry. */
const readingKey = (h: Hypothesis) => `${h.ti}@${Math.min(...symmetryTurns(tiles[h.ti]!).map((s) => (h.q + s) % 4))}`;

interface Case {
  readonly truth: Hypothesis;
  readonly face: TileFace;
  readonly labels: CropLabels;
  /** Other hypotheses to draw, with their odds before the figure (1, or the remaining copies). */
  readonly others: { h: Hypothesis; odds: number }[];
  readonly truthOdds: number;
}
interface Verdict {
  /** Readings that give exactly this crop, the truth's included. */
  readonly readings: number;
  readonly floor: number;
  /** Some other reading's crop differs from this one in at most 2 visibly different pixels. */
  readonly near: boolean;
  /** Per other reading drawn: the fewest visibly different pixels of its crops from this one. */
  readonly visible: Map<string, number>;
}

/** Draws every case's hypotheses in layers (one full set per layer, so each JPEG mosaic is the bench's). */
async function verdicts(n: number, seed: number, crops: readonly Uint8Array[], cases: readonly (Case | null)[], fixed?: (i: number) => FaceTurn): Promise<Verdict[]> {
  const same = cases.map((c) => (c ? [{ h: c.truth, w: c.truthOdds * figureOdds(c.truth, c.truth, c.labels) }] : []));
  const near = cases.map(() => false);
  const visibleBy = cases.map(() => new Map<string, number>());
  const drawnFaces = await Promise.all(cases.map(async (c) => (c ? Promise.all(c.others.map((o) => lookAlikeFace(c.face, o.h.ti))) : [])));
  const layers = Math.max(0, ...cases.map((c) => c?.others.length ?? 0));
  for (let k = 0; k < layers; k++) {
    const set = await cropSet(world, n, seed, options, fixed, (i) => {
      const o = cases[i]?.others[k];
      return o ? { face: drawnFaces[i]![k]!, q: o.h.q } : null;
    });
    cases.forEach((c, i) => {
      const o = c?.others[k];
      if (!c || !o) return;
      const a = crops[i]!, b = set.crops[i]!;
      let visible = 0, identical = true;
      for (let p = 0; p < a.length; p += 3) {
        const d = Math.max(Math.abs(a[p]! - b[p]!), Math.abs(a[p + 1]! - b[p + 1]!), Math.abs(a[p + 2]! - b[p + 2]!));
        if (d > 0) identical = false;
        if (d > VISIBLE) visible++;
      }
      const key = readingKey(o.h);
      if (key !== readingKey(c.truth)) visibleBy[i]!.set(key, Math.min(visible, visibleBy[i]!.get(key) ?? Infinity));
      const w = o.odds * figureOdds(o.h, c.truth, c.labels);
      if (w === 0) return;
      if (identical) same[i]!.push({ h: o.h, w });
      if (visible <= 2 && readingKey(o.h) !== readingKey(c.truth)) near[i] = true;
    });
  }
  return same.map((list, i) => {
    const mass = new Map<string, number>();
    for (const { h, w } of list) mass.set(readingKey(h), (mass.get(readingKey(h)) ?? 0) + w);
    const total = [...mass.values()].reduce((a, b) => a + b, 0);
    return { readings: mass.size, floor: total > 0 ? 1 - Math.max(...mass.values()) / total : 0, near: near[i]!, visible: visibleBy[i]! };
  });
}

/** How many visibly different pixels separate a crop from its look-alike's, in bins. */
const BINS = [0, 2, 5, 10, 20, 40, Infinity];
function histogram(values: readonly number[]): string {
  const counts = BINS.map(() => 0);
  for (const v of values) counts[BINS.findIndex((b) => v <= b)]!++;
  return BINS.map((b, k) => `${k === 0 ? '0' : BINS[k - 1]! + 1 + (b === Infinity ? '+' : `–${b}`)}: ${counts[k]}`).join(', ');
}

function summary(set: string, cases: readonly Case[], verdict: readonly Verdict[], wrong: readonly boolean[], n: number, target: number, misread: readonly (string | null)[]) {
  const amb = verdict.filter((v) => v.readings > 1).length;
  const floor = verdict.reduce((a, v) => a + v.floor, 0);
  const wrongOn = verdict.filter((v, i) => v.readings > 1 && wrong[i]).length;
  const nearN = verdict.filter((v) => v.near).length;
  const mistakes = wrong.filter(Boolean).length;
  print(`${set}: crops the same as a look-alike's, byte for byte`, `${amb} of ${n}`, 'crops');
  print(`${set}: mistakes any reader makes on them (expected)`, floor.toFixed(1), `mistakes (the ${target} % target allows ${((n * (100 - target)) / 100).toFixed(1)})`);
  print(`${set}: best reachable`, pct(n - floor, n), '%');
  print(`${set}: committed model's mistakes on those crops`, `${wrongOn} of its ${mistakes}`, '');
  print(`${set}: crops within 2 visibly different pixels of a look-alike's (looser)`, `${nearN} of ${n}`, 'crops');
  // The model's mistakes that are a look-alike: how much of the difference the crop still showed.
  const shown = verdict.flatMap((v, i) => (wrong[i] && misread[i] && v.visible.has(misread[i]!) ? [v.visible.get(misread[i]!)!] : []));
  print(`${set}: committed model's mistakes for a look-alike, by visibly different pixels (of ${S * S}) between the two crops`, `${shown.length} mistakes (${histogram(shown)})`, '');
  // BENCH_LIST=1: each of the model's mistakes on stderr — the truth, the reading, what the crop showed.
  if (process.env.BENCH_LIST)
    verdict.forEach((v, i) => {
      if (!wrong[i]) return;
      const [ti, q] = (misread[i] ?? '-1@0').split('@').map(Number);
      const read = ti! >= 0 ? `${tiles[ti!]!.id}@${q! * 90}` : 'nothing';
      const c = cases[i]!;
      const pixels = misread[i] && v.visible.has(misread[i]!) ? `${v.visible.get(misread[i]!)} visibly different pixels` : 'not a look-alike';
      console.error(`${set}: ${tiles[c.truth.ti]!.id}@${c.truth.q * 90} read as ${read}; ${pixels}; ${c.labels.meeple ? 'figure' : ''}${c.labels.hand ? ' hand' : ''}`);
    });
  const all = verdict.flatMap((v) => (v.visible.size ? [Math.min(...v.visible.values())] : []));
  print(`${set}: every crop with a look-alike, by visibly different pixels from its closest`, `${all.length} crops (${histogram(all)})`, '');
}

// Raw: the recognition bench's in-style set, drawn again with the centre faces noted.
const picked: TileFace[] = [];
const noting: SynthWorld = { ...world, centreFace: (r) => { const f = pick(r, faces); picked.push(f); return f; } };
const raw = await cropSet(noting, RAW_CROPS, BENCH_SEED, options);
const rawCases: (Case | null)[] = [];
{
  let p = 0;
  for (const l of raw.labels) {
    if (!l.present) {
      rawCases.push(null);
      continue;
    }
    const truth = { ti: l.tileIndex, q: l.q };
    const others = sameEdges(truth).filter((h) => h.ti !== truth.ti || h.q !== truth.q).map((h) => ({ h, odds: 1 }));
    rawCases.push({ truth, face: picked[p++]!, labels: l, others, truthOdds: 1 });
  }
}
const rawReadings: CropReading[] = [];
for (let i = 0; i < raw.crops.length; i += 256) rawReadings.push(...(await rec.readPrepared(raw.crops.slice(i, i + 256))));
const rawVerdicts = await verdicts(RAW_CROPS, BENCH_SEED, raw.crops, rawCases);
const present = rawCases.flatMap((c, i) => (c ? [i] : []));
const rawBests = present.map((i) => rawBest(rawReadings[i]!, rec.info));
const rawWrong = present.map((i, k) => {
  const c = rawCases[i]!;
  return !(rawBests[k]!.tileId === tiles[c.truth.ti]!.id && sameUpToSymmetry(tiles[c.truth.ti]!, rawBests[k]!.rot / 90, c.truth.q));
});
const asKey = (b: { tileId: string; rot: number }) => readingKey({ ti: rec.info.tiles.indexOf(b.tileId), q: b.rot / 90 });
summary('in-style type+rotation', present.map((i) => rawCases[i]!), present.map((i) => rawVerdicts[i]!), rawWrong, present.length, 99.5, rawBests.map(asKey));

// Constrained: every placement of the first corpus games, in its real game state, as the bench decodes it.
const records = corpusRecords(GAMES);
const spots = corpusPlacements(records).map((p) => ({ ti: rec.info.tiles.indexOf(p.tile), q: p.q }));
const byTile = new Map<number, TileFace[]>();
for (const f of faces) byTile.set(f.tileIndex, [...(byTile.get(f.tileIndex) ?? []), f]);
const fixed = (i: number): FaceTurn => {
  const list = byTile.get(spots[i]!.ti)!;
  return { face: list[i % list.length]!, q: spots[i]!.q };
};
const con = await cropSet(world, spots.length, BENCH_SEED + 1, options, fixed);
const conReadings: CropReading[] = [];
for (let i = 0; i < con.crops.length; i += 256) conReadings.push(...(await rec.readPrepared(con.crops.slice(i, i + 256))));
const conCases: Case[] = [];
const conWrong: boolean[] = [];
const conMisread: (string | null)[] = [];
await forEachPlacement(records, async ({ index: k, state, tile, at }) => {
  const truth = spots[k]!;
  const copies = (ti: number) => state.supply.get(tiles[ti]!.id) ?? 0;
  const legal = (h: Hypothesis) => copies(h.ti) > 0 && !tileProblem(state, tiles[h.ti]!) && !placementProblem(state, catalog.view(tiles[h.ti]!.id, h.q), at[0], at[1]);
  const others = sameEdges(truth).filter((h) => (h.ti !== truth.ti || h.q !== truth.q) && legal(h)).map((h) => ({ h, odds: copies(h.ti) }));
  conCases.push({ truth, face: fixed(k).face, labels: con.labels[k]!, others, truthOdds: copies(truth.ti) });
  const decode = (r: CropReading) => decodeReading(r, rec.info, catalog, { state, at }, {});
  const d = (await decodeWithSecondLook(rec, con.crops[k]!, conReadings[k]!, decode)).decoded;
  conWrong.push(!(d.best && d.best.tileId === tile && sameUpToSymmetry(tiles[truth.ti]!, d.best.rot / 90, truth.q)));
  conMisread.push(d.best ? asKey(d.best) : null);
});
const conVerdicts = await verdicts(spots.length, BENCH_SEED + 1, con.crops, conCases, fixed);
summary('in-style constrained', conCases, conVerdicts, conWrong, spots.length, 99.9, conMisread);
print('look-alike drawings made', String(drawings.size), '');
