/**
 * The table's enrolled exemplars for recognition: every crop stored with a tile (the tile editor
 * stores the crop a tile was described on) read through the model into embeddings. Crops are stored
 * as images, not embeddings, so that a retrained model re-enrolls them from the same pictures.
 */
import type { Rotation } from '../../../engine/geometry/segments.js';
import { createHash } from 'node:crypto';
import type { Result } from '../../../engine/result.js';
import { Enrollment, exemplarsFromCrop, type Exemplar } from '../../../models/enroll.js';
import type { TileRecognizer } from '../../../models/runner.js';
import sharp from 'sharp';
import type { TilePicture } from '../../../models/track/templates.js';
import type { Store } from '../store/store.js';

export interface EnrolledFromStore {
  readonly enrollment: Enrollment;
  /** Stored crops that could not be read, each named (the rest are still enrolled). */
  readonly problems: readonly string[];
}

/**
 * `cache`: each picture's exemplars by its tile, turn and bytes, kept by a caller that enrols the same
 * store again and again (the photo reader): a picture is read through the model once.
 */
export async function enrollmentFromStore(store: Store, recognizer: TileRecognizer, cache?: Map<string, Result<Exemplar[]>>): Promise<EnrolledFromStore> {
  const enrollment = new Enrollment();
  const problems: string[] = [];
  const read = async (tileId: string, rot: Rotation, image: Uint8Array): Promise<Result<Exemplar[]>> => {
    const key = cache && createHash('sha1').update(`${tileId}@${rot}:`).update(image).digest('hex');
    const known = key ? cache!.get(key) : undefined;
    if (known) return known;
    const r = await exemplarsFromCrop(recognizer, image, tileId, rot, { newTile: !recognizer.info.tiles.includes(tileId) });
    if (key) cache!.set(key, r);
    return r;
  };
  for (const e of store.exemplars()) {
    const r = await read(e.tileId, e.rot as Rotation, new Uint8Array(e.image));
    if (r.ok) enrollment.add(...r.value);
    else problems.push(`exemplar ${e.id} (${e.tileId}): ${r.reason}`);
  }
  // Tiles the table taught before a game: every copy an exemplar (a second copy, a second exemplar).
  for (const t of store.taughtTiles()) {
    const r = await read(t.tileId, t.rot, new Uint8Array(t.image));
    if (r.ok) enrollment.add(...r.value);
    else problems.push(`taught picture ${t.id} (${t.tileId}): ${r.reason}`);
  }
  return { enrollment, problems };
}

/**
 * The source of a picture cut from a finished game's final board (camera service `pictureBoard`):
 * cut where its neighbours say the tile lies, the places of figures standing on it transparent.
 * Only these are templates; a picture the table picked mid-game may show a figure the camera had
 * not read yet.
 */
export const BOARD_PICTURE_SOURCE = 'camera: the final board of a game';

/** Tile types the camera reads by the table's own picture: taught (issue 30) or from a board. */
export function picturedTypes(store: Store): Set<string> {
  const out = store.taughtTypeIds();
  for (const id of store.exemplarTypeIds(BOARD_PICTURE_SOURCE)) out.add(id);
  return out;
}

/**
 * The stored pictures as the tracker's templates (models/track/templates.ts `usePicture`, which keeps
 * a type's first): the tiles the table taught first (laid loose and whole, nothing on them, each
 * confirmed by the table), then the board pictures; decoded to RGB; one that is not a square image is
 * named and left out.
 */
export async function picturesFromStore(store: Store): Promise<{ pictures: TilePicture[]; problems: string[] }> {
  const pictures: TilePicture[] = [];
  const problems: string[] = [];
  const taught = store.taughtTiles().map((t) => ({ id: t.id, what: 'taught picture', tileId: t.tileId, rot: t.rot, image: t.image }));
  const board = store.exemplars().filter((e) => e.source === BOARD_PICTURE_SOURCE).map((e) => ({ id: e.id, what: 'exemplar', tileId: e.tileId, rot: e.rot, image: e.image }));
  for (const e of [...taught, ...board]) {
    try {
      const { data, info } = await sharp(new Uint8Array(e.image)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      if (info.width !== info.height) {
        problems.push(`${e.what} ${e.id} (${e.tileId}): ${info.width}×${info.height} px is not a square cell picture`);
        continue;
      }
      // Transparent pixels are where figures stood: left out of the template.
      const n = info.width * info.height;
      const rgb = new Uint8Array(n * 3);
      const alpha = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        rgb[i * 3] = data[i * 4]!;
        rgb[i * 3 + 1] = data[i * 4 + 1]!;
        rgb[i * 3 + 2] = data[i * 4 + 2]!;
        alpha[i] = data[i * 4 + 3]! < 128 ? 0 : 255;
      }
      pictures.push({ tileId: e.tileId, rot: e.rot as Rotation, width: info.width, height: info.height, data: rgb, alpha });
    } catch (err) {
      problems.push(`${e.what} ${e.id} (${e.tileId}): ${(err as Error).message}`);
    }
  }
  return { pictures, problems };
}
