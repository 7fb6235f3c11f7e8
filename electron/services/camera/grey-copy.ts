/**
 * A frame's grey copy for the still test (frame-intake.ts): the JPEG or PNG decoded straight to a
 * `width` px grey picture by sharp. Made on a worker thread, never the services' (frame-look-worker.ts
 * for frames that come with their bytes, frame-socket-worker.ts for those that come on the frame socket).
 */
import sharp from 'sharp';
import type { Thumb } from './frame-look.js';

/** The grey copy, its bytes a buffer of their own (not sharp's pool slab), so it can be moved to another thread. */
export async function greyCopy(bytes: Uint8Array, width: number): Promise<Thumb> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'truncated' }).resize(width).greyscale().raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data) };
  } catch (e) {
    // libvips keeps its error text per thread, and with several decodes at once on the pool sharp
    // sometimes gets none ("Unknown error"): a frame cut short is then said so from its own bytes.
    if (isJpeg(bytes) && !endsJpeg(bytes)) throw new Error(`the JPEG is truncated (no end-of-image marker after ${bytes.length} bytes): ${(e as Error).message}`);
    throw e;
  }
}

const isJpeg = (b: Uint8Array) => b.length >= 2 && b[0] === 0xff && b[1] === 0xd8;
/** An end-of-image marker among the last bytes (some cameras pad after it). */
function endsJpeg(b: Uint8Array): boolean {
  for (let i = b.length - 2; i >= Math.max(2, b.length - 64); i--) if (b[i] === 0xff && b[i + 1] === 0xd9) return true;
  return false;
}
