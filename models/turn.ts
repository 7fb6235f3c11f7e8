/** Turns square S×S pixels of `channels` bytes each clockwise by q quarter turns. */
export function turnPixels(px: Uint8Array, S: number, channels: number, q: number): Uint8Array {
  if (((q % 4) + 4) % 4 === 0) return px;
  const from = turnSourceIndex(S, q);
  const out = new Uint8Array(px.length);
  for (let i = 0; i < from.length; i++) {
    const s = from[i]! * channels;
    const d = i * channels;
    for (let c = 0; c < channels; c++) out[d + c] = px[s + c]!;
  }
  return out;
}

/** Turns S×S RGB bytes clockwise by q quarter turns. */
export function turnRgb(px: Uint8Array, S: number, q: number): Uint8Array {
  return turnPixels(px, S, 3, q);
}

const sourceIndexCache = new Map<string, Int32Array>();

/**
 * For a square S×S image turned clockwise by q quarter turns, the source pixel index of each
 * destination pixel (cached per size and turn): turnPixels copies through it, and a caller can
 * turn pixels while it converts them instead of copying them first.
 */
export function turnSourceIndex(S: number, q: number): Int32Array {
  const n = ((q % 4) + 4) % 4;
  const key = `${S}:${n}`;
  let table = sourceIndexCache.get(key);
  if (!table) {
    table = new Int32Array(S * S);
    for (let y = 0; y < S; y++)
      for (let x = 0; x < S; x++) {
        let sx = x;
        let sy = y;
        // Destination (x,y) shows the source point turned back counter-clockwise n times.
        for (let k = 0; k < n; k++) {
          const t = sx;
          sx = sy;
          sy = S - 1 - t;
        }
        table[y * S + x] = sy * S + sx;
      }
    sourceIndexCache.set(key, table);
  }
  return table;
}
