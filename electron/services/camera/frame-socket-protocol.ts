/**
 * What the frame socket's worker (frame-socket-worker.ts) and the services (frame-socket.ts) say to
 * each other. Frames are numbered by the worker (`seq`, from 0, in the order they came); the services
 * get each frame's grey copy and ask for the bytes only of the frames they keep.
 */
import type { Thumb } from './frame-look.js';

export interface FrameSocketOptions {
  /** The main screen's token: the first message on a connection must carry it. */
  readonly token: string;
  /** The pages allowed to connect (their Origin header): the main screen's own. */
  readonly origins: readonly string[];
  /** The grey copy's width (its height follows the frame's shape). */
  readonly thumbWidth: number;
  /** Frames that may wait to be looked at; beyond this a frame is not looked at (the services are behind). */
  readonly maxBacklog: number;
}

export type ToFrameSocket =
  /** The bytes of these frames (null for one no longer held). */
  | { readonly op: 'bytes'; readonly id: number; readonly seqs: readonly number[] }
  /** No frame before `below` is asked for again. */
  | { readonly op: 'release'; readonly below: number }
  /** The services refuse this frame (the screen's camera is not the chosen source): the screen is told why on the socket. */
  | { readonly op: 'refuse'; readonly seq: number; readonly why: string };

/** A frame's grey copy (grey-copy.ts), or why it has none. */
export type FrameLook = { readonly ok: true; readonly thumb: Thumb } | { readonly ok: false; readonly why: string };

export type FromFrameSocket =
  | { readonly kind: 'listening'; readonly port: number }
  /** A frame looked at: its size (from its header) and its grey copy, or why it could not be decoded. */
  | { readonly kind: 'frame'; readonly seq: number; readonly size: readonly [number, number]; readonly look: FrameLook }
  /** A frame refused before decoding (its size), or not looked at (the services behind): said to the sender too. */
  | { readonly kind: 'refused'; readonly seq: number; readonly why: string; readonly skipped: boolean }
  | { readonly kind: 'bytes'; readonly id: number; readonly frames: readonly (Uint8Array | null)[] };
