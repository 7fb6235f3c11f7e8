/**
 * A frame's grey copy for the still test (frame-intake.ts): the JPEG or PNG decoded straight to a
 * `width` px grey picture by sharp. Made on a worker thread, never the services' (frame-look-worker.ts
 * for frames that come with their bytes, frame-socket-worker.ts for those that come on the frame socket).
 */
import sharp from 'sharp';
import type { Thumb } from './frame-look.js';

/** The grey copy, its bytes a buffer of their own (not sharp's pool slab), so it can be moved to another thread. */
export async function greyCopy(bytes: Uint8Array, width: number): Promise<Thumb> {
  const { data, info } = await sharp(bytes, { failOn: 'truncated' }).resize(width).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}
