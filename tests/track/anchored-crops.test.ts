import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agreedOffset, ANCHOR_MARGIN, ANCHOR_PX, medianOffset, tileOffset } from '../../models/track/anchor.js';
import { CROP_PX } from '../../models/track/templates.js';
import { replayRecording } from '../../models/track/replay.js';
import { appearanceOf, appearanceSimilarity } from '../../models/appearance.js';

const DEMO = 'tests/fixtures/recordings/demo-tower-jc';
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

/** A template with some structure (a bright square and a stripe) and NaN gap pixels at its rim. */
function template(): Float32Array {
  const t = new Float32Array(CROP_PX * CROP_PX * 3);
  for (let v = 0; v < CROP_PX; v++)
    for (let u = 0; u < CROP_PX; u++) {
      const o = (v * CROP_PX + u) * 3;
      const rim = u === 0 || v === 0 || u === CROP_PX - 1 || v === CROP_PX - 1;
      const val = rim ? NaN : u > 8 && u < 17 && v > 10 && v < 20 ? 220 : u === 24 ? 40 : 120 + v;
      t[o] = val; t[o + 1] = val * 0.8; t[o + 2] = val * 0.5;
    }
  return t;
}

describe('a laid tile found in a wider cut of its cell', () => {
  it('gives the offset it lies at, under a change of light', () => {
    const tpl = template();
    for (const [sx, sy] of [[3, -2], [-5, 4], [0, 0], [1, 5]] as const) {
      const wide = new Float32Array(ANCHOR_PX * ANCHOR_PX * 3).fill(90);
      for (let v = 0; v < CROP_PX; v++)
        for (let u = 0; u < CROP_PX; u++)
          for (let k = 0; k < 3; k++) {
            const x = tpl[(v * CROP_PX + u) * 3 + k]!;
            if (!Number.isNaN(x)) wide[((v + ANCHOR_MARGIN + sy) * ANCHOR_PX + u + ANCHOR_MARGIN + sx) * 3 + k] = x * 0.7;
          }
      const o = tileOffset(wide, tpl);
      expect([o.sx, o.sy]).toEqual([sx, sy]);
      expect(o.d).toBeLessThan(1e-6);
    }
  });

  it('the median of the neighbours, each axis apart (one tile drifted further does not move it)', () => {
    expect(medianOffset([])).toBeNull();
    expect(medianOffset([{ sx: 3, sy: -3 }, { sx: 3, sy: -2 }, { sx: -1, sy: 4 }])).toEqual({ sx: 3, sy: -2 });
    expect(medianOffset([{ sx: 2, sy: -3 }, { sx: 3, sy: -2 }])).toEqual({ sx: 2.5, sy: -2.5 });
  });

  it('is used only when the neighbours agree: scattered offsets (tiles the templates do not draw like the table) keep the plane', () => {
    // A plane a few pixels off moves every neighbour alike.
    expect(agreedOffset([{ sx: 3, sy: -2 }, { sx: 3, sy: -3 }, { sx: 2, sy: -2 }, { sx: 3, sy: -2 }, { sx: -4, sy: 5 }])).toEqual({ sx: 3, sy: -2 });
    // One neighbour cannot be checked against another: taken as it is.
    expect(agreedOffset([{ sx: 2, sy: 1 }])).toEqual({ sx: 2, sy: 1 });
    expect(agreedOffset([])).toBeNull();
    // Fits found anywhere in the search: no two within a pixel of their median.
    expect(agreedOffset([{ sx: -5, sy: 4 }, { sx: 3, sy: -5 }, { sx: 0, sy: 2 }, { sx: 5, sy: -1 }])).toBeNull();
    expect(agreedOffset([{ sx: 4, sy: 0 }, { sx: -4, sy: 0 }])).toBeNull();
  });
});

describe('a table plane a few millimetres off where the tiles lie', () => {
  it('the bundled demo game replays exactly when the marker plane is 4 mm off in x and y', async () => {
    // The markers said to lie 4 mm right of and above where they are: every crop cut from the marker
    // plane is ~2.8 px off (at 32 px per 46 mm), at the edge of the tile reading's ±2 px drift search
    // for tiles that drifted the same way. (Without the anchored crops: 103/115, two tiles committed
    // in a wrong turn and a figure where there was none.)
    const dir = mkdtempSync(join(tmpdir(), 'anchored-'));
    tmp.push(dir);
    cpSync(DEMO, dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    for (const m of manifest.source.markers.markers) { m.xMm += 4; m.yMm -= 4; }
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const r = await replayRecording(dir);
    expect(r.outcomes.filter((o) => o.result === 'wrong' || o.result === 'extra')).toEqual([]);
    expect(r.exact).toBe(r.cameraMoves);
    expect(r.cameraMoves).toBe(115);
    expect(r.scores).toEqual(r.truthScores);

    // The pictures the table's answers enroll (Tracker.cellPicture) are cut where the tiles lie too:
    // they are matched pixel by pixel later, and 4 mm is two of the appearance descriptor's cells,
    // beyond its one-cell alignment search.
    const right = await replayRecording(DEMO);
    let compared = 0;
    for (const t of r.game.state.board.tiles) {
      const off = r.tracker.cellPicture(t.x, t.y);
      const truth = right.tracker.cellPicture(t.x, t.y);
      if (!off || !truth) continue;
      compared++;
      const sim = appearanceSimilarity(appearanceOf(off.data, off.width), appearanceOf(truth.data, truth.width))!;
      expect(sim, `the picture of ${t.view.tile.id} at (${t.x}, ${t.y})`).toBeGreaterThan(0.8);
    }
    expect(compared).toBe(r.game.state.board.tiles.length);
  }, 180_000);
});
