/**
 * The board's tile pictures, drawn by the project's tile renderer (models/render, the same drawings
 * recognition is trained on) from what the snapshot says of each laid tile. The snapshot gives the
 * tile in board frame (its features already turned), so it is drawn unturned. Each picture is an
 * SVG data URL, made once per tile shape and look and cached: a drawing has hundreds of strokes, and
 * as an <image> the browser rasterises it once instead of laying out every stroke on each update.
 */
import type { TileView } from '../../../electron/contract/snapshot.js';
import type { Terrain, TileType } from '../../../engine/catalog/types.js';
import { layoutTile, type TileLayout } from '../../../models/render/layout.js';
import { TRAIN_STYLES } from '../../../models/render/styles.js';
import { tileSvg } from '../../../models/render/svg.js';

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
  return url;
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
