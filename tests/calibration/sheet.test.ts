import { beforeAll, describe, expect, it } from 'vitest';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { detectMarkers } from '../../calibration/markers.js';
import { SHEET_LAYOUTS, SheetLayoutSchema, markerCornersMm, sheetBits, sheetPdf, sheetRects, sheetSvg } from '../../calibration/sheet/index.js';
import { matToFrame } from '../../calibration/frame.js';
import { rasterSvg } from './synthetic.js';

let cv: Cv;
beforeAll(async () => {
  cv = await loadCv();
});

describe.each(SHEET_LAYOUTS.map((l) => [l.name, l] as const))('calibration sheet %s', (_name, layout) => {
  it('is valid layout data: markers on the paper, unique ids, no two markers touching', () => {
    expect(SheetLayoutSchema.safeParse(layout).success).toBe(true);
    const ids = layout.markers.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const s = layout.markerSizeMm;
    for (const m of layout.markers) {
      expect(m.xMm).toBeGreaterThanOrEqual(5);
      expect(m.yMm).toBeGreaterThanOrEqual(5);
      expect(m.xMm + s).toBeLessThanOrEqual(layout.paper.widthMm - 5);
      expect(m.yMm + s).toBeLessThanOrEqual(layout.paper.heightMm - 5);
      for (const n of layout.markers) {
        if (n === m) continue;
        // A white quiet zone of at least one cell between markers.
        const gap = Math.max(Math.abs(n.xMm - m.xMm), Math.abs(n.yMm - m.yMm)) - s;
        expect(gap).toBeGreaterThan(s / 6);
      }
    }
  });

  it('prints each marker as opencv’s own dictionary pattern, with a black border', () => {
    const dict = cv.getPredefinedDictionary(cv[layout.dictionary]);
    const bits = sheetBits(cv, layout);
    for (const b of bits) {
      expect(b.cells.length).toBe(dict.markerSize + 2);
      expect(b.cells[0]!.every(Boolean) && b.cells.at(-1)!.every(Boolean)).toBe(true);
      expect(b.cells.every((row) => row[0] && row.at(-1))).toBe(true);
    }
    // Different ids print different patterns.
    const keys = new Set(bits.map((b) => JSON.stringify(b.cells)));
    expect(keys.size).toBe(bits.length);
    dict.delete();
  });

  it('SVG rendered top-down is read back by the detector: every id, at its layout position', async () => {
    const pxPerMm = 4;
    const svg = sheetSvg(layout, sheetBits(cv, layout));
    expect(svg).toContain(`viewBox="0 0 ${layout.paper.widthMm} ${layout.paper.heightMm}"`);
    const mat = await rasterSvg(cv, svg, layout.paper.widthMm, layout.paper.heightMm, pxPerMm);
    const found = detectMarkers(cv, matToFrame(mat), layout.dictionary);
    mat.delete();
    expect(found.map((d) => d.id)).toEqual(layout.markers.map((m) => m.id).sort((a, b) => a - b));
    for (const d of found) {
      const mm = markerCornersMm(layout, d.id)!;
      d.corners.forEach((c, k) => {
        expect(Math.abs(c.x / pxPerMm - mm[k]!.x)).toBeLessThan(0.3);
        expect(Math.abs(c.y / pxPerMm - mm[k]!.y)).toBeLessThan(0.3);
      });
    }
  });

  it('PDF has the paper size and draws exactly the same black cells as the SVG', async () => {
    const bits = sheetBits(cv, layout);
    const pdf = await sheetPdf(layout, bits, { compress: false });
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    const pt = 72 / 25.4;
    const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(text);
    expect(Number(box![1])).toBeCloseTo(layout.paper.widthMm * pt, 1);
    expect(Number(box![2])).toBeCloseTo(layout.paper.heightMm * pt, 1);
    const drawn = [...text.matchAll(/([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re/g)].map((m) => m.slice(1, 5).map((v) => Number(v) / pt));
    const want = sheetRects(layout, bits);
    // Marker cells plus the scale bar.
    expect(drawn.length).toBe(want.length + 1);
    want.forEach((r, i) => {
      expect(drawn[i]![0]).toBeCloseTo(r.xMm, 2);
      expect(drawn[i]![1]).toBeCloseTo(r.yMm, 2);
      expect(drawn[i]![2]).toBeCloseTo(r.wMm, 2);
      expect(drawn[i]![3]).toBeCloseTo(r.hMm, 2);
    });
  });
});
