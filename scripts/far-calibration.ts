/**
 * How sure the far camera's model is when it is right and when it is wrong, on first games drawn from
 * one scan set of the first-edition print at 640×480 (cells 20–28 px): where the power it leads at
 * (cell-reader.ts `FAR_MODEL_LEADS_SHARPNESS`) is chosen. A far model trained on one scan set
 * (`PRINT_SETS=c1-jcz npm run train:far` with `MODEL_NAME`) reading games drawn from the other is a
 * model reading a copy of its print it never saw, as at a real table; the committed model learnt
 * both sets, so its sureness on either overstates (docs/tracking.md, "The far camera's model's
 * sureness, on a copy it never saw").
 *
 *   npx tsx scripts/far-calibration.ts [--set c1-wiki] [--seeds 9201,9202] [--far-model FILE] [--cache DIR]
 *
 * Prints the tracker's outcome on the games, the far model's first constrained reading of each new
 * tile (right or wrong against the game's record, a symmetric tile's equal turns counted right),
 * every wrong reading's confidence, and per power how many right and wrong readings reach the
 * commit bar on the model's word alone (confidence^power ≥ 0.905; the tracker also weighs the
 * drawings' agreement and the edges, docs/tracking.md).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCatalog } from '../engine/game/engine.js';
import { ROTATIONS } from '../engine/geometry/segments.js';
import { sameUpToSymmetry } from '../models/classes.js';
import { FAR_MODEL } from '../models/runner.js';
import { generateRecording } from '../models/scene/generate.js';
import { writeRecording } from '../models/scene/recording.js';
import { PRINT_SETS, printFacesByTile } from '../models/synth/print-faces.js';
import type { FarRead } from '../models/track/cell-reader.js';
import { replayRecording } from '../models/track/replay.js';

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
let moves = 0, exact = 0, tiles = 0, wrong = 0, asked = 0;
for (const seed of seeds) {
  const dir = join(cache, `${set}-${seed}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    mkdirSync(dir, { recursive: true });
    const g = await generateRecording({ seed, style: 'c3', faces, art: set, expansions: ['base', 'river', 'inns-cathedrals'], edition: 'C1' });
    writeRecording(dir, g.manifest, g.frames, g.record);
  }
  const first = new Map<string, FarRead>();
  const r = await replayRecording(dir, { farModelFile, onFarRead: (read) => { const k = `${read.x},${read.y}`; if (!first.has(k)) first.set(k, read); } });
  moves += r.cameraMoves;
  exact += r.exact;
  for (const o of r.outcomes) {
    if (o.truth?.type !== 'placeTile' && o.truth?.type !== 'placePrizeTile') continue;
    tiles++;
    if (o.result === 'wrong') wrong++;
    if (o.result === 'unsure' || o.result === 'refused') asked++;
  }
  for (const c of r.game.commands) {
    if (c.type !== 'placeTile') continue;
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
