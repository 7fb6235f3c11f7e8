/**
 * The printed second-edition scans (tests/fixtures/realart), for EVALUATION and ENROLLMENT only.
 * Training code must never import this module (models/train/ does not).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { TileFace } from '../synth/crop.js';
import { FACE_PX } from '../synth/world.js';
import { turnRgba, type Rgba } from '../synth/image.js';

export const REALART_DIR = fileURLToPath(new URL('../../tests/fixtures/realart/', import.meta.url));

interface ManifestEntry {
  file: string;
  id: string;
  rotation: number;
}

export interface RealFace extends TileFace {
  readonly tileId: string;
  readonly file: string;
}

/** Scans of tiles the model knows, each as a face with its rotation against the catalog. */
export async function loadRealFaces(tileIds: readonly string[], dir = REALART_DIR): Promise<RealFace[]> {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  const out: RealFace[] = [];
  for (const e of manifest) {
    const tileIndex = tileIds.indexOf(e.id);
    if (tileIndex < 0) continue;
    const { data, info } = await sharp(join(dir, e.file)).resize(FACE_PX, FACE_PX, { fit: 'fill' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    out.push({ tileId: e.id, file: e.file, tileIndex, baseQ: (e.rotation / 90) % 4, image: { width: info.width, height: info.height, data: new Uint8Array(data) } });
  }
  return out;
}

/**
 * One scan per tile type, turned into the catalog frame (the first scan of a type when there are
 * two), for drawing a table of printed tiles (models/scene/generate.ts `faces`).
 */
export async function realFacesByTile(tileIds: readonly string[], dir = REALART_DIR): Promise<Map<string, Rgba>> {
  const out = new Map<string, Rgba>();
  for (const f of await loadRealFaces(tileIds, dir)) if (!out.has(f.tileId)) out.set(f.tileId, turnRgba(f.image, (4 - f.baseQ) % 4));
  return out;
}
