/**
 * A game as its list of accepted commands. The state is always the fold of the events those
 * commands produced, so undo, redo and correcting a command several turns back are edits of the
 * list followed by a replay (a whole game replays in well under a millisecond).
 */
import type { TileCatalog } from '../catalog/registry.js';
import { fail, ok, type Result } from '../result.js';
import type { Command } from './commands.js';
import { createGame, decide, defaultCatalog, execute, fold } from './engine.js';
import type { GameEvent } from './events.js';
import type { GameSetup } from './setup.js';
import type { GameState } from './state.js';

export interface HistoryEntry {
  readonly command: Command;
  readonly events: readonly GameEvent[];
}

interface Built {
  state: GameState;
  startEvents: GameEvent[];
  history: HistoryEntry[];
}

function build(setup: GameSetup, catalog: TileCatalog, commands: readonly Command[]): Result<Built> {
  const created = createGame(setup, catalog);
  if (!created.ok) return created;
  const { state, events } = created.value;
  const history: HistoryEntry[] = [];
  for (let i = 0; i < commands.length; i++) {
    const r = execute(state, commands[i]!);
    if (!r.ok) return fail(`command ${i + 1} (${commands[i]!.type}): ${r.reason}`);
    history.push({ command: commands[i]!, events: r.value });
  }
  return ok({ state, startEvents: events, history });
}

export class Game {
  private built: Built;
  private redoStack: Command[] = [];
  /** Undone commands dropped by a later move: a redo then says why there is nothing to redo. */
  private redoDropped = false;

  private constructor(readonly setup: GameSetup, readonly catalog: TileCatalog, built: Built) {
    this.built = built;
  }

  static start(setup: GameSetup, catalog: TileCatalog = defaultCatalog()): Result<Game> {
    const b = build(setup, catalog, []);
    return b.ok ? ok(new Game(setup, catalog, b.value)) : b;
  }

  /** Rebuilds a game from its commands, failing at the first illegal one. */
  static replay(setup: GameSetup, commands: readonly Command[], catalog: TileCatalog = defaultCatalog()): Result<Game> {
    const b = build(setup, catalog, commands);
    return b.ok ? ok(new Game(setup, catalog, b.value)) : b;
  }

  get state(): GameState {
    return this.built.state;
  }

  get history(): readonly HistoryEntry[] {
    return this.built.history;
  }

  get commands(): Command[] {
    return this.built.history.map((h) => h.command);
  }

  /** Every event from the start pieces on, in order. */
  get events(): GameEvent[] {
    return [...this.built.startEvents, ...this.built.history.flatMap((h) => h.events)];
  }

  play(command: Command): Result<readonly GameEvent[]> {
    const r = execute(this.built.state, command);
    if (!r.ok) return r;
    this.built.history.push({ command, events: r.value });
    if (this.redoStack.length) this.redoDropped = true;
    this.redoStack = [];
    return r;
  }

  /**
   * The state as it would be after `command`, the game untouched: a fresh fold of the events so far
   * and the command's, for what-if questions (the figure spots a tile would offer where it is shown).
   */
  peek(command: Command): Result<GameState> {
    const decided = decide(this.built.state, command);
    if (!decided.ok) return decided;
    return ok(fold(this.setup, [...this.events, ...decided.value], this.catalog));
  }

  canUndo(): boolean {
    return this.built.history.length > 0;
  }

  canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  undo(): Result<Command> {
    const last = this.built.history.at(-1);
    if (!last) return fail('nothing to undo');
    const rebuilt = build(this.setup, this.catalog, this.commands.slice(0, -1));
    if (!rebuilt.ok) throw new Error(`undo could not replay a prefix of an accepted game: ${rebuilt.reason}`);
    this.built = rebuilt.value;
    this.redoStack.push(last.command);
    this.redoDropped = false;
    return ok(last.command);
  }

  redo(): Result<readonly GameEvent[]> {
    const next = this.redoStack.at(-1);
    if (!next) return fail(this.redoDropped ? 'nothing to redo: a new move was entered after the undo, and the undone moves were dropped' : 'nothing to redo');
    const r = execute(this.built.state, next);
    if (!r.ok) return r;
    this.redoStack.pop();
    this.built.history.push({ command: next, events: r.value });
    return r;
  }

  /**
   * Replaces command `index` (0-based) — or removes it when `replacement` is null — and replays
   * everything after it. When a later command no longer holds, nothing changes and the reason says which.
   */
  correct(index: number, replacement: Command | null): Result<void> {
    const commands = this.commands;
    if (index < 0 || index >= commands.length) return fail(`there is no command ${index + 1}`);
    if (replacement) commands[index] = replacement;
    else commands.splice(index, 1);
    const rebuilt = build(this.setup, this.catalog, commands);
    if (!rebuilt.ok) return fail(`the correction makes the game illegal: ${rebuilt.reason}`);
    this.built = rebuilt.value;
    this.redoStack = [];
    return ok(undefined);
  }

  /** Inserts a command before `index` (a move the camera missed) and replays the rest. */
  insert(index: number, command: Command): Result<void> {
    const commands = this.commands;
    if (index < 0 || index > commands.length) return fail(`cannot insert at ${index + 1}`);
    commands.splice(index, 0, command);
    const rebuilt = build(this.setup, this.catalog, commands);
    if (!rebuilt.ok) return fail(`the insertion makes the game illegal: ${rebuilt.reason}`);
    this.built = rebuilt.value;
    this.redoStack = [];
    return ok(undefined);
  }
}
