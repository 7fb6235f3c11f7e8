/**
 * The engine's entry points. `execute` validates a command against the state and returns the events
 * it causes (or the reason it is illegal); `evolve` applies one event; `fold` rebuilds a state from a
 * setup and its events. Deterministic, no I/O.
 */
import { TileCatalog } from '../catalog/registry.js';
import type { ExpansionId } from '../catalog/types.js';
import { isRotation } from '../geometry/segments.js';
import { fail, ok, type Result } from '../result.js';
import { MODULES } from '../expansions/index.js';
import type { Command } from './commands.js';
import type { GameEvent } from './events.js';
import type { CommandHandler } from './expansion.js';
import { buildPipeline, type Pipeline } from './pipeline.js';
import type { GameSetup } from './setup.js';
import { newState, type GameState } from './state.js';

let classic: TileCatalog | null = null;

/** The printed catalog, loaded once and shared (read-only) by games that add no tiles. */
export function defaultCatalog(): TileCatalog {
  classic ??= TileCatalog.standard();
  return classic;
}

function setupProblem(setup: GameSetup, catalog: TileCatalog): string | null {
  if (!setup.expansions.includes('base')) return 'the base game must be in play';
  for (const e of setup.expansions) if (!MODULES.has(e)) return `unknown expansion ${e}`;
  if (new Set(setup.expansions).size !== setup.expansions.length) return 'an expansion is listed twice';
  if (setup.players.length < 2) return 'at least 2 players are needed';
  if (setup.start.length === 0) return 'no start piece';
  for (const s of setup.start) {
    if (!catalog.has(s.tile)) return `unknown start tile ${s.tile}`;
    if (!isRotation(s.rot)) return `start tile ${s.tile} has rotation ${String(s.rot)}`;
  }
  return null;
}

/** A new game: the state with the start pieces laid, and the events that laid them. */
export function createGame(setup: GameSetup, catalog: TileCatalog = defaultCatalog()): Result<{ state: GameState; events: GameEvent[] }> {
  const problem = setupProblem(setup, catalog);
  if (problem) return fail(problem);
  const state = initialState(setup, catalog);
  const max = state.pipeline.maxPlayers;
  if (setup.players.length > max) return fail(`at most ${max} players with ${setup.expansions.join(', ')}`);
  const events: GameEvent[] = setup.start.map((s) => ({ type: 'startPlaced', tile: s.tile, at: [s.at[0], s.at[1]], rot: s.rot, ...(s.piece ? { piece: s.piece } : {}) }));
  for (const e of events) evolve(state, e);
  return ok({ state, events });
}

/** The state before any event: supplies filled by every enabled module. */
const pipelines = new Map<string, Pipeline>();

/** Modules are static, so one pipeline per set of expansions serves every game. */
function pipelineFor(expansions: readonly ExpansionId[]): Pipeline {
  const ids: ExpansionId[] = ['base', ...expansions.filter((e) => e !== 'base')];
  const key = ids.join(',');
  let p = pipelines.get(key);
  if (!p) {
    p = buildPipeline(ids.map((id) => MODULES.get(id)!));
    pipelines.set(key, p);
  }
  return p;
}

export function initialState(setup: GameSetup, catalog: TileCatalog = defaultCatalog()): GameState {
  const pipeline = pipelineFor(setup.expansions);
  const state = newState(setup, catalog, pipeline);
  for (const p of state.players) for (const [kind, f] of pipeline.figures) p.supply[kind] = f.perPlayer;
  for (const m of pipeline.modules) m.setup?.(state);
  for (const m of pipeline.modules) m.afterSetup?.(state);
  return state;
}

export function evolve(state: GameState, event: GameEvent): void {
  const reduce = state.pipeline.reducers.get(event.type);
  if (!reduce) throw new Error(`no module of this game handles the event ${event.type}`);
  reduce(state, event);
}

/** Validates the command; on success applies its events to `state` and returns them. */
export function execute(state: GameState, command: Command): Result<GameEvent[]> {
  const decided = decide(state, command);
  if (!decided.ok) return decided;
  for (const e of decided.value) evolve(state, e);
  return decided;
}

/** What the command would cause, without changing the state. */
export function decide(state: GameState, command: Command): Result<GameEvent[]> {
  const handler = state.pipeline.commands.get(command.type);
  const why = gateProblemWith(state, command, handler);
  if (why) return fail(why);
  return handler!.decide(state, command);
}

/**
 * Why a command cannot be considered now at all — game over, not part of these expansions, not
 * this player's turn, not this step, or a module's rule for the moment — before its own checks.
 */
export function gateProblem(state: GameState, command: Command): string | null {
  return gateProblemWith(state, command, state.pipeline.commands.get(command.type));
}

function gateProblemWith(state: GameState, command: Command, handler: CommandHandler | undefined): string | null {
  if (state.finished) return 'the game is over';
  if (!handler) return `${command.type} is not part of this game's expansions`;
  if ('player' in command && command.player !== state.turn.player) {
    return `it is player ${state.turn.player}'s turn, not player ${command.player}'s`;
  }
  if (handler.steps && !handler.steps.includes(state.turn.step)) {
    return `${command.type} is not allowed now (${stepText(state)})`;
  }
  const rules = state.pipeline.commandRules;
  for (let i = 0; i < rules.length; i++) {
    const why = rules[i]!(state, command);
    if (why) return why;
  }
  return null;
}

function stepText(state: GameState): string {
  switch (state.turn.step) {
    case 'tile':
      return 'the turn has not placed its tile yet';
    case 'action':
      return 'the tile is placed; a meeple or other action, or the end of the turn, comes next';
    case 'actionDone':
      return 'this turn has had its action; only the end of the turn is left';
  }
}

/** Rebuilds the state from a setup and its events. */
export function fold(setup: GameSetup, events: readonly GameEvent[], catalog: TileCatalog = defaultCatalog()): GameState {
  const state = initialState(setup, catalog);
  for (const e of events) evolve(state, e);
  return state;
}
