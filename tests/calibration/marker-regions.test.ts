import { describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
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
      expect(withNear.value.searched, `still frame ${i}`).toBe('regions');
      expect(farthestApart(withNear.value.tableToImage, whole.value.tableToImage, layout)).toBeLessThan(1e-3);
      previous = whole.value;
    }
  });

  it('a plane that puts them elsewhere (the camera moved): the whole frame is looked at', async () => {
    const { cv, layout, frame, whole } = await firstStill();
    // The plane carried 60 px right and 50 px down: no marker is inside its region any more.
    const h = whole.tableToImage;
    const moved = shifted(h, 60, 50);
    expect(detectMarkers(cv, frame, layout.dictionary, markerRegions(moved, layout, frame)).length).toBeLessThan(2);
    const found = homographyFromSheet(cv, frame, layout, 2, { tableToImage: moved, markerIds: whole.markerIds });
    if (!found.ok) throw new Error(found.error.message);
    expect(found.value.markerIds).toEqual(whole.markerIds);
    expect(found.value.searched).toBe('frame');
    expect(farthestApart(found.value.tableToImage, h, layout)).toBeLessThan(1e-3);
  });

  it('a plane not solved from every marker it puts in view: the whole frame is looked at', async () => {
    const { cv, layout, frame, whole } = await firstStill();
    expect(whole.markerIds.length).toBeGreaterThanOrEqual(3);
    // The same plane, said to be solved without the first marker (it was covered): it may put that one a little off.
    const without = { tableToImage: whole.tableToImage, markerIds: whole.markerIds.slice(1) };
    const found = homographyFromSheet(cv, frame, layout, 2, without);
    if (!found.ok) throw new Error(found.error.message);
    expect(found.value.searched).toBe('frame');
    expect(found.value.markerIds).toEqual(whole.markerIds);
    expect(farthestApart(found.value.tableToImage, whole.tableToImage, layout)).toBeLessThan(1e-3);
  });

  it('a marker the whole frame did not give either (by the edge, or covered since): no reason to look at the whole frame', async () => {
    const { cv, layout, frame, whole } = await firstStill();
    const [first, ...rest] = whole.markerIds;
    // Solved without the first marker, which the whole frame did not give then: its region is still looked at.
    const uncovered = homographyFromSheet(cv, frame, layout, 2, { tableToImage: whole.tableToImage, markerIds: rest, missedByFrame: [first!] });
    if (!uncovered.ok) throw new Error(uncovered.error.message);
    expect(uncovered.value.searched).toBe('regions');
    expect(uncovered.value.markerIds).toEqual(whole.markerIds);
    // The first marker covered since the plane was solved from it (its region painted table grey).
    const [region] = markerRegions(whole.tableToImage, layout, frame).filter((r) => r.id === first);
    const covered: Frame = { ...frame, data: frame.data.slice() };
    for (let y = region!.y; y < region!.y + region!.height; y++)
      covered.data.fill(128, (y * frame.width + region!.x) * frame.channels, (y * frame.width + region!.x + region!.width) * frame.channels);
    const plane = { tableToImage: whole.tableToImage, markerIds: whole.markerIds };
    const unknown = homographyFromSheet(cv, covered, layout, 2, plane);
    const known = homographyFromSheet(cv, covered, layout, 2, { ...plane, missedByFrame: [first!] });
    if (!unknown.ok || !known.ok) throw new Error('the other markers solve the plane');
    expect(unknown.value.searched).toBe('frame');
    expect(known.value.searched).toBe('regions');
    expect(known.value.markerIds).toEqual(rest);
    expect(unknown.value.markerIds).toEqual(rest);
    expect(farthestApart(known.value.tableToImage, unknown.value.tableToImage, layout)).toBeLessThan(1e-3);
  });

  it('regions that would cover half the frame (a marker filling the view): the whole frame is looked at', async () => {
    const { cv, layout, frame, whole } = await firstStill();
    const [region] = markerRegions(whole.tableToImage, layout, frame);
    if (!region) throw new Error('no marker wholly in the frame');
    // Cut out around one marker: just its region (the region is the whole view), and twice as wide
    // and high (a quarter of the view). One marker is enough to solve the plane of such a view.
    for (const [grow, searched] of [[0, 'frame'], [0.5, 'regions']] as const) {
      const x0 = Math.max(0, Math.round(region.x - grow * region.width)), y0 = Math.max(0, Math.round(region.y - grow * region.height));
      const x1 = Math.min(frame.width, Math.round(region.x + (1 + grow) * region.width)), y1 = Math.min(frame.height, Math.round(region.y + (1 + grow) * region.height));
      const cut = cropFrame(frame, x0, y0, x1 - x0, y1 - y0);
      const plane = shifted(whole.tableToImage, -x0, -y0);
      const inView = markerRegions(plane, layout, cut).map((r) => r.id!);
      expect(inView, `grown by ${grow}`).toEqual([region.id]);
      const found = homographyFromSheet(cv, cut, layout, 1, { tableToImage: plane, markerIds: inView });
      if (!found.ok) throw new Error(found.error.message);
      expect(found.value.searched, `grown by ${grow}`).toBe(searched);
      expect(found.value.markerIds).toEqual(inView);
    }
  });
});

/** The recording's first still frame, the markers' layout, and the plane the whole frame gives. */
async function firstStill(): Promise<{ cv: Cv; layout: SheetLayout; frame: Frame; whole: SheetHomography }> {
  const cv = await loadCv();
  const { layout, frames } = await stillFrames();
  const frame = frames[0]!;
  const whole = homographyFromSheet(cv, frame, layout);
  if (!whole.ok) throw new Error(whole.error.message);
  return { cv, layout, frame, whole: whole.value };
}

/** The plane `h` with its image moved by (dx, dy) pixels. */
function shifted(h: Homography, dx: number, dy: number): Homography {
  return [h[0] + dx * h[6], h[1] + dx * h[7], h[2] + dx * h[8], h[3] + dy * h[6], h[4] + dy * h[7], h[5] + dy * h[8], h[6], h[7], h[8]];
}

/** The part of a frame from (x0, y0), w × h pixels. */
function cropFrame(frame: Frame, x0: number, y0: number, w: number, h: number): Frame {
  const c = frame.channels;
  const data = new Uint8Array(w * h * c);
  for (let y = 0; y < h; y++) data.set(frame.data.subarray(((y0 + y) * frame.width + x0) * c, ((y0 + y) * frame.width + x0 + w) * c), y * w * c);
  return { width: w, height: h, channels: c, data };
}
