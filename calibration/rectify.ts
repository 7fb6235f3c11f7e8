import type { Cv, Mat } from './cv.js';
import type { Frame } from './frame.js';
import type { Quad } from './geometry.js';

/**
 * Cuts one tile out of the frame as a `size`×`size` square, top-down (the recogniser's input).
 * The quad's first corner becomes the crop's top-left. `source` is the frame as a Mat (RGB or
 * grey), converted once per frame by the caller so a whole board costs one conversion.
 */
export function rectifyCell(cv: Cv, source: Mat, imageQuad: Quad, size: number): Frame {
  const src = cv.matFromArray(4, 1, cv.CV_32FC2, imageQuad.flatMap((p) => [p.x, p.y]));
  // Pixel centres: the quad's corners are the outer edges of the crop's corner pixels.
  const dst = cv.matFromArray(4, 1, cv.CV_32FC2, [-0.5, -0.5, size - 0.5, -0.5, size - 0.5, size - 0.5, -0.5, size - 0.5]);
  const m = cv.getPerspectiveTransform(src, dst);
  const out = new cv.Mat();
  try {
    cv.warpPerspective(source, out, m, new cv.Size(size, size), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    const channels = out.channels() as 1 | 3;
    return { width: size, height: size, channels, data: new Uint8Array(out.data) };
  } finally {
    for (const x of [src, dst, m, out]) x.delete();
  }
}
