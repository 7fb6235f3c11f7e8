/** Builds a synthesizer world (tile faces, sprites) by rasterising the procedural renderer with sharp. */
import type { TileType } from '../../engine/catalog/types.js';
import { layoutTile, type TileLayout } from '../render/layout.js';
import { PIECE_COLORS, pieceSvg, type PieceKind } from '../render/pieces.js';
import { mixSeed, pick, rng, type Rng } from '../render/random.js';
import { rasterise } from '../render/rasterise.js';
import type { ArtStyle } from '../render/styles.js';
import { tileSvg } from '../render/svg.js';
import type { Rgba } from './image.js';
import type { SynthWorld, TileFace } from './crop.js';
import { warpFace } from './warp.js';

export const FACE_PX = 96;
/** How far `warp` moves a face's interior, at most (≈ 2.3 mm on a 45 mm tile). */
const WARP_PX = 5;

/** The drawing variant (decorations, textures, colours) of tile `ti` in style `si` for variant number `v`. */
export const faceVariant = (v: number, si: number, ti: number): number => v * 7919 + si * 104729 + ti;

/**
 * Every tile in every style and variant; `vary` draws varied geometry and styles (training only),
 * `warp` bends each face through its own smooth displacement field (warp.ts; training only).
 */
export async function renderFaces(
  tiles: readonly TileType[],
  styles: readonly ArtStyle[],
  variants: readonly number[],
  { vary = false, movePennants = true, varyMarks = false, paint = false, warp = false }: { vary?: boolean; movePennants?: boolean; varyMarks?: boolean; paint?: boolean; warp?: boolean } = {},
): Promise<TileFace[]> {
  const faces: TileFace[] = [];
  for (let ti = 0; ti < tiles.length; ti++)
    for (let si = 0; si < styles.length; si++)
      for (const v of variants) {
        const variant = faceVariant(v, si, ti);
        const image = await rasterise(tileSvg(tiles[ti]!, styles[si]!, { variant, vary, movePennants, varyMarks, paint }), FACE_PX);
        faces.push({ image: warp ? warpFace(image, rng(mixSeed(variant, 0x3a7)), WARP_PX) : image, tileIndex: ti, baseQ: 0 });
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

/**
 * Printed faces mixed into a world: after a drawn face is picked, a printed face of the same tile
 * (`byTile[tileIndex]`, when it has any) stands in for it with probability `share`, so every tile
 * keeps its share of the crops.
 */
export interface PrintMix {
  readonly byTile: readonly (readonly TileFace[])[];
  readonly share: number;
}

/**
 * Prints of tiles the catalog does not have (foreign-prints.ts): with probability `share` one of
 * `faces` stands in for a tile; their stand-in types and layouts follow the catalog's in the world.
 */
export interface ForeignMix {
  readonly tiles: readonly TileType[];
  readonly layouts: readonly TileLayout[];
  readonly faces: readonly TileFace[];
  readonly share: number;
}

/**
 * A world whose centre tiles come from `centres` and whose neighbours come from `neighbours`, with
 * printed faces mixed into both when `print` is given, and other expansions' prints when `foreign`
 * is (without them no extra random draw is made, so the crops stay byte for byte what they were).
 */
export function makeWorld(
  tiles: readonly TileType[],
  sprites: Rgba[][],
  centres: readonly TileFace[],
  neighbours: readonly TileFace[] = centres,
  print?: PrintMix,
  foreign?: ForeignMix,
): SynthWorld {
  const catalogOnly = (faces: readonly TileFace[]) =>
    print
      ? (r: Rng) => {
          const drawn = pick(r, faces);
          const printed = print.byTile[drawn.tileIndex];
          return printed && printed.length > 0 && r() < print.share ? pick(r, printed) : drawn;
        }
      : (r: Rng) => pick(r, faces);
  const mixed = (faces: readonly TileFace[]) => {
    const fromCatalog = catalogOnly(faces);
    return foreign ? (r: Rng) => (r() < foreign.share ? pick(r, foreign.faces) : fromCatalog(r)) : fromCatalog;
  };
  return {
    tiles: foreign ? [...tiles, ...foreign.tiles] : tiles,
    layouts: [...tiles.map((t) => layoutTile(t)), ...(foreign ? foreign.layouts : [])],
    sprites,
    centreFace: mixed(centres),
    neighbourFace: mixed(neighbours),
  };
}
