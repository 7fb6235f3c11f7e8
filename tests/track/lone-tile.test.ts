import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { loadCv } from '../../calibration/cv.js';
import { decodeFrame } from '../../calibration/frame.js';
import { applyHomography } from '../../calibration/geometry.js';
import { homographyFromSheet } from '../../calibration/markers.js';
import type { SheetLayout } from '../../calibration/sheet/layout.js';
import type { Command } from '../../engine/game/commands.js';
import { RecordingSource, type FrameSource } from '../../models/scene/recording.js';
import { PITCH_MM } from '../../models/scene/render.js';
import { replayRecording, sameMove } from '../../models/track/replay.js';
import type { TrackEvent } from '../../models/track/tracker.js';

const DIR = 'tests/fixtures/recordings/short-s5';
/** Visit 2 lays its tile at (-1, 1); the hole (-1, 0) above it stays empty for the whole recording. */
const VISIT = 2, SHADED: [number, number] = [-1, 0];

/**
 * The recording with the near third of the hole (-1, 0) in shade from visit 2's hand on (a shadow or
 * the edge of something standing beside it): that still scene shows two changed holes, the new tile
 * and the shaded one.
 */
async function shaded(): Promise<{ source: FrameSource; from: number }> {
  const opened = RecordingSource.open(DIR);
  if (!opened.ok) throw new Error(opened.error);
  const { source, manifest } = opened.value;
  const layout = (manifest.source as { markers: SheetLayout }).markers;
  const from = manifest.visits[VISIT]!.handFrom;
  const cv = await loadCv();
  const frames: Uint8Array[] = [];
  for (let f = await source.next(); f; f = await source.next()) {
    if (f.index < from) { frames.push(f.bytes); continue; }
    const d = await decodeFrame(f.bytes);
    if (!d.ok) throw new Error(d.error.message);
    const plane = homographyFromSheet(cv, d.value, layout);
    if (!plane.ok) throw new Error(plane.error.message);
    const { width: W, height: H, data } = d.value;
    // Table millimetres → image: the strip y ∈ [8, 23] mm of the cell (the side towards the new tile).
    const [cx, cy] = [SHADED[0] * PITCH_MM, SHADED[1] * PITCH_MM];
    const corners = [[-23, 8], [23, 8], [23, 23], [-23, 23]].map(([dx, dy]) => applyHomography(plane.value.tableToImage, { x: cx + dx!, y: cy + dy! }));
    const xs = corners.map((p) => p.x), ys = corners.map((p) => p.y);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++)
      for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x++)
        if (x >= 0 && y >= 0 && x < W && y < H) for (let k = 0; k < 3; k++) data[(y * W + x) * 3 + k] = Math.round(data[(y * W + x) * 3 + k]! * 0.55);
    frames.push(new Uint8Array(await sharp(data, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer()));
  }
  source.close();
  let i = 0;
  return { from, source: { width: source.width, height: source.height, fps: source.fps, next: async () => (i < frames.length ? { index: i, bytes: frames[i++]! } : null), close: () => {} } };
}

describe('two holes changed, one of them the new tile', () => {
  it('the new tile is found and read as the drawn tile; nothing is committed at the shaded hole', async () => {
    const { source, from } = await shaded();
    const proposals: Extract<TrackEvent, { kind: 'proposal' }>[] = [];
    const r = await replayRecording(DIR, { source, onEvent: (e) => { if (e.kind === 'proposal') proposals.push(e); } });
    const opened = RecordingSource.open(DIR);
    if (!opened.ok) throw new Error(opened.error);
    const truth = opened.value.manifest.commands as unknown as Command[];
    const laid = truth[opened.value.manifest.visits[VISIT]!.camera[0]!]!;
    const tile = proposals.find((p) => p.frame >= from && p.command.type === 'placeTile');
    expect(tile && sameMove(tile.command, laid)).toBe(true);
    expect(tile!.committed).toBe(true);
    // Read as the drawn tile alone: the runners-up are other turns of it, not other types.
    expect(tile!.alternatives.length).toBeGreaterThan(0);
    for (const a of tile!.alternatives) expect(a.type === 'placeTile' && a.tile).toBe(laid.type === 'placeTile' && laid.tile);
    const at = (p: (typeof proposals)[0]) => ('at' in p.command ? p.command.at : null);
    expect(proposals.filter((p) => p.committed && at(p)?.[0] === SHADED[0] && at(p)?.[1] === SHADED[1])).toEqual([]);
    expect(r.outcomes.filter((o) => o.result === 'wrong' || o.result === 'extra')).toEqual([]);
    expect(r.scores).toEqual(r.truthScores);
  }, 60_000);
});
