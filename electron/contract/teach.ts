/**
 * Teaching the camera a table's tiles (issue 30, docs/teach.md): the teach session's view (one card
 * per tile found on the camera's still frames), the tiles the table has taught, the coverage of an
 * edition and its expansions, and the file a table carries its teaching to another computer in.
 * Plain data and schemas; built by services/teach/.
 */
import { z } from 'zod';
import type { FeatureDef, Terrain } from '../../engine/catalog/types.js';

export const TEACH_EDITIONS = ['C1', 'C2', 'C3'] as const;
/**
 * The expansions a teach may be for: those the photo reader reads (models/photo/read.ts
 * PHOTO_EXPANSIONS), then the 2025 boxes, whose tiles the table names (`TeachView.namedOnly`).
 */
export const TEACH_EXPANSIONS = ['base', 'river', 'abbot', 'inns-cathedrals', 'tower', 'jousts-crests', 'siege-defense'] as const;

const edition = z.enum(TEACH_EDITIONS);
const rotation = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)], { message: 'a turn of 0, 90, 180 or 270' });
const tileId = z.string().regex(/^[A-Za-z0-9_\-]{1,40}$/, 'a catalog tile id');
const cardId = z.number().int().min(1).max(1_000_000);

/** What a teach reads the tiles as: an edition and its expansions (any the app knows; those the camera cannot read are said so). */
export const teachChoiceSchema = z
  .object({
    edition,
    expansions: z.array(z.string().regex(/^[a-z\-]{1,40}$/, 'an expansion id')).min(1).max(20),
  })
  .strict();
export type TeachChoice = z.infer<typeof teachChoiceSchema>;

export const teachArgs = {
  /** The view, or null when the screen holds its version already. */
  teach: z.tuple([z.number().int().min(0).nullable()]),
  /** Starts a teach session (null: the game in progress's edition and expansions). */
  teachStart: z.tuple([teachChoiceSchema.nullable()]),
  teachStop: z.tuple([]),
  /** Reads the camera's newest frame now, even if it shows what was read already. */
  teachLook: z.tuple([]),
  teachAcceptSure: z.tuple([]),
  /** A card's reading 0–2 (the top-3). */
  teachPick: z.tuple([cardId, z.number().int().min(0).max(2)]),
  /** A card named by a search: the tile type and its clockwise turn in the card's picture. */
  teachName: z.tuple([cardId, tileId, rotation]),
  teachDiscard: z.tuple([cardId]),
  /** The next picture taught of this type replaces its pictures (Games → This table's tiles → Retake). */
  teachRetake: z.tuple([tileId]),
  /** Coverage of an edition and expansions (null: the game in progress's, else the open teach's). */
  teachCoverage: z.tuple([teachChoiceSchema.nullable()]),
  taughtTiles: z.tuple([]),
  /** Deletes every taught picture of a type. */
  taughtDelete: z.tuple([tileId]),
  taughtExport: z.tuple([]),
  taughtImport: z.tuple([z.string().max(12_000_000, 'a taught-tiles file over 12 MB')]),
} as const;

/** A tile type with what the screen needs to draw it (catalog orientation). */
export interface TeachTileDrawing {
  readonly tileId: string;
  readonly name: string;
  readonly segments: readonly Terrain[];
  readonly features: readonly FeatureDef[];
}

/** One reading of a card (the drawing turned by `rotation`). */
export interface TeachReadingView extends TeachTileDrawing {
  readonly rotation: 0 | 90 | 180 | 270;
  readonly confidence: number;
}

export interface TeachCardView {
  readonly id: number;
  readonly state: 'open' | 'accepted' | 'discarded';
  /** Why the card cannot be taught (out of view, covered, not a tile), or null. */
  readonly why: string | null;
  /** The tile found, straightened (the cell and 10 % around it), as a data URL; null when not cut. */
  readonly picture: string | null;
  /** The three best readings, best first (empty when not read). */
  readonly readings: readonly TeachReadingView[];
  /** "Accept all sure cards" takes it. */
  readonly sure: boolean;
  /** Why an open card's picture is not taught unseen though it may be read well: its outline may be off the tile (`outlineNote`); null otherwise. */
  readonly outlineNote: string | null;
  /** The table's answer (accepted cards): the tile, its turn in the picture, and how it was named. */
  readonly answer: { readonly tileId: string; readonly name: string; readonly rotation: 0 | 90 | 180 | 270; readonly how: string } | null;
  /** The tile's corners in the frame (pixels), for the picture's overlay. */
  readonly corners: readonly (readonly [number, number])[];
}

export interface TeachCoverage {
  readonly edition: 'C1' | 'C2' | 'C3';
  readonly expansions: readonly string[];
  /** Tile types of that edition and those expansions. */
  readonly types: number;
  /** Types with a taught picture. */
  readonly taught: number;
  /** Types not taught but pictured from an earlier game's board. */
  readonly pictured: number;
  /** Types the camera knows only by the app's drawings. */
  readonly unknown: number;
  /**
   * Chosen expansions whose tiles the camera cannot read (the 2025 boxes): a teach finds them and the
   * table names each one. Counted like the others.
   */
  readonly namedOnly: readonly string[];
}

/**
 * A tile type of the teach's edition and expansions the camera does not know yet (neither taught nor
 * pictured from an earlier board): the tiles the table lays next, shown drawn so the table can find
 * them in the box.
 */
export interface TeachUnknownType extends TeachTileDrawing {
  /** Copies the edition prints (the box's count). */
  readonly copies: number;
}

export interface TeachView {
  /** Rises with every change. */
  readonly version: number;
  /** Is a teach session open? */
  readonly open: boolean;
  readonly edition: 'C1' | 'C2' | 'C3' | null;
  readonly expansions: readonly string[];
  /** Those of `expansions` whose tiles the table names (the model does not read them; no card is sure). */
  readonly namedOnly: readonly string[];
  /** The camera the frames come from, as the camera view says. */
  readonly camera: { readonly source: string; readonly status: string; readonly message: string | null };
  /** Reading a frame now; frames looked at, read, and skipped (showing nothing new). */
  readonly reading: boolean;
  readonly frames: { readonly received: number; readonly read: number; readonly skipped: number };
  readonly cards: readonly TeachCardView[];
  /** Tile types the table may name a card as (the edition's and expansions'). */
  readonly candidates: readonly { readonly id: string; readonly name: string; readonly expansion: string }[];
  /** Types marked for a retake (their next taught picture replaces the old ones). */
  readonly retake: readonly string[];
  readonly notices: readonly { readonly text: string; readonly error: boolean }[];
  readonly coverage: TeachCoverage | null;
  /** The teach's tile types the camera does not know yet, in catalog order (empty with no teach open). */
  readonly unknown: readonly TeachUnknownType[];
}

export interface TaughtPictureView {
  readonly id: number;
  readonly createdAt: string;
  readonly edition: string;
  readonly how: string;
  readonly rotation: 0 | 90 | 180 | 270;
  /** Data URL. */
  readonly picture: string;
}

/** One tile type under Games → This table's tiles. */
export interface TaughtTypeView {
  readonly tileId: string;
  readonly name: string;
  readonly expansion: string;
  /** Oldest first: the first is the tracker's template, every one an exemplar for the model. */
  readonly pictures: readonly TaughtPictureView[];
}

// ── the export file ──

export const TAUGHT_FILE_FORMAT = 'carcassonne-companion/taught-tiles@1';
/** Pictures in one file: two of each of the ~200 classic types is 400; room for more. */
export const MAX_TAUGHT_FILE_TILES = 2000;

export const taughtFileSchema = z
  .object({
    format: z.literal(TAUGHT_FILE_FORMAT, { message: `not a taught-tiles file (its format must be "${TAUGHT_FILE_FORMAT}")` }),
    exportedAt: z.string().max(40),
    tiles: z
      .array(
        z
          .object({
            tile: tileId,
            rotation,
            edition,
            how: z.string().max(200),
            createdAt: z.string().max(40),
            image: z
              .object({
                mime: z.enum(['image/png', 'image/jpeg']),
                base64: z.string().min(1, 'an empty image').max(2_000_000, 'an image over 1.5 MB').regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64 image data'),
              })
              .strict(),
          })
          .strict(),
      )
      .max(MAX_TAUGHT_FILE_TILES, `more than ${MAX_TAUGHT_FILE_TILES} pictures`),
  })
  .strict();
export type TaughtFile = z.infer<typeof taughtFileSchema>;

export interface TaughtImportResult {
  /** Pictures added. */
  readonly added: number;
  /** Pictures already here (the same image of the same tile at the same turn): not added twice. */
  readonly already: number;
  readonly types: number;
}
