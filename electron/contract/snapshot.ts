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
  readonly features: readonly { readonly name: string; readonly kind: string; readonly segments: readonly number[]; readonly pennants: number }[];
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

export interface LogEntryView {
  /** Position in the game's command list (what undo, correct and insert address). */
  readonly index: number;
  readonly command: Command;
  readonly text: string;
  readonly events: readonly string[];
}

export interface GameView {
  readonly gameId: number;
  readonly expansions: readonly string[];
  readonly rules: Readonly<Record<string, unknown>>;
  readonly players: readonly PlayerView[];
  readonly turn: { readonly number: number; readonly player: number; readonly step: 'tile' | 'action' | 'actionDone' };
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
  readonly reminders: readonly string[];
  /** Where the current player may put a figure on the tile just placed. */
  readonly meepleSpots: readonly { readonly kind: string; readonly on: string }[];
  readonly canUndo: boolean;
  readonly canRedo: boolean;
}

export interface Snapshot {
  /** Bumps with every change, so a screen can drop stale copies. */
  readonly version: number;
  readonly game: GameView | null;
  /** Something the table should know that is not part of a game (the last game could not be resumed). */
  readonly notice: string | null;
}
