/**
 * Placeholder tile drawing: each tile as simple SVG shapes made from the catalog's 12-segment data.
 *
 * SEAM: the project's procedural tile renderer (models/render/, issue 4) replaces this module. Keep
 * its interface — `tileShapes(tile)` giving SVG shapes in a 100×100 tile frame, already rotated —
 * or swap Board.svelte's <TileArt> for the real renderer's output; nothing else depends on it.
 */
import type { TileView } from '../../../electron/contract/snapshot.js';

export const TILE = 100;

export interface Shape {
  readonly kind: 'polygon' | 'line' | 'rect' | 'circle';
  readonly attrs: Record<string, string | number>;
}

const T = TILE / 3;
const C: [number, number] = [TILE / 2, TILE / 2];

/** The two outer corners of board-frame segment i (clockwise from the NW corner). */
function segmentEdge(i: number): [[number, number], [number, number]] {
  const side = Math.floor(i / 3);
  const k = i % 3;
  switch (side) {
    case 0:
      return [[k * T, 0], [(k + 1) * T, 0]];
    case 1:
      return [[TILE, k * T], [TILE, (k + 1) * T]];
    case 2:
      return [[TILE - k * T, TILE], [TILE - (k + 1) * T, TILE]];
    default:
      return [[0, TILE - k * T], [0, TILE - (k + 1) * T]];
  }
}

/** Where a figure on this segment (or interior feature) is drawn. */
export function spotOf(on: string): [number, number] {
  const names = ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'];
  const i = names.indexOf(on);
  if (i < 0) return C;
  const [a, b] = segmentEdge(i);
  // Two thirds of the way from the centre to the edge's middle.
  return [C[0] + ((a[0] + b[0]) / 2 - C[0]) * 0.62, C[1] + ((a[1] + b[1]) / 2 - C[1]) * 0.62];
}

const FILL = ['#8bc34a', '#8bc34a', '#c8a165', '#4fa3d9'];

export function tileShapes(tile: TileView): Shape[] {
  const out: Shape[] = [];
  for (let i = 0; i < 12; i++) {
    const [a, b] = segmentEdge(i);
    const code = tile.terrain[i] ?? 0;
    out.push({ kind: 'polygon', attrs: { points: `${C.join(',')} ${a.join(',')} ${b.join(',')}`, fill: FILL[code]!, stroke: FILL[code]!, 'stroke-width': 0.6 } });
  }
  for (let i = 0; i < 12; i++) {
    if (tile.terrain[i] !== 1) continue;
    const [a, b] = segmentEdge(i);
    out.push({ kind: 'line', attrs: { x1: C[0], y1: C[1], x2: (a[0] + b[0]) / 2, y2: (a[1] + b[1]) / 2, stroke: '#f4f1e8', 'stroke-width': 7, 'stroke-linecap': 'round' } });
  }
  for (const f of tile.features) {
    if (f.kind === 'cloister') out.push({ kind: 'rect', attrs: { x: 38, y: 38, width: 24, height: 24, fill: '#b5651d', stroke: '#5d3412', 'stroke-width': 2 } });
    else if (f.kind === 'garden') out.push({ kind: 'circle', attrs: { cx: 50, cy: 50, r: 12, fill: '#2e7d32', stroke: '#1b5e20', 'stroke-width': 2 } });
    else if (f.kind === 'tower') out.push({ kind: 'circle', attrs: { cx: 50, cy: 50, r: 10, fill: '#9e9e9e', stroke: '#424242', 'stroke-width': 2 } });
    if (f.kind === 'city' && f.pennants > 0) {
      const [x, y] = spotOf(f.segments.length ? ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'][f.segments[0]!]! : 'X');
      out.push({ kind: 'polygon', attrs: { points: `${x - 6},${y - 6} ${x + 6},${y - 6} ${x},${y + 6}`, fill: '#1565c0', stroke: '#fff', 'stroke-width': 1 } });
    }
  }
  return out;
}
