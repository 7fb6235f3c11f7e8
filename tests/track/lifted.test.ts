/**
 * The laid-tile check's "lifted" rule (models/track/lifted.ts) on cell crops the tracker cut from
 * recordings (tests/fixtures/track/lifted/, 32 × 32 RGB as `crop` cuts them): the cell now, how it
 * looked empty, and the camera's last look at the tile. `dKnown` is how well the tile's drawing fitted
 * the cell in that still frame, as the tracker measured it there (its drawing, a figure drawn in, the
 * cell searched around).
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { seemsLifted } from '../../models/track/lifted.js';
import { matchTemplate, type CellCrop } from '../../models/track/templates.js';

const DIR = join(import.meta.dirname, '../fixtures/track/lifted');

async function crop(name: string): Promise<CellCrop> {
  const { data, info } = await sharp(join(DIR, `${name}.png`)).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height, info.channels]).toEqual([32, 32, 3]);
  return Float32Array.from(data);
}

async function looks(prefix: string) {
  return { now: await crop(`${prefix}-now`), empty: await crop(`${prefix}-empty`), last: await crop(`${prefix}-last`) };
}

const dimmed = (c: CellCrop, by: number): CellCrop => c.map((v) => v * by);

describe('a laid tile said to be lifted', () => {
  it('is not, when the cell still shows the tile cut off-centre and its field fits the bare table by colour gains', async () => {
    // Tuning game 7108, BASE_I at (3, 3), still frame 56: the marker plane jumped about 5 mm, and the
    // mostly green cell fitted its bare wood look (brown, nearly one colour) once each channel's
    // gain was matched — closer than it fitted the drawing or the camera's last look.
    const l = await looks('7108-f56-cell-3-3');
    const dKnown = 0.01506;
    expect(matchTemplate(l.now, l.empty).d).toBeLessThan(dKnown * 0.5);
    expect(matchTemplate(l.now, l.empty).d).toBeLessThan(matchTemplate(l.now, l.last).d * 0.5);
    expect(seemsLifted(l.now, l, dKnown)).toBe(false);
  });

  it('is, when the cell shows the bare table again', async () => {
    // The short recording: the tile laid at (1, 2) in the first visit, then the start scene again.
    const l = await looks('short-s5-cell-1-2-lifted');
    expect(seemsLifted(l.now, l, 0.01787)).toBe(true);
  });

  it('is, under a dimmer light as well, and a tile that only grew darker is not', async () => {
    const lifted = await looks('short-s5-cell-1-2-lifted');
    expect(seemsLifted(dimmed(lifted.now, 0.7), lifted, 0.01787)).toBe(true);
    const kept = await looks('7108-f56-cell-3-3');
    expect(seemsLifted(dimmed(kept.last, 0.7), kept, 0.01506)).toBe(false);
  });
});
