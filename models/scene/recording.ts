/**
 * The recording format (docs/recording-format.md): a directory with `video.mjpeg` (concatenated JPEG
 * frames), `manifest.json` (frame rate, size, frame count, and what happens when — for evaluation
 * only) and `game.json` (the ground-truth game, record@1). Readers here never decode pixels: a frame
 * is handed on as JPEG bytes and decoding (and its errors) belong to the consumer.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const VIDEO_FILE = 'video.mjpeg';
export const MANIFEST_FILE = 'manifest.json';
export const RECORD_FILE = 'game.json';

const XY = z.tuple([z.number().int(), z.number().int()]);

/** One visit of the table: a hand comes in, puts something down, leaves; the scene is still again. */
export const VisitSchema = z.object({
  /** First frame with the hand in view. */
  handFrom: z.number().int().nonnegative(),
  /** First frame of the still scene after the visit. */
  stillFrom: z.number().int().nonnegative(),
  /** Indices into `commands` of what the camera can see being done in this visit. */
  camera: z.array(z.number().int().nonnegative()),
  /** A cell where a tile was laid in this visit, for evaluation. */
  cell: XY.optional(),
});
export type Visit = z.infer<typeof VisitSchema>;

export const ManifestSchema = z.object({
  format: z.literal('recording@1'),
  fps: z.number().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  frames: z.number().int().nonnegative(),
  /** How the scene was made (generator name, seed, art style); free-form. */
  source: z.record(z.string(), z.unknown()).default({}),
  /** Evaluation only: the ground-truth commands in order (same game as game.json). */
  commands: z.array(z.record(z.string(), z.unknown())),
  visits: z.array(VisitSchema),
  /** Frames where something happens that is not a visit (camera bumped, light changed). */
  notes: z.array(z.object({ frame: z.number().int().nonnegative(), what: z.string() })).default([]),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export type Read<T> = { ok: true; value: T } | { ok: false; error: string };

export function readManifest(dir: string): Read<Manifest> {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return { ok: false, error: `${path}: no manifest (is ${dir} a recording directory?)` };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { ok: false, error: `${path}: not JSON (${(e as Error).message})` };
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${path}: ${issue.path.join('.') || '(top level)'}: ${issue.message}` };
  }
  return { ok: true, value: parsed.data };
}

export function readRecordJson(dir: string): Read<unknown> {
  const path = join(dir, RECORD_FILE);
  if (!existsSync(path)) return { ok: false, error: `${path}: no ground-truth record` };
  try {
    return { ok: true, value: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (e) {
    return { ok: false, error: `${path}: not JSON (${(e as Error).message})` };
  }
}

/**
 * Splits an MJPEG stream into JPEG frames by their start (FFD8) and end (FFD9) markers. A JPEG's
 * entropy-coded data never contains FFD9 unescaped, so end markers are reliable; bytes between
 * frames are reported as a bad frame rather than dropped silently.
 */
export function* splitMjpeg(bytes: Uint8Array): Generator<Uint8Array> {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    let start = i;
    if (!(bytes[i] === 0xff && bytes[i + 1] === 0xd8)) {
      // Garbage: hand it on up to the next frame start so the consumer can name it.
      let j = i + 1;
      while (j < n - 1 && !(bytes[j] === 0xff && bytes[j + 1] === 0xd8)) j++;
      if (j >= n - 1) j = n;
      yield bytes.subarray(i, j);
      i = j;
      continue;
    }
    let j = start + 2;
    while (j < n - 1 && !(bytes[j] === 0xff && bytes[j + 1] === 0xd9)) j++;
    const end = Math.min(n, j + 2);
    yield bytes.subarray(start, end);
    i = end;
  }
}

/** A source of camera frames, one at a time: a recording now, a live camera later. */
export interface FrameSource {
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  /** The next frame's encoded bytes (JPEG), or null when the source has ended (camera stopped). */
  next(): Promise<{ index: number; bytes: Uint8Array } | null>;
  close(): void;
}

/** Reads a recording directory's video frame by frame. */
export class RecordingSource implements FrameSource {
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  private readonly frames: Generator<Uint8Array>;
  private index = 0;
  private closed = false;

  private constructor(manifest: Manifest, video: Uint8Array) {
    this.width = manifest.width;
    this.height = manifest.height;
    this.fps = manifest.fps;
    this.frames = splitMjpeg(video);
  }

  static open(dir: string): Read<{ source: RecordingSource; manifest: Manifest }> {
    const m = readManifest(dir);
    if (!m.ok) return m;
    const path = join(dir, VIDEO_FILE);
    if (!existsSync(path)) return { ok: false, error: `${path}: no video` };
    return { ok: true, value: { source: new RecordingSource(m.value, new Uint8Array(readFileSync(path))), manifest: m.value } };
  }

  async next(): Promise<{ index: number; bytes: Uint8Array } | null> {
    if (this.closed) return null;
    const r = this.frames.next();
    if (r.done) return null;
    return { index: this.index++, bytes: r.value };
  }

  close(): void {
    this.closed = true;
  }
}

export function writeRecording(dir: string, manifest: Manifest, frames: readonly Uint8Array[], record: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, VIDEO_FILE), Buffer.concat(frames.map((f) => Buffer.from(f.buffer, f.byteOffset, f.length))));
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest) + '\n');
  writeFileSync(join(dir, RECORD_FILE), JSON.stringify(record, null, 1) + '\n');
}
