/** Jousts & Crests' slice of the game state (see docs/jousts-crests-siege-defense.md). */
import type { TournamentCategory } from '../../game/events.js';

export interface Stack {
  /** Land tiles left in the stack. */
  land: number;
  /** Prize tiles lying face down on top of it. */
  prizes: number;
}

export interface JcPlayer {
  /** Emblems in the player's supply (values unknown to the engine). */
  emblems: number;
  /** Values this player has revealed so far; the rest of {0, 1, 2, 3, 5} are still hidden. */
  readonly revealed: number[];
  prizesHeld: number;
  /** Kept emblems waiting for the statue of the next prize tile placed. */
  readonly keptEmblems: number[];
  /** Revealed emblems in the box. */
  readonly box: number[];
  /** Emblems in the box that were never revealed (still under meeples at the end). */
  boxHidden: number;
}

export interface Statue {
  readonly player: number;
  readonly value: number;
  /** The part of the city the statue stands in. */
  readonly part: number;
  readonly at: readonly [number, number];
  readonly on: string;
}

export interface Reveal {
  readonly player: number;
  readonly value: number;
  readonly bonus: number;
  readonly meeple: number;
}

export interface Tournament {
  readonly category: TournamentCategory;
  readonly participants: readonly number[];
  readonly reveals: Reveal[];
  readonly final: boolean;
}

export interface JcOptionsResolved {
  readonly crownSpaces: readonly TournamentCategory[];
  readonly crownStart: number;
  readonly startTileToBox: boolean;
  readonly allowRenominate: boolean;
}

export interface JcState {
  readonly options: JcOptionsResolved;
  stacks: Stack[];
  /** Index of the stack players draw from. */
  current: number;
  /** The final prize stack. */
  finalPrizes: number;
  crown: number;
  readonly prizePool: Map<string, number>;
  readonly players: JcPlayer[];
  /** Meeple id → owner, for meeples with an emblem under them. */
  readonly nominated: Map<number, number>;
  /** Meeples whose emblem was spent in a tournament. */
  readonly spent: Set<number>;
  readonly statues: Statue[];
  /** Board indices of placed prize tiles (no meeple may stand on them). */
  readonly prizeTileIndices: Set<number>;
  tournament: Tournament | null;
  tournamentsDone: number;
  /** The final tournament is over: turns go on without land tiles until every won prize is placed. */
  laps: boolean;
  /** Turn number of this turn's nomination (one per turn), or 0. */
  nominatedTurn: number;
}
