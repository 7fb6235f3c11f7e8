/** The tiles' side in a teach's frames, carried from frame to frame (models/teach/read.ts). */
import type { SideField } from '../photo/outline.js';

/**
 * The tiles' side across the frames of one teach (`SideField`, in the frames' own pixels). The
 * camera does not move while a table teaches, so a frame with too few lone tiles to learn the side
 * from (tiles all touching, a table the colour of the tiles' fields, only a retake's few tiles)
 * takes the last frame's that did; without it the side was guessed from the largest blob (two or
 * more tiles) and nothing in the frame packed into squares.
 */
export class TileSides {
  private field: SideField | null = null;

  /** The side in an image `width` pixels wide of a frame `frameWidth` wide; null before any frame learnt it. */
  at(width: number, frameWidth: number): SideField | null {
    return this.field?.scaled(frameWidth / width) ?? null;
  }

  learn(field: SideField, width: number, frameWidth: number): void {
    this.field = field.scaled(width / frameWidth);
  }
}
