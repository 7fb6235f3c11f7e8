/** Writes the printable calibration sheets (SVG + PDF) and their layouts (JSON) into a folder. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCv } from '../calibration/cv.js';
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
console.log(`written to ${out}`);
