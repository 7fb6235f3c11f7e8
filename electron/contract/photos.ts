/**
 * "Read a tile from a photo…": an uploaded photo (or a flat scan) read without a game
 * (models/photo/read.ts). The photo travels as base64 in one message, so its size is bounded here;
 * its pixels are bounded by the reader (MAX_PHOTO_PIXELS).
 */
import { z } from 'zod';
import type { FeatureDef, Terrain } from '../../engine/catalog/types.js';

/** Largest photo accepted through the contract (bytes): a phone's 16 MP JPEG is 3–8 MB. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

export const photoSchema = z
  .object({
    mime: z.enum(['image/png', 'image/jpeg']),
    base64: z
      .string()
      .min(1, 'an empty photo')
      .max(Math.ceil(MAX_UPLOAD_BYTES / 3) * 4, `a photo over ${MAX_UPLOAD_BYTES / 1048576} MB`)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64 image data'),
  })
  .strict();

export const photoReadOptionsSchema = z
  .object({
    edition: z.enum(['C1', 'C2', 'C3']).optional(),
    expansions: z.array(z.enum(['base', 'river', 'abbot', 'inns-cathedrals', 'tower'])).min(1).max(5).optional(),
    /** The image is already the tile (a flat scan). */
    scan: z.boolean().optional(),
    /** The camera's open tile question the photo answers: only the tile types that may lie at its cell are read. */
    forQuestion: z.number().int().min(1).optional(),
  })
  .strict();

export type Photo = z.infer<typeof photoSchema>;
export type PhotoReadOptions = z.infer<typeof photoReadOptionsSchema>;

/** One reading, with what the display needs to draw the tile (catalog orientation; turn it by `rotation`). */
export interface PhotoReadingView {
  readonly tileId: string;
  readonly name: string;
  readonly rotation: 0 | 90 | 180 | 270;
  readonly confidence: number;
  readonly segments: readonly Terrain[];
  readonly features: readonly FeatureDef[];
}

export interface PhotoReadView {
  /** The three best readings, best first. */
  readonly readings: readonly PhotoReadingView[];
  /** The tile rectified as the tracker cuts a cell (the tile plus 10 % of the pitch around it), PNG base64. */
  readonly cropPng: string;
  /** Where the tile's corners were found (photo pixels), clockwise from its top side's left end; null for a scan. */
  readonly corners: readonly (readonly [number, number])[] | null;
  readonly edition: 'C1' | 'C2' | 'C3';
  readonly expansions: readonly string[];
  /** Of the candidate tile types, how many the table's own pictures (taught, answered) were read against. */
  readonly picturedTypes: number;
  /**
   * Where the photo answers the camera's question (`forQuestion`): how many tile types may lie at its
   * cell, the only candidates then (0: none may by the rules and the supply, and the photo was read
   * among them all); null otherwise.
   */
  readonly fitting: number | null;
  /**
   * The tile types of the 2025 expansions (Jousts & Crests, Siege & Defense) the reading considered:
   * the model never learnt them, so only those the table's pictures show (`pictured` of `of`) can be
   * a reading. Null when none was considered (no such expansion, or the options chose classic ones).
   */
  readonly picturedOnly: {
    readonly expansions: readonly string[];
    readonly pictured: number;
    readonly of: number;
    /**
     * Those not pictured whose edges are the best reading's (turned to show them as it lies in the
     * photo; confidence 0: the model cannot weigh them): the photo may show one of them.
     */
    readonly lookAlikes: readonly PhotoReadingView[];
  } | null;
}
