export { A3_SHEET, A4_SHEET, SHEET_LAYOUTS, SheetLayoutSchema, markerCornersMm, type SheetLayout } from './layout.js';
export { markerBits, sheetBits, type MarkerBits } from './bits.js';
export { sheetPdf, sheetRects, sheetSvg, type SheetRect } from './render.js';
