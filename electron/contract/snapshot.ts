/**
 * What a screen is shown: a plain-data view of the game built from an allowlist of public facts.
 * Anything hidden at the table (emblem values before their reveal, with Jousts & Crests) must never
 * be copied in here; the view is built field by field for that reason, never by spreading the state.
 */
import type { Command } from '../../engine/game/commands.js';

export interface PlayerView {
  readonly name: string;
  readonly color: string;
  readonly score: number;
  readonly byKind: Readonly<Record<string, number>>;
  readonly supply: Readonly<Record<string, number>>;
  readonly floors: number;
  readonly prisoners: readonly { readonly owner: number; readonly kind: string }[];
}

export interface TileView {
  readonly tile: string;
  readonly x: number;
  readonly y: number;
  readonly rot: number;
  /** Board-frame terrain per segment N0..W2: 0 field, 1 road, 2 city, 3 river. */
  readonly terrain: readonly number[];
  /** Board-frame features, with what is printed on them (the board draws the tile from these). */
  readonly features: readonly {
    readonly name: string;
    readonly kind: string;
    readonly segments: readonly number[];
    readonly pennants: number;
    readonly inn: boolean;
    readonly cathedral: boolean;
  }[];
  /** A river tile ending in a lake (drawn as one). */
  readonly lake: boolean;
}

export interface ScoreView {
  readonly players: readonly number[];
  readonly points: number;
  readonly kind: string;
  readonly text: string;
  readonly final: boolean;
  /** Where the scored feature is: one named spot and every tile it covers. */
  readonly feature: { readonly at: readonly [number, number]; readonly on: string; readonly tiles: readonly (readonly [number, number])[] } | null;
}

/** A place the board lights: a tile, or one feature on it (`on` as the engine names it, null: the tile). */
export interface PlaceView {
  readonly x: number;
  readonly y: number;
  readonly on: string | null;
}

export interface LogEntryView {
  /** Position in the game's command list (what undo, correct and insert address). */
  readonly index: number;
  /** The command as the engine has it: exports and the developer view only, never shown to players. */
  readonly command: Command;
  /** The move in the table's words. */
  readonly text: string;
  readonly events: readonly string[];
  /** The places the move and its events speak of ("the lit road"), for the board to light. */
  readonly places: readonly PlaceView[];
}

interface Spot { readonly x: number; readonly y: number; readonly on: string }

/** Jousts & Crests, public facts only: no emblem value appears before its reveal. */
export interface JcView {
  /** Land tiles left and prize tiles on top, per stack. */
  readonly stacks: readonly { readonly land: number; readonly prizes: number }[];
  /** Index of the stack players draw from. */
  readonly current: number;
  /** Prize tiles on the final prize stack. */
  readonly finalPrizes: number;
  readonly crown: { readonly spaces: readonly string[]; readonly at: number; readonly category: string };
  readonly allowRenominate: boolean;
  readonly players: readonly {
    readonly emblems: number;
    /** Values this player has revealed (face up since). */
    readonly revealed: readonly number[];
    readonly prizesHeld: number;
    /** Revealed values kept for the statue of the next prize tile placed. */
    readonly keptEmblems: readonly number[];
    /** Revealed values in the box. */
    readonly box: readonly number[];
    /** Emblems boxed without a reveal: counted, never valued. */
    readonly boxHidden: number;
  }[];
  /** Meeples with an emblem under them (the value is not known to anyone but its owner). */
  readonly nominated: readonly (Spot & { readonly player: number; readonly kind: string })[];
  /** The active player's meeples that may be nominated now. */
  readonly nominable: readonly Spot[];
  readonly tournament: {
    readonly category: string;
    readonly final: boolean;
    /** Who reveals, in order (clockwise from the active player). */
    readonly participants: readonly number[];
    readonly reveals: readonly { readonly player: number; readonly value: number; readonly bonus: number; readonly at: Spot | null }[];
    readonly next: number | null;
    /** The next revealer's nominated meeples of the category. */
    readonly nextMeeples: readonly Spot[];
  } | null;
  readonly statues: readonly (Spot & { readonly player: number; readonly value: number })[];
  /** Prize tile types not yet drawn or placed, with counts (which one a stack holds is unknown). */
  readonly prizeTypes: readonly { readonly tile: string; readonly count: number }[];
  readonly tournamentsDone: number;
  /** The current stack is empty: a tournament must be held before anything else. */
  readonly tournamentDue: boolean;
  readonly laps: boolean;
}

/** Siege & Defense. */
export interface SdView {
  readonly rowLength: number;
  readonly posts: readonly { readonly name: string; readonly row: readonly number[]; readonly space: readonly number[]; readonly catapult: boolean }[];
  /** Siege symbols of the drawn tile still to resolve, left to right. */
  readonly pending: readonly string[];
  readonly attack: { readonly post: string; readonly removers: readonly number[]; readonly targets: readonly (Spot & { readonly kind: string })[] } | null;
  readonly counterAttack: string | null;
  /** Where the active player may still post a meeple this turn. */
  readonly postOption: { readonly post: string; readonly space: string } | null;
}

export interface GameView {
  readonly gameId: number;
  readonly expansions: readonly string[];
  readonly rules: Readonly<Record<string, unknown>>;
  readonly players: readonly PlayerView[];
  /** `drawn`: the land tile drawn and shown this turn (games whose modules need the draw), or null. */
  readonly turn: { readonly number: number; readonly player: number; readonly step: 'tile' | 'action' | 'actionDone'; readonly drawn: string | null };
  readonly finished: boolean;
  readonly tilesLeft: number;
  readonly supply: readonly { readonly tile: string; readonly count: number }[];
  readonly board: readonly TileView[];
  readonly meeples: readonly { readonly player: number; readonly kind: string; readonly x: number; readonly y: number; readonly on: string }[];
  readonly towers: readonly { readonly x: number; readonly y: number; readonly height: number; readonly top: { readonly player: number; readonly kind: string } | null }[];
  readonly log: readonly LogEntryView[];
  /** Every score of the game, in order: the audit reads these. */
  readonly scores: readonly ScoreView[];
  /** The scores of the last turn (or of final scoring) that scored anything. */
  readonly lastScoring: readonly ScoreView[];
  /** What the table must do now, in the table's words. */
  readonly reminders: readonly string[];
  /** The places the reminders speak of ("the lit city"): the board lights them. */
  readonly lit: readonly PlaceView[];
  /** Every tile type of the game's boxes named in words (engine/catalog/tile-words.ts), by id: a screen names a tile by these, never by its id. */
  readonly tileNames: Readonly<Record<string, string>>;
  /** The same reminders as codes (engine/game/reminders.ts): panels mark the step that is due. */
  readonly next: readonly { readonly what: string; readonly who: readonly number[]; readonly required: boolean }[];
  /** Where the current player may put a figure on the tile just placed. */
  readonly meepleSpots: readonly { readonly kind: string; readonly on: string }[];
  /**
   * The other legal commands of the step (engine legalActions): tower floors with each capture,
   * closing a tower, the abbot back, ransoms. The click entry lights what each one is done by.
   */
  readonly actions: readonly Command[];
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly jc: JcView | null;
  readonly sd: SdView | null;
}

export interface Snapshot {
  /** Bumps with every change, so a screen can drop stale copies. */
  readonly version: number;
  readonly game: GameView | null;
  /** Something the table should know that is not part of a game (the last game could not be resumed). */
  readonly notice: string | null;
}
