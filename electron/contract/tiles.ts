/**
 * The tile editor's contract: a tile definition as the table describes it (checked here for shape;
 * the engine's validateTile and definitionProblem check that it makes sense), the camera crop it was
 * described on, and what the editor is shown about each tile it may describe.
 */
import { z } from 'zod';
import type { TileDefinition } from '../../engine/catalog/definitions.js';

const terrain = z.enum(['field', 'road', 'city', 'river']);
const featureId = z.string().regex(/^[A-Za-z0-9_]{1,30}$/, 'a feature id (letters, digits, _)');

export const featureSchema = z
  .object({
    id: featureId,
    kind: z.enum(['road', 'city', 'field', 'river', 'cloister', 'garden', 'tower', 'fortress']),
    segments: z.array(z.number().int().min(0).max(11)).max(12).readonly(),
    pennants: z.number().int().min(0).max(9),
    inn: z.boolean(),
    cathedral: z.boolean(),
    adjacentCities: z.array(featureId).max(12).readonly(),
  })
  .strict()
  .readonly();

export const tileDefinitionSchema = z
  .object({
    tile: z.string().regex(/^[A-Za-z0-9_\-]{1,40}$/, 'a catalog tile id'),
    segments: z.array(terrain).length(12, 'twelve edge segments, N0 to W2').readonly(),
    features: z.array(featureSchema).min(1).max(16).readonly(),
    siege: z.array(z.enum(['knights', 'travelers', 'monks', 'any'])).max(2).readonly().optional(),
    statue: featureId.optional(),
  })
  .strict()
  .readonly();

/** The camera crop (or a photo) the tile was described on, as base64. */
export const cropSchema = z
  .object({
    mime: z.enum(['image/png', 'image/jpeg']),
    base64: z.string().max(4_000_000, 'a crop over 3 MB').regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64 image data'),
  })
  .strict();

export type Crop = z.infer<typeof cropSchema>;

// The schema and the engine's type must describe the same thing.
type Parsed = z.infer<typeof tileDefinitionSchema>;
export const sameShape: [Parsed] extends [TileDefinition] ? ([TileDefinition] extends [Parsed] ? true : false) : false = true;

/** A tile the editor may describe, as the editor is shown it. */
export interface EditableTile {
  readonly id: string;
  readonly name: string;
  /** The tile as a player names it (engine/catalog/tile-words.ts): what a screen shows, never the id. */
  readonly words: string;
  readonly expansion: string;
  /** What the tile is in the game: land tile, prize tile, a cell of a piece, a river tile. */
  readonly role: string;
  /** Still the provisional geometry (no description saved yet). */
  readonly provisional: boolean;
  /** The description new games play with (provisional or the table's). */
  readonly definition: TileDefinition;
  readonly confirmedAt: string | null;
  /** Photos of the tile enrolled for recognition. */
  readonly photos: number;
  /** Does the tile show siege symbols / hold a statue (then the editor asks for them)? */
  readonly siege: boolean;
  readonly statue: boolean;
}

export interface SavedTile {
  readonly tile: string;
  readonly definitionId: number;
  readonly exemplarId: number | null;
  /** What happened to the game in progress (see docs/app.md, tile editor). */
  readonly game: { readonly id: number; readonly updated: boolean; readonly why: string } | null;
}
