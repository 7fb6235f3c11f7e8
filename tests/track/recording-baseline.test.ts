/**
 * Chromium's fake camera (--use-file-for-fake-video-capture=video.mjpeg) parses baseline JPEG frames
 * only: with one progressive frame it offers no camera at all. The bundled recordings must stay
 * playable there (the camera e2e test feeds them to it); `npm run recording:baseline` rewrites a
 * recording losslessly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitMjpeg } from '../../models/scene/recording.js';

/** The start-of-frame marker's kind: 0xc0 baseline, 0xc2 progressive… */
function sof(b: Uint8Array): number | null {
  let i = 2;
  while (i + 3 < b.length && b[i] === 0xff) {
    const m = b[i + 1]!;
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return m;
    i += 2 + ((b[i + 2]! << 8) | b[i + 3]!);
  }
  return null;
}

describe('bundled recordings play in Chromium’s fake camera', () => {
  for (const name of ['short-s5', 'demo-tower-jc', 'printed-c2-s7604']) {
    it(`${name}: every frame is a baseline JPEG`, () => {
      const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/recordings', name, 'video.mjpeg'))))];
      expect(frames.length).toBeGreaterThan(0);
      const kinds = new Set(frames.map(sof));
      expect([...kinds]).toEqual([0xc0]);
    });
  }
});
