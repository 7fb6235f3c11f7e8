/** A printed face drawn into a cell picture as the tracker cuts one: the cell and a tenth of the pitch around. */
import { PITCH_MM, TILE_MM } from '../../../models/scene/render.js';
import type { Rgba } from '../../../models/synth/image.js';
import { PICTURE_MARGIN } from '../../../models/track/templates.js';

/** `P`² RGB pixels of `face` turned q quarter turns clockwise, the gap around it grey. */
export function cellPicture(face: Rgba, q: number, P: number): Uint8Array {
  const data = new Uint8Array(P * P * 3).fill(90);
  const span = (PITCH_MM * (1 + 2 * PICTURE_MARGIN)) / TILE_MM;
  for (let v = 0; v < P; v++)
    for (let u = 0; u < P; u++) {
      let x = ((u + 0.5) / P - 0.5) * span, y = ((v + 0.5) / P - 0.5) * span;
      for (let k = 0; k < q; k++) [x, y] = [y, -x];
      if (Math.abs(x) >= 0.5 || Math.abs(y) >= 0.5) continue;
      const fx = Math.floor((x + 0.5) * face.width), fy = Math.floor((y + 0.5) * face.height);
      for (let c = 0; c < 3; c++) data[(v * P + u) * 3 + c] = face.data[(fy * face.width + fx) * 4 + c]!;
    }
  return data;
}
