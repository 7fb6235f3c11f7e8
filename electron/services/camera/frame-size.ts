/**
 * A camera frame's size read from its header, before anything decodes it: a 1.5 MB JPEG can claim
 * 16000×16000 pixels, and decoding three such frames (768 MB of RGB each) used to take the process
 * down. The handlers are synchronous and the header is a few bytes, so it is read here rather than
 * through sharp's (asynchronous) metadata.
 */
import { MAX_FRAME_BYTES, MAX_FRAME_PIXELS, MAX_FRAME_SIDE } from '../../contract/camera.js';

/** Width and height from a JPEG's start-of-frame marker, without decoding it. */
export function jpegSize(b: Uint8Array): [number, number] | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const m = b[i + 1]!;
    // Fill bytes and markers without a length (RSTn, TEM) are stepped over.
    if (m === 0xff) {
      i += 1;
      continue;
    }
    if ((m >= 0xd0 && m <= 0xd7) || m === 0x01) {
      i += 2;
      continue;
    }
    const len = (b[i + 2]! << 8) | b[i + 3]!;
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return [(b[i + 7]! << 8) | b[i + 8]!, (b[i + 5]! << 8) | b[i + 6]!];
    if (len < 2) return null;
    i += 2 + len;
  }
  return null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR chunk (always the first). */
export function pngSize(b: Uint8Array): [number, number] | null {
  if (b.length < 24 || PNG_SIGNATURE.some((v, i) => b[i] !== v)) return null;
  if (String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!) !== 'IHDR') return null;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return [dv.getUint32(16), dv.getUint32(20)];
}

/** Why a frame is refused before decoding (too many bytes, a size that cannot be read, too many pixels), or null. */
export function frameSizeProblem(b: Uint8Array): string | null {
  if (b.length === 0) return 'an empty frame';
  if (b.length > MAX_FRAME_BYTES) return `a frame of ${b.length} bytes, over the ${MAX_FRAME_BYTES}-byte limit`;
  const size = jpegSize(b) ?? pngSize(b);
  if (!size) return 'not a JPEG or PNG whose size can be read from its header';
  const [w, h] = size;
  if (w === 0 || h === 0) return `a frame of ${w}×${h} pixels`;
  if (w > MAX_FRAME_SIDE || h > MAX_FRAME_SIDE || w * h > MAX_FRAME_PIXELS) {
    return `a frame of ${w}×${h} pixels, more than a camera sends (at most ${MAX_FRAME_SIDE} on a side and ${MAX_FRAME_PIXELS / 1e6} megapixels: 4K fits)`;
  }
  return null;
}
