/** A photo-like image of a first-edition scan (c1-jcz, tuning material) as bench:photos draws one: the tile's size within `band` drawn from the seed. */
import { join } from 'node:path';
import sharp from 'sharp';
import { makePhoto } from '../../../models/photo/synthetic.js';

export async function c1Photo(file: string, seed: number, band: readonly [number, number], handProb = 0.25) {
  const { data, info } = await sharp(join(import.meta.dirname, '../../../models/train/print/c1-jcz', file)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const u = ((seed * 2654435761) >>> 0) / 4294967296;
  return makePhoto({ face: { width: info.width, height: info.height, data: new Uint8Array(data) }, seed, size: band[0] + (band[1] - band[0]) * u, handProb });
}
