/**
 * `tsx scripts/make-recording.ts DIR --seed N [--turns T] [--style c2] [--art realart|c1-jcz]
 * [--edition C1|C2|C3] [--expansions base,river,…]`: writes a synthetic recording. `--art` draws the
 * tiles from scans instead of the renderer: `realart` the second-edition scans (tests/fixtures/realart),
 * `c1-jcz` the first-edition print (models/train/print).
 */
import { defaultCatalog } from '../engine/game/engine.js';
import type { ExpansionId } from '../engine/catalog/types.js';
import { realFacesByTile } from '../models/eval/realart.js';
import { generateRecording } from '../models/scene/generate.js';
import { printFacesByTile } from '../models/synth/print-faces.js';
import { writeRecording } from '../models/scene/recording.js';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!dir) {
  console.error('usage: tsx scripts/make-recording.ts DIR --seed N [--turns T] [--style NAME] [--quality Q] [--width W --height H] [--art realart|c1-jcz] [--edition C1|C2|C3] [--expansions LIST]');
  process.exit(2);
}
const t0 = Date.now();
const seed = Number(opt('seed') ?? 1);
const turns = opt('turns');
const art = opt('art');
if (art !== undefined && art !== 'realart' && art !== 'c1-jcz') {
  console.error(`--art ${art}: not an art this script knows (realart, c1-jcz)`);
  process.exit(2);
}
const ids = defaultCatalog().all().map((t) => t.id);
const faces = art === 'realart' ? await realFacesByTile(ids) : art === 'c1-jcz' ? await printFacesByTile(ids) : undefined;
const { manifest, frames, record } = await generateRecording({
  seed, ...(turns ? { maxTurns: Number(turns) } : {}), ...(opt('style') ? { style: opt('style')! } : {}),
  ...(opt('quality') ? { jpegQuality: Number(opt('quality')) } : {}),
  ...(opt('width') ? { width: Number(opt('width')) } : {}), ...(opt('height') ? { height: Number(opt('height')) } : {}),
  ...(faces ? { faces, art } : {}),
  ...(opt('edition') ? { edition: opt('edition') as 'C1' | 'C2' | 'C3' } : {}),
  ...(opt('expansions') ? { expansions: opt('expansions')!.split(',') as ExpansionId[] } : {}),
});
writeRecording(dir, manifest, frames, record);
const bytes = frames.reduce((s, f) => s + f.length, 0);
console.log(`${dir}: ${frames.length} frames, ${manifest.visits.length} visits, ${(bytes / 1e6).toFixed(2)} MB, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
