/**
 * The services' photo reader: the committed recognition model, loaded on first use (a table that
 * never reads a photo never pays for it), and the same reading as `npm run read-tile` — against the
 * table's own pictures of its tiles where the store has them (taught, answered in the camera's
 * picker, the tile editor's crops), as the tracker reads a cell.
 */
import { existsSync } from 'node:fs';
import { TileCatalog } from '../../../engine/catalog/registry.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import type { Exemplar } from '../../../models/enroll.js';
import { PHOTO_EXPANSIONS, photoCandidates, readTilePhoto, type PhotoExpansion } from '../../../models/photo/read.js';
import { DEFAULT_MODEL, TileRecognizer } from '../../../models/runner.js';
import type { TileType } from '../../../engine/catalog/types.js';
import type { Photo, PhotoReadingView, PhotoReadOptions, PhotoReadView } from '../../contract/photos.js';
import type { Store } from '../store/store.js';
import { enrollmentFromStore } from './enrolled.js';

/** Expansions whose tiles the model never learnt: read from a photo only through the table's pictures of them. */
const UNLEARNT_EXPANSIONS: ReadonlySet<string> = new Set(['jousts-crests', 'siege-defense']);

export class PhotoReader {
  private recognizer: Promise<TileRecognizer> | null = null;
  private readonly catalog = TileCatalog.classic();
  /** Each stored picture read through the model once, by its tile, turn and bytes (`enrollmentFromStore`). */
  private readonly exemplars = new Map<string, Result<Exemplar[]>>();

  constructor(private readonly modelPath: string = DEFAULT_MODEL) {}

  /**
   * Reads one photo. `fallback` is the edition and expansions of the game in progress, used where
   * the options name none; `store`, the table's pictures of its tiles to read it against; `catalog`,
   * the tiles as the table plays them (the game's, or what new games play with): its 2025 tiles are
   * read through the table's pictures of them (`PhotoReadView.picturedOnly`) when the options name no
   * expansions. `only`: the tile types that may lie at the cell the camera asks about (the photo
   * answers that question), the only candidates unless none may.
   */
  async read(photo: Photo, options: PhotoReadOptions, fallback: { edition: 'C1' | 'C2' | 'C3'; expansions: readonly string[] } | null, store?: Store, catalog?: TileCatalog, only?: ReadonlySet<string>): Promise<Result<PhotoReadView>> {
    if (!existsSync(this.modelPath)) return fail('the recognition model is not installed');
    this.recognizer ??= TileRecognizer.load(this.modelPath, 1);
    const recognizer = await this.recognizer;
    const edition = options.edition ?? fallback?.edition ?? 'C2';
    const fromGame = fallback?.expansions.filter((e): e is PhotoExpansion => (PHOTO_EXPANSIONS as readonly string[]).includes(e));
    const expansions = options.expansions ?? (fromGame && fromGame.length > 0 ? fromGame : [...PHOTO_EXPANSIONS]);
    // A picture the model cannot read is left out here: the camera names it when its tracker enrols the
    // same pictures (tracker-host.ts).
    const enrollment = store ? (await enrollmentFromStore(store, recognizer, this.exemplars)).enrollment : null;
    const restrict = only && only.size > 0 ? only : undefined;
    const candidates = new Set(photoCandidates(edition, expansions, this.catalog).map((t) => t.id).filter((id) => !restrict || restrict.has(id)));
    // The tiles the model never learnt (the 2025 expansions'): those of the game's expansions, or of
    // every such expansion without a game; none where the options chose the expansions.
    const unlearntFrom = options.expansions ? [] : fallback ? fallback.expansions.filter((e) => UNLEARNT_EXPANSIONS.has(e)) : [...UNLEARNT_EXPANSIONS];
    const unlearnt = catalog ? unlearntFrom.flatMap((e) => catalog.ofExpansion(e)).filter((t) => !recognizer.info.tiles.includes(t.id)) : [];
    const bytes = new Uint8Array(Buffer.from(photo.base64, 'base64'));
    const r = await readTilePhoto(recognizer, bytes, { edition, expansions, ...(options.scan ? { scan: true } : {}), ...(enrollment ? { enrollment } : {}), unlearnt, ...(restrict ? { only: restrict } : {}) });
    if (!r.ok) return fail(`not read: ${r.reason}`);
    const named = (id: string) => this.catalog.get(id) ?? catalog?.get(id);
    const view = (t: TileType, rotation: PhotoReadingView['rotation'], confidence: number): PhotoReadingView => ({ tileId: t.id, rotation, confidence, name: t.name, segments: t.segments, features: t.features });
    // The 2025 tiles (all in `catalog` when there are any) showing the best reading's edges at some turn.
    const best = r.value.readings[0]!;
    const edges = (id: string, q: number) => catalog!.view(id, q).terrain.join();
    const shown = catalog?.has(best.tileId) ? edges(best.tileId, best.rotation / 90) : null;
    const lookAlikes = unlearnt
      .filter((t) => shown !== null && !enrollment?.hasTile(t.id) && (!restrict || restrict.has(t.id)))
      .flatMap((t) => {
        const q = [0, 1, 2, 3].find((k) => edges(t.id, k) === shown);
        return q === undefined ? [] : [view(t, (q * 90) as PhotoReadingView['rotation'], 0)];
      });
    return ok({
      readings: r.value.readings.map((x) => view(named(x.tileId)!, x.rotation, x.confidence)),
      cropPng: Buffer.from(r.value.cropPng).toString('base64'),
      corners: r.value.corners?.map((p) => [p.x, p.y] as const) ?? null,
      edition,
      expansions,
      picturedTypes: enrollment ? enrollment.tileIds().filter((id) => candidates.has(id)).length : 0,
      fitting: only ? only.size : null,
      picturedOnly: unlearnt.length === 0 ? null : {
        expansions: unlearntFrom.filter((e) => unlearnt.some((t) => t.expansion === e)),
        pictured: unlearnt.filter((t) => enrollment?.hasTile(t.id)).length,
        of: unlearnt.length,
        lookAlikes,
      },
    });
  }
}
