/**
 * First-edition prints of tiles the catalog does not have (models/train/print/c1-jcz-more: 214
 * tiles of 25 other expansions, each labelled with its edge terrains only). In training they stand
 * in for a share of the crops' tiles, centre and neighbours alike, under the same print looks as the
 * catalog's scans: more of the print for the trunk and the edge-terrain head to learn from. A crop
 * whose cell holds one teaches presence, edges and figures, never a type (train.py leaves the type
 * loss out for a tile index past the catalog's).
 *
 * Each gets a stand-in tile type (its edges, one feature per run of equal edge terrain) so that the
 * crop synthesizer can label its segments and stand a figure on it. Training material only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FeatureDef, Terrain, TileType } from '../../engine/catalog/types.js';
import { segmentPoint, type TileLayout } from '../render/layout.js';
import type { TileFace } from './crop.js';
import { PRINT_DIR, printFaces, type PrintFaceOptions, type PrintScan } from './print-faces.js';
import { FACE_PX } from './world.js';

export const FOREIGN_SET = 'c1-jcz-more';

interface ForeignEntry {
  readonly file: string;
  readonly jczId: string;
  readonly segments12: readonly Terrain[];
  readonly rotation: number;
}

export interface ForeignPrints {
  /** Stand-in tile types, to be placed after the catalog's (their indices start at `firstIndex`). */
  readonly tiles: readonly TileType[];
  /** Their layouts: only where a figure stands on each segment is known. */
  readonly layouts: readonly TileLayout[];
  /** Print looks of each, by stand-in index (0 = `firstIndex`). */
  readonly faces: readonly TileFace[];
}

/** Runs of equal terrain around the tile (segments 0..11 clockwise from the north side's left), as features. */
export function featuresFromEdges(segments: readonly Terrain[]): FeatureDef[] {
  const start = segments.findIndex((t, i) => t !== segments[(i + 11) % 12]);
  const feature = (kind: Terrain, segs: number[], k: number): FeatureDef => ({ id: `${kind}${k}`, kind, segments: segs, pennants: 0, inn: false, cathedral: false, adjacentCities: [] });
  if (start < 0) return [feature(segments[0]!, Array.from({ length: 12 }, (_, i) => i), 0)];
  const out: FeatureDef[] = [];
  let run: number[] = [];
  for (let k = 0; k < 12; k++) {
    const i = (start + k) % 12;
    if (run.length > 0 && segments[i] !== segments[run[0]!]) {
      out.push(feature(segments[run[0]!]!, run, out.length));
      run = [];
    }
    run.push(i);
  }
  out.push(feature(segments[run[0]!]!, run, out.length));
  return out;
}

export async function loadForeignPrints(firstIndex: number, look: PrintFaceOptions, dir = join(PRINT_DIR, FOREIGN_SET)): Promise<ForeignPrints> {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ForeignEntry[];
  const tiles: TileType[] = [];
  const scans: PrintScan[] = [];
  for (const e of manifest) {
    if (e.rotation !== 0) throw new Error(`${FOREIGN_SET}/manifest.json: ${e.file} has rotation ${e.rotation}; the loader expects 0 (segments12 describe the image as it is)`);
    const tileIndex = tiles.length;
    tiles.push({ id: `foreign:${e.jczId}`, expansion: 'base', name: e.jczId, segments: e.segments12, features: featuresFromEdges(e.segments12), counts: {}, riverSpring: false, riverLake: false, provisional: true });
    const face = await sharp(join(dir, e.file)).resize(FACE_PX, FACE_PX, { fit: 'fill' }).removeAlpha().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    scans.push({ tileId: tiles[tileIndex]!.id, file: e.file, set: FOREIGN_SET, tileIndex, baseQ: 0, image: { width: face.info.width, height: face.info.height, data: new Uint8Array(face.data) } });
  }
  // Print looks as the catalog's scans get them; none of these has a garden twin to make.
  const byTile = await printFaces(tiles, scans, look);
  const faces = byTile.flatMap((fs) => fs.map((f) => ({ ...f, tileIndex: f.tileIndex + firstIndex })));
  // Where a figure stands on each segment, 15 units in from the edge, and at the centre: all the synthesizer asks of a layout.
  const spots = [...Array.from({ length: 12 }, (_, i) => segmentPoint(i, 15)), [50, 50] as const];
  const layouts = tiles.map(() => ({ cities: [], paths: [], interiors: [], junction: null, spring: null, lake: null, fieldWalls: [], meepleSpots: spots }) as TileLayout);
  return { tiles, layouts, faces };
}
