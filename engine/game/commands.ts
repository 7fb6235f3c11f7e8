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

export type Command =
  | PlaceTile | DiscardTile | PlaceMeeple | EndTurn | FinishGame
  | PlaceTowerFloor | CloseTower | PayRansom | ReturnAbbot;

export type CommandType = Command['type'];
