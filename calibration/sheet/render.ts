import PDFDocument from 'pdfkit';
import type { MarkerBits } from './bits.js';
import type { SheetLayout } from './layout.js';

/** One black rectangle on the sheet, millimetres. Both renderers draw exactly these. */
export interface SheetRect {
  xMm: number;
  yMm: number;
  wMm: number;
  hMm: number;
}

/**
 * The black cells of every marker, merged along rows so the files stay small. Pure geometry, shared
 * by the SVG and the PDF so the two prints cannot disagree.
 */
export function sheetRects(layout: SheetLayout, bits: MarkerBits[]): SheetRect[] {
  const rects: SheetRect[] = [];
  for (const m of layout.markers) {
    const b = bits.find((k) => k.id === m.id);
    if (!b) throw new Error(`no bit pattern for marker ${m.id}`);
    const cell = layout.markerSizeMm / b.cells.length;
    b.cells.forEach((row, r) => {
      let c = 0;
      while (c < row.length) {
        if (!row[c]) { c++; continue; }
        const start = c;
        while (c < row.length && row[c]) c++;
        rects.push({ xMm: m.xMm + start * cell, yMm: m.yMm + r * cell, wMm: (c - start) * cell, hMm: cell });
      }
    });
  }
  return rects;
}

function captions(layout: SheetLayout): { title: string; hint: string } {
  return {
    title: `Carcassonne Companion calibration sheet ${layout.name}`,
    hint: `Print at 100 % (no fit-to-page). The bar below must measure ${layout.scaleBarMm} mm. Lay the sheet flat on the table.`,
  };
}

function scaleBar(layout: SheetLayout): SheetRect {
  return { xMm: (layout.paper.widthMm - layout.scaleBarMm) / 2, yMm: layout.paper.heightMm - 14, wMm: layout.scaleBarMm, hMm: 3 };
}

const fmt = (v: number): string => Number(v.toFixed(4)).toString();

export function sheetSvg(layout: SheetLayout, bits: MarkerBits[]): string {
  const { widthMm: w, heightMm: h } = layout.paper;
  const rect = (r: SheetRect): string =>
    `<rect x="${fmt(r.xMm)}" y="${fmt(r.yMm)}" width="${fmt(r.wMm)}" height="${fmt(r.hMm)}"/>`;
  const { title, hint } = captions(layout);
  const lastRow = Math.max(...layout.markers.map((m) => m.yMm)) + layout.markerSizeMm;
  const ids = layout.markers
    .map((m) => `<text x="${fmt(m.xMm)}" y="${fmt(m.yMm + layout.markerSizeMm + 4)}">${m.id}</text>`)
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}mm" height="${h}mm" viewBox="0 0 ${w} ${h}">`,
    `<rect x="0" y="0" width="${w}" height="${h}" fill="#fff"/>`,
    `<g fill="#000" shape-rendering="crispEdges">${sheetRects(layout, bits).map(rect).join('')}${rect(scaleBar(layout))}</g>`,
    `<g font-family="Helvetica, Arial, sans-serif" font-size="3" fill="#555">${ids}`,
    `<text x="${w / 2}" y="${fmt(lastRow + 12)}" text-anchor="middle" font-size="4.5">${title}</text>`,
    `<text x="${w / 2}" y="${fmt(lastRow + 18)}" text-anchor="middle">${hint}</text></g>`,
    '</svg>',
  ].join('\n');
}

const PT_PER_MM = 72 / 25.4;

/** The same sheet as a one-page PDF (pdfkit), page size equal to the paper size. */
export function sheetPdf(layout: SheetLayout, bits: MarkerBits[], options: { compress?: boolean } = {}): Promise<Buffer> {
  const { widthMm: w, heightMm: h } = layout.paper;
  const doc = new PDFDocument({ size: [w * PT_PER_MM, h * PT_PER_MM], margin: 0, compress: options.compress ?? true, info: { Title: captions(layout).title } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const r of [...sheetRects(layout, bits), scaleBar(layout)])
    doc.rect(r.xMm * PT_PER_MM, r.yMm * PT_PER_MM, r.wMm * PT_PER_MM, r.hMm * PT_PER_MM);
  doc.fill('#000000');
  const { title, hint } = captions(layout);
  const lastRow = Math.max(...layout.markers.map((m) => m.yMm)) + layout.markerSizeMm;
  doc.fillColor('#555555').font('Helvetica').fontSize(3 * PT_PER_MM);
  for (const m of layout.markers) doc.text(String(m.id), m.xMm * PT_PER_MM, (m.yMm + layout.markerSizeMm + 1) * PT_PER_MM, { lineBreak: false });
  doc.fontSize(4.5 * PT_PER_MM).text(title, 0, (lastRow + 8) * PT_PER_MM, { width: w * PT_PER_MM, align: 'center' });
  doc.fontSize(3 * PT_PER_MM).text(hint, 10 * PT_PER_MM, (lastRow + 15) * PT_PER_MM, { width: (w - 20) * PT_PER_MM, align: 'center' });
  doc.end();
  return done;
}
