/**
 * The click entry's questions (issue 29): the game's tile types for the picker, and where a chosen
 * tile may go. Arguments are checked like every other operation's; the engine answers legality.
 */
import { z } from 'zod';
import type { TileView } from './snapshot.js';

/** A tile the picker offers: named in words, grouped by box, drawn from its shape at rest. */
export interface TileChoice {
  readonly tile: string;
  readonly words: string;
  /** The box, in words ("The Tower"). */
  readonly expansion: string;
  /** A Jousts & Crests prize tile (offered only when one is to be placed). */
  readonly prize: boolean;
  readonly view: TileView;
}

/** A figure's spot: its kind and the feature (segment or interior name) it stands on. */
export interface FigureSpotView {
  readonly kind: string;
  readonly on: string;
}

/**
 * One cell where the tile may go, with each legal turn there (a piece: every cell it covers) and,
 * for a land tile, the figure spots it would offer so turned: a click on one lays tile and figure.
 */
export interface TilePlacement {
  readonly x: number;
  readonly y: number;
  readonly turns: readonly { readonly rot: number; readonly cells: readonly TileView[]; readonly spots: readonly FigureSpotView[] }[];
}

export interface PlacementsView {
  readonly cells: readonly TilePlacement[];
  /** Why the tile cannot be played at all (none left, the River's order), or null. */
  readonly problem: string | null;
}

export const placementsArgs = z.tuple([
  z.string().regex(/^[A-Za-z0-9_\-]{1,40}$/, 'a catalog tile id'),
  z.enum(['land', 'prize', 'tournament']),
]);
