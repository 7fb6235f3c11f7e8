/**
 * `npm run --silent recording:baseline -- DIR`: rewrites a recording's video as baseline JPEGs,
 * losslessly (jpegtran keeps every DCT coefficient, so each frame decodes to the same pixels), because
 * Chromium's fake camera (--use-file-for-fake-video-capture) parses baseline frames only and shows no
 * camera at all for a progressive one. The generator's JPEG encoder (mozjpeg) writes progressive frames.
 * Needs jpegtran (Debian: libjpeg-turbo-progs); only for making recordings, not for tests.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { splitMjpeg, VIDEO_FILE } from '../models/scene/recording.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run --silent recording:baseline -- RECORDING_DIR');
  process.exit(2);
}
const path = join(dir, VIDEO_FILE);
const frames = [...splitMjpeg(new Uint8Array(readFileSync(path)))];
const out: Buffer[] = [];
for (const [i, f] of frames.entries()) {
  const b = execFileSync('jpegtran', ['-copy', 'none', '-optimize'], { input: f });
  const [before, after] = await Promise.all([sharp(f).raw().toBuffer(), sharp(b).raw().toBuffer()]);
  if (!before.equals(after)) throw new Error(`${path}: frame ${i} decodes differently after jpegtran; nothing written`);
  out.push(b);
}
writeFileSync(path, Buffer.concat(out));
console.log(`${path}: ${frames.length} frames rewritten as baseline JPEG, pixels unchanged`);
