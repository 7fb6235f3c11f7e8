/** Builds a synthesizer world (tile faces, sprites) by rasterising the procedural renderer with sharp. */
import type { TileType } from '../../engine/catalog/types.js';
import { layoutTile } from '../render/layout.js';
import { PIECE_COLORS, pieceSvg, type PieceKind } from '../render/pieces.js';
import { pick, type Rng } from '../render/random.js';
import { rasterise } from '../render/rasterise.js';
import type { ArtStyle } from '../render/styles.js';
import { tileSvg } from '../render/svg.js';
import type { Rgba } from './image.js';
import type { SynthWorld, TileFace } from './crop.js';

export const FACE_PX = 96;

/** Every tile in every style and variant; `vary` draws varied geometry and styles (training only). */
export async function renderFaces(
  tiles: readonly TileType[],
  styles: readonly ArtStyle[],
  variants: readonly number[],
  { vary = false, movePennants = true, varyMarks = false, paint = false }: { vary?: boolean; movePennants?: boolean; varyMarks?: boolean; paint?: boolean } = {},
): Promise<TileFace[]> {
  const faces: TileFace[] = [];
  for (let ti = 0; ti < tiles.length; ti++)
    for (let si = 0; si < styles.length; si++)
      for (const v of variants) {
        const svg = tileSvg(tiles[ti]!, styles[si]!, { variant: v * 7919 + si * 104729 + ti, vary, movePennants, varyMarks, paint });
        faces.push({ image: await rasterise(svg, FACE_PX), tileIndex: ti, baseQ: 0 });
      }
  return faces;
}

export async function renderSprites(): Promise<Rgba[][]> {
  const kinds: PieceKind[] = ['meeple', 'big', 'abbot'];
  const out: Rgba[][] = [];
  for (const k of kinds) {
    const row: Rgba[] = [];
    for (const c of PIECE_COLORS) row.push(await rasterise(pieceSvg(k, c), 40));
    out.push(row);
  }
  return out;
}

/** A world whose centre tiles come from `centres` and whose neighbours come from `neighbours`. */
export function makeWorld(
  tiles: readonly TileType[],
  sprites: Rgba[][],
  centres: readonly TileFace[],
  neighbours: readonly TileFace[] = centres,
): SynthWorld {
  return {
    tiles,
    layouts: tiles.map((t) => layoutTile(t)),
    sprites,
    centreFace: (r: Rng) => pick(r, centres),
    neighbourFace: (r: Rng) => pick(r, neighbours),
  };
}
