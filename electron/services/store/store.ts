/**
 * The companion's SQLite store: games with their append-only logs, camera proposals (apart from the
 * log until accepted), calibration profiles, enrolled tile exemplars, tiles the table taught the
 * camera, the table's settings, history and statistics.
 * One process owns the file; every write is one transaction.
 */
import type Database from 'better-sqlite3';
import { openDatabase, type OpenOptions } from './open.js';

export interface LogEntry<Op = unknown, Ev = unknown> {
  readonly seq: number;
  readonly at: string;
  readonly op: Op;
  readonly events: readonly Ev[];
}

export interface GameRow<Setup = unknown> {
  readonly id: number;
  readonly createdAt: string;
  readonly setup: Setup;
  readonly finishedAt: string | null;
  readonly final: readonly number[] | null;
}

export interface Proposal<P = unknown> {
  readonly id: number;
  readonly gameId: number;
  readonly createdAt: string;
  readonly source: string;
  readonly payload: P;
  readonly status: 'open' | 'accepted' | 'rejected';
}

export interface Exemplar {
  readonly id: number;
  readonly tileId: string;
  readonly rot: 0 | 90 | 180 | 270;
  readonly source: string;
  readonly image: Buffer;
  readonly mime: string;
}

/** A tile the table taught the camera (issue 30): its picture, the cell and 10 % around it, the tile turned `rot`. */
export interface TaughtTile {
  readonly id: number;
  readonly tileId: string;
  readonly rot: 0 | 90 | 180 | 270;
  readonly createdAt: string;
  readonly edition: string;
  readonly how: string;
  readonly image: Buffer;
  readonly mime: string;
}

export interface StoredTileDefinition<D = unknown> {
  readonly id: number;
  readonly tileId: string;
  readonly createdAt: string;
  readonly source: string;
  readonly definition: D;
}

export interface PlayerStatistics {
  readonly name: string;
  readonly games: number;
  readonly wins: number;
  readonly averageScore: number;
  readonly bestScore: number;
}

export interface Statistics {
  readonly games: number;
  readonly finished: number;
  readonly players: readonly PlayerStatistics[];
}

const now = () => new Date().toISOString();

interface RawGame {
  id: number;
  created_at: string;
  setup_json: string;
  finished_at: string | null;
  final_json: string | null;
}

function toGame<S>(r: RawGame): GameRow<S> {
  return {
    id: r.id,
    createdAt: r.created_at,
    setup: JSON.parse(r.setup_json) as S,
    finishedAt: r.finished_at,
    final: r.final_json ? (JSON.parse(r.final_json) as number[]) : null,
  };
}

export class Store {
  /** Statements prepared once per store: the camera asks for the open proposals on every view. */
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(readonly db: Database.Database, readonly file: string) {}

  private prepare(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  static open(file: string, options?: OpenOptions): Store {
    return new Store(openDatabase(file, options), file);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ── games and logs ──

  createGame(setup: unknown): number {
    const r = this.prepare('INSERT INTO games (created_at, setup_json) VALUES (?, ?)').run(now(), JSON.stringify(setup));
    return Number(r.lastInsertRowid);
  }

  /** A finished or half-played game arriving whole (an imported record): all of it or nothing. */
  importGame(setup: unknown, entries: readonly { op: unknown; events: readonly unknown[] }[], final: readonly number[] | null): number {
    return this.db.transaction(() => {
      const id = this.createGame(setup);
      this.append(id, entries);
      this.setResult(id, final);
      return id;
    })();
  }

  game<S>(id: number): GameRow<S> | undefined {
    const r = this.prepare('SELECT * FROM games WHERE id = ?').get(id) as RawGame | undefined;
    return r ? toGame<S>(r) : undefined;
  }

  /** The game played last: where the app resumes after a restart. */
  latestGameId(): number | undefined {
    const r = this.prepare('SELECT max(id) AS id FROM games').get() as { id: number | null };
    return r.id ?? undefined;
  }

  games<S>(): GameRow<S>[] {
    return (this.prepare('SELECT * FROM games ORDER BY id DESC').all() as RawGame[]).map((r) => toGame<S>(r));
  }

  /** Appends entries to a game's log in one transaction; returns the last sequence number. */
  append(gameId: number, entries: readonly { op: unknown; events: readonly unknown[] }[]): number {
    const last = this.prepare('SELECT coalesce(max(seq), 0) AS seq FROM game_log WHERE game_id = ?');
    const insert = this.prepare('INSERT INTO game_log (game_id, seq, at, op_json, events_json) VALUES (?, ?, ?, ?, ?)');
    return this.db.transaction(() => {
      let seq = (last.get(gameId) as { seq: number }).seq;
      for (const e of entries) insert.run(gameId, ++seq, now(), JSON.stringify(e.op), JSON.stringify(e.events));
      return seq;
    })();
  }

  log<Op, Ev>(gameId: number): LogEntry<Op, Ev>[] {
    const rows = this.prepare('SELECT seq, at, op_json, events_json FROM game_log WHERE game_id = ? ORDER BY seq').all(gameId) as {
      seq: number;
      at: string;
      op_json: string;
      events_json: string;
    }[];
    return rows.map((r) => ({ seq: r.seq, at: r.at, op: JSON.parse(r.op_json) as Op, events: JSON.parse(r.events_json) as Ev[] }));
  }

  /** Records the final totals (or clears them when a finished game is reopened by an undo). */
  setResult(gameId: number, final: readonly number[] | null): void {
    this
      .prepare('UPDATE games SET finished_at = ?, final_json = ? WHERE id = ?')
      .run(final ? now() : null, final ? JSON.stringify(final) : null, gameId);
  }

  statistics(): Statistics {
    const rows = this.games<{ players: { name: string }[] }>();
    const finished = rows.filter((g) => g.final);
    const by = new Map<string, { games: number; wins: number; total: number; best: number }>();
    for (const g of finished) {
      const best = Math.max(...g.final!);
      g.setup.players.forEach((p, i) => {
        const s = by.get(p.name) ?? { games: 0, wins: 0, total: 0, best: 0 };
        const score = g.final![i] ?? 0;
        s.games++;
        s.total += score;
        s.best = Math.max(s.best, score);
        if (score === best) s.wins++;
        by.set(p.name, s);
      });
    }
    return {
      games: rows.length,
      finished: finished.length,
      players: [...by].map(([name, s]) => ({ name, games: s.games, wins: s.wins, averageScore: s.total / s.games, bestScore: s.best })),
    };
  }

  // ── camera proposals ──

  addProposal(gameId: number, source: string, payload: unknown): number {
    const r = this
      .prepare('INSERT INTO proposals (game_id, created_at, source, payload_json) VALUES (?, ?, ?, ?)')
      .run(gameId, now(), source, JSON.stringify(payload));
    return Number(r.lastInsertRowid);
  }

  openProposals<P>(gameId: number): Proposal<P>[] {
    const rows = this.prepare("SELECT * FROM proposals WHERE game_id = ? AND status = 'open' ORDER BY id").all(gameId) as {
      id: number;
      game_id: number;
      created_at: string;
      source: string;
      payload_json: string;
      status: Proposal['status'];
    }[];
    return rows.map((r) => ({ id: r.id, gameId: r.game_id, createdAt: r.created_at, source: r.source, payload: JSON.parse(r.payload_json) as P, status: r.status }));
  }

  decideProposal(id: number, status: 'accepted' | 'rejected'): void {
    const r = this.prepare("UPDATE proposals SET status = ?, decided_at = ? WHERE id = ? AND status = 'open'").run(status, now(), id);
    if (r.changes !== 1) throw new Error(`proposal ${id} is not open`);
  }

  // ── calibration profiles ──

  saveCalibration(name: string, data: unknown): void {
    this
      .prepare('INSERT INTO calibration_profiles (name, updated_at, data_json) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET updated_at = excluded.updated_at, data_json = excluded.data_json')
      .run(name, now(), JSON.stringify(data));
  }

  calibration<T>(name: string): T | undefined {
    const r = this.prepare('SELECT data_json FROM calibration_profiles WHERE name = ?').get(name) as { data_json: string } | undefined;
    return r ? (JSON.parse(r.data_json) as T) : undefined;
  }

  /** Deletes a calibration profile; false when there was none of that name. */
  deleteCalibration(name: string): boolean {
    return this.prepare('DELETE FROM calibration_profiles WHERE name = ?').run(name).changes === 1;
  }

  calibrationNames(): string[] {
    return (this.prepare('SELECT name FROM calibration_profiles ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  }

  // ── settings (the table's choices that outlive a session) ──

  saveSetting(key: string, value: unknown): void {
    this
      .prepare('INSERT INTO settings (key, updated_at, value_json) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET updated_at = excluded.updated_at, value_json = excluded.value_json')
      .run(key, now(), JSON.stringify(value));
  }

  /** A setting's stored value, or undefined when the table never chose one. */
  setting(key: string): unknown {
    const r = this.prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined;
    return r ? (JSON.parse(r.value_json) as unknown) : undefined;
  }

  // ── enrolled tile exemplars ──

  addExemplar(e: Omit<Exemplar, 'id'>): number {
    const r = this
      .prepare('INSERT INTO tile_exemplars (tile_id, rot, created_at, source, image, mime) VALUES (?, ?, ?, ?, ?, ?)')
      .run(e.tileId, e.rot, now(), e.source, e.image, e.mime);
    return Number(r.lastInsertRowid);
  }

  exemplars(tileId?: string): Exemplar[] {
    const sql = 'SELECT id, tile_id, rot, source, image, mime FROM tile_exemplars' + (tileId ? ' WHERE tile_id = ?' : '') + ' ORDER BY id';
    const rows = (tileId ? this.prepare(sql).all(tileId) : this.prepare(sql).all()) as {
      id: number;
      tile_id: string;
      rot: 0 | 90 | 180 | 270;
      source: string;
      image: Buffer;
      mime: string;
    }[];
    return rows.map((r) => ({ id: r.id, tileId: r.tile_id, rot: r.rot, source: r.source, image: r.image, mime: r.mime }));
  }

  /** The tile types with an exemplar from `source` (without reading the images). */
  exemplarTypeIds(source: string): Set<string> {
    return new Set((this.prepare('SELECT DISTINCT tile_id FROM tile_exemplars WHERE source = ?').all(source) as { tile_id: string }[]).map((r) => r.tile_id));
  }

  /** How many exemplars each tile has (without reading the images). */
  exemplarCounts(): Map<string, number> {
    const rows = this.prepare('SELECT tile_id, count(*) AS n FROM tile_exemplars GROUP BY tile_id').all() as { tile_id: string; n: number }[];
    return new Map(rows.map((r) => [r.tile_id, r.n]));
  }

  // ── taught tiles (teach mode, issue 30) ──

  addTaughtTile(t: Omit<TaughtTile, 'id' | 'createdAt'>): number {
    const r = this
      .prepare('INSERT INTO taught_tiles (tile_id, rot, created_at, edition, how, image, mime) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(t.tileId, t.rot, now(), t.edition, t.how, t.image, t.mime);
    return Number(r.lastInsertRowid);
  }

  /** Taught pictures, oldest first (a type's first is its template). */
  taughtTiles(tileId?: string): TaughtTile[] {
    const sql = 'SELECT * FROM taught_tiles' + (tileId ? ' WHERE tile_id = ?' : '') + ' ORDER BY id';
    const rows = (tileId ? this.prepare(sql).all(tileId) : this.prepare(sql).all()) as {
      id: number;
      tile_id: string;
      rot: 0 | 90 | 180 | 270;
      created_at: string;
      edition: string;
      how: string;
      image: Buffer;
      mime: string;
    }[];
    return rows.map((r) => ({ id: r.id, tileId: r.tile_id, rot: r.rot, createdAt: r.created_at, edition: r.edition, how: r.how, image: r.image, mime: r.mime }));
  }

  /** The tile types with a taught picture (without reading the images). */
  taughtTypeIds(): Set<string> {
    return new Set((this.prepare('SELECT DISTINCT tile_id FROM taught_tiles').all() as { tile_id: string }[]).map((r) => r.tile_id));
  }

  /** Deletes taught pictures by id; how many were there. */
  deleteTaughtTiles(ids: readonly number[]): number {
    const del = this.prepare('DELETE FROM taught_tiles WHERE id = ?');
    return this.db.transaction(() => ids.reduce((n, id) => n + del.run(id).changes, 0))();
  }

  /** Adds many taught pictures in one transaction (an import: all or none). */
  addTaughtTiles(tiles: readonly Omit<TaughtTile, 'id' | 'createdAt'>[]): number[] {
    return this.db.transaction(() => tiles.map((t) => this.addTaughtTile(t)))();
  }

  // ── tile definitions (the table's descriptions of provisional tiles) ──

  /** Saves a definition and, when there is one, the crop it was described on, in one transaction. */
  addTileDefinition(tileId: string, source: string, definition: unknown, exemplar?: Omit<Exemplar, 'id' | 'tileId'>): { definitionId: number; exemplarId: number | null } {
    return this.db.transaction(() => {
      const r = this
        .prepare('INSERT INTO tile_definitions (tile_id, created_at, source, definition_json) VALUES (?, ?, ?, ?)')
        .run(tileId, now(), source, JSON.stringify(definition));
      const exemplarId = exemplar ? this.addExemplar({ ...exemplar, tileId }) : null;
      return { definitionId: Number(r.lastInsertRowid), exemplarId };
    })();
  }

  /** The latest definition of each tile (what new games play with). */
  latestTileDefinitions<D>(): StoredTileDefinition<D>[] {
    const rows = this
      .prepare('SELECT * FROM tile_definitions WHERE id IN (SELECT max(id) FROM tile_definitions GROUP BY tile_id) ORDER BY tile_id')
      .all() as RawDefinition[];
    return rows.map((r) => toDefinition<D>(r));
  }

  tileDefinition<D>(id: number): StoredTileDefinition<D> | undefined {
    const r = this.prepare('SELECT * FROM tile_definitions WHERE id = ?').get(id) as RawDefinition | undefined;
    return r ? toDefinition<D>(r) : undefined;
  }

  /** Records which definitions a game plays with (replacing a tile's earlier choice for that game). */
  pinTileDefinitions(gameId: number, pins: readonly { tileId: string; definitionId: number }[]): void {
    const put = this.prepare('INSERT INTO game_tiles (game_id, tile_id, definition_id) VALUES (?, ?, ?) ON CONFLICT(game_id, tile_id) DO UPDATE SET definition_id = excluded.definition_id');
    this.db.transaction(() => {
      for (const p of pins) put.run(gameId, p.tileId, p.definitionId);
    })();
  }

  /** The definitions a game plays with, by tile. */
  gameTileDefinitions<D>(gameId: number): StoredTileDefinition<D>[] {
    const rows = this
      .prepare('SELECT d.* FROM game_tiles g JOIN tile_definitions d ON d.id = g.definition_id WHERE g.game_id = ? ORDER BY d.tile_id')
      .all(gameId) as RawDefinition[];
    return rows.map((r) => toDefinition<D>(r));
  }
}

interface RawDefinition {
  id: number;
  tile_id: string;
  created_at: string;
  source: string;
  definition_json: string;
}

function toDefinition<D>(r: RawDefinition): StoredTileDefinition<D> {
  return { id: r.id, tileId: r.tile_id, createdAt: r.created_at, source: r.source, definition: JSON.parse(r.definition_json) as D };
}
