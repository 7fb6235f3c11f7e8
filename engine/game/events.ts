/**
 * Events: what happened at the table, in order. The state is a fold over them (see fold.ts); commands
 * are validated and turned into events by the turn pipeline (engine.ts).
 */
import type { MeepleKind } from '../features/board.js';
import type { Rotation } from '../geometry/segments.js';

export type XY = readonly [number, number];

/** A line of a score's breakdown (record@1 vocabulary). */
export interface ScoreItem {
  readonly name: 'tiles' | 'pennants' | 'cities' | 'inn' | 'cathedral' | string;
  readonly count?: number;
  readonly points: number;
}

export type ScoreKind =
  | 'road' | 'city' | 'cloister' | 'garden'
  | 'road.incomplete' | 'city.incomplete' | 'cloister.incomplete' | 'garden.incomplete'
  | 'field' | 'ransom' | string;

export interface FeatureRef {
  readonly at: XY;
  readonly on: string;
}

export interface Scored {
  readonly type: 'scored';
  /** Everyone who scores (all tied owners); each gets `points`. */
  readonly players: readonly number[];
  readonly points: number;
  readonly kind: ScoreKind;
  /** One segment of the scored feature, under a scoring player's meeple. */
  readonly feature?: FeatureRef;
  readonly items: readonly ScoreItem[];
  /** Scored in final scoring rather than during a turn. */
  readonly final: boolean;
}

export interface StartPlaced { readonly type: 'startPlaced'; readonly tile: string; readonly at: XY; readonly rot: Rotation; readonly piece?: string }
export interface TilePlaced { readonly type: 'tilePlaced'; readonly player: number; readonly tile: string; readonly at: XY; readonly rot: Rotation }
export interface TileDiscarded { readonly type: 'tileDiscarded'; readonly player: number; readonly tile: string }
export interface MeeplePlaced { readonly type: 'meeplePlaced'; readonly player: number; readonly kind: MeepleKind; readonly at: XY; readonly on: string }
export interface MeepleReturned { readonly type: 'meepleReturned'; readonly player: number; readonly kind: MeepleKind; readonly at: XY; readonly on: string }
export interface TurnEnded { readonly type: 'turnEnded'; readonly player: number; readonly next: number }
export interface GameFinished { readonly type: 'gameFinished'; readonly final: readonly number[] }

export interface TowerFloorPlaced { readonly type: 'towerFloorPlaced'; readonly player: number; readonly at: XY; readonly height: number }
export interface MeepleCaptured {
  readonly type: 'meepleCaptured';
  readonly by: number;
  readonly player: number;
  readonly kind: MeepleKind;
  readonly at: XY;
  readonly on: string;
}
/** Two players swap one prisoner each (The Tower's automatic exchange). */
export interface PrisonersExchanged {
  readonly type: 'prisonersExchanged';
  /** Each entry: a meeple of `owner` held by `holder` goes home. */
  readonly released: readonly { readonly owner: number; readonly holder: number; readonly kind: MeepleKind }[];
}
export interface TowerClosed { readonly type: 'towerClosed'; readonly player: number; readonly kind: MeepleKind; readonly at: XY }
export interface RansomPaid { readonly type: 'ransomPaid'; readonly payer: number; readonly prisonerOf: number; readonly kind: MeepleKind }
export interface AbbotReturned { readonly type: 'abbotReturned'; readonly player: number; readonly at: XY; readonly on: string }

export interface TileDrawn { readonly type: 'tileDrawn'; readonly player: number; readonly tile: string }

// Jousts & Crests
export type TournamentCategory = 'road' | 'city' | 'field';
export interface TournamentStarted {
  readonly type: 'tournamentStarted';
  readonly player: number;
  readonly category: TournamentCategory;
  /** Players who must reveal, in order (clockwise from the active player). */
  readonly participants: readonly number[];
  /** The last land stack is empty: prizes come from the final prize stack. */
  readonly final: boolean;
}
export interface EmblemRevealed {
  readonly type: 'emblemRevealed';
  readonly player: number;
  readonly kind: MeepleKind;
  readonly at: XY;
  readonly on: string;
  readonly value: number;
  /** Road or city tiles, or the tiles around the farmer. */
  readonly bonus: number;
  readonly items: readonly ScoreItem[];
}
export interface TournamentResolved {
  readonly type: 'tournamentResolved';
  readonly category: TournamentCategory;
  /** Players by tournament value, highest first. */
  readonly ranking: readonly { readonly player: number; readonly value: number }[];
  /** Who draws a prize tile, in draw order. */
  readonly prizes: readonly number[];
  /** Prize tiles not drawn: onto the final prize stack (or out of play after the final tournament). */
  readonly leftover: number;
  /** The sole winner's emblem, kept for the statue. */
  readonly kept: { readonly player: number; readonly value: number } | null;
  /** Revealed emblems that go back to the box. */
  readonly toBox: readonly { readonly player: number; readonly value: number }[];
  readonly crown: number;
  readonly final: boolean;
}
export interface PrizeTilePlaced {
  readonly type: 'prizeTilePlaced';
  readonly player: number;
  readonly tile: string;
  readonly at: XY;
  readonly rot: Rotation;
  /** The kept emblem put on the statue, or null. */
  readonly emblem: number | null;
}
export interface PrizeTileDiscarded { readonly type: 'prizeTileDiscarded'; readonly player: number; readonly tile: string; readonly emblem: number | null }
export interface MeepleNominated { readonly type: 'meepleNominated'; readonly player: number; readonly kind: MeepleKind; readonly at: XY; readonly on: string }
/** The tournament tile's cells, in the order the river flows through them. */
export interface TournamentTilePlaced {
  readonly type: 'tournamentTilePlaced';
  readonly player: number;
  readonly at: XY;
  readonly rot: Rotation;
  readonly cells: readonly { readonly tile: string; readonly at: XY; readonly rot: Rotation }[];
}
/** Final scoring: emblems still under meeples leave the game unrevealed. */
export interface EmblemsCleared { readonly type: 'emblemsCleared'; readonly counts: readonly number[] }

// Siege & Defense
export type DefencePostName = 'knights' | 'travelers' | 'monks';
export interface CatapultPlaced { readonly type: 'catapultPlaced'; readonly player: number; readonly post: DefencePostName }
export interface AttackStarted {
  readonly type: 'attackStarted';
  readonly player: number;
  readonly post: DefencePostName;
  /** Players who must remove a meeple, in order (clockwise from the active player). */
  readonly removers: readonly number[];
}
export interface MeepleRemovedByAttack { readonly type: 'meepleRemovedByAttack'; readonly player: number; readonly kind: MeepleKind; readonly at: XY; readonly on: string; readonly post: DefencePostName }
/** Every meeple at the post goes home and its catapult is removed (after an attack or counter attack). */
export interface PostCleared { readonly type: 'postCleared'; readonly post: DefencePostName }
export interface MeeplePosted { readonly type: 'meeplePosted'; readonly player: number; readonly post: DefencePostName; readonly space: 'row' | 'meeple' }

export type GameEvent =
  | StartPlaced | TilePlaced | TileDiscarded | MeeplePlaced | MeepleReturned | Scored | TurnEnded | GameFinished
  | TowerFloorPlaced | MeepleCaptured | PrisonersExchanged | TowerClosed | RansomPaid | AbbotReturned
  | TileDrawn
  | TournamentStarted | EmblemRevealed | TournamentTilePlaced | TournamentResolved | PrizeTilePlaced | PrizeTileDiscarded | MeepleNominated | EmblemsCleared
  | CatapultPlaced | AttackStarted | MeepleRemovedByAttack | PostCleared | MeeplePosted;

export type EventType = GameEvent['type'];
