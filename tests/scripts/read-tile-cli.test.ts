/** `npm run read-tile`, run as a user runs it: one line per file, a summary line, an exit status. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/.bin/tsx');
const photos = 'tests/fixtures/photos';

function readTile(...args: string[]) {
  const r = spawnSync(tsx, ['scripts/read-tile.ts', ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, out: r.stdout.trim().split('\n'), err: r.stderr };
}

/** `FILE: ID ROT CONF | ID ROT CONF | ID ROT CONF` → the readings. */
function readings(line: string, file: string) {
  expect(line.startsWith(`${file}: `)).toBe(true);
  const parts = line.slice(file.length + 2).split(' | ');
  expect(parts).toHaveLength(3);
  return parts.map((p) => {
    const m = /^([A-Z0-9_a-z]+) (0|90|180|270) (0\.\d\d|1\.00)$/.exec(p);
    expect(m, p).not.toBeNull();
    return { id: m![1]!, rot: Number(m![2]), conf: Number(m![3]) };
  });
}

// Each case starts the command (tsx, the model, OpenCV's WASM) once or more: seconds each on a quiet
// machine, much longer on a shared one.
describe('npm run read-tile', { timeout: 300_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'read-tile-'));
    writeFileSync(join(dir, 'notes.txt'), 'this is not an image\n');
    writeFileSync(join(dir, 'empty.jpg'), new Uint8Array(0));
    // A 16 MP phone photo: a committed photo scaled up to 4608 × 3456.
    await sharp(join(root, photos, 'base-d.jpg')).resize(4608, 3456).jpeg({ quality: 90 }).toFile(join(dir, 'big.jpg'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each photo: the three best readings, the right tile and rotation first; exit 0 when every file was read', () => {
    const files = ['base-d.jpg', 'base-p-hand.jpg', 'base-e.jpg'].map((f) => `${photos}/${f}`);
    const r = readTile(...files);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(4);
    const expected = [['BASE_D', 180], ['BASE_P', 270], ['BASE_E', 0]] as const;
    files.forEach((f, i) => {
      const rs = readings(r.out[i]!, f);
      expect([rs[0]!.id, rs[0]!.rot]).toEqual(expected[i]);
      expect(rs[0]!.conf).toBeGreaterThan(0.5);
      expect(rs[0]!.conf).toBeGreaterThanOrEqual(rs[1]!.conf);
      expect(rs[1]!.conf).toBeGreaterThanOrEqual(rs[2]!.conf);
    });
    expect(r.out[3]).toBe('3 read, 0 not read');
  });

  it('says why a file is not read and counts it: not an image, empty, no tile, missing; a 16 MP photo is read; exit 1', () => {
    const files = [join(dir, 'notes.txt'), join(dir, 'empty.jpg'), `${photos}/no-tile.jpg`, join(dir, 'missing.png'), join(dir, 'big.jpg')];
    const r = readTile('--edition', 'C2', '--expansions', 'base,river,abbot,inns-cathedrals,tower', ...files);
    expect(r.code).toBe(1);
    expect(r.out).toHaveLength(6);
    expect(r.out[0]).toBe(`${files[0]}: not read: not an image (neither JPEG, PNG nor another format this reader knows)`);
    expect(r.out[1]).toBe(`${files[1]}: not read: the file is empty`);
    expect(r.out[2]).toMatch(new RegExp(`^${files[2]}: not read: no tile found \\(.+\\)$`));
    expect(r.out[3]).toBe(`${files[3]}: not read: the file cannot be read (no such file)`);
    const big = readings(r.out[4]!, files[4]!);
    expect([big[0]!.id, big[0]!.rot]).toEqual(['BASE_D', 180]);
    expect(r.out[5]).toBe('1 read, 4 not read');
  });

  it('--scan reads a flat scan as it is, and candidates follow --edition and --expansions', () => {
    const scan = 'models/train/print/c1-jcz/BASE_D.jpg';
    const all = readTile('--scan', '--edition', 'C1', scan);
    expect(all.code).toBe(0);
    expect(readings(all.out[0]!, scan)[0]!.id).toBe('BASE_D');
    // With the River only, no base tile can be a reading.
    const river = readTile('--scan', '--edition', 'C1', '--expansions', 'river', scan);
    expect(river.code).toBe(0);
    for (const x of readings(river.out[0]!, scan)) expect(x.id).toMatch(/^RIVER_/);
  });

  it('exit 2 on bad arguments, naming what was wrong', () => {
    for (const [args, msg] of [
      [['--edition', 'C4', 'x.jpg'], '--edition takes one of C1, C2, C3, not "C4"'],
      [['--expansions', 'base,dragons', 'x.jpg'], 'unknown expansion "dragons"'],
      [[], 'no FILE given'],
    ] as const) {
      const r = readTile(...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(msg);
      expect(r.err).toContain('usage: npm run --silent read-tile');
    }
  });
});
