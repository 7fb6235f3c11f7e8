import sharp from 'sharp';
import type { Cv, Mat } from './cv.js';
import { fail, ok, type Result } from './result.js';

/** A decoded camera frame: tightly packed 8-bit pixels, RGB (3 channels) or grey (1 channel). */
export interface Frame {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Uint8Array;
}

/** Checks that a value really is a usable frame; names the first thing that is wrong. */
export function checkFrame(frame: unknown, what = 'frame'): Result<Frame> {
  const f = frame as Partial<Frame> | null;
  if (!f || typeof f !== 'object') return fail('bad-frame', `${what} is not a frame object`);
  if (!Number.isInteger(f.width) || !Number.isInteger(f.height) || f.width! <= 0 || f.height! <= 0)
    return fail('bad-frame', `${what} has no valid width/height (got ${String(f.width)}×${String(f.height)})`);
  if (f.channels !== 1 && f.channels !== 3) return fail('bad-frame', `${what} has ${String(f.channels)} channels; expected 1 or 3`);
  if (!(f.data instanceof Uint8Array)) return fail('bad-frame', `${what}.data is not a byte array`);
  const want = f.width! * f.height! * f.channels;
  if (f.data.length !== want)
    return fail('truncated-image', `${what} holds ${f.data.length} bytes; ${f.width}×${f.height}×${f.channels} needs ${want}`);
  return ok(f as Frame);
}

/**
 * Decodes an encoded image (JPEG, PNG, WebP…) into an RGB frame. Bad input comes back as a result
 * naming what was wrong: no bytes, bytes that are no image, or an image cut short.
 */
export async function decodeFrame(bytes: Uint8Array, source = 'image'): Promise<Result<Frame>> {
  if (!(bytes instanceof Uint8Array)) return fail('not-an-image', `${source} is not a byte buffer`);
  if (bytes.length === 0) return fail('empty-input', `${source} is empty (0 bytes)`);
  try {
    // failOn 'truncated' turns a JPEG/PNG cut short into an error instead of a grey bottom half.
    const { data, info } = await sharp(bytes, { failOn: 'truncated' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const channels = info.channels === 1 ? 1 : 3;
    return ok({ width: info.width, height: info.height, channels, data: new Uint8Array(data.buffer, data.byteOffset, data.length) });
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    // Told by the header, not by libvips's message: decoding several images at once, libvips may
    // report a cut-short PNG as "Unknown error" (its error buffer is shared between threads).
    const format = await sharp(bytes).metadata().then((m) => m.format, () => undefined);
    if (!format) return fail('not-an-image', `${source} (${bytes.length} bytes) is not an image in a known format`);
    return fail('truncated-image', `${source} (${bytes.length} bytes) is a ${format} image cut short or corrupt: ${msg}`);
  }
}

export async function encodePng(frame: Frame): Promise<Buffer> {
  return sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } }).png().toBuffer();
}

/** Copies a frame into a new Mat (CV_8UC3 RGB or CV_8UC1). The caller deletes it. */
export function frameToMat(cv: Cv, frame: Frame): Mat {
  const mat = new cv.Mat(frame.height, frame.width, frame.channels === 3 ? cv.CV_8UC3 : cv.CV_8UC1);
  mat.data.set(frame.data);
  return mat;
}

/** A grey Mat of the frame. The caller deletes it. */
export function frameToGrayMat(cv: Cv, frame: Frame): Mat {
  const mat = frameToMat(cv, frame);
  if (frame.channels === 1) return mat;
  const gray = new cv.Mat();
  cv.cvtColor(mat, gray, cv.COLOR_RGB2GRAY);
  mat.delete();
  return gray;
}

export function matToFrame(mat: Mat): Frame {
  const channels = mat.channels();
  if (channels !== 1 && channels !== 3) throw new Error(`matToFrame: ${channels} channels`);
  return { width: mat.cols, height: mat.rows, channels, data: new Uint8Array(mat.data) };
}
