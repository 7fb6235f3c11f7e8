/** Turns S×S RGB bytes clockwise by q quarter turns. */
export function turnRgb(px: Uint8Array, S: number, q: number): Uint8Array {
  const n = ((q % 4) + 4) % 4;
  if (n === 0) return px;
  const out = new Uint8Array(px.length);
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++) {
      let sx = x;
      let sy = y;
      for (let k = 0; k < n; k++) {
        const t = sx;
        sx = sy;
        sy = S - 1 - t;
      }
      const s = (sy * S + sx) * 3;
      const d = (y * S + x) * 3;
      out[d] = px[s]!;
      out[d + 1] = px[s + 1]!;
      out[d + 2] = px[s + 2]!;
    }
  return out;
}
