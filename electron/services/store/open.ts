/**
 * Opening the database file: WAL with synchronous=FULL (a committed command survives a power cut),
 * migrations by user_version, and clear errors for the two faults a table meets in practice — the
 * file locked by another copy of the app, and a damaged file — each leaving the file untouched and,
 * for damage, a copy beside it.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_VERSION, migrate } from './migrations.js';

export type StoreErrorCode = 'locked' | 'corrupt' | 'too-new' | 'read-only' | 'io';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** A copy of the file made before giving up, when there is one. */
    readonly backup?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export interface OpenOptions {
  /** How long to wait for another process's lock before saying the file is locked. */
  readonly busyTimeoutMs?: number;
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

function copyAside(file: string, suffix: string): string {
  const target = `${file}.${suffix}`;
  copyFileSync(file, target);
  for (const side of ['-wal', '-shm']) if (existsSync(file + side)) copyFileSync(file + side, target + side);
  return target;
}

function sqliteCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
}

function isLocked(e: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(sqliteCode(e));
}

function isReadOnly(e: unknown): boolean {
  return /^SQLITE_(READONLY|CANTOPEN)/.test(sqliteCode(e));
}

/**
 * A file the process may read but not write opens without a word (SQLite falls back to read-only)
 * and every move would then be refused at its first write. Writing the schema version back
 * unchanged is a real write of the header page that changes nothing.
 */
function probeWritable(db: Database.Database): void {
  const v = db.pragma('user_version', { simple: true }) as number;
  db.pragma(`user_version = ${v}`);
}

function isCorrupt(e: unknown): boolean {
  return /^SQLITE_(CORRUPT|NOTADB)/.test(sqliteCode(e));
}

export function openDatabase(file: string, options: OpenOptions = {}): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const existed = file !== ':memory:' && existsSync(file);
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: options.busyTimeoutMs ?? 2000 });
  } catch (e) {
    throw new StoreError('io', `cannot open the database ${file}: ${(e as Error).message}`);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    if (existed) {
      const check = db.pragma('quick_check', { simple: true }) as string;
      if (check !== 'ok') throw Object.assign(new Error(check), { code: 'SQLITE_CORRUPT' });
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > LATEST_VERSION) {
      throw new StoreError('too-new', `the database ${file} is at schema version ${version}, newer than this app (${LATEST_VERSION}); update the app`);
    }
    if (existed && version > 0 && version < LATEST_VERSION) {
      db.pragma('wal_checkpoint(TRUNCATE)');
      copyAside(file, `pre-v${LATEST_VERSION}.bak`);
    }
    migrate(db);
    probeWritable(db);
    return db;
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    if (isLocked(e)) {
      throw new StoreError('locked', `the database ${file} is locked by another process (is the companion already running?); nothing was changed`);
    }
    if (isReadOnly(e)) {
      throw new StoreError('read-only', `the database ${file} cannot be written (${(e as Error).message}): check the permissions of the file and its folder, and that the disk is not read-only; nothing was changed`);
    }
    if (isCorrupt(e)) {
      const backup = copyAside(file, `corrupt-${stamp()}.bak`);
      throw new StoreError(
        'corrupt',
        `the database ${file} is damaged (${(e as Error).message}); a copy was kept at ${backup}. Move the file aside to start a new one, or restore a backup.`,
        backup,
      );
    }
    throw new StoreError('io', `cannot use the database ${file}: ${(e as Error).message}`);
  }
}
