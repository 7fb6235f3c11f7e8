/**
 * The camera view a screen is shown (the camera screen, the banner on every screen) and the schemas
 * of the camera operations' arguments. Plain data, built by services/camera/camera-service.ts.
 */
import { z } from 'zod';
import type { Command } from '../../engine/game/commands.js';
import type { DemoView } from './demo.js';
import type { TileView } from './snapshot.js';

/** Where frames come from: none, the bundled recording played by the services, or the screen's own camera. */
export const cameraSourceSchema = z.enum(['none', 'recording', 'browser']);
export type CameraSourceKind = z.infer<typeof cameraSourceSchema>;

/** What the screen's camera reports: it delivers frames, or its track ended (unplugged, taken away). */
export const cameraReportSchema = z.object({
  state: z.enum(['live', 'unplugged']),
  reason: z.string().max(300).optional(),
  label: z.string().max(200).optional(),
}).strict();
export type CameraReport = z.infer<typeof cameraReportSchema>;

/**
 * The table's answer to a camera reading: the best reading, a runner-up (0 or 1), reject, the tile
 * the table names itself (a tile reading none of whose three readings is right: the tile read from a
 * photo, say), turned as the table shows it lies, at the reading's cell; or, for a figure reading,
 * the figure and the spot the table shows.
 */
export const cameraAnswerSchema = z.union([
  z.literal('best'),
  z.literal('reject'),
  z.number().int().min(0).max(1),
  z.object({
    tile: z.string().regex(/^[A-Za-z0-9_\-]{1,40}$/, 'a catalog tile id'),
    rot: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
  }).strict(),
  z.object({
    figure: z.enum(['normal', 'big', 'abbot']),
    on: z.string().regex(/^[A-Za-z0-9_]{1,40}$/, 'a spot on the tile (a road, city, field, cloister…)'),
  }).strict(),
]);
export type CameraAnswer = z.infer<typeof cameraAnswerSchema>;

/** One JPEG frame from the screen's camera (IPC carries the bytes; the WebSocket a binary message). */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;
/** A 4K camera (3840×2160, or 4096×3072 at 4:3) fits; anything bigger is refused before decoding. */
export const MAX_FRAME_SIDE = 4096;
export const MAX_FRAME_PIXELS = 4096 * 3072;
export const cameraFrameSchema = z.instanceof(Uint8Array).refine((b) => b.length > 0 && b.length <= MAX_FRAME_BYTES, `a frame of 1 byte to ${MAX_FRAME_BYTES} bytes`);

export type CameraStatusKind = 'off' | 'starting' | 'live' | 'stopped' | 'unplugged';

export interface CameraReadingView {
  readonly command: Command;
  /** In the table's words. */
  readonly text: string;
  /** The tile as it would lie (tile readings only), drawn by the screen. */
  readonly tile: TileView | null;
}

export interface CameraProposalView {
  readonly id: number;
  /** The frame it was read from. */
  readonly frame: number;
  /** The best reading's confidence in [0, 1]. */
  readonly confidence: number;
  /** Why the camera asks: not sure, or the rules refuse the best reading (in the engine's words). */
  readonly why: string;
  /** Best first, then the runners-up: the top-3 picker. */
  readonly readings: readonly CameraReadingView[];
  /** The cell the reading is about. */
  readonly cell: readonly [number, number] | null;
}

export interface CameraCellView {
  readonly x: number;
  readonly y: number;
  readonly laid: boolean;
  /** The cell's corners in image pixels (NW, NE, SE, SW of the table grid). */
  readonly quad: readonly (readonly [number, number])[];
}

export interface CameraView {
  readonly source: CameraSourceKind;
  readonly label: string;
  readonly status: CameraStatusKind;
  /** The line the table must read now (camera unplugged, recording ended…), or null. */
  readonly message: string | null;
  /** Does the tracker read frames now, or does it wait (and for what)? */
  readonly reading: boolean;
  readonly waiting: string | null;
  /**
   * The camera saw the new tile and reads the figure on it once the table nominates or ends the turn
   * (Jousts & Crests: the nomination comes before the figure, and the camera cannot see it).
   */
  readonly figureWaits: boolean;
  readonly calibrated: boolean;
  /** Where the grid comes from: the marker sheet, or the start piece's corners the table clicked. */
  readonly calibratedFrom: 'markers' | 'start piece corners' | null;
  /** The start piece's corners the table clicked (image pixels, NW, NE, SE, SW), when it did. */
  readonly startPieceCorners: readonly (readonly [number, number])[] | null;
  /**
   * The start piece as the camera found it, for the table to confirm (image pixels, NW, NE, SE, SW;
   * `sure`: no other turn of the piece fits nearly as well), 'looking' while it looks, else null.
   */
  readonly startPieceFound: { readonly corners: readonly (readonly [number, number])[]; readonly sure: boolean } | 'looking' | null;
  /**
   * Frames received, read by the tracker, the index of the last one read, not yet read (held, or
   * being read: its readings are still to come, also the figure on a tile the table has just entered),
   * dropped.
   */
  readonly frames: { readonly received: number; readonly read: number; readonly last: number; readonly queued: number; readonly dropped: number };
  /** Image size of the last frame, for the overlay's coordinates. */
  readonly size: readonly [number, number] | null;
  readonly grid: readonly CameraCellView[];
  readonly proposals: readonly CameraProposalView[];
  /** The tracker's last notices and errors (a tile that seems lifted, a frame that is no image…). */
  readonly notices: readonly { readonly frame: number; readonly text: string; readonly error: boolean }[];
  /** Does the camera ask the table about every reading (teaching it the table's tiles), not only unsure ones? */
  readonly askEverything: boolean;
  /** Moves the camera committed by itself in this game, and readings the table answered. */
  readonly counts: { readonly committed: number; readonly asked: number };
  /**
   * The table's own art: how many of this game's tile types the camera reads by a picture of this
   * table's tiles (from earlier games' final boards, or asked for between turns) rather than by the
   * drawings; and why the board cannot be pictured now (null: it can).
   */
  readonly art: { readonly pictured: number; readonly types: number; readonly pictureNow: string | null };
  /** The last frame as a data URL, for sources the services play themselves (the recording). */
  readonly image: string | null;
  /** The demo game, when one is watched ("Watch a demo game"): it drives this camera. */
  readonly demo: DemoView;
}
