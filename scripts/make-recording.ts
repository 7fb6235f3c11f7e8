/** `tsx scripts/make-recording.ts DIR --seed N [--turns T] [--style c2]`: writes a synthetic recording. */
import { generateRecording } from '../models/scene/generate.js';
import { writeRecording } from '../models/scene/recording.js';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!dir) {
  console.error('usage: tsx scripts/make-recording.ts DIR --seed N [--turns T] [--style NAME] [--quality Q] [--width W --height H]');
  process.exit(2);
}
const t0 = Date.now();
const seed = Number(opt('seed') ?? 1);
const turns = opt('turns');
const { manifest, frames, record } = await generateRecording({
  seed, ...(turns ? { maxTurns: Number(turns) } : {}), ...(opt('style') ? { style: opt('style')! } : {}),
  ...(opt('quality') ? { jpegQuality: Number(opt('quality')) } : {}),
  ...(opt('width') ? { width: Number(opt('width')) } : {}), ...(opt('height') ? { height: Number(opt('height')) } : {}),
});
writeRecording(dir, manifest, frames, record);
const bytes = frames.reduce((s, f) => s + f.length, 0);
console.log(`${dir}: ${frames.length} frames, ${manifest.visits.length} visits, ${(bytes / 1e6).toFixed(2)} MB, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
