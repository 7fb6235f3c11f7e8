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

export interface StartPlaced { readonly type: 'startPlaced'; readonly tile: string; readonly at: XY; readonly rot: Rotation }
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

export type GameEvent =
  | StartPlaced | TilePlaced | TileDiscarded | MeeplePlaced | MeepleReturned | Scored | TurnEnded | GameFinished
  | TowerFloorPlaced | MeepleCaptured | PrisonersExchanged | TowerClosed | RansomPaid | AbbotReturned;

export type EventType = GameEvent['type'];
