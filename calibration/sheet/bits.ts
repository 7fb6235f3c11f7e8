import type { Cv } from '../cv.js';
import type { SheetLayout } from './layout.js';

/**
 * A marker's printed cells, border included: `cells[row][col]` is true where the cell is black.
 * The pattern comes from opencv's own dictionary (generateImageMarker at one pixel per cell), so
 * what we print is exactly what the detector looks for.
 */
export interface MarkerBits {
  id: number;
  cells: boolean[][];
}

export function markerBits(cv: Cv, dictionaryName: SheetLayout['dictionary'], id: number): MarkerBits {
  const dict = cv.getPredefinedDictionary(cv[dictionaryName]);
  const side = dict.markerSize + 2;
  const img = new cv.Mat();
  try {
    dict.generateImageMarker(id, side, img, 1);
    const cells: boolean[][] = [];
    for (let r = 0; r < side; r++) {
      const row: boolean[] = [];
      for (let c = 0; c < side; c++) row.push(img.ucharPtr(r, c)[0] < 128);
      cells.push(row);
    }
    return { id, cells };
  } finally {
    img.delete();
    dict.delete?.();
  }
}

export function sheetBits(cv: Cv, layout: SheetLayout): MarkerBits[] {
  return layout.markers.map((m) => markerBits(cv, layout.dictionary, m.id));
}
