/** A small table for rule tests: lay tiles turn by turn on the real engine and read the scores. */
import type { ExpansionId } from '../../engine/catalog/types.js';
import type { MeepleKind } from '../../engine/features/board.js';
import type { Rotation } from '../../engine/geometry/segments.js';
import type { CaptureChoice, Command } from '../../engine/game/commands.js';
import type { GameEvent, Scored } from '../../engine/game/events.js';
import { Game } from '../../engine/game/game.js';
import { makeSetup, type ExpansionOptions, type Rules, type StartPiece, type TileSetOptions } from '../../engine/game/setup.js';

export type Action =
  | { meeple: MeepleKind; on: string }
  | { floor: readonly [number, number]; capture?: CaptureChoice }
  | { top: readonly [number, number]; kind?: MeepleKind }
  | { returnAbbot: readonly [number, number] };

export interface TableOptions {
  expansions?: ExpansionId[];
  rules?: Partial<Rules>;
  players?: number;
  start?: StartPiece[];
  tileSet?: Partial<TileSetOptions>;
  options?: ExpansionOptions;
}

const COLORS = ['red', 'blue', 'green', 'yellow', 'black', 'pink'];

export function actionCommand(player: number, a: Action): Command {
  if ('meeple' in a) return { type: 'placeMeeple', player, kind: a.meeple, on: a.on };
  if ('floor' in a) return { type: 'placeTowerFloor', player, at: a.floor, ...(a.capture ? { capture: a.capture } : {}) };
  if ('top' in a) return { type: 'closeTower', player, kind: a.kind ?? 'normal', at: a.top };
  return { type: 'returnAbbot', player, at: a.returnAbbot };
}

export class Table {
  readonly game: Game;

  constructor(opts: TableOptions = {}) {
    const setup = makeSetup({
      expansions: opts.expansions ?? ['base'],
      players: Array.from({ length: opts.players ?? 2 }, (_, i) => ({ name: `P${i}`, color: COLORS[i]! })),
      rules: { ...opts.rules },
      tileSet: { ...opts.tileSet },
      ...(opts.start ? { start: opts.start } : {}),
      ...(opts.options ? { options: opts.options } : {}),
    });
    const g = Game.start(setup);
    if (!g.ok) throw new Error(g.reason);
    this.game = g.value;
  }

  get state() {
    return this.game.state;
  }

  get player(): number {
    return this.state.turn.player;
  }

  /** Runs a command and throws with the engine's reason if it is refused. */
  do(c: Command): readonly GameEvent[] {
    const r = this.game.play(c);
    if (!r.ok) throw new Error(r.reason);
    return r.value;
  }

  /** The engine's answer to a command (for testing refusals). */
  try(c: Command) {
    return this.game.play(c);
  }

  /** One whole turn: the tile, an optional action, the end of the turn. Returns the turn's scores. */
  turn(tile: string, at: readonly [number, number], rot: Rotation, action?: Action): Scored[] {
    const p = this.player;
    const events: GameEvent[] = [...this.do({ type: 'placeTile', player: p, tile, at, rot })];
    if (action) events.push(...this.do(actionCommand(p, action)));
    events.push(...this.do({ type: 'endTurn', player: p }));
    return events.filter((e): e is Scored => e.type === 'scored');
  }

  /** Places a tile and leaves the turn open for the action step. */
  place(tile: string, at: readonly [number, number], rot: Rotation): void {
    this.do({ type: 'placeTile', player: this.player, tile, at, rot });
  }

  endTurn(): Scored[] {
    return this.do({ type: 'endTurn', player: this.player }).filter((e): e is Scored => e.type === 'scored');
  }

  finish(): Scored[] {
    return this.do({ type: 'finishGame' }).filter((e): e is Scored => e.type === 'scored');
  }

  score(p: number): number {
    return this.state.players[p]!.score;
  }

  supply(p: number, kind: MeepleKind = 'normal'): number {
    return this.state.players[p]!.supply[kind];
  }
}

/** Scores reduced to what a player sees: who, how many points, what for. */
export function brief(scores: readonly Scored[]): { players: number[]; points: number; kind: string }[] {
  return scores.map((s) => ({ players: [...s.players], points: s.points, kind: s.kind }));
}
