/**
 * What the camera service and the tracker's worker say to each other (tracker-client.ts, the
 * services' side; tracker-host.ts, the worker's side). Frames in, readings and notices out; the
 * tracker's copy of the game is levelled by the session's commands, never shared: only plain data
 * crosses (structured clone), frames' bytes moved, not copied.
 *
 * Every request has an id and gets one reply with that id: its value, or why it failed. Each reply
 * also carries where the tracker's copy of the game and its calibration stand, so the services can
 * answer questions about them (the camera view, what may be pictured) without asking.
 */
import type { Command } from '../../../engine/game/commands.js';
import type { GameSetup } from '../../../engine/game/setup.js';
import type { Homography, Point } from '../../../calibration/geometry.js';
import type { SheetLayout } from '../../../calibration/sheet/layout.js';
import type { TilePicture } from '../../../models/track/templates.js';
import type { TrackEvent } from '../../../models/track/tracker.js';

/** A stored crop the table enrolled (store `exemplars`) or taught (store `taughtTiles`), as the worker needs it. */
export interface StoredCrop {
  /** How a problem with it is named: 'exemplar 12', 'taught picture 3'. */
  readonly what: 'exemplar' | 'taught picture';
  readonly id: number;
  readonly tileId: string;
  readonly rot: 0 | 90 | 180 | 270;
  readonly image: Uint8Array;
}

export interface CreateArgs {
  readonly setup: GameSetup;
  readonly style: string;
  readonly markers?: SheetLayout;
  readonly startPieceCorners?: readonly Point[];
  readonly commitAt: number;
  /** The table's enrolled crops (read through the model in the worker). */
  readonly crops: readonly StoredCrop[];
  /** Earlier games' board pictures: the tracker's templates. */
  readonly pictures: readonly TilePicture[];
}

/** A picture of a tile type cut from the board (PNG, figures' places transparent). */
export interface BoardPicture {
  readonly tileId: string;
  readonly rot: 0 | 90 | 180 | 270;
  readonly png: Uint8Array;
}

/** Test hooks: the worker exits (a crash) or stops answering (a hang) when it starts reading this frame. */
export interface Faults {
  readonly crashAtFrame?: number;
  readonly hangAtFrame?: number;
  /** …or reads with the model back to back for this many milliseconds before it reads the frame (`modelBusyAtFrame`). */
  readonly modelBusyAtFrame?: number;
  readonly modelBusyMs?: number;
}

export type Request =
  | { readonly op: 'create'; readonly args: CreateArgs }
  | { readonly op: 'feed'; readonly bytes: Uint8Array; readonly index: number }
  | { readonly op: 'level'; readonly commands: readonly Command[] }
  | { readonly op: 'afterTableAnswer' }
  | { readonly op: 'commitAt'; readonly value: number }
  | { readonly op: 'learn'; readonly tile: string; readonly rot: 0 | 90 | 180 | 270; readonly at: readonly [number, number] }
  | { readonly op: 'boardPictures'; readonly have: readonly string[] }
  | { readonly op: 'usePictures'; readonly tileIds: readonly string[] }
  | { readonly op: 'typesSeen'; readonly at: readonly [number, number] }
  | { readonly op: 'turnsSeen'; readonly tile: string; readonly at: readonly [number, number]; readonly turns: readonly number[] }
  | { readonly op: 'findStartPiece'; readonly pictures: readonly { readonly bytes: Uint8Array; readonly label: string }[] }
  | { readonly op: 'faults'; readonly faults: Faults };

/** What each request answers. */
export interface Replies {
  create: { readonly problems: readonly string[] };
  feed: { readonly events: readonly TrackEvent[] };
  /** The commands the tracker's copy had to add, and readings table input released (see CameraService `level`). */
  level: { readonly added: readonly Command[]; readonly readings: readonly { readonly at: number; readonly events: readonly TrackEvent[] }[] };
  afterTableAnswer: { readonly events: readonly TrackEvent[] };
  commitAt: null;
  /** The picture enrolled (PNG), or why none was. */
  learn: { readonly png: Uint8Array | null; readonly problem: string | null };
  boardPictures: { readonly pictures: readonly BoardPicture[]; readonly problems: readonly string[] };
  usePictures: { readonly problems: readonly string[] };
  /** The turns (quarter turns) best first with their probability by the cell's edges, or null and why (no picture of the cell, a tile the catalog lacks). */
  /** The tile types the cell's picture may show, likeliest first (by the model, as a cell is decoded), or null and why. */
  typesSeen: { readonly types: readonly string[] | null; readonly why: string };
  turnsSeen: { readonly turns: readonly { readonly q: number; readonly p: number }[] | null; readonly why: string };
  findStartPiece: { readonly found: { readonly corners: readonly Point[]; readonly sure: boolean } | null; readonly why: string };
  faults: null;
}

/**
 * Where the tracker stands after a request. `keep`/`add`: its game's commands (the first `keep`
 * unchanged, then `add`). `ahead`/`firstSeen`: the cells holding a tile its game lacks (Tracker
 * `unreadCells`, `firstSeen` as [cell key, frame] in the order seen), so the services weigh an open
 * reading (`earlierTile`) without asking the worker. `figureWaits`: Tracker `figureWaits`.
 */
export interface TrackerState {
  readonly calibratedFrom: 'markers' | 'start piece corners' | null;
  readonly tableToImage: Homography | null;
  readonly keep: number;
  readonly add: readonly Command[];
  readonly ahead: readonly number[];
  readonly firstSeen: readonly (readonly [number, number])[];
  readonly figureWaits: boolean;
}

export type RequestMessage = { readonly id: number } & Request;

export type ReplyMessage =
  | { readonly id: number; readonly ok: true; readonly value: unknown; readonly state: TrackerState }
  | { readonly id: number; readonly ok: false; readonly error: string; readonly state: TrackerState | null };
