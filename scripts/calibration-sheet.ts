/** Writes the printable calibration sheets (SVG + PDF) and their layouts (JSON) into a folder. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCv } from '../calibration/cv.js';
import PDFDocument from 'pdfkit';
import { encodePng } from '../calibration/frame.js';
import { CHARUCO_A4, charucoImage } from '../calibration/lens.js';
import { SHEET_LAYOUTS, sheetBits, sheetPdf, sheetSvg } from '../calibration/sheet/index.js';

const out = process.argv[2] ?? 'out/calibration-sheets';
const cv = await loadCv();
await mkdir(out, { recursive: true });
for (const layout of SHEET_LAYOUTS) {
  const bits = sheetBits(cv, layout);
  await writeFile(join(out, `${layout.name}.svg`), sheetSvg(layout, bits));
  await writeFile(join(out, `${layout.name}.pdf`), await sheetPdf(layout, bits));
  await writeFile(join(out, `${layout.name}.json`), JSON.stringify(layout, null, 2) + '\n');
  console.log(`${layout.name}: ${layout.markers.length} markers of ${layout.markerSizeMm} mm on ${layout.paper.widthMm}×${layout.paper.heightMm} mm`);
}
// The ChArUco board for lens calibration: opencv's own drawing, placed at its exact size on A4.
const spec = CHARUCO_A4;
const png = await encodePng(charucoImage(cv, spec, 12));
await writeFile(join(out, 'charuco-a4.png'), png);
const pt = 72 / 25.4;
const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 0 });
const chunks: Buffer[] = [];
doc.on('data', (c: Buffer) => chunks.push(c));
const done = new Promise<void>((r) => doc.on('end', () => r()));
const w = spec.squaresX * spec.squareMm, h = spec.squaresY * spec.squareMm;
doc.image(png, ((297 - w) / 2) * pt, ((210 - h) / 2) * pt, { width: w * pt, height: h * pt });
doc.fontSize(9).text(`ChArUco ${spec.squaresX}x${spec.squaresY}, squares ${spec.squareMm} mm, ${spec.dictionary}. Print at 100 %.`, 15 * pt, 8 * pt);
doc.end();
await done;
await writeFile(join(out, 'charuco-a4.pdf'), Buffer.concat(chunks));
console.log(`written to ${out}`);
