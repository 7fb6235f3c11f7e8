/** A frame source over a list of JPEG buffers: a camera that may stop early, send junk or be moved. */
import type { FrameSource } from '../../../models/scene/recording.js';

export function listSource(frames: readonly Uint8Array[], size: { width: number; height: number; fps: number } = { width: 640, height: 480, fps: 3 }): FrameSource {
  let i = 0;
  return { width: size.width, height: size.height, fps: size.fps, next: async () => (i < frames.length ? { index: i, bytes: frames[i++]! } : null), close: () => {} };
}
