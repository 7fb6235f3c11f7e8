/**
 * Issue 28, part 6: the database tells the truth at start-up. A file the app cannot write is said at
 * once (it used to open silently and refuse the first move); the game resumed is the one open when
 * the app closed, and the start-up says which and why.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { loadRecord, setupFromRecord } from './helpers/records.js';

const OPEN_STORE = join(import.meta.dirname, 'helpers/open-store.ts');
const ROOT = join(import.meta.dirname, '../..');

/**
 * The unprivileged user must reach the checkout to run the check: a clone made under a folder only
 * its owner may enter (`mktemp -d` makes them 0700) gets the traverse bit for others on each such
 * folder above it (nothing is listed or read through it).
 */
function letOthersReach(path: string): void {
  for (let d = path; ; d = dirname(d)) {
    const mode = statSync(d).mode;
    if ((mode & 0o001) === 0) chmodSync(d, (mode & 0o7777) | 0o001);
    if (dirname(d) === d) return;
  }
}

describe('a database the app may read but not write', () => {
  it('is refused at start-up, by name, before any move', () => {
    const dir = mkdtempSync(join(tmpdir(), 'companion-ro-'));
    const file = join(dir, 'ro.sqlite');
    const store = Store.open(file);
    GameSession.resume(store).newGame(setupFromRecord(loadRecord('g001-base-2p.json')));
    store.close();
    // The folder stays writable (SQLite's side files), the file is not: SQLite then opens it read-only without a word.
    chmodSync(dir, 0o777);
    chmodSync(file, 0o444);
    // root writes whatever the mode says: the check runs as an unprivileged user there.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) letOthersReach(ROOT);
    const r = spawnSync(process.execPath, ['--import', 'tsx', OPEN_STORE, file], { encoding: 'utf8', cwd: ROOT, ...(asRoot ? { uid: 65534, gid: 65534, env: { ...process.env, HOME: dir } } : {}) });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { code?: string; message?: string };
    expect(out.code).toBe('read-only');
    expect(out.message).toContain(file);
    expect(out.message).toMatch(/cannot be written/);
  }, 60_000);
});

describe('the game resumed at start-up', () => {
  const record = loadRecord('g001-base-2p.json');
  it('is the game last played, not the newest, and is said', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-resume-')), 'r.sqlite');
    let store = Store.open(file);
    let s = GameSession.resume(store);
    expect(s.resumeNote()).toBeNull();
    const first = s.newGame(setupFromRecord(record));
    const second = s.newGame(setupFromRecord({ ...record, players: [{ name: 'Cy', color: 'green' }, { name: 'Di', color: 'pink' }] }));
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok) return;
    expect(s.load(first.value).ok).toBe(true);
    store.close();
    store = Store.open(file);
    s = GameSession.resume(store);
    expect(s.currentGameId).toBe(first.value);
    expect(s.resumeNote()).toMatch(new RegExp(`^resumed game ${first.value} \\(${record.players.map((p) => p.name).join(', ')}; 0 moves so far\\): the game last played$`));
    store.close();
  });

  it('is the game in progress after a finished record was imported over it, until the table opens or plays the imported one', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-resume-')), 'r.sqlite');
    let store = Store.open(file);
    let s = GameSession.resume(store);
    const playing = s.newGame(setupFromRecord({ ...record, players: [{ name: 'Cy', color: 'green' }, { name: 'Di', color: 'pink' }] }));
    if (!playing.ok) throw new Error(playing.reason);
    const imported = s.importRecord(JSON.stringify(record));
    if (!imported.ok) throw new Error(imported.reason);
    // The finished record is what the screens show now, but a restart goes back to the game in progress.
    expect(s.currentGameId).toBe(imported.value.gameId);
    expect(s.currentGame!.state.finished).toBe(true);
    store.close();
    store = Store.open(file);
    s = GameSession.resume(store);
    expect(s.currentGameId).toBe(playing.value);
    expect(s.resumeNote()).toMatch(/^resumed game \d+ \(Cy, Di; 0 moves so far\): the game last played$/);
    // The table opens the imported game under Games: from then on it is the one resumed.
    expect(s.load(imported.value.gameId).ok).toBe(true);
    store.close();
    store = Store.open(file);
    s = GameSession.resume(store);
    expect(s.currentGameId).toBe(imported.value.gameId);
    // Back to the game in progress, then a move in the finished one (undoing its final scoring): that one is resumed.
    expect(s.load(playing.value).ok).toBe(true);
    expect(s.load(imported.value.gameId).ok).toBe(true);
    store.close();
    store = Store.open(file);
    s = GameSession.resume(store);
    expect(s.currentGameId).toBe(imported.value.gameId);
    store.close();
  });

  it('is an imported record when no game was in progress', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-resume-')), 'r.sqlite');
    let store = Store.open(file);
    let s = GameSession.resume(store);
    const imported = s.importRecord(JSON.stringify(record));
    if (!imported.ok) throw new Error(imported.reason);
    store.close();
    store = Store.open(file);
    s = GameSession.resume(store);
    expect(s.currentGameId).toBe(imported.value.gameId);
    store.close();
  });

  it('is the game a move was last played in', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-resume-')), 'r.sqlite');
    let store = Store.open(file);
    let s = GameSession.resume(store);
    const a = s.newGame(setupFromRecord(record));
    if (!a.ok) throw new Error(a.reason);
    const imported = s.importRecord(JSON.stringify(record));
    if (!imported.ok) throw new Error(imported.reason);
    // A move in the imported (finished) game: undoing its final scoring plays in it.
    expect(s.undo().ok).toBe(true);
    store.close();
    store = Store.open(file);
    s = GameSession.resume(store);
    expect(s.currentGameId).toBe(imported.value.gameId);
    store.close();
  });

  it('is the newest game in a store that does not say which was open, and says so', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-resume-')), 'r.sqlite');
    let store = Store.open(file);
    const id = store.createGame(setupFromRecord(record));
    store.close();
    store = Store.open(file);
    const s = GameSession.resume(store);
    expect(s.currentGameId).toBe(id);
    expect(s.resumeNote()).toMatch(/: the newest game in the store$/);
    store.close();
  });
});
