import { beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { checkFrame, decodeFrame, encodePng, type Frame } from '../../calibration/frame.js';
import { changedCells, checkedThumbnail, StillScene, thumbnail } from '../../calibration/motion.js';
import { parseCameraProfile } from '../../calibration/profile.js';
import type { Quad } from '../../calibration/geometry.js';

let cv: Cv;
beforeAll(async () => {
  cv = await loadCv();
});

function scene(opts: { hand?: { x: number; y: number }; tileAt?: { x: number; y: number }; seed: number }): Frame {
  const w = 640, h = 360;
  const data = new Uint8Array(w * h * 3);
  let s = opts.seed;
  for (let i = 0; i < data.length; i += 3) {
    s = (s * 1103515245 + 12345) >>> 0;
    const n = (s >>> 24) % 5; // sensor noise, ±2 levels
    data[i] = 140 + n; data[i + 1] = 100 + n; data[i + 2] = 70 + n;
  }
  const box = (x0: number, y0: number, bw: number, bh: number, c: number[]): void => {
    for (let y = y0; y < y0 + bh; y++) for (let x = x0; x < x0 + bw; x++) { const i = (y * w + x) * 3; data[i] = c[0]!; data[i + 1] = c[1]!; data[i + 2] = c[2]!; }
  };
  box(300, 160, 40, 40, [80, 150, 60]); // the start tile
  if (opts.tileAt) box(opts.tileAt.x, opts.tileAt.y, 40, 40, [200, 170, 110]);
  if (opts.hand) box(opts.hand.x, opts.hand.y, 120, 90, [225, 180, 160]);
  return { width: w, height: h, channels: 3, data };
}

describe('still-scene detection', () => {
  it('is still only after the hand has left for a whole window of frames', () => {
    const still = new StillScene(4);
    const results = [
      scene({ seed: 1, hand: { x: 100, y: 100 } }),
      scene({ seed: 2, hand: { x: 200, y: 120 } }),
      scene({ seed: 3, hand: { x: 340, y: 170 }, tileAt: { x: 340, y: 160 } }),
      scene({ seed: 4, tileAt: { x: 340, y: 160 } }),
      scene({ seed: 5, tileAt: { x: 340, y: 160 } }),
      scene({ seed: 6, tileAt: { x: 340, y: 160 } }),
      scene({ seed: 7, tileAt: { x: 340, y: 160 } }),
    ].map((f) => still.push(thumbnail(cv, f)));
    expect(results).toEqual([false, false, false, false, false, false, true]);
  });

  it('a hand that never leaves never makes the scene still', () => {
    const still = new StillScene(4);
    const seen = Array.from({ length: 12 }, (_, i) => still.push(thumbnail(cv, scene({ seed: i, hand: { x: 100 + (i % 3) * 30, y: 100 } }))));
    expect(seen.some(Boolean)).toBe(false);
  });
});

describe('changed cells against the committed board image', () => {
  const quad = (x: number, y: number): Quad => [{ x, y }, { x: x + 40, y }, { x: x + 40, y: y + 40 }, { x, y: y + 40 }];
  const cells = [
    { key: '0,0', imageQuad: quad(300, 160) },
    { key: '1,0', imageQuad: quad(340, 160) },
    { key: '0,1', imageQuad: quad(300, 200) },
  ];
  it('names the cell where a tile was laid, and only that cell', () => {
    const before = thumbnail(cv, scene({ seed: 1 }));
    const after = thumbnail(cv, scene({ seed: 2, tileAt: { x: 340, y: 160 } }));
    const res = changedCells(before, after, cells);
    expect(res.ok && res.value.map((c) => c.key)).toEqual(['1,0']);
  });
  it('a frame of another size is a frame-size-mismatch, not a board full of changes', () => {
    const before = thumbnail(cv, scene({ seed: 1 }));
    const other = thumbnail(cv, { width: 320, height: 240, channels: 1, data: new Uint8Array(320 * 240) });
    const res = changedCells(before, other, cells);
    expect(!res.ok && res.error.kind).toBe('frame-size-mismatch');
  });
});

describe('bad input is a result that names what was wrong', () => {
  it('bytes that are not an image', async () => {
    const res = await decodeFrame(new TextEncoder().encode('this is not a picture'), 'camera frame 17');
    expect(!res.ok && res.error.kind).toBe('not-an-image');
    expect(!res.ok && res.error.message).toContain('camera frame 17');
  });
  it('an empty buffer', async () => {
    const res = await decodeFrame(new Uint8Array(0));
    expect(!res.ok && res.error.kind).toBe('empty-input');
  });
  it('a truncated PNG', async () => {
    const png = await encodePng(scene({ seed: 1 }));
    const res = await decodeFrame(png.subarray(0, Math.floor(png.length / 2)));
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error.kind).toBe('truncated-image');
  });
  it('cut-short PNGs decoded at once are each a truncated image (libvips may then say only "Unknown error")', async () => {
    const png = await encodePng(scene({ seed: 1 }));
    const half = png.subarray(0, Math.floor(png.length / 2));
    const res = await Promise.all(Array.from({ length: 32 }, () => decodeFrame(half)));
    expect(res.map((r) => !r.ok && r.error.kind)).toEqual(res.map(() => 'truncated-image'));
  });
  it('a raw frame whose buffer is too short', () => {
    const res = checkFrame({ width: 640, height: 360, channels: 3, data: new Uint8Array(1000) });
    expect(!res.ok && res.error.kind).toBe('truncated-image');
    expect(!res.ok && res.error.message).toContain('691200');
    expect(checkedThumbnail(cv, 'frame').ok).toBe(false);
  });
  it('a stored camera profile with a broken field', () => {
    const good = {
      version: 1, cameraId: 'usb-046d:0825', imageSize: { width: 1920, height: 1080 },
      tableToImage: [2, 0, 960, 0, 2, 540, 0, 0, 1], source: 'sheet',
      lattice: { originMm: { x: 0, y: 0 }, pitchMm: 46, angleDeg: 0, tileMm: 45 }, savedAt: '2026-11-29T20:00:00.000Z',
    };
    expect(parseCameraProfile(good).ok).toBe(true);
    const bad = parseCameraProfile({ ...good, lattice: { ...good.lattice, pitchMm: 460 } });
    expect(!bad.ok && bad.error.message).toContain('lattice.pitchMm');
  });
});
