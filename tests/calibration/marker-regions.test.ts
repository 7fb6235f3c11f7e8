import { describe, expect, it } from 'vitest';
import { loadCv } from '../../calibration/cv.js';
import { decodeFrame, type Frame } from '../../calibration/frame.js';
import { applyHomography, type Homography } from '../../calibration/geometry.js';
import { detectMarkers, homographyFromSheet, markerRegions, type SheetHomography } from '../../calibration/markers.js';
import { markerCornersMm, type SheetLayout } from '../../calibration/sheet/layout.js';
import { RecordingSource } from '../../models/scene/recording.js';

// Where the camera has not moved, the tracker looks for each marker only where the plane in use puts
// it (docs/calibration.md): it must find what the whole frame gives, at a fraction of the pixels.
const DIR = 'tests/fixtures/recordings/short-s5';

async function stillFrames(): Promise<{ layout: SheetLayout; frames: Frame[] }> {
  const opened = RecordingSource.open(DIR);
  if (!opened.ok) throw new Error(opened.error);
  const { source, manifest } = opened.value;
  const stills = new Set(manifest.visits.map((v) => v.stillFrom));
  const frames: Frame[] = [];
  for (let f = await source.next(); f; f = await source.next()) {
    if (!stills.has(f.index)) continue;
    const d = await decodeFrame(f.bytes);
    if (!d.ok) throw new Error(d.error.message);
    frames.push(d.value);
  }
  return { layout: (manifest.source as { markers: SheetLayout }).markers, frames };
}

/** How far apart two planes put the layout's marker corners, in pixels. */
function farthestApart(a: Homography, b: Homography, layout: SheetLayout): number {
  const corners = layout.markers.flatMap((m) => markerCornersMm(layout, m.id)!);
  return Math.max(...corners.map((c) => { const p = applyHomography(a, c), q = applyHomography(b, c); return Math.hypot(p.x - q.x, p.y - q.y); }));
}

describe('markers looked for where the plane puts them', () => {
  it('are the markers the whole frame gives, corner for corner, from under half its pixels', async () => {
    const cv = await loadCv();
    const { layout, frames } = await stillFrames();
    expect(frames.length).toBeGreaterThan(5);
    let previous: SheetHomography | null = null;
    for (const [i, frame] of frames.entries()) {
      const whole = homographyFromSheet(cv, frame, layout);
      if (!whole.ok) throw new Error(`still frame ${i}: ${whole.error.message}`);
      const plane = previous ?? whole.value;
      const regions = markerRegions(plane.tableToImage, layout, frame);
      expect(regions.map((r) => r.id).sort(), `still frame ${i}`).toEqual(whole.value.markerIds);
      expect(regions.reduce((s, r) => s + r.width * r.height, 0)).toBeLessThan((frame.width * frame.height) / 2);
      const all = detectMarkers(cv, frame, layout.dictionary);
      const near = detectMarkers(cv, frame, layout.dictionary, regions);
      expect(near.map((d) => d.id)).toEqual(all.map((d) => d.id));
      for (const [k, d] of near.entries())
        for (const [c, p] of d.corners.entries()) {
          expect(Math.abs(p.x - all[k]!.corners[c]!.x), `frame ${i} marker ${d.id} corner ${c}`).toBeLessThan(1e-3);
          expect(Math.abs(p.y - all[k]!.corners[c]!.y), `frame ${i} marker ${d.id} corner ${c}`).toBeLessThan(1e-3);
        }
      const withNear = homographyFromSheet(cv, frame, layout, 2, plane);
      if (!withNear.ok) throw new Error(withNear.error.message);
      expect(withNear.value.markerIds).toEqual(whole.value.markerIds);
      expect(farthestApart(withNear.value.tableToImage, whole.value.tableToImage, layout)).toBeLessThan(1e-3);
      previous = whole.value;
    }
  });

  it('a plane that puts them elsewhere (the camera moved): the whole frame is looked at', async () => {
    const cv = await loadCv();
    const { layout, frames } = await stillFrames();
    const frame = frames[0]!;
    const whole = homographyFromSheet(cv, frame, layout);
    if (!whole.ok) throw new Error(whole.error.message);
    // The plane carried 60 px right and 50 px down: no marker is inside its region any more.
    const h = whole.value.tableToImage;
    const moved: Homography = [h[0] + 60 * h[6], h[1] + 60 * h[7], h[2] + 60 * h[8], h[3] + 50 * h[6], h[4] + 50 * h[7], h[5] + 50 * h[8], h[6], h[7], h[8]];
    expect(detectMarkers(cv, frame, layout.dictionary, markerRegions(moved, layout, frame)).length).toBeLessThan(2);
    const found = homographyFromSheet(cv, frame, layout, 2, { tableToImage: moved, markerIds: whole.value.markerIds });
    if (!found.ok) throw new Error(found.error.message);
    expect(found.value.markerIds).toEqual(whole.value.markerIds);
    expect(farthestApart(found.value.tableToImage, h, layout)).toBeLessThan(1e-3);
  });
});
