/**
 * Frames in, only the frames the tracker needs kept. Every frame the camera sends while a game is
 * read is looked at (a 160 px grey copy, decoded at an eighth of its size on a worker thread,
 * frame-look.ts, so the services' thread only compares a few thousand bytes; one with nothing to be read into — no
 * game, or teach mode taking the frames — is only counted), but only these are kept until the
 * tracker reads them (a frame that came on the frame socket, frame-socket.ts, was looked at on the
 * socket's thread: only its grey copy is here, and the bytes of the frames kept are fetched from it):
 *
 * - per still scene after motion, the frame that makes it still and the last frame before it (the
 *   tracker's own still check wants two alike frames after a different one: models/track
 *   `StillScene(2, 0.004)`, the same test as here; it is given the still frame twice, under the
 *   numbers of the two alike frames, so one JPEG is kept, not two);
 * - a scene that looks as the last kept one did (hands came and went, nothing changed) keeps only
 *   its frame of motion (the tracker reads a figure that waited for a nomination "at the next hand");
 * - at most `maxBytes` of JPEG wait (32 MB: about 160 scenes at 1080p, well over a thousand at
 *   640×480): beyond that the oldest waiting scene is dropped (and counted). Scenes pile up only
 *   while the tracker may not read (a question open, the table's draw not entered); the newest
 *   shows everything laid since, so a tile laid while a question stays open is still read once it
 *   is answered.
 *
 * So what is held does not grow with how long a question stays open: a few JPEGs, not 30 a second.
 * (The frame a question is about is the service's `lastReadImage`; the tracker keeps its own decoded
 * copy of it in the worker.)
 */
import { lookAt, type Thumb } from './frame-look.js';
import type { HeldFrames } from './frame-socket.js';
import type { FrameLook } from './frame-socket-protocol.js';

/** Width of the grey copy frames are compared at (calibration/motion.ts THUMB_WIDTH). */
const THUMB_WIDTH = 160;
/** Grey levels a pixel must differ by to count as changed, and the share that may (the tracker's still test). */
const PIXEL_THRESHOLD = 18;
const STILL_MAX_CHANGED = 0.004;
/** Two still scenes with fewer changed pixels (at a lower threshold) are the same scene (the tracker reads nothing new). */
const SAME_THRESHOLD = 6;
const SAME_MAX_CHANGED = 0.00005;
/** JPEG bytes that may wait for the tracker by default. */
export const MAX_BYTES = 32 * 1024 * 1024;
/** Frames decoded at once (the thread pool has four threads; the tracker's worker needs its share). */
const DECODING = 3;
/**
 * Frames that may wait to be looked at (20 s at 30 fps: a burst, or a slow moment); beyond this a
 * frame is not looked at (counted and said): the services are behind the camera.
 */
export const MAX_BACKLOG = 600;
/** Frames remembered (by reference) whether kept or not: where the start piece is looked for. */
const RECENT = 8;

export interface KeptFrame {
  readonly bytes: Uint8Array;
  readonly index: number;
  /** One of the two frames that make a scene still (else the frame of motion before them). */
  readonly still: boolean;
}

/** A frame's bytes: here, or held by the frame socket's worker under its number there (fetched when kept). */
type FrameRef = Uint8Array | { readonly seq: number };

interface Seen {
  readonly frame: FrameRef;
  readonly index: number;
  readonly thumb: Thumb;
}

/** A scene waiting for the tracker: its frame of motion (if any) and its still frame (twice), and the bytes they hold. */
interface Scene {
  frames: KeptFrame[];
  bytes: number;
}

export function changedShare(a: Thumb, b: Thumb, threshold: number): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let n = 0;
  for (let i = 0; i < a.data.length; i++) if (Math.abs(a.data[i]! - b.data[i]!) > threshold) n++;
  return n / a.data.length;
}

export interface FrameIntakeOptions {
  readonly maxBytes?: number;
  /** A scene was kept (the tracker may read). */
  readonly onKept: () => void;
  /** A frame could not be looked at: not decoded, or the services were behind. */
  readonly onProblem: (index: number, message: string) => void;
  /** Where frames that came on the frame socket are held (`pushLooked`). */
  readonly socket?: () => HeldFrames | null;
}

export class FrameIntake {
  private waiting: Scene[] = [];
  private prev: Seen | null = null;
  private beforePrev: { readonly frame: FrameRef; readonly index: number } | null = null;
  private inStill = false;
  /** The last still scene kept (or read): a later one that looks the same adds nothing. */
  private lastScene: Thumb | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** Frames pushed and not taken yet, and those of them being decoded. */
  private looking = 0;
  private decoding = 0;
  private readonly toDecode: (() => void)[] = [];
  /** The last few frames pushed, kept or not (the start piece is looked for in them). */
  private readonly recent: FrameRef[] = [];
  /** Bumped by `clear`: looks started before it are not used. */
  private epoch = 0;
  /** Frames looked at, scenes dropped beyond `maxScenes`, frames not looked at (the services were behind). */
  looked = 0;
  droppedScenes = 0;
  skipped = 0;
  /** JPEGs kept over the session (each once, however often the tracker is given it), bytes held now, and at most. */
  kept = 0;
  heldBytes = 0;
  heldBytesMax = 0;

  constructor(private readonly o: FrameIntakeOptions) {}

  /**
   * One frame from the camera, in the order they came. `keep` false: looked at only (no game to read
   * into); the next still scene after it starts afresh.
   */
  push(bytes: Uint8Array, index: number, keep: boolean): void {
    if (this.looking >= MAX_BACKLOG) {
      this.skipped++;
      this.o.onProblem(index, `frame ${index} was not looked at: ${MAX_BACKLOG} frames were waiting to be (the services are behind the camera)`);
      return;
    }
    this.remember(bytes);
    this.looking++;
    const epoch = this.epoch;
    if (!keep) {
      // Nothing to compare it for (no game, or teach mode has the frames): not decoded; in its turn,
      // the next still scene starts afresh.
      this.chain = this.chain.then(() => {
        this.looking--;
        if (epoch !== this.epoch) return;
        this.looked++;
        this.afresh();
      });
      return;
    }
    // Decoded a few at a time on the thread pool, taken in order.
    const thumb = new Promise<{ ok: true; t: Thumb } | { ok: false; why: string }>((resolve) => {
      const start = () => {
        this.decoding++;
        lookAt(bytes, THUMB_WIDTH)
          .then(
            (t) => resolve({ ok: true, t }),
            (e: unknown) => resolve({ ok: false, why: (e as Error).message }),
          )
          .finally(() => {
            this.decoding--;
            this.toDecode.shift()?.();
          });
      };
      if (this.decoding < DECODING) start();
      else this.toDecode.push(start);
    });
    this.chain = this.chain.then(async () => {
      const r = await thumb;
      this.looking--;
      if (epoch !== this.epoch) return;
      this.looked++;
      if (!r.ok) {
        this.o.onProblem(index, `frame ${index} could not be decoded (${r.why}); nothing was read from it`);
        return;
      }
      await this.take(bytes, index, r.t, epoch);
    });
  }

  /**
   * One frame that came on the frame socket (frame-socket.ts), looked at there: its grey copy (or why
   * it has none) is here, its bytes stay in the socket's worker (frame `seq` there) and are fetched
   * only if it is kept. Otherwise as `push`.
   */
  pushLooked(index: number, seq: number, look: FrameLook, keep: boolean): void {
    this.remember({ seq });
    this.looking++;
    const epoch = this.epoch;
    this.chain = this.chain.then(async () => {
      this.looking--;
      if (epoch !== this.epoch) return;
      this.looked++;
      if (!keep) this.afresh();
      else if (!look.ok) this.o.onProblem(index, `frame ${index} could not be decoded (${look.why}); nothing was read from it`);
      else await this.take({ seq }, index, look.thumb, epoch);
      this.releaseSocketFrames();
    });
  }

  private remember(frame: FrameRef): void {
    this.recent.push(frame);
    if (this.recent.length > RECENT) this.recent.shift();
  }

  private async take(frame: FrameRef, index: number, thumb: Thumb, epoch: number): Promise<void> {
    const prev = this.prev;
    const alike = prev !== null && changedShare(prev.thumb, thumb, PIXEL_THRESHOLD) <= STILL_MAX_CHANGED;
    const motion = this.beforePrev;
    this.beforePrev = prev ? { frame: prev.frame, index: prev.index } : null;
    this.prev = { frame, index, thumb };
    if (alike && !this.inStill) {
      this.inStill = true;
      if (this.lastScene && changedShare(this.lastScene, thumb, SAME_THRESHOLD) < SAME_MAX_CHANGED) {
        // The same scene again: only its motion is worth telling the tracker (one marker at a time).
        if (!motion) return;
        const [m] = await this.bytesOf([motion.frame]);
        if (epoch !== this.epoch) return;
        if (m) this.add({ frames: [{ bytes: m, index: motion.index, still: false }], bytes: m.length }, true);
        else this.o.onProblem(motion.index, `frame ${motion.index} (a hand between two alike scenes) was no longer held; nothing was read from it`);
      } else {
        this.lastScene = thumb;
        const [b, m] = await this.bytesOf([frame, ...(motion ? [motion.frame] : [])]);
        if (epoch !== this.epoch) return;
        if (!b) return this.o.onProblem(index, `frame ${index} (a still scene) was no longer held; nothing was read from it`);
        const still = [{ bytes: b, index: prev.index, still: true }, { bytes: b, index, still: true }];
        const before = motion && m ? [{ bytes: m, index: motion.index, still: false }] : [];
        this.add({ frames: [...before, ...still], bytes: b.length + (m?.length ?? 0) }, false);
      }
    } else if (!alike) this.inStill = false;
  }

  /** The bytes of these frames, fetched from the frame socket's worker where they are held there (null: no longer). */
  private async bytesOf(frames: readonly FrameRef[]): Promise<(Uint8Array | null)[]> {
    const seqs = frames.flatMap((f) => (f instanceof Uint8Array ? [] : [f.seq]));
    const socket = seqs.length > 0 ? (this.o.socket?.() ?? null) : null;
    const fetched = socket ? await socket.bytes(seqs) : [];
    let k = 0;
    return frames.map((f) => (f instanceof Uint8Array ? f : (fetched[k++] ?? null)));
  }

  /** The socket's worker need hold no frame older than the ones this intake may still ask for. */
  private releaseSocketFrames(): void {
    const seqs = [this.prev?.frame, this.beforePrev?.frame, ...this.recent].flatMap((f) => (f && !(f instanceof Uint8Array) ? [f.seq] : []));
    if (seqs.length > 0) this.o.socket?.()?.release(Math.min(...seqs));
  }

  private add(scene: Scene, motionOnly: boolean): void {
    const last = this.waiting.at(-1);
    this.kept += scene.frames.length === 3 ? 2 : 1;
    // Motion after motion with no still scene between says nothing more (a scene brings its own).
    if (last && last.frames.length === 1 && last.frames[0]!.still === false && (motionOnly || scene.frames[0]!.still === false)) {
      this.heldBytes -= last.bytes;
      this.waiting[this.waiting.length - 1] = scene;
    } else this.waiting.push(scene);
    this.heldBytes += scene.bytes;
    const max = this.o.maxBytes ?? MAX_BYTES;
    while (this.heldBytes > max && this.waiting.length > 1) {
      this.heldBytes -= this.waiting.shift()!.bytes;
      this.droppedScenes++;
    }
    this.heldBytesMax = Math.max(this.heldBytesMax, this.heldBytes);
    this.o.onKept();
  }

  /** The next kept frame, oldest first. */
  next(): KeptFrame | undefined {
    const scene = this.waiting[0];
    if (!scene) return undefined;
    const f = scene.frames.shift();
    if (scene.frames.length === 0) {
      this.waiting.shift();
      this.heldBytes -= scene.bytes;
    }
    return f;
  }

  /** Frames taken with `next` that could not be read (the tracker went down): first again, in this order. */
  putBack(frames: readonly KeptFrame[]): void {
    const bytes = [...new Set(frames.map((f) => f.bytes))].reduce((n, b) => n + b.length, 0);
    this.waiting.unshift({ frames: [...frames], bytes });
    this.heldBytes += bytes;
  }

  /** Frames waiting to be given to the tracker. */
  get held(): number {
    return this.waiting.reduce((n, s) => n + s.frames.length, 0);
  }

  /** Scenes waiting for the tracker. */
  get scenes(): number {
    return this.waiting.length;
  }

  /** Frames being looked at now. */
  get inFlight(): number {
    return this.looking;
  }

  /** The last frames pushed, oldest first, the newest last (the start piece is looked for in them). */
  async recentFrames(): Promise<Uint8Array[]> {
    return (await this.bytesOf(this.recent)).filter((b): b is Uint8Array => b !== null);
  }

  /** The index of the oldest frame waiting for the tracker (Infinity: none). */
  get oldestHeld(): number {
    return this.waiting[0]?.frames[0]?.index ?? Infinity;
  }

  /**
   * Resolves once every frame pushed before the call has been looked at (not those pushed since: a
   * camera that keeps sending does not keep it waiting).
   */
  async lookedAt(): Promise<void> {
    await this.chain;
  }

  /** Resolves once every frame pushed so far has been looked at. */
  async settled(): Promise<void> {
    for (;;) {
      const c = this.chain;
      await c;
      if (c === this.chain) return;
    }
  }

  /** The next still scene starts afresh: no frame before it counts as its motion or its pair. */
  private afresh(): void {
    this.prev = null;
    this.beforePrev = null;
    this.inStill = false;
  }

  /**
   * A new tracker that has seen nothing (made again for other calibration): the scene in view is
   * kept again once it is still, as if it had just come.
   */
  restart(): void {
    this.afresh();
    this.lastScene = null;
  }

  /**
   * The camera went away (the demo stopped): nothing waiting is read, looks under way are not used;
   * what was kept before counts still.
   */
  drop(): void {
    this.epoch++;
    this.waiting = [];
    this.heldBytes = 0;
    this.afresh();
  }

  /** Another game: nothing kept, looks under way are not used. */
  clear(): void {
    this.epoch++;
    this.waiting = [];
    this.recent.length = 0;
    this.heldBytes = 0;
    this.afresh();
    this.lastScene = null;
    this.droppedScenes = 0;
  }
}
