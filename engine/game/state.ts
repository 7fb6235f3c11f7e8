/** The game state: a working structure rebuilt by folding events (fold.ts); never edited elsewhere. */
import type { TileCatalog } from '../catalog/registry.js';
import { Board, type MeepleKind, type MeepleOnBoard } from '../features/board.js';
import type { GameSetup } from './setup.js';
import type { Pipeline } from './pipeline.js';
import { TileSupply } from './tile-supply.js';
import type { JcState } from '../expansions/jousts-crests/state.js';
import type { SdState } from '../expansions/siege-defense/state.js';

export interface Prisoner {
  readonly owner: number;
  readonly kind: MeepleKind;
}

export interface PlayerState {
  score: number;
  /** Points by score kind, for the scoreboard. */
  readonly byKind: Record<string, number>;
  /** Meeples in the player's supply, by kind. */
  readonly supply: Record<MeepleKind, number>;
  /** Meeples of other players this player holds in their tower (The Tower). */
  readonly prisoners: Prisoner[];
  /** Tower floors left (The Tower). */
  floors: number;
}

export type TurnStep = 'tile' | 'action' | 'actionDone';

export interface TurnState {
  /** Counts turns from 1; a discard does not end a turn. */
  number: number;
  player: number;
  step: TurnStep;
  /** Index of the tile placed this turn on the board, or -1. */
  tile: number;
  /** Every tile placed this turn (the land tile, prize tiles…): step 3 scores what they complete. */
  readonly placed: number[];
  /** The land tile drawn this turn, where a module asks for the draw (Jousts & Crests, Siege & Defense). */
  drawn: string | null;
  ransomPaid: boolean;
}

export interface Tower {
  readonly x: number;
  readonly y: number;
  height: number;
  top: MeepleOnBoard | null;
}

export interface RiverState {
  /** The open river end: the position a next river tile must fill, and the side it enters by. */
  openEnd: { x: number; y: number; side: number } | null;
  /** Direction of the last river curve: 1 right, -1 left, 0 none yet. */
  lastTurn: number;
  /** Consecutive curves (straights between them ignored) turning the last way. */
  sameTurns: number;
  /** Was the last river tile a curve? */
  lastWasCurve: boolean;
  /** Ids of the river tiles in this game's box. */
  readonly tileIds: readonly string[];
  /**
   * A cache of riverTilesLeft for one version of the supply (it is asked for every tile drawn), and
   * `done` once none is left: river tiles never come back to the supply.
   */
  left: { version: number; count: number; done: boolean };
}

export interface GameState {
  readonly setup: GameSetup;
  /** The enabled modules' hooks, built once per setup. */
  readonly pipeline: Pipeline;
  readonly catalog: TileCatalog;
  readonly board: Board;
  /** Tiles not yet placed or discarded, by id. */
  readonly supply: TileSupply;
  readonly players: PlayerState[];
  readonly turn: TurnState;
  /** Meeples standing on the board (features and tower tops). */
  readonly meeples: MeepleOnBoard[];
  nextMeepleId: number;
  /** Tower foundations and towers by position key (The Tower). */
  readonly towers: Map<number, Tower>;
  river: RiverState | null;
  finished: boolean;
  /** Multi-cell pieces on the board (tournament tile, fortress tiles); PlacedTile.piece indexes it. */
  readonly pieces: string[];
  /** Jousts & Crests. */
  jc: JcState | null;
  /** Siege & Defense. */
  sd: SdState | null;
}

export function newState(setup: GameSetup, catalog: TileCatalog, pipeline: Pipeline): GameState {
  return {
    setup,
    pipeline,
    catalog,
    board: new Board(),
    supply: new TileSupply(),
    players: setup.players.map(() => ({
      score: 0,
      byKind: {},
      supply: { normal: 0, big: 0, abbot: 0 },
      prisoners: [],
      floors: 0,
    })),
    turn: { number: 1, player: 0, step: 'tile', tile: -1, placed: [], drawn: null, ransomPaid: false },
    pieces: [],
    jc: null,
    sd: null,
    meeples: [],
    nextMeepleId: 1,
    towers: new Map(),
    river: null,
    finished: false,
  };
}

export function riverTilesLeft(state: GameState): number {
  const river = state.river;
  if (!river || river.left.done) return 0;
  if (river.left.version === state.supply.version) return river.left.count;
  let n = 0;
  for (const id of river.tileIds) n += state.supply.get(id) ?? 0;
  river.left.version = state.supply.version;
  river.left.count = n;
  // Only once the river's tiles are known (after setup) does an empty count mean the river is over.
  if (n === 0 && river.tileIds.length > 0) river.left.done = true;
  return n;
}
