/**
 * The board's tile pictures, drawn by the project's tile renderer (models/render, the same drawings
 * recognition is trained on) from what the snapshot says of each laid tile. The snapshot gives the
 * tile in board frame (its features already turned), so it is drawn unturned. Each picture is an
 * SVG data URL, made once per tile shape and look and cached, and shown as a bitmap once drawn
 * (bitmaps.ts): a drawing has hundreds of strokes, and the browser would raster every one of them
 * each time the board is painted.
 */
import type { TileView } from '../../../electron/contract/snapshot.js';
import type { Terrain, TileType } from '../../../engine/catalog/types.js';
import { layoutTile, type TileLayout } from '../../../models/render/layout.js';
import { TRAIN_STYLES } from '../../../models/render/styles.js';
import { tileSvg } from '../../../models/render/svg.js';
import { bitmapOf } from './bitmaps.js';

const TERRAINS: readonly Terrain[] = ['field', 'road', 'city', 'river'];
const STYLE = TRAIN_STYLES[0]!;
/** Looks per shape: enough that a row of the same tile does not look stamped. */
const LOOKS = 6;
const cache = new Map<string, string>();
const layouts = new Map<string, TileLayout>();

/** Board units per tile. */
export const TILE = 100;
const SEGMENTS = ['N0', 'N1', 'N2', 'E0', 'E1', 'E2', 'S0', 'S1', 'S2', 'W0', 'W1', 'W2'];

function shapeKey(t: TileView): string {
  return `${t.tile}|${t.terrain.join('')}|${t.features.map((f) => `${f.kind}:${f.segments.join('.')}:${f.pennants}${f.inn ? 'i' : ''}${f.cathedral ? 'c' : ''}`).join(',')}`;
}

/** The laid tile as the catalog type it shows in board frame. */
export function boardFrameTile(t: TileView): TileType {
  return {
    id: t.tile,
    expansion: 'base',
    name: t.tile,
    segments: t.terrain.map((k) => TERRAINS[k] ?? 'field'),
    features: t.features.map((f) => ({
      id: f.name,
      kind: f.kind as TileType['features'][number]['kind'],
      segments: [...f.segments],
      pennants: f.pennants,
      inn: f.inn,
      cathedral: f.cathedral,
      adjacentCities: [],
    })),
    counts: {},
    riverSpring: false,
    riverLake: t.lake,
    provisional: false,
  };
}

export function tileImage(t: TileView): string {
  const look = (((t.x * 7919) ^ (t.y * 104729)) >>> 0) % LOOKS;
  const key = `${shapeKey(t)}|${look}`;
  let url = cache.get(key);
  if (!url) {
    url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(tileSvg(boardFrameTile(t), STYLE, { variant: look + 1, size: 100 }))}`;
    if (cache.size > 2000) cache.clear();
    cache.set(key, url);
  }
  return bitmapOf(url);
}

/**
 * Where a figure standing on `on` (a board-frame segment such as `E1`, or an interior feature) is
 * drawn on its tile: the spot the renderer's layout gives that feature, so a figure stands on the
 * road or city as drawn. Without the tile, the middle.
 */
export function figureSpot(tile: TileView | undefined, on: string): readonly [number, number] {
  if (!tile) return [TILE / 2, TILE / 2];
  const key = shapeKey(tile);
  let layout = layouts.get(key);
  if (!layout) {
    layout = layoutTile(boardFrameTile(tile));
    if (layouts.size > 2000) layouts.clear();
    layouts.set(key, layout);
  }
  const i = SEGMENTS.indexOf(on);
  return layout.meepleSpots[i < 0 ? 12 : i]!;
}

/**
 * Multi-cell pieces drawn as what they are, over the renderer's ground (which draws their fields and
 * roads as on any tile, so a fortress or the tournament tile read as plain meadows): the tournament
 * tile as the lists (a striped pavilion, pennants and the jousting fence), a fortress cell as its
 * stone walls and keep. Null for an ordinary tile. The words for the piece are in the snapshot's
 * `tileNames`; this is only its look.
 */
export function pieceArt(t: TileView): string | null {
  const fortress = t.features.some((f) => f.kind === 'fortress');
  const tournament = /^JC-TOURNAMENT/.test(t.tile);
  if (!fortress && !tournament) return null;
  const key = `piece|${fortress ? 'fortress' : 'tournament'}`;
  let url = cache.get(key);
  if (url) return url;
  const svg = fortress
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="12" y="12" width="76" height="76" fill="#9e9e9e" stroke="#424242" stroke-width="3"/>` +
      [16, 34, 52, 70].map((x) => `<rect x="${x}" y="6" width="10" height="10" fill="#9e9e9e" stroke="#424242" stroke-width="2"/>`).join('') +
      `<rect x="36" y="34" width="28" height="36" fill="#bdbdbd" stroke="#424242" stroke-width="2.5"/>` +
      `<path d="M44 70 v-12 a6 6 0 0 1 12 0 v12 z" fill="#5d4037"/>` +
      [0, 1, 2, 3, 4].map((i) => `<line x1="12" y1="${24 + i * 14}" x2="88" y2="${24 + i * 14}" stroke="#757575" stroke-width="1"/>`).join('') +
      `</svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` +
      `<line x1="8" y1="70" x2="92" y2="70" stroke="#6d4c41" stroke-width="4"/>` +
      [12, 30, 48, 66, 84].map((x) => `<line x1="${x}" y1="62" x2="${x}" y2="76" stroke="#6d4c41" stroke-width="3"/>`).join('') +
      `<path d="M30 52 L50 22 L70 52 z" fill="#fff" stroke="#b71c1c" stroke-width="2"/>` +
      `<path d="M36 52 L50 22 L44 52 z M56 52 L50 22 L64 52 z" fill="#c62828"/>` +
      `<line x1="50" y1="22" x2="50" y2="10" stroke="#4e342e" stroke-width="2"/><path d="M50 10 l12 4 l-12 4 z" fill="#1565c0"/>` +
      `</svg>`;
  url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  cache.set(key, url);
  return url;
}
