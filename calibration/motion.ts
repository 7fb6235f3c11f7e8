import type { Cv, Mat } from './cv.js';
import { checkFrame, frameToMat, type Frame } from './frame.js';
import type { Quad } from './geometry.js';
import { fail, ok, type Result } from './result.js';

/** Frames are compared small: 160 px wide is enough to see a hand and cheap enough for 10 ms. */
const THUMB_WIDTH = 160;

/** A small blurred grey copy of a frame, the unit of all motion checks. */
export interface Thumb {
  width: number;
  height: number;
  /** Scale from full-frame pixels to thumbnail pixels. */
  scale: number;
  data: Uint8Array;
}

export function thumbnail(cv: Cv, frame: Frame): Thumb {
  // Shrink first, convert to grey after: the colour conversion then touches 1/144 of the pixels.
  const full = frameToMat(cv, frame);
  const small = new cv.Mat();
  const gray = new cv.Mat();
  const scale = THUMB_WIDTH / frame.width;
  try {
    cv.resize(full, small, new cv.Size(THUMB_WIDTH, Math.max(1, Math.round(frame.height * scale))), 0, 0, cv.INTER_AREA);
    if (frame.channels === 3) cv.cvtColor(small, gray, cv.COLOR_RGB2GRAY);
    else small.copyTo(gray);
    cv.GaussianBlur(gray, gray, new cv.Size(3, 3), 0);
    return { width: gray.cols, height: gray.rows, scale, data: new Uint8Array(gray.data) };
  } finally {
    full.delete();
    small.delete();
    gray.delete();
  }
}

/** Fraction of pixels whose grey level differs by more than `threshold` (sensor noise stays below). */
export function changedFraction(a: Thumb, b: Thumb, threshold = 18): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let n = 0;
  for (let i = 0; i < a.data.length; i++) if (Math.abs(a.data[i]! - b.data[i]!) > threshold) n++;
  return n / a.data.length;
}

/**
 * Still-scene detector: the scene is still when every pair of consecutive thumbnails in the last
 * `window` frames differs in less than `maxChanged` of the pixels (hands gone, nothing moving).
 */
export class StillScene {
  private readonly recent: Thumb[] = [];
  constructor(
    private readonly window = 4,
    private readonly maxChanged = 0.002,
  ) {}

  /** Adds a frame's thumbnail; true when the last `window` frames are all alike. */
  push(t: Thumb): boolean {
    this.recent.push(t);
    if (this.recent.length > this.window) this.recent.shift();
    if (this.recent.length < this.window) return false;
    for (let i = 1; i < this.recent.length; i++) if (changedFraction(this.recent[i - 1]!, this.recent[i]!) > this.maxChanged) return false;
    return true;
  }

  reset(): void {
    this.recent.length = 0;
  }
}

export interface CellChange {
  key: string;
  /** Fraction of the cell's pixels that changed against the committed board image. */
  changed: number;
}

/**
 * Cells whose appearance changed against the last committed board image: a tile laid, lifted,
 * turned or a meeple put on it. Each cell is compared inside its own image quad's bounding box.
 */
export function changedCells(committed: Thumb, now: Thumb, cells: { key: string; imageQuad: Quad }[], minChanged = 0.15): Result<CellChange[]> {
  if (committed.width !== now.width || committed.height !== now.height)
    return fail('frame-size-mismatch', `frame is ${now.width}×${now.height} (thumbnail) but the committed board image is ${committed.width}×${committed.height}; recalibrate after changing camera resolution`);
  const out: CellChange[] = [];
  for (const c of cells) {
    const xs = c.imageQuad.map((p) => p.x * now.scale), ys = c.imageQuad.map((p) => p.y * now.scale);
    const x0 = Math.max(0, Math.floor(Math.min(...xs))), x1 = Math.min(now.width - 1, Math.ceil(Math.max(...xs)));
    const y0 = Math.max(0, Math.floor(Math.min(...ys))), y1 = Math.min(now.height - 1, Math.ceil(Math.max(...ys)));
    // Shrink by a quarter so neighbours' edges do not count.
    const mx = Math.round((x1 - x0) / 4), my = Math.round((y1 - y0) / 4);
    let n = 0, total = 0;
    for (let y = y0 + my; y <= y1 - my; y++)
      for (let x = x0 + mx; x <= x1 - mx; x++) {
        total++;
        const i = y * now.width + x;
        if (Math.abs(now.data[i]! - committed.data[i]!) > 18) n++;
      }
    const changed = total > 0 ? n / total : 0;
    if (changed >= minChanged) out.push({ key: c.key, changed });
  }
  return ok(out.sort((a, b) => b.changed - a.changed));
}

/** Thumbnail with input checks, for frames that come from outside. */
export function checkedThumbnail(cv: Cv, frame: unknown): Result<Thumb> {
  const f = checkFrame(frame);
  return f.ok ? ok(thumbnail(cv, f.value)) : f;
}

export type { Mat };
