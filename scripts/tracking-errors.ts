/**
 * Where the tracker's non-exact moves come from, on freshly generated recordings:
 * `npm run --silent tracking:errors -- --seeds 7001,7002 [--style c1] [--turns 25] [--width 640 --height 480] [--art realart]`.
 * `--art realart` draws the tiles from the printed scans (a base + River + Inns & Cathedrals game,
 * the expansions the scans cover) while the tracker's profile still names `--style`: the tracker on
 * printed art. The scans are evaluation material; nothing may be tuned on these runs. `--art c1`
 * draws them from the first-edition scans instead (models/train/print/c1-jcz, C1 tile counts: no
 * gardens): training and tuning material, where the tracker's printed-art rules are tuned.
 * `--enroll-from SEED` first replays that game (same art and style) and gives the tracker one
 * picture per tile type from its final board (Tracker `boardPictures`), as a table that enrolled
 * its tiles before playing (the camera service pictures a finished game's board).
 * `--picture-at TURN[,TURN…]` has the board pictured between turns at those turns (the camera
 * screen's "Picture the board now"), the types on it read by their pictures for the rest of the game.
 * `--expansions base,river,inns-cathedrals` sets the game's expansions (default: the generator's,
 * base + The Tower + Jousts & Crests).
 * Every camera-readable move of the ground truth is put in one class (tile: type, rotation, cell,
 * right-but-unsure; figure: presence, extra, feature, kind, unsure), with the tile pairs confused.
 * Tuning uses seeds other than the benchmark's held-out ones (bench/tracking-game.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../engine/game/commands.js';
import { defaultCatalog } from '../engine/game/engine.js';
import type { GameSetup } from '../engine/game/setup.js';
import { realFacesByTile } from '../models/eval/realart.js';
import { printFacesByTile } from '../models/synth/print-faces.js';
import { generateRecording } from '../models/scene/generate.js';
import { writeRecording } from '../models/scene/recording.js';
import { replayRecording, sameMove, type MoveOutcome } from '../models/track/replay.js';
import { classifyOutcome } from '../models/track/errors.js';
import type { TilePicture } from '../models/track/templates.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const seeds = arg('seeds', '7001').split(',').map(Number);
const style = arg('style', 'c1');
const turns = arg('turns', '25');
const width = Number(arg('width', '640')), height = Number(arg('height', '480'));
const art = arg('art', '');
const expansions = arg('expansions', art ? 'base,river,inns-cathedrals' : '');
if (art && art !== 'realart' && art !== 'c1') throw new Error(`--art ${art}: realart (the second-edition scans) or c1 (the first-edition ones)`);
const ids = defaultCatalog().all().map((t) => t.id);
const printed = art === 'c1' ? await printFacesByTile(ids) : art ? await realFacesByTile(ids) : null;
const dir = mkdtempSync(join(tmpdir(), 'tracking-errors-'));
const counts = new Map<string, number>();
const pairs = new Map<string, number>();
let moves = 0, exact = 0, games = 0;
const recordingOf = async (seed: number) => {
  // With --cache DIR the recordings are kept and reused (tuning loops).
  const cache = arg('cache', '');
  const named = expansions && !art ? `${expansions.replaceAll(',', '+')}-` : '';
  const d = cache ? join(cache, `${art ? `${art}-as-` : ''}${named}${style}-${seed}-${turns}-${width}x${height}`) : join(dir, String(seed));
  if (!cache || !existsSync(join(d, 'manifest.json'))) {
    const g = await generateRecording({
      seed, style, width, height, ...(turns === 'full' ? {} : { maxTurns: Number(turns) }),
      ...(expansions ? { expansions: expansions.split(',') as GameSetup['expansions'] } : {}),
      ...(printed ? { faces: printed, art } : {}),
      ...(art === 'c1' ? { edition: 'C1' as const } : {}),
    });
    writeRecording(d, g.manifest, g.frames, g.record);
  }
  return d;
};
try {
  const enrollFrom = arg('enroll-from', '');
  let pictures: TilePicture[] | undefined;
  if (enrollFrom) {
    pictures = (await replayRecording(await recordingOf(Number(enrollFrom)))).tracker.boardPictures();
    console.log(`enrolled: ${pictures.length} tile types pictured from game ${enrollFrom}`);
  }
  for (const seed of seeds) {
    const d = await recordingOf(seed);
    const t0 = Date.now();
    const pictureAt = arg('picture-at', '');
    const r = await replayRecording(d, { ...(pictures ? { pictures } : {}), ...(pictureAt ? { pictureBoardAtTurns: pictureAt.split(',').map(Number) } : {}) });
    moves += r.cameraMoves;
    exact += r.exact;
    const scoresOk = r.scores.every((s, i) => s === r.truthScores[i]);
    if (scoresOk) games++;
    console.log(`seed ${seed}: ${r.exact}/${r.cameraMoves} exact, scores ${scoresOk ? 'exact' : `${r.scores} vs ${r.truthScores}`}, ${r.frames} frames, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    for (const o of r.outcomes) {
      const c = classifyOutcome(o);
      counts.set(c, (counts.get(c) ?? 0) + 1);
      if (o.result !== 'exact') {
        const pair = describe(o);
        pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
        if (process.env.VERBOSE) console.log(`  f${o.frame ?? '-'} ${c}: ${pair}`);
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`moves exact: ${exact}/${moves} (${((100 * exact) / Math.max(1, moves)).toFixed(1)} %), final scores exact ${games}/${seeds.length}`);
for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${k}: ${n}`);
console.log('confusions:');
for (const [k, n] of [...pairs].sort((a, b) => b[1] - a[1])) console.log(`  ${n} × ${k}`);

function describe(o: MoveOutcome): string {
  const s = (c: Command | null | undefined) => {
    if (!c) return 'nothing';
    if (c.type === 'placeTile' || c.type === 'placePrizeTile') return `${c.tile}/${c.rot}@${c.at.join(',')}`;
    if (c.type === 'placeMeeple') return `${c.kind} on ${c.on}`;
    return c.type;
  };
  const conf = o.confidence !== undefined ? ` (${o.confidence.toFixed(2)})` : '';
  return `${o.result}: truth ${s(o.truth)} got ${s(o.got)}${conf}${o.truth && o.got && sameMove(o.got, o.truth) ? ' [right]' : ''}`;
}
