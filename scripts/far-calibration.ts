/**
 * How sure the far camera's model is when it is right and when it is wrong, on first games drawn from
 * one scan set of the first-edition print at 640×480 (cells 20–28 px): where the power it leads at
 * (cell-reader.ts `FAR_MODEL_LEADS_SHARPNESS`) is chosen. A far model trained on one scan set
 * (`PRINT_SETS=c1-jcz npm run train:far` with `MODEL_NAME`) reading games drawn from the other is a
 * model reading a copy of its print it never saw, as at a real table; the committed model learnt
 * both sets, so its sureness on either overstates (docs/tracking-print.md, "The far camera's model's
 * sureness, on a copy it never saw").
 *
 *   npx tsx scripts/far-calibration.ts [--set c1-wiki] [--seeds 9201,9202] [--far-model FILE] [--cache DIR] [--figures wooden] [--figure-size real] [--large]
 *
 * Prints the tracker's outcome on the games, the far model's first constrained reading of each new
 * tile (right or wrong against the game's record, a symmetric tile's equal turns counted right),
 * every wrong reading's confidence, and per power how many right and wrong readings reach the
 * commit bar on the model's word alone (confidence^power ≥ 0.905; the tracker also weighs the
 * drawings' agreement and the edges, docs/tracking-print.md).
 *
 * The same for the figures (model-figure.ts `MODEL_FIGURE_SHARPNESS`): on each tile laid, the model's
 * best legal figure against the record's. The recordings' figures are the drawings every figure
 * reader learnt; `--figures wooden` draws them as real figures stand on a table, which none learnt
 * (pieces.ts `woodenFigureSvg`): the figures' copy they never saw. `--large`: the games at 1280×960
 * (cells 40–56 px: the default model reads the tiles, the far model tells the figures' kind).
 * `--figure-size real`: drawn figures as large as real ones, and the tracker's enrolled figures so
 * (pieces.ts `FigureSize`; wooden ones are always real-sized, and the flag sets the enrolled ones).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../engine/game/commands.js';
import { defaultCatalog } from '../engine/game/engine.js';
import { ROTATIONS } from '../engine/geometry/segments.js';
import { sameUpToSymmetry } from '../models/classes.js';
import { FAR_MODEL } from '../models/runner.js';
import { generateRecording } from '../models/scene/generate.js';
import { writeRecording } from '../models/scene/recording.js';
import { PRINT_SETS, printFacesByTile } from '../models/synth/print-faces.js';
import type { FarRead } from '../models/track/cell-reader.js';
import type { FigureRead } from '../models/track/model-figure.js';
import { replayRecording, wrongFigureCommit } from '../models/track/replay.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const set = arg('--set') ?? 'c1-wiki';
if (!(PRINT_SETS as readonly string[]).includes(set)) {
  console.error(`far-calibration: --set ${set}: not a scan set (${PRINT_SETS.join(', ')})`);
  process.exit(2);
}
const seeds = (arg('--seeds') ?? '9201,9202').split(',').map(Number);
if (seeds.some((s) => !Number.isInteger(s))) {
  console.error(`far-calibration: --seeds ${arg('--seeds')}: give whole numbers, comma-separated`);
  process.exit(2);
}
const large = process.argv.includes('--large');
const figures = arg('--figures') ?? 'drawn';
if (figures !== 'drawn' && figures !== 'wooden') {
  console.error(`far-calibration: --figures ${figures}: drawn or wooden`);
  process.exit(2);
}
const figureSize = arg('--figure-size') ?? 'drawing';
if (figureSize !== 'drawing' && figureSize !== 'real') {
  console.error(`far-calibration: --figure-size ${figureSize}: drawing or real`);
  process.exit(2);
}
const farModelFile = arg('--far-model') ?? FAR_MODEL;
if (!existsSync(farModelFile)) {
  console.error(`far-calibration: --far-model ${farModelFile}: no such file`);
  process.exit(2);
}
// The games' recordings are kept in --cache for the next run; without it they go with the run.
const cache = arg('--cache') ?? mkdtempSync(join(tmpdir(), 'far-calibration-'));
if (!arg('--cache')) process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
/** The bar a lead's confidence raised to the power must reach (the tracker commits from 0.9; the powers' notes take 0.905). */
const COMMIT = 0.905;
const POWERS = [1, 2, 3, 5, 10, 20, 40];

const catalog = defaultCatalog();
const faces = await printFacesByTile(catalog.all().map((t) => t.id), set);
const reads: { read: FarRead; truth: string; right: boolean }[] = [];
/** Each tile's figure reading: the model's best and how sure, against the record's figure (null: a bare tile). */
const figureReads: { best: string | null; p: number; pAll: number; truth: string | null }[] = [];
let moves = 0, exact = 0, tiles = 0, wrong = 0, asked = 0;
const figureOutcomes = { exact: 0, asked: 0, missed: 0, wrong: 0 };
const figureName = (c: Command | undefined | null) => (c?.type === 'placeMeeple' ? `${c.kind} on ${c.on}` : null);
for (const seed of seeds) {
  const dir = join(cache, `${set}-${seed}${large ? '-large' : ''}${figures === 'wooden' ? '-wooden' : figureSize === 'real' ? '-real' : ''}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    mkdirSync(dir, { recursive: true });
    const g = await generateRecording({ seed, style: 'c3', faces, art: set, expansions: ['base', 'river', 'inns-cathedrals'], edition: 'C1', figures, figureSize, ...(large ? { width: 1280, height: 960 } : {}) });
    writeRecording(dir, g.manifest, g.frames, g.record);
  }
  const first = new Map<string, FarRead>();
  const figureAt = new Map<string, FigureRead>();
  const r = await replayRecording(dir, {
    farModelFile,
    figureSize,
    onFarRead: (read) => { const k = `${read.x},${read.y}`; if (!first.has(k)) first.set(k, read); },
    onFigureRead: (read) => { const k = `${read.x},${read.y}`; if (!figureAt.has(k)) figureAt.set(k, read); },
  });
  moves += r.cameraMoves;
  exact += r.exact;
  for (const o of r.outcomes) {
    if (o.truth?.type === 'placeMeeple' || (o.result === 'extra' && o.got?.type === 'placeMeeple')) {
      if (wrongFigureCommit(o)) figureOutcomes.wrong++;
      else if (o.result === 'exact') figureOutcomes.exact++;
      else if (o.result === 'unsure' || o.result === 'refused') figureOutcomes.asked++;
      else if (o.result === 'missed') figureOutcomes.missed++;
    }
    if (o.truth?.type !== 'placeTile' && o.truth?.type !== 'placePrizeTile') continue;
    tiles++;
    if (o.result === 'wrong') wrong++;
    if (o.result === 'unsure' || o.result === 'refused') asked++;
  }
  const commands = r.game.commands;
  for (const [i, c] of commands.entries()) {
    if (c.type !== 'placeTile') continue;
    const seen = figureAt.get(`${c.at[0]},${c.at[1]}`);
    if (seen) {
      // The figure put on this tile: a placeMeeple before the turn ends.
      let j = i + 1;
      while (j < commands.length && commands[j]!.type !== 'placeMeeple' && commands[j]!.type !== 'endTurn' && commands[j]!.type !== 'placeTile') j++;
      const truth = figureName(commands[j]);
      const best = figureName(seen.model[0]?.command);
      figureReads.push({ best, p: seen.model[0]?.p ?? 0, pAll: seen.model.reduce((a, m) => a + m.p, 0), truth });
    }
    const read = first.get(`${c.at[0]},${c.at[1]}`);
    if (!read) continue;
    const right = read.tile === c.tile && sameUpToSymmetry(catalog.get(c.tile)!, ROTATIONS.indexOf(read.rot), ROTATIONS.indexOf(c.rot));
    reads.push({ read, truth: `${c.tile}/${c.rot}`, right });
  }
}
const pct = (a: number, n: number) => ((100 * a) / Math.max(1, n)).toFixed(1);
console.log(`far model ${farModelFile} on ${set} games ${seeds.join(',')}: moves exact: ${pct(exact, moves)} % (${exact}/${moves}), tiles committed wrong ${wrong}, left to the table ${asked} of ${tiles}`);
const wrongs = reads.filter((r) => !r.right).sort((a, b) => b.read.confidence - a.read.confidence);
console.log(`far readings: ${reads.length}, right ${reads.length - wrongs.length}, wrong ${wrongs.length}`);
for (const w of wrongs) console.log(`  wrong: ${w.read.tile}/${w.read.rot} for ${w.truth} at ${w.read.confidence.toFixed(5)}`);
for (const p of POWERS) {
  const bar = COMMIT ** (1 / p);
  console.log(`power ${p} (confidence ≥ ${bar.toFixed(5)}): right ${reads.filter((r) => r.right && r.read.confidence >= bar).length}, wrong ${wrongs.filter((r) => r.read.confidence >= bar).length}`);
}

// The figures: the model's best legal figure on each tile laid, right where the record put that figure there.
const withFigure = figureReads.filter((f) => f.truth !== null), bare = figureReads.filter((f) => f.truth === null);
const figureWrongs = withFigure.filter((f) => f.best !== f.truth).sort((a, b) => b.p - a.p);
console.log(`figures (${figures}): tracker exact ${figureOutcomes.exact}, asked ${figureOutcomes.asked}, missed ${figureOutcomes.missed}, committed wrong ${figureOutcomes.wrong}`);
console.log(`figure readings: ${withFigure.length} tiles with a figure, the model's best right on ${withFigure.length - figureWrongs.length}; ${bare.length} bare tiles, the model's figure moves together at most ${Math.max(0, ...bare.map((f) => f.pAll)).toFixed(3)}`);
const rightP = withFigure.filter((f) => f.best === f.truth).map((f) => f.p).sort((a, b) => a - b);
if (rightP.length) console.log(`  right: p median ${rightP[Math.floor(rightP.length / 2)]!.toFixed(3)}, lowest ${rightP[0]!.toFixed(3)}; ${rightP.filter((p) => p < 0.5).length} under 0.5`);
for (const w of figureWrongs) console.log(`  wrong: ${w.best ?? 'none'} for ${w.truth} at ${w.p.toFixed(4)}`);
for (const p of POWERS) {
  const bar = COMMIT ** (1 / p);
  console.log(`figure power ${p} (p ≥ ${bar.toFixed(5)}): right ${withFigure.filter((f) => f.best === f.truth && f.p >= bar).length}, wrong ${figureWrongs.filter((f) => f.p >= bar).length}, on a bare tile ${bare.filter((f) => f.p >= bar).length}`);
}
