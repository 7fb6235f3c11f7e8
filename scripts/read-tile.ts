/**
 * `npm run --silent read-tile -- [--edition C1|C2|C3] [--expansions base,river,...] [--scan] FILE...`:
 * each photo's tile found, rectified and read without a game; one line per file
 * (`FILE: ID ROT CONF | ID ROT CONF | ID ROT CONF` or `FILE: not read: WHY`), then `N read, M not read`.
 * Exit status 0 when every file was read, 1 when some were not, 2 on bad arguments.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Edition } from '../engine/catalog/types.js';
import { PHOTO_EDITIONS, PHOTO_EXPANSIONS, readTilePhoto, type PhotoExpansion } from '../models/photo/read.js';
import { TileRecognizer } from '../models/runner.js';

const USAGE = `usage: npm run --silent read-tile -- [--edition ${PHOTO_EDITIONS.join('|')}] [--expansions ${PHOTO_EXPANSIONS.join(',')}] [--scan] FILE...`;

function bad(message: string): never {
  console.error(`read-tile: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

let edition: Edition = 'C2';
let expansions: PhotoExpansion[] = [...PHOTO_EXPANSIONS];
let scan = false;
const files: string[] = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--edition') {
    const v = args[++i];
    if (!v || !(PHOTO_EDITIONS as readonly string[]).includes(v)) bad(`--edition takes one of ${PHOTO_EDITIONS.join(', ')}${v ? `, not "${v}"` : ''}`);
    edition = v as Edition;
  } else if (a === '--expansions') {
    const v = args[++i];
    if (!v) bad('--expansions takes a comma-separated list');
    const list = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const unknown = list.filter((e) => !(PHOTO_EXPANSIONS as readonly string[]).includes(e));
    if (unknown.length > 0) bad(`unknown expansion ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${PHOTO_EXPANSIONS.join(', ')})`);
    if (list.length === 0) bad('--expansions names no expansion');
    expansions = list as PhotoExpansion[];
  } else if (a === '--scan') {
    scan = true;
  } else if (a.startsWith('--')) {
    bad(`unknown option ${a}`);
  } else {
    files.push(a);
  }
}
if (files.length === 0) bad('no FILE given');

const recognizer = await TileRecognizer.load();
let read = 0;
let notRead = 0;
for (const file of files) {
  let bytes: Uint8Array;
  try {
    if (statSync(file).isDirectory()) throw new Error('it is a directory');
    bytes = new Uint8Array(readFileSync(file));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    console.log(`${file}: not read: the file cannot be read (${err.code === 'ENOENT' ? 'no such file' : err.message})`);
    notRead++;
    continue;
  }
  const r = await readTilePhoto(recognizer, bytes, { edition, expansions, scan });
  if (!r.ok) {
    console.log(`${file}: not read: ${r.reason}`);
    notRead++;
    continue;
  }
  console.log(`${file}: ${r.value.readings.map((x) => `${x.tileId} ${x.rotation} ${x.confidence.toFixed(2)}`).join(' | ')}`);
  read++;
}
console.log(`${read} read, ${notRead} not read`);
process.exit(notRead > 0 ? 1 : 0);
