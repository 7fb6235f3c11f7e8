/** Commands: what a player (or the camera, through the table's confirmation) asks the engine to do. */
import type { MeepleKind } from '../features/board.js';
import type { Rotation } from '../geometry/segments.js';
import type { XY } from './events.js';

export interface PlaceTile { readonly type: 'placeTile'; readonly player: number; readonly tile: string; readonly at: XY; readonly rot: Rotation }
/** The drawn tile fits nowhere: back in the box, the same player draws again. */
export interface DiscardTile { readonly type: 'discardTile'; readonly player: number; readonly tile: string }
export interface PlaceMeeple { readonly type: 'placeMeeple'; readonly player: number; readonly kind: MeepleKind; readonly on: string }
/** Ends the turn: step 3, scoring. */
export interface EndTurn { readonly type: 'endTurn'; readonly player: number }
/** Final scoring. */
export interface FinishGame { readonly type: 'finishGame' }

export interface CaptureChoice {
  readonly player: number;
  readonly at: XY;
  readonly on: string;
  readonly kind?: MeepleKind;
  /** When the capturer gets one of their own prisoners back and holds several kinds, which one. */
  readonly exchangeFor?: MeepleKind;
}
export interface PlaceTowerFloor { readonly type: 'placeTowerFloor'; readonly player: number; readonly at: XY; readonly capture?: CaptureChoice }
export interface CloseTower { readonly type: 'closeTower'; readonly player: number; readonly kind: MeepleKind; readonly at: XY }
export interface PayRansom { readonly type: 'payRansom'; readonly player: number; readonly prisonerOf: number; readonly kind: MeepleKind }
export interface ReturnAbbot { readonly type: 'returnAbbot'; readonly player: number; readonly at: XY }

/** The land tile drawn and shown (games whose modules need the draw: Jousts & Crests, Siege & Defense). */
export interface DrawTile { readonly type: 'drawTile'; readonly player: number; readonly tile: string }

// Jousts & Crests. Commands carried out by a player other than the active one name them `owner`.
export type TournamentCategory = 'road' | 'city' | 'field';
export interface ResolveTournament { readonly type: 'resolveTournament'; readonly player: number }
/** The owner turns up the emblem under one of their nominated meeples and says its value. */
export interface RevealEmblem { readonly type: 'revealEmblem'; readonly owner: number; readonly at: XY; readonly on: string; readonly value: number }
export interface PlacePrizeTile { readonly type: 'placePrizeTile'; readonly player: number; readonly tile: string; readonly at: XY; readonly rot: Rotation }
/** A won prize tile that fits nowhere (JC-A7). */
export interface DiscardPrizeTile { readonly type: 'discardPrizeTile'; readonly player: number; readonly tile: string }
/** An emblem from the player's supply slides under their meeple at `at`/`on`. */
export interface Nominate { readonly type: 'nominate'; readonly player: number; readonly at: XY; readonly on: string }
/** With The River: the tournament tile (river side), top-left cell at `at`, placed when the first river bend is drawn. */
export interface PlaceTournamentTile { readonly type: 'placeTournamentTile'; readonly player: number; readonly at: XY; readonly rot: Rotation }
/** A placement-lap turn of a player who has no prize tile to place. */
export interface SkipTurn { readonly type: 'skipTurn'; readonly player: number }

// Siege & Defense.
export type DefencePostName = 'knights' | 'travelers' | 'monks';
/** The next siege symbol of the drawn tile, at `post` (the chosen one for a question mark). */
export interface ResolveSiegeSymbol { readonly type: 'resolveSiegeSymbol'; readonly player: number; readonly post: DefencePostName }
/** In an attack, the owner takes one matching meeple of theirs off the board. */
export interface RemoveMeepleForAttack { readonly type: 'removeMeepleForAttack'; readonly owner: number; readonly at: XY; readonly on: string; readonly kind?: MeepleKind }
/** A standard meeple from supply to a defence post: its row, or the meeple space (after a farmer). */
export interface PlaceAtDefencePost { readonly type: 'placeAtDefencePost'; readonly player: number; readonly post: DefencePostName; readonly space: 'row' | 'meeple' }

export type Command =
  | PlaceTile | DiscardTile | PlaceMeeple | EndTurn | FinishGame
  | PlaceTowerFloor | CloseTower | PayRansom | ReturnAbbot
  | DrawTile
  | ResolveTournament | RevealEmblem | PlaceTournamentTile | PlacePrizeTile | DiscardPrizeTile | Nominate | SkipTurn
  | ResolveSiegeSymbol | RemoveMeepleForAttack | PlaceAtDefencePost;

export type CommandType = Command['type'];
