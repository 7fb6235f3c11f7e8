/**
 * SEAM for issue 5 (camera and tracking): where frames come from. Implementations to come: the
 * webcam (in the renderer through getUserMedia, the only permission the window has, or in a utility
 * process), and a recording played back for tests (--use-file-for-fake-video-capture in Chromium).
 * The tracker turns frames into proposals; it never plays a command itself (see proposals.ts).
 */
export interface Frame {
  readonly width: number;
  readonly height: number;
  /** Pixels as RGBA bytes, row by row. */
  readonly rgba: Uint8Array;
  /** The frame as its source encoded it (JPEG), where it has it: the tracker reads these bytes. */
  readonly jpeg?: Uint8Array;
  /** Milliseconds since the source started. */
  readonly at: number;
}

export type CameraStatus = { readonly state: 'live' } | { readonly state: 'stopped' } | { readonly state: 'unplugged'; readonly reason: string };

export interface CameraSource {
  readonly id: string;
  readonly label: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  onFrame(listener: (frame: Frame) => void): () => void;
  /** 'unplugged' must reach the table as a reminder, and the game must go on by manual entry. */
  onStatus(listener: (status: CameraStatus) => void): () => void;
}
