/**
 * The game session: owns the Game being played, applies operations, and writes each accepted one to
 * the store before acknowledging it, so that a crash never loses a move the table saw confirmed.
 * At start it rebuilds the last game from its log.
 */
import type { TileDefinition } from '../../../engine/catalog/definitions.js';
import type { TileCatalog } from '../../../engine/catalog/registry.js';
import type { Command } from '../../../engine/game/commands.js';
import type { GameEvent } from '../../../engine/game/events.js';
import { Game } from '../../../engine/game/game.js';
import type { GameSetup } from '../../../engine/game/setup.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import { replayRecord } from '../../../engine/record/replay.js';
import { parseRecordText, type GameRecord } from '../../../engine/record/schema.js';
import { setupFromRecord } from '../../../engine/record/convert.js';
import { playersSchema } from '../../contract/players.js';
import type { Snapshot } from '../../contract/snapshot.js';
import type { Crop, EditableTile, SavedTile } from '../../contract/tiles.js';
import { exportRecord } from '../record-export.js';
import type { Store } from '../store/store.js';
import { pathWords } from '../../contract/issue-words.js';
import { withoutGame } from './words.js';
import { cropBytes, TileBook } from '../tiles/tile-book.js';
import { logOpSchema, type LogOp } from './log-ops.js';
import { gameView } from './view.js';

export interface Ack {
  readonly version: number;
  readonly events: readonly GameEvent[];
}

/** Told that the game changed; builds a snapshot only if it wants one (they cost about a millisecond). */
type Listener = (version: number) => void;

function applyOp(game: Game, op: LogOp): Result<readonly GameEvent[]> {
  switch (op.op) {
    case 'play':
      return game.play(op.command);
    case 'undo': {
      const r = game.undo();
      return r.ok ? ok([]) : r;
    }
    case 'redo':
      return game.redo();
    case 'correct': {
      const r = game.correct(op.index, op.command);
      return r.ok ? ok([]) : r;
    }
    case 'insert': {
      const r = game.insert(op.index, op.command);
      return r.ok ? ok([]) : r;
    }
  }
}

/** Setting: the game last played (started, opened under Games, or moved in), resumed at the next start. */
const OPEN_GAME_KEY = 'session.openGame';

export class GameSession {
  private game: Game | null = null;
  private gameId: number | null = null;
  private version = 0;
  private readonly listeners = new Set<Listener>();
  /** The table's tile descriptions: read before any game is resumed, so a game replays with its own. */
  private readonly tiles: TileBook;

  constructor(private readonly store: Store) {
    this.tiles = new TileBook(store);
  }

  /** Why the last game could not be resumed (its log no longer replays), or null. */
  resumeProblem: string | null = null;
  private lastSnapshot: { readonly key: readonly unknown[]; readonly value: Snapshot } | null = null;

  /**
   * A session resumed into the last game in the store (or with none). A game whose log no longer
   * replays (a rules fix since it was played) must not stop the app: it starts without a game, says
   * why, and the game stays in the store untouched.
   */
  static resume(store: Store): GameSession {
    const s = new GameSession(store);
    // The game open when the app last closed, which need not be the newest (the table may have
    // loaded an older one): never another game without saying so.
    const open = store.setting(OPEN_GAME_KEY);
    const remembered = typeof open === 'number' && store.game(open) ? open : undefined;
    const id = remembered ?? store.latestGameId();
    if (id !== undefined) {
      const r = s.load(id);
      if (!r.ok) s.resumeProblem = `the last game could not be resumed: ${r.reason}`;
      else {
        const why = remembered !== undefined ? 'the game last played' : open === undefined ? 'the newest game in the store' : `the newest game in the store (the game open last, ${JSON.stringify(open)}, is not in it)`;
        s.resumed = { gameId: id, why };
      }
    }
    return s;
  }

  /** Which game the session resumed into and why (null: none). */
  resumed: { readonly gameId: number; readonly why: string } | null = null;

  /** The resumed game in words, for the start-up message. */
  resumeNote(): string | null {
    if (!this.resumed || !this.game) return null;
    const names = this.game.setup.players.map((p) => p.name).join(', ');
    return `resumed game ${this.resumed.gameId} (${names}; ${this.game.history.length} moves so far): ${this.resumed.why}`;
  }

  /** The game the next start resumes: the one last played (started, opened, or moved in). */
  private remember(gameId: number): void {
    if (this.remembered === gameId) return;
    this.store.saveSetting(OPEN_GAME_KEY, gameId);
    this.remembered = gameId;
  }
  private remembered: number | null = null;

  /** Is the game the next start would resume still being played (stored and not finished)? */
  private resumingUnfinished(): boolean {
    const id = this.store.setting(OPEN_GAME_KEY);
    const row = typeof id === 'number' ? this.store.game(id) : undefined;
    return row !== undefined && row.finishedAt === null;
  }

  get currentGameId(): number | null {
    return this.gameId;
  }

  /** The live game, for services in the same process (tracker, recognition); screens get snapshots. */
  get currentGame(): Game | null {
    return this.game;
  }

  /** The tiles as the table plays them: the live game's catalog, else what new games play with (null where the saved descriptions make none). */
  get catalogInPlay(): TileCatalog | null {
    if (this.game) return this.game.catalog;
    const c = this.tiles.catalogForNewGames();
    return c.ok ? c.value : null;
  }

  load(gameId: number): Result<void> {
    const catalog = this.tiles.catalogForGame(gameId);
    if (!catalog.ok) return fail(`game ${gameId}: ${catalog.reason}`);
    const game = this.replay(gameId, catalog.value, false);
    if (!game.ok) return game;
    this.remember(gameId);
    this.game = game.value;
    this.gameId = gameId;
    this.changed();
    return ok(undefined);
  }

  /**
   * A stored game rebuilt from its log with `catalog`. With `sameEvents`, every entry must also give
   * the events it gave when it was played: nothing that already happened at the table may change.
   */
  private replay(gameId: number, catalog: TileCatalog, sameEvents: boolean): Result<Game> {
    const row = this.store.game<GameSetup>(gameId);
    if (!row) return fail(`there is no game ${gameId}`);
    const started = Game.start(row.setup, catalog);
    if (!started.ok) return fail(`game ${gameId}: ${started.reason}`);
    const game = started.value;
    for (const entry of this.store.log(gameId)) {
      const op = logOpSchema.safeParse(entry.op);
      if (!op.success) return fail(`game ${gameId}, log entry ${entry.seq}: ${op.error.issues[0]?.message ?? 'unreadable'}`);
      const r = applyOp(game, op.data);
      if (!r.ok) return fail(`game ${gameId}, log entry ${entry.seq}: ${r.reason}`);
      if (sameEvents && JSON.stringify(r.value) !== JSON.stringify(entry.events)) return fail(`game ${gameId}, log entry ${entry.seq} would now give other events`);
    }
    return ok(game);
  }

  newGame(setup: GameSetup): Result<number> {
    const catalog = this.tiles.catalogForNewGames();
    if (!catalog.ok) return catalog;
    const started = Game.start(setup, catalog.value);
    if (!started.ok) return started;
    const id = this.store.db.transaction(() => {
      const id = this.store.createGame(setup);
      this.store.pinTileDefinitions(id, this.tiles.latestPins());
      this.remember(id);
      return id;
    })();
    this.game = started.value;
    this.gameId = id;
    this.changed();
    return ok(id);
  }

  /** The tiles the table may describe (the 2025 tiles), with what new games use for each. */
  editableTiles(): EditableTile[] {
    return this.tiles.editable();
  }

  /**
   * Saves the table's description of a tile: checked by the engine, stored with its crop (an
   * exemplar for recognition), used by new games from now on. The game in progress switches to it
   * only when its log replays with it giving exactly the events it gave (nothing already played
   * changes); otherwise it keeps the geometry it was played with, and the reply says why.
   */
  saveTile(def: TileDefinition, crop: Crop | null, source: 'camera' | 'settings'): Result<SavedTile> {
    let bytes: Buffer | null = null;
    if (crop) {
      const b = cropBytes(crop);
      if (!b.ok) return b;
      bytes = b.value;
    }
    const saved = this.tiles.save(def, source, bytes, crop?.mime ?? null);
    if (!saved.ok) return saved;
    const { stored, exemplarId } = saved.value;
    let game: SavedTile['game'] = null;
    const id = this.gameId;
    if (id !== null) {
      const catalog = this.tiles.catalogForGame(id, stored);
      const rebuilt = catalog.ok ? this.replay(id, catalog.value, true) : catalog;
      if (rebuilt.ok) {
        this.store.pinTileDefinitions(id, [{ tileId: stored.tileId, definitionId: stored.id }]);
        this.game = rebuilt.value;
        game = { id, updated: true, why: `game ${id} plays with the new description of ${def.tile}` };
      } else {
        game = { id, updated: false, why: `game ${id} keeps the shape of ${def.tile} it was played with (${rebuilt.reason}); new games use the new description` };
      }
    }
    this.changed();
    return ok({ tile: def.tile, definitionId: stored.id, exemplarId, game });
  }

  play(command: Command): Result<Ack> {
    return this.apply({ op: 'play', command });
  }

  undo(): Result<Ack> {
    return this.apply({ op: 'undo' });
  }

  redo(): Result<Ack> {
    return this.apply({ op: 'redo' });
  }

  /** Replaces (or, with null, removes) command `index` and replays everything after it. */
  correct(index: number, command: Command | null): Result<Ack> {
    return this.apply({ op: 'correct', index, command });
  }

  insert(index: number, command: Command): Result<Ack> {
    return this.apply({ op: 'insert', index, command });
  }

  private apply(op: LogOp): Result<Ack> {
    const game = this.game;
    const id = this.gameId;
    if (!game || id === null) return fail('no game is open: start a new game or import a record');
    const wasFinished = game.state.finished;
    const r = applyOp(game, op);
    if (!r.ok) return r;
    try {
      this.store.append(id, [{ op, events: r.value }]);
      this.remember(id);
      if (game.state.finished !== wasFinished) this.store.setResult(id, game.state.finished ? game.state.players.map((p) => p.score) : null);
    } catch (e) {
      // The store is the truth: what it did not take did not happen.
      const back = this.load(id);
      return fail(`could not save the move, so it was not taken: ${(e as Error).message}${back.ok ? '' : `; reloading failed too: ${back.reason}`}`);
    }
    this.changed();
    return ok({ version: this.version, events: r.value });
  }

  /** Imports a record@1 file as a new game, after checking it against the schema and the rules. */
  importRecord(text: string): Result<{ gameId: number; final: readonly number[] }> {
    const parsed = parseRecordText(text);
    if (!parsed.ok) return fail(`the record is not valid record@1: ${parsed.reason}`);
    // The players as New Game would take them (palette colours, bounded distinct names).
    const players = playersSchema.safeParse(parsed.record.players.map((p) => ({ name: p.name, color: p.color })));
    // Said as New Game says it, in words (no argument path: the table did not write the file's paths).
    if (!players.success) {
      const issue = players.error.issues[0]!;
      return fail(`the record cannot be imported: ${pathWords(['players', ...issue.path])}: ${issue.message}`);
    }
    const catalog = this.tiles.catalogForNewGames();
    if (!catalog.ok) return catalog;
    const report = replayRecord(parsed.record, { catalog: catalog.value });
    if (report.error || !report.game) {
      const where = report.error?.turn ? `turn ${report.error.turn}` : 'setup';
      return fail(`the record cannot be replayed (${where}): ${withoutGame(report.error?.reason ?? 'no game')}`);
    }
    const game = report.game;
    // A finished record is looked at, not played: it does not become the game the next start
    // resumes over a game still in progress (opening it under Games, or a move in it, does).
    const resumeIt = !game.state.finished || !this.resumingUnfinished();
    const entries = game.history.map((h) => ({ op: { op: 'play', command: h.command } satisfies LogOp, events: h.events }));
    const id = this.store.db.transaction(() => {
      const id = this.store.importGame(setupFromRecord(parsed.record), entries, report.final);
      this.store.pinTileDefinitions(id, this.tiles.latestPins());
      if (resumeIt) this.remember(id);
      return id;
    })();
    this.game = game;
    this.gameId = id;
    this.changed();
    return ok({ gameId: id, final: report.final });
  }

  exportRecord(): Result<GameRecord> {
    if (!this.game) return fail('no game is open');
    return exportRecord(this.game);
  }

  snapshot(): Snapshot {
    // Made once per change: every screen asks for it, a second screen every few tens of ms, and the
    // whole game's log described each time was the largest garbage a table's command waited behind.
    const key = [this.version, this.game, this.gameId, this.game?.history.length, this.resumeProblem] as const;
    const last = this.lastSnapshot;
    if (last && key.every((k, i) => k === last.key[i])) return last.value;
    const value: Snapshot = { version: this.version, game: this.game && this.gameId !== null ? gameView(this.gameId, this.game) : null, notice: this.game ? null : this.resumeProblem };
    this.lastSnapshot = { key, value };
    return value;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l(this.version);
  }
}
