import { mkdtempSync, readdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS, migrate } from '../../electron/services/store/migrations.js';
import { StoreError } from '../../electron/services/store/open.js';
import { Store } from '../../electron/services/store/store.js';

const dirs: string[] = [];
function tempFile(name = 'companion.sqlite'): string {
  const d = mkdtempSync(join(tmpdir(), 'companion-store-'));
  dirs.push(d);
  return join(d, name);
}
const open: Store[] = [];
function openStore(file: string): Store {
  const s = Store.open(file, { busyTimeoutMs: 100 });
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('migrations by user_version', () => {
  it('a new file is opened in WAL mode with synchronous=FULL at the latest version', () => {
    const s = openStore(tempFile());
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(s.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
  });

  it('migration 1 creates games and an append-only game_log', () => {
    const db = new Database(tempFile());
    migrate(db, 1);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(db)).toEqual(['game_log', 'games']);
    db.prepare("INSERT INTO games (created_at, setup_json) VALUES ('t', '{}')").run();
    db.prepare("INSERT INTO game_log VALUES (1, 1, 't', '{}', '[]')").run();
    expect(() => db.prepare("UPDATE game_log SET op_json = '{}'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM game_log').run()).toThrow(/append-only/);
    db.close();
  });

  it('migration 2 adds proposals and keeps the games of version 1', () => {
    const db = new Database(tempFile());
    migrate(db, 1);
    db.prepare("INSERT INTO games (created_at, setup_json) VALUES ('t', '{\"x\":1}')").run();
    migrate(db, 2);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(tables(db)).toContain('proposals');
    expect(db.prepare('SELECT setup_json FROM games').get()).toEqual({ setup_json: '{"x":1}' });
    expect(() => db.prepare("INSERT INTO proposals (game_id, created_at, source, payload_json, status) VALUES (1, 't', 'camera', '{}', 'maybe')").run()).toThrow(/CHECK/);
    db.close();
  });

  it('migration 3 adds calibration profiles and tile exemplars and keeps proposals of version 2', () => {
    const db = new Database(tempFile());
    migrate(db, 2);
    db.prepare("INSERT INTO games (created_at, setup_json) VALUES ('t', '{}')").run();
    db.prepare("INSERT INTO proposals (game_id, created_at, source, payload_json) VALUES (1, 't', 'camera', '{\"tile\":\"BASE_A\"}')").run();
    migrate(db, 3);
    expect(tables(db)).toEqual(expect.arrayContaining(['calibration_profiles', 'tile_exemplars']));
    expect(db.prepare('SELECT payload_json, status FROM proposals').get()).toEqual({ payload_json: '{"tile":"BASE_A"}', status: 'open' });
    db.close();
  });

  it('migration 4 adds append-only tile definitions and per-game pins, keeping the exemplars of version 3', () => {
    const db = new Database(tempFile());
    migrate(db, 3);
    db.prepare("INSERT INTO games (created_at, setup_json) VALUES ('t', '{}')").run();
    db.prepare("INSERT INTO tile_exemplars (tile_id, rot, created_at, source, image, mime) VALUES ('BASE_A', 0, 't', 'scan', x'00', 'image/png')").run();
    migrate(db, 4);
    expect(tables(db)).toEqual(expect.arrayContaining(['tile_definitions', 'game_tiles']));
    expect(db.prepare('SELECT tile_id FROM tile_exemplars').get()).toEqual({ tile_id: 'BASE_A' });
    db.prepare("INSERT INTO tile_definitions (tile_id, created_at, source, definition_json) VALUES ('JC-L-PLAIN', 't', 'settings', '{}')").run();
    db.prepare("INSERT INTO game_tiles VALUES (1, 'JC-L-PLAIN', 1)").run();
    expect(() => db.prepare("UPDATE tile_definitions SET definition_json = '[]'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM tile_definitions').run()).toThrow(/append-only/);
    expect(() => db.prepare("INSERT INTO game_tiles VALUES (1, 'JC-L-PLAIN', 2)").run()).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });

  it('migration 5 adds the table\'s settings, keeping the tile definitions of version 4', () => {
    const db = new Database(tempFile());
    migrate(db, 4);
    db.prepare("INSERT INTO tile_definitions (tile_id, created_at, source, definition_json) VALUES ('JC-L-PLAIN', 't', 'settings', '{}')").run();
    migrate(db, 5);
    expect(tables(db)).toContain('settings');
    expect(db.prepare('SELECT tile_id FROM tile_definitions').get()).toEqual({ tile_id: 'JC-L-PLAIN' });
    db.prepare("INSERT INTO settings VALUES ('a', 't', 'true')").run();
    expect(() => db.prepare("INSERT INTO settings VALUES ('a', 't', 'false')").run()).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });

  it('migration 6 adds the tiles the table taught, keeping the settings of version 5', () => {
    const db = new Database(tempFile());
    migrate(db, 5);
    db.prepare("INSERT INTO settings VALUES ('camera.askEverything', 't', 'true')").run();
    migrate(db, 6);
    expect(tables(db)).toContain('taught_tiles');
    expect(db.prepare('SELECT value_json FROM settings').get()).toEqual({ value_json: 'true' });
    db.prepare("INSERT INTO taught_tiles (tile_id, rot, created_at, edition, how, image, mime) VALUES ('BASE_D', 90, 't', 'C2', 'named by the table', x'00', 'image/jpeg')").run();
    expect(() => db.prepare("INSERT INTO taught_tiles (tile_id, rot, created_at, edition, how, image, mime) VALUES ('BASE_D', 45, 't', 'C2', 'x', x'00', 'image/jpeg')").run()).toThrow(/CHECK/);
    // Not append-only: the table deletes and retakes.
    expect(db.prepare('DELETE FROM taught_tiles').run().changes).toBe(1);
    db.close();
  });

  it('every migration is listed once, in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('an older database is copied aside before it is migrated', () => {
    const file = tempFile();
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    migrate(db, 1);
    db.prepare("INSERT INTO games (created_at, setup_json) VALUES ('t', '{}')").run();
    db.close();
    const s = openStore(file);
    expect(s.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    const backup = `${file}.pre-v${LATEST_VERSION}.bak`;
    expect(existsSync(backup)).toBe(true);
    const old = new Database(backup, { readonly: true });
    expect(old.pragma('user_version', { simple: true })).toBe(1);
    old.close();
  });

  it('a database from a newer app is refused, not downgraded', () => {
    const file = tempFile();
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    expect(() => Store.open(file)).toThrow(/newer than this app/);
  });
});

describe('what the store keeps', () => {
  it('keeps a game log in order, and camera proposals apart from it', () => {
    const s = openStore(tempFile());
    const g = s.createGame({ players: [{ name: 'Ada' }, { name: 'Bo' }] });
    s.append(g, [{ op: { op: 'play', n: 1 }, events: [{ type: 'a' }] }]);
    s.append(g, [{ op: { op: 'play', n: 2 }, events: [] }, { op: { op: 'undo' }, events: [] }]);
    const p = s.addProposal(g, 'camera', { tile: 'BASE_A', at: [1, 0], rot: 90 });
    expect(s.log(g).map((e) => [e.seq, e.op])).toEqual([
      [1, { op: 'play', n: 1 }],
      [2, { op: 'play', n: 2 }],
      [3, { op: 'undo' }],
    ]);
    expect(s.openProposals(g).map((x) => x.payload)).toEqual([{ tile: 'BASE_A', at: [1, 0], rot: 90 }]);
    s.decideProposal(p, 'rejected');
    expect(s.openProposals(g)).toEqual([]);
    expect(() => s.decideProposal(p, 'accepted')).toThrow(/not open/);
    expect(s.log(g)).toHaveLength(3);
  });

  it('keeps calibration profiles and enrolled exemplars', () => {
    const s = openStore(tempFile());
    s.saveCalibration('logitech-c920', { homography: [1, 0, 0, 0, 1, 0, 0, 0, 1] });
    s.saveCalibration('logitech-c920', { homography: [2, 0, 0, 0, 2, 0, 0, 0, 1] });
    expect(s.calibrationNames()).toEqual(['logitech-c920']);
    expect(s.calibration('logitech-c920')).toEqual({ homography: [2, 0, 0, 0, 2, 0, 0, 0, 1] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    s.addExemplar({ tileId: 'BASE_D', rot: 90, source: 'table', image: png, mime: 'image/png' });
    const [e] = s.exemplars('BASE_D');
    expect(e!.image.equals(png)).toBe(true);
    expect(s.exemplars('BASE_A')).toEqual([]);
  });

  it('keeps the table\'s settings across reopening, the last choice winning', () => {
    const file = tempFile();
    const s = openStore(file);
    expect(s.setting('camera.askEverything')).toBeUndefined();
    s.saveSetting('camera.askEverything', true);
    s.saveSetting('camera.askEverything', false);
    s.saveSetting('other', { n: 1 });
    s.close();
    const again = openStore(file);
    expect(again.setting('camera.askEverything')).toBe(false);
    expect(again.setting('other')).toEqual({ n: 1 });
    again.close();
  });

  it('counts history and statistics from finished games', () => {
    const s = openStore(tempFile());
    const a = s.createGame({ players: [{ name: 'Ada' }, { name: 'Bo' }] });
    const b = s.createGame({ players: [{ name: 'Bo' }, { name: 'Ada' }] });
    s.createGame({ players: [{ name: 'Ada' }, { name: 'Cy' }] });
    s.setResult(a, [80, 60]);
    s.setResult(b, [90, 70]);
    const st = s.statistics();
    expect(st.games).toBe(3);
    expect(st.finished).toBe(2);
    expect(st.players).toEqual(
      expect.arrayContaining([
        { name: 'Ada', games: 2, wins: 1, averageScore: 75, bestScore: 80 },
        { name: 'Bo', games: 2, wins: 1, averageScore: 75, bestScore: 90 },
      ]),
    );
    expect(s.games().map((g) => g.id)).toEqual([3, 2, 1]);
  });
});

describe('faults', () => {
  it('a file locked by another process gives a clear error and is left as it was', () => {
    const file = tempFile();
    openStore(file).close();
    const holder = new Database(file);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    const before = readFileSync(file);
    let err: unknown;
    try {
      Store.open(file, { busyTimeoutMs: 50 });
    } catch (e) {
      err = e;
    }
    holder.exec('ROLLBACK');
    holder.close();
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('locked');
    expect((err as StoreError).message).toMatch(/locked by another process/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a file that is not a database gives a clear error and a copy is kept', () => {
    const file = tempFile();
    writeFileSync(file, 'this is a shopping list, not a database'.repeat(200));
    let err: unknown;
    try {
      Store.open(file);
    } catch (e) {
      err = e;
    }
    expect((err as StoreError).code).toBe('corrupt');
    expect((err as StoreError).message).toMatch(/damaged.*a copy was kept at/);
    const backup = (err as StoreError).backup!;
    expect(readFileSync(backup, 'utf8')).toContain('shopping list');
    expect(readFileSync(file, 'utf8')).toContain('shopping list');
  });

  it('a database with damaged pages gives a clear error and a copy is kept', () => {
    const file = tempFile();
    const s = Store.open(file);
    const g = s.createGame({ players: [] });
    s.append(g, Array.from({ length: 300 }, () => ({ op: { op: 'play', filler: 'x'.repeat(200) }, events: [] })));
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    s.close();
    const bytes = readFileSync(file);
    // Overwrite the middle of the file (table and index pages), keep the header valid.
    bytes.fill(0xa5, 4096 * 3, 4096 * 8);
    writeFileSync(file, bytes);
    let err: unknown;
    try {
      Store.open(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('corrupt');
    expect(readdirSync(join(file, '..')).some((n) => n.includes('.corrupt-'))).toBe(true);
  });
});
