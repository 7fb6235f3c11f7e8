/**
 * Enrollment: the table registers its own printed tiles from camera crops, and recognition also
 * matches against these exemplars through the model's embedding. Exemplars are plain data (JSON) the
 * app stores; a crop enrolled once is stored at all four quarter turns, since turning a rectified
 * crop is exact.
 */
import type { Rotation } from '../engine/geometry/segments.js';
import { fail, ok, type Result } from '../engine/result.js';
import { appearanceSimilarity } from './appearance.js';
import type { CropInput, TileRecognizer } from './runner.js';
import { turnRgb } from './turn.js';

export interface Exemplar {
  readonly tileId: string;
  /** Rotation of the tile in this exemplar's crop frame. */
  readonly rot: Rotation;
  readonly embedding: readonly number[];
  /** The crop's appearance descriptor (appearance.ts); absent in exemplars saved before it existed. */
  readonly appearance?: readonly number[];
}

export class Enrollment {
  private readonly byClass = new Map<string, Exemplar[]>();

  constructor(readonly exemplars: Exemplar[] = []) {
    for (const e of exemplars) this.index(e);
  }

  private index(e: Exemplar): void {
    const key = `${e.tileId}@${e.rot}`;
    const list = this.byClass.get(key) ?? [];
    list.push(e);
    this.byClass.set(key, list);
  }

  add(...es: Exemplar[]): void {
    for (const e of es) {
      this.exemplars.push(e);
      this.index(e);
    }
  }

  /** The tile types with at least one exemplar. */
  tileIds(): string[] {
    return [...new Set(this.exemplars.map((e) => e.tileId))];
  }

  get size(): number {
    return this.exemplars.length;
  }

  hasTile(tileId: string): boolean {
    return this.byClass.has(`${tileId}@0`) || this.byClass.has(`${tileId}@90`) || this.byClass.has(`${tileId}@180`) || this.byClass.has(`${tileId}@270`);
  }

  /** Best cosine similarity between `embedding` and the exemplars of (tile, rot), or null if none. */
  similarity(embedding: ArrayLike<number>, tileId: string, rot: Rotation): number | null {
    const list = this.byClass.get(`${tileId}@${rot}`);
    if (!list) return null;
    let best = -Infinity;
    for (const e of list) {
      let s = 0;
      for (let i = 0; i < e.embedding.length; i++) s += e.embedding[i]! * embedding[i]!;
      best = Math.max(best, s);
    }
    return best;
  }

  /** Best appearance match (normalised cross-correlation) with the exemplars of (tile, rot), or null if none has one. */
  appearance(descriptor: ArrayLike<number>, tileId: string, rot: Rotation): number | null {
    return this.closest(descriptor, tileId, rot)?.similarity ?? null;
  }

  /** The exemplar of (tile, rot) whose appearance matches the descriptor best, with that match. */
  closest(descriptor: ArrayLike<number>, tileId: string, rot: Rotation): { exemplar: Exemplar & { appearance: readonly number[] }; similarity: number } | null {
    const list = this.byClass.get(`${tileId}@${rot}`);
    let best: { exemplar: Exemplar & { appearance: readonly number[] }; similarity: number } | null = null;
    for (const e of list ?? []) {
      if (!e.appearance) continue;
      const s = appearanceSimilarity(descriptor, e.appearance);
      if (s !== null && (best === null || s > best.similarity)) best = { exemplar: e as Exemplar & { appearance: readonly number[] }, similarity: s };
    }
    return best;
  }

  toJSON(): Exemplar[] {
    return this.exemplars;
  }

  static fromJSON(data: unknown): Enrollment {
    if (!Array.isArray(data)) throw new Error('enrollment data must be an array of exemplars');
    data.forEach((e, i) => {
      const numbers = (v: unknown) => Array.isArray(v) && v.every((x: unknown) => typeof x === 'number' && Number.isFinite(x));
      const ok = e && typeof e.tileId === 'string' && [0, 90, 180, 270].includes(e.rot) && numbers(e.embedding) && (e.appearance === undefined || numbers(e.appearance));
      if (!ok) throw new Error(`enrollment exemplar ${i} needs tileId, rot (0/90/180/270), a numeric embedding and, if given, a numeric appearance`);
    });
    return new Enrollment(data as Exemplar[]);
  }
}


/**
 * Exemplars for one crop of a known tile at a known rotation (four, one per quarter turn). A tile the
 * model has no class for (one the table described in the tile editor) is refused unless
 * `newTile` says so: its exemplars are then the only evidence for it.
 */
export async function exemplarsFromCrop(recognizer: TileRecognizer, crop: CropInput, tileId: string, rot: Rotation, options: { newTile?: boolean } = {}): Promise<Result<Exemplar[]>> {
  if (!options.newTile && !recognizer.info.tiles.includes(tileId)) return fail(`cannot enroll ${tileId}: it is not a tile the model knows`);
  const prepared = await recognizer.prepare(crop, `enrollment crop for ${tileId}`);
  if (!prepared.ok) return prepared;
  const S = recognizer.size;
  const turned = [0, 1, 2, 3].map((q) => turnRgb(prepared.value, S, q));
  // Only the embedding and appearance are kept, and those come from the crop as given: one view.
  const readings = await recognizer.readPrepared(turned, 1);
  const round = (xs: Float32Array) => Array.from(xs, (v) => Math.round(v * 1e5) / 1e5);
  // The appearance holds small scale factors too: keep significant digits, not decimals.
  const precise = (xs: Float32Array) => Array.from(xs, (v) => Number(v.toPrecision(6)));
  return ok(readings.map((r, q) => ({ tileId, rot: (((rot / 90 + q) % 4) * 90) as Rotation, embedding: round(r.embedding), appearance: precise(r.appearance) })));
}
