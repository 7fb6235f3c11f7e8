/** Issue 28, the pieces on their own: OpenCV's process handlers, the page's policy, frame headers. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadCv } from '../../calibration/cv.js';
import { CONTENT_SECURITY_POLICY_META } from '../../electron/server/headers.js';
import { frameSizeProblem, jpegSize, pngSize } from '../../electron/services/camera/frame-size.js';

describe('OpenCV.js loaded into the services', () => {
  it('leaves the process no handler that aborts on a stray rejection or rethrows an exception', async () => {
    const before = [process.listenerCount('unhandledRejection'), process.listenerCount('uncaughtException')];
    const cv = await loadCv();
    expect(typeof cv.Mat).toBe('function');
    expect([process.listenerCount('unhandledRejection'), process.listenerCount('uncaughtException')]).toEqual(before);
  }, 60_000);
});

describe("the renderer's policy", () => {
  it("is the same in index.html's meta tag (Electron's window) as in browser mode's header", () => {
    const html = readFileSync(join(import.meta.dirname, '../../renderer/index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY_META);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });
});

describe('frame sizes from headers', () => {
  it('reads JPEG and PNG sizes without decoding, and refuses what is not one', async () => {
    const base = sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 1, g: 2, b: 3 } } });
    expect(jpegSize(await base.clone().jpeg().toBuffer())).toEqual([320, 200]);
    expect(jpegSize(await base.clone().jpeg({ progressive: true }).toBuffer())).toEqual([320, 200]);
    expect(pngSize(await base.clone().png().toBuffer())).toEqual([320, 200]);
    expect(frameSizeProblem(await base.clone().jpeg().toBuffer())).toBeNull();
    expect(frameSizeProblem(new Uint8Array())).toMatch(/empty/);
    expect(frameSizeProblem(new Uint8Array(5 * 1024 * 1024))).toMatch(/bytes, over/);
    expect(frameSizeProblem(new Uint8Array([1, 2, 3, 4]))).toMatch(/header/);
    // A JPEG cut off before its start-of-frame, or with a zero-length segment, ends the walk.
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
  });
});
