/**
 * The plug-in interface: the base game and every expansion are modules that contribute commands,
 * event reducers, figures and hooks to the turn pipeline. The base turn knows nothing about any
 * expansion; it calls the hooks the enabled modules provide.
 */
import type { ExpansionId, FeatureKind, TileType } from '../catalog/types.js';
import type { FeatureData, MeepleKind, MeepleOnBoard, PlacedTile } from '../features/board.js';
import type { OrientedTile } from '../geometry/oriented.js';
import type { Result } from '../result.js';
import type { Command } from './commands.js';
import type { GameEvent, ScoreItem } from './events.js';
import type { GameState, TurnStep } from './state.js';

export interface CommandHandler {
  /** Steps of the turn in which the command is allowed; absent = any step. */
  readonly steps?: readonly TurnStep[];
  /** Validates the command against the state and says what happens, without changing the state. */
  decide(state: GameState, command: Command): Result<GameEvent[]>;
}

export type Reducer = (state: GameState, event: GameEvent) => void;

/** A kind of figure a module brings: how many each player has and where it may stand. */
export interface FigureRule {
  readonly kind: MeepleKind;
  readonly perPlayer: number;
  /** Feature kinds it may be placed on; fields only while farmers are played. */
  readonly on: readonly FeatureKind[];
}

export interface FeatureScoreContext {
  readonly state: GameState;
  readonly feature: FeatureData;
  readonly tiles: number;
  readonly complete: boolean;
}

export interface ExpansionModule {
  readonly id: ExpansionId;
  /** Most players the module's components allow (the 6th colour comes with Inns & Cathedrals). */
  readonly maxPlayers?: number;
  readonly figures?: readonly FigureRule[];
  readonly commands?: Partial<Record<Command['type'], CommandHandler>>;
  readonly reducers?: Partial<Record<GameEvent['type'], Reducer>>;
  /** At setup, before the start pieces: supplies, state slices. */
  setup?(state: GameState): void;
  /** Why this tile may not be played now (e.g. the River's tiles come first), or null. */
  tileRule?(state: GameState, tile: TileType): string | null;
  /** Why this tile may not go there beyond edge matching, or null. */
  placementRule?(state: GameState, view: OrientedTile, x: number, y: number): string | null;
  /** Why this figure may not stand on this feature beyond the usual rules, or null. */
  meepleRule?(state: GameState, player: number, kind: MeepleKind, part: number): string | null;
  /** In the fold, after a tile or start piece is on the board. */
  afterTilePlaced?(state: GameState, placed: PlacedTile): void;
  /** Adjusts a feature's score breakdown (inns, cathedrals…). */
  featureScore?(ctx: FeatureScoreContext, items: ScoreItem[]): ScoreItem[];
  /** Step 3, before the usual scoring. */
  beforeScoring?(state: GameState): GameEvent[];
  /** Final scoring contributions; the base game's comes last. */
  finalScoring?(state: GameState): GameEvent[];
  /** Where this module's final scoring goes among the expansions' (lower first; default 0). */
  readonly finalOrder?: number;
  /** After every module's `setup` (what needs the whole supply, such as Jousts & Crests' stacks). */
  afterSetup?(state: GameState): void;
  /** Why this command may not run now (a step of this module must come first), or null. */
  commandRule?(state: GameState, command: Command): string | null;
  /** In the fold, whenever a meeple leaves the board for any reason. */
  afterMeepleLifted?(state: GameState, meeple: MeepleOnBoard): void;
  /** In the fold, after the land tile is drawn (`tileDrawn`). */
  afterTileDrawn?(state: GameState, tile: string): void;
  /** Who plays after `player` when this module decides it (placement laps), or null. */
  nextPlayer?(state: GameState, player: number): number | null;
}
