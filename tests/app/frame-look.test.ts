// The frame intake's looks on their own thread (electron/services/camera/frame-look.ts): real JPEGs
// of the bundled recording through sharp in the real worker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { splitMjpeg } from '../../models/scene/recording.js';
import { lookAt, stopLookWorker } from '../../electron/services/camera/frame-look.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];

describe('frame look worker', () => {
  it('gives the same grey copy as sharp on the services’ thread, the frame kept whole', async () => {
    const frame = frames[3]!;
    const before = Buffer.from(frame);
    const t = await lookAt(frame, 160);
    const here = await sharp(frame).resize(160).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([t.width, t.height]).toEqual([here.info.width, here.info.height]);
    expect(Buffer.from(t.data).equals(here.data)).toBe(true);
    // Copied to the worker, not moved: the services still hold the JPEG.
    expect(Buffer.from(frame).equals(before)).toBe(true);
  });

  it('looks at a frame cut out of a larger buffer as that frame alone', async () => {
    const frame = frames[5]!;
    const big = new Uint8Array(frame.length + 5000);
    big.set(frame, 3000);
    const t = await lookAt(big.subarray(3000, 3000 + frame.length), 160);
    expect(Buffer.from(t.data).equals(Buffer.from((await lookAt(frame, 160)).data))).toBe(true);
  });

  it('refuses a broken frame with why, and goes on looking', async () => {
    const broken = frames[2]!.subarray(0, 4000);
    await expect(lookAt(broken, 160)).rejects.toThrow(/truncated|premature|corrupt|end of|VipsJpeg/i);
    expect((await lookAt(frames[2]!, 160)).width).toBe(160);
  });

  it('a worker that stops refuses the looks it had; the next look starts another', async () => {
    const inFlight = frames.slice(0, 6).map((f) => lookAt(f, 160));
    await stopLookWorker();
    const settled = await Promise.allSettled(inFlight);
    const refused = settled.filter((s) => s.status === 'rejected');
    for (const r of refused) expect((r as PromiseRejectedResult).reason.message).toMatch(/frame look worker stopped/);
    expect(refused.length).toBeGreaterThan(0);
    expect((await lookAt(frames[7]!, 160)).width).toBe(160);
  });
});
