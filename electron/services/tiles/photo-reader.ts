/**
 * The services' photo reader: the committed recognition model, loaded on first use (a table that
 * never reads a photo never pays for it), and the same reading as `npm run read-tile`.
 */
import { existsSync } from 'node:fs';
import { TileCatalog } from '../../../engine/catalog/registry.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import { PHOTO_EXPANSIONS, readTilePhoto, type PhotoExpansion } from '../../../models/photo/read.js';
import { DEFAULT_MODEL, TileRecognizer } from '../../../models/runner.js';
import type { Photo, PhotoReadOptions, PhotoReadView } from '../../contract/photos.js';

export class PhotoReader {
  private recognizer: Promise<TileRecognizer> | null = null;
  private readonly catalog = TileCatalog.classic();

  constructor(private readonly modelPath: string = DEFAULT_MODEL) {}

  /**
   * Reads one photo. `fallback` is the edition and expansions of the game in progress, used where
   * the options name none.
   */
  async read(photo: Photo, options: PhotoReadOptions, fallback: { edition: 'C1' | 'C2' | 'C3'; expansions: readonly string[] } | null): Promise<Result<PhotoReadView>> {
    if (!existsSync(this.modelPath)) return fail('the recognition model is not installed');
    this.recognizer ??= TileRecognizer.load(this.modelPath, 1);
    const recognizer = await this.recognizer;
    const edition = options.edition ?? fallback?.edition ?? 'C2';
    const fromGame = fallback?.expansions.filter((e): e is PhotoExpansion => (PHOTO_EXPANSIONS as readonly string[]).includes(e));
    const expansions = options.expansions ?? (fromGame && fromGame.length > 0 ? fromGame : [...PHOTO_EXPANSIONS]);
    const bytes = new Uint8Array(Buffer.from(photo.base64, 'base64'));
    const r = await readTilePhoto(recognizer, bytes, { edition, expansions, ...(options.scan ? { scan: true } : {}) });
    if (!r.ok) return fail(`not read: ${r.reason}`);
    return ok({
      readings: r.value.readings.map((x) => {
        const t = this.catalog.get(x.tileId)!;
        return { ...x, name: t.name, segments: t.segments, features: t.features };
      }),
      cropPng: Buffer.from(r.value.cropPng).toString('base64'),
      corners: r.value.corners?.map((p) => [p.x, p.y] as const) ?? null,
      edition,
      expansions,
    });
  }
}
