import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCv } from '../../calibration/cv.js';
import { decodeFrame, frameToMat } from '../../calibration/frame.js';
import { applyHomography } from '../../calibration/geometry.js';
import { homographyFromSheet } from '../../calibration/markers.js';
import { rectifyCell } from '../../calibration/rectify.js';
import type { SheetLayout } from '../../calibration/sheet/layout.js';
import type { Command } from '../../engine/game/commands.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import { readManifest, splitMjpeg, VIDEO_FILE } from '../../models/scene/recording.js';
import { PITCH_MM } from '../../models/scene/render.js';
import { CROP_PX } from '../../models/track/templates.js';
import { confidence, readingConfidence } from '../../models/track/reading.js';
import { Tracker } from '../../models/track/tracker.js';

const DIR = 'tests/fixtures/recordings/demo-tower-jc';

describe('look-alike drawings', () => {
  it('prize tiles (same city and field, a different mark) are compared where they differ: the right one leads, surely', async () => {
    const m = readManifest(DIR);
    if (!m.ok) throw new Error(m.error);
    const rec = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
    if (!rec.ok) throw new Error(rec.reason);
    const src = m.value.source as { style: string; markers: SheetLayout };
    const t = await Tracker.create({ setup: setupFromRecord(rec.record), style: src.style, markers: src.markers, useModel: false });
    const truth = m.value.commands as unknown as Command[];
    const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, VIDEO_FILE))))];
    const cv = await loadCv();
    let checked = 0;
    for (const [i, c] of truth.entries()) {
      if (c.type === 'placePrizeTile' || (c.type === 'placeTile' && checked === 1)) {
        // The still frame after the hand laid it, cut as the tracker cuts a cell.
        const v = m.value.visits.find((k) => k.camera.includes(i))!;
        const f = await decodeFrame(frames[v.stillFrom + 1]!);
        if (!f.ok) throw new Error(f.error.message);
        const plane = homographyFromSheet(cv, f.value, src.markers);
        if (!plane.ok) throw new Error(plane.error.message);
        const [x, y] = c.at, h = PITCH_MM / 2;
        const p = (dx: number, dy: number) => applyHomography(plane.value.tableToImage, { x: x * PITCH_MM + dx, y: y * PITCH_MM + dy });
        const mat = frameToMat(cv, f.value);
        const crop = Float32Array.from(rectifyCell(cv, mat, [p(-h, -h), p(h, -h), p(h, h), p(-h, h)], CROP_PX).data);
        mat.delete();
        const readings = t.readCell(crop, x, y);
        const best = readings[0]!;
        expect(`${best.tile}/${best.q * 90}`, `${c.tile} at (${x}, ${y})`).toBe(`${c.tile}/${c.rot}`);
        if (c.type === 'placePrizeTile') {
          // The prize tiles close to the best carry their detail distance, ranked by it, and weigh by it.
          const close = readings.filter((r) => r.detail !== undefined);
          expect(close.length).toBeGreaterThanOrEqual(2);
          expect(readings.slice(0, close.length)).toEqual(close);
          expect(close[1]!.detail! / close[0]!.detail!).toBeGreaterThan(1.4);
          expect(readingConfidence(readings)).toBeGreaterThanOrEqual(0.9);
        } else {
          // A drawing with no look-alike near it: the whole-tile distance alone.
          expect(readings.some((r) => r.detail !== undefined)).toBe(false);
          expect(readingConfidence(readings)).toBe(confidence(readings));
        }
        checked++;
      }
      expect(t.tableInput(c).ok).toBe(true);
      if (checked === 3) break;
    }
    expect(checked).toBe(3);
  }, 60_000);
});
