/**
 * Schema migrations, applied in order by PRAGMA user_version (the Signal Desktop pattern): version N
 * is the database after migrations[0..N-1]. Never edit a shipped migration; add the next one.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly why: string;
  readonly up: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    why: 'games and their append-only logs: every accepted operation with the events it caused',
    up: (db) =>
      db.exec(`
        CREATE TABLE games (
          id          INTEGER PRIMARY KEY,
          created_at  TEXT NOT NULL,
          setup_json  TEXT NOT NULL,
          finished_at TEXT,
          final_json  TEXT
        );
        CREATE TABLE game_log (
          game_id     INTEGER NOT NULL REFERENCES games(id),
          seq         INTEGER NOT NULL,
          at          TEXT NOT NULL,
          op_json     TEXT NOT NULL,
          events_json TEXT NOT NULL,
          PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID;
        -- append-only: the log is history, corrections are new entries
        CREATE TRIGGER game_log_no_update BEFORE UPDATE ON game_log
          BEGIN SELECT RAISE(ABORT, 'game_log is append-only'); END;
        CREATE TRIGGER game_log_no_delete BEFORE DELETE ON game_log
          BEGIN SELECT RAISE(ABORT, 'game_log is append-only'); END;
      `),
  },
  {
    version: 2,
    why: 'camera proposals, kept apart from committed events until the rules accept them',
    up: (db) =>
      db.exec(`
        CREATE TABLE proposals (
          id          INTEGER PRIMARY KEY,
          game_id     INTEGER NOT NULL REFERENCES games(id),
          created_at  TEXT NOT NULL,
          source      TEXT NOT NULL,
          payload_json TEXT NOT NULL,
          status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
          decided_at  TEXT
        );
        CREATE INDEX proposals_by_game ON proposals(game_id, status);
      `),
  },
  {
    version: 3,
    why: 'calibration profiles per camera, and the table’s own enrolled tile exemplars',
    up: (db) =>
      db.exec(`
        CREATE TABLE calibration_profiles (
          name        TEXT PRIMARY KEY,
          updated_at  TEXT NOT NULL,
          data_json   TEXT NOT NULL
        );
        CREATE TABLE tile_exemplars (
          id          INTEGER PRIMARY KEY,
          tile_id     TEXT NOT NULL,
          rot         INTEGER NOT NULL CHECK (rot IN (0, 90, 180, 270)),
          created_at  TEXT NOT NULL,
          source      TEXT NOT NULL,
          image       BLOB NOT NULL,
          mime        TEXT NOT NULL
        );
        CREATE INDEX tile_exemplars_by_tile ON tile_exemplars(tile_id);
      `),
  },
  {
    version: 4,
    why: 'tile definitions the table described (replacing provisional catalog types), and the definitions each game was played with',
    up: (db) =>
      db.exec(`
        -- append-only like the log: a later description of the same tile is a new row, the latest wins for new games
        CREATE TABLE tile_definitions (
          id              INTEGER PRIMARY KEY,
          tile_id         TEXT NOT NULL,
          created_at      TEXT NOT NULL,
          source          TEXT NOT NULL,
          definition_json TEXT NOT NULL
        );
        CREATE INDEX tile_definitions_by_tile ON tile_definitions(tile_id, id);
        CREATE TRIGGER tile_definitions_no_update BEFORE UPDATE ON tile_definitions
          BEGIN SELECT RAISE(ABORT, 'tile_definitions is append-only'); END;
        CREATE TRIGGER tile_definitions_no_delete BEFORE DELETE ON tile_definitions
          BEGIN SELECT RAISE(ABORT, 'tile_definitions is append-only'); END;
        -- a game replays with the definitions it was played with (none: the provisional catalog)
        CREATE TABLE game_tiles (
          game_id       INTEGER NOT NULL REFERENCES games(id),
          tile_id       TEXT NOT NULL,
          definition_id INTEGER NOT NULL REFERENCES tile_definitions(id),
          PRIMARY KEY (game_id, tile_id)
        ) WITHOUT ROWID;
      `),
  },
  {
    version: 5,
    why: 'the table\'s settings that outlive a session (the camera\'s "ask about every tile"), one JSON value per key',
    up: (db) =>
      db.exec(`
        CREATE TABLE settings (
          key         TEXT PRIMARY KEY,
          updated_at  TEXT NOT NULL,
          value_json  TEXT NOT NULL
        ) WITHOUT ROWID;
      `),
  },
  {
    version: 6,
    why: 'tiles the table taught the camera before a game (issue 30): each picture its type\'s template and exemplar; deleted or retaken by the table',
    up: (db) =>
      db.exec(`
        CREATE TABLE taught_tiles (
          id          INTEGER PRIMARY KEY,
          tile_id     TEXT NOT NULL,
          -- the tile's clockwise turn in the picture
          rot         INTEGER NOT NULL CHECK (rot IN (0, 90, 180, 270)),
          created_at  TEXT NOT NULL,
          -- the edition the teach was read against (C1, C2, C3)
          edition     TEXT NOT NULL,
          -- how the table named it: a sure reading accepted, a reading picked, a search by name, an import
          how         TEXT NOT NULL,
          image       BLOB NOT NULL,
          mime        TEXT NOT NULL
        );
        CREATE INDEX taught_tiles_by_tile ON taught_tiles(tile_id, id);
      `),
  },
];

export const LATEST_VERSION = MIGRATIONS.at(-1)!.version;

/** Applies every migration above the database's user_version, each in its own transaction. */
export function migrate(db: Database.Database, target = LATEST_VERSION): number {
  let version = db.pragma('user_version', { simple: true }) as number;
  if (version > LATEST_VERSION) {
    throw new Error(`the database is at schema version ${version}, newer than this app knows (${LATEST_VERSION}); update the app`);
  }
  for (const m of MIGRATIONS) {
    if (m.version <= version || m.version > target) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
    version = m.version;
  }
  return version;
}
