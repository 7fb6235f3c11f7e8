/**
 * Runs the committed recognition model on rectified cell crops, in batches (onnxruntime-node, sharp).
 * Bad crops (corrupt, empty, wrong size) come back as results naming the crop and the problem; the
 * other crops of the batch are still read.
 */
import { readFileSync } from 'node:fs';
import { modelFile } from './model-files.js';
import * as ort from 'onnxruntime-node';
import sharp, { type Sharp } from 'sharp';
import type { Edition } from '../engine/catalog/types.js';
import { fail, ok, type Result } from '../engine/result.js';
import { appearanceOf } from './appearance.js';
import { turnSourceIndex } from './turn.js';

export interface ModelInfo {
  readonly name: string;
  readonly onnx: string;
  readonly input: {
    readonly name: string;
    readonly size: number;
    readonly normalisation: { readonly scale: number; readonly mean: readonly number[]; readonly std: readonly number[] };
  };
  readonly tiles: readonly string[];
  readonly symmetry: Readonly<Record<string, readonly number[]>>;
  readonly terrains: readonly string[];
  readonly meepleColours: readonly string[];
  /** The figure kinds the `meepleKind` head tells apart, where the model has one (the far camera's model). */
  readonly meepleKinds?: readonly string[];
  readonly catalog: { readonly file: string; readonly sha256: string };
  readonly data: { readonly seed: number };
  /** The printed editions whose scans the model was trained on (models/synth/print-faces.ts): where it knows the print. */
  readonly printEditions?: readonly Edition[];
  readonly measuredAccuracy: Readonly<Record<string, number | string>>;
  readonly date: string;
}

/** A crop as encoded bytes (PNG, JPEG, …) or as raw RGB/RGBA pixels. */
export type CropInput = Uint8Array | { readonly pixels: Uint8Array; readonly width: number; readonly height: number; readonly channels: 3 | 4 };

export interface CropReading {
  /** Probability that the cell holds a tile. */
  readonly present: number;
  /** Scores per class (tileIndex * 4 + quarter turns), before softmax. */
  readonly typeRot: Float32Array;
  /** Terrain probabilities per crop-frame segment: [12][4] flattened, terrains as in ModelInfo. */
  readonly segments: Float32Array;
  readonly meeple: number;
  /** Probabilities over ModelInfo.meepleColours. */
  readonly meepleColour: Float32Array;
  /** Probabilities over the 12 crop-frame segments and the interior (index 12). */
  readonly meepleSegment: Float32Array;
  /** Probabilities over `meepleKinds`, where the model has that head. */
  readonly meepleKind?: Float32Array;
  /** The kinds `meepleKind` tells apart: the reading model's ModelInfo.meepleKinds (with `meepleKind` only). */
  readonly meepleKinds?: readonly string[];
  /** Unit vector for enrollment matching. */
  readonly embedding: Float32Array;
  /** The crop's own pixels, small (appearance.ts), for matching enrolled exemplars of the table's art. */
  readonly appearance: Float32Array;
}

export const DEFAULT_MODEL = modelFile('tiles-v1.onnx');
/**
 * The far camera's model (`npm run train:far`): the same network trained only on crops drawn at
 * 18–32 px and JPEG-compressed at that scale, as a webcam compresses a frame (docs/recognition.md,
 * "The far camera's model"). The tracker reads with it only where the default model is not asked:
 * cells under 30 px on a print it learnt, where it leads.
 */
export const FAR_MODEL = modelFile('tiles-far.onnx');

/** Smallest side we accept: below this a 45 mm tile has too few pixels to tell pennants apart. */
export const MIN_CROP_PX = 24;
/** Rectified crops are square; allow a little rounding from the rectifier. */
const SQUARE_TOLERANCE = 0.03;

export function softmax(xs: ArrayLike<number>, from = 0, to = xs.length): Float32Array {
  return softmaxInto(xs, from, to, new Float32Array(to - from), 0);
}

/** softmax(xs[from..to)) written into out from index `at`; returns out. */
function softmaxInto(xs: ArrayLike<number>, from: number, to: number, out: Float32Array, at: number): Float32Array {
  let m = -Infinity;
  for (let i = from; i < to; i++) m = Math.max(m, xs[i]!);
  let s = 0;
  for (let i = from; i < to; i++) s += out[at + i - from] = Math.exp(xs[i]! - m);
  for (let i = at; i < at + to - from; i++) out[i]! /= s;
  return out;
}

/**
 * How many turned copies of each crop the model reads (test-time augmentation): 1 (the crop), 2 (and
 * its half turn) or 4 (every quarter turn). Two views read figures better (meeple presence 98.83 →
 * 99.13 %, colour 98.78 → 99.29 % on the benchmark) at twice the model's cost; docs/recognition.md.
 */
export type Views = 1 | 2 | 4;
export const DEFAULT_VIEWS: Views = 2;
const VIEW_TURNS: Record<Views, readonly number[]> = { 1: [0], 2: [0, 2], 4: [0, 1, 2, 3] };

/** A model's metadata (the JSON beside its ONNX file), without loading the network. */
export function readModelInfo(onnxPath: string): ModelInfo {
  const metaPath = onnxPath.replace(/\.onnx$/, '.json');
  try {
    return JSON.parse(readFileSync(metaPath, 'utf8')) as ModelInfo;
  } catch (e) {
    throw new Error(`recognition model metadata ${metaPath} could not be read: ${(e as Error).message}`);
  }
}

/** Raw outputs for one view of one crop (heads as the model gives them). */
interface ViewOutput {
  present: number;
  typeRot: Float32Array;
  segments: Float32Array;
  meeple: number;
  meepleColour: Float32Array;
  meepleSegment: Float32Array;
  meepleKind?: Float32Array;
  embedding: Float32Array;
}

export class TileRecognizer {
  /** Each class's tile symmetry (quarter turns), for merging turned views. */
  private readonly classSymmetry: readonly (readonly number[])[];
  /** The model's input value for each byte value, per channel (the normalisation as a lookup). */
  private readonly levels: readonly Float32Array[];
  /**
   * Input buffers to use again: a fresh 25 MB buffer per batch costs its page faults on first
   * write, about as much as filling it. Each run takes one (or makes one) and gives it back after,
   * so concurrent runs never share one.
   */
  private readonly spareInputs: ArrayBuffer[] = [];
  private static readonly SPARE_INPUTS = 2;
  /** The views behind each merged reading, so that a second look reads only the turns not yet read. */
  private readonly viewsOf = new WeakMap<CropReading, readonly { turn: number; out: ViewOutput }[]>();

  private constructor(
    readonly info: ModelInfo,
    private readonly session: ort.InferenceSession,
    readonly views: Views,
  ) {
    this.classSymmetry = info.tiles.map((id) => info.symmetry[id] ?? [0]);
    const { scale, mean, std } = info.input.normalisation;
    this.levels = [0, 1, 2].map((ch) => Float32Array.from({ length: 256 }, (_, v) => v * (scale / std[ch]!) + -mean[ch]! / std[ch]!));
  }

  static async load(onnxPath: string = DEFAULT_MODEL, threads = 2, views: Views = DEFAULT_VIEWS): Promise<TileRecognizer> {
    const info = readModelInfo(onnxPath);
    const session = await ort.InferenceSession.create(onnxPath, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      // The machine is shared (camera, display, engine): idle threads should sleep, not spin.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
    return new TileRecognizer(info, session, views);
  }

  get size(): number {
    return this.info.input.size;
  }

  /** Decodes, checks and resizes one crop to the model's input as RGB bytes. */
  async prepare(input: CropInput, where = 'crop'): Promise<Result<Uint8Array>> {
    const S = this.size;
    try {
      let img: Sharp;
      let width: number;
      let height: number;
      if (input instanceof Uint8Array) {
        if (input.length === 0) return fail(`${where}: the image is empty (0 bytes)`);
        img = sharp(input, { failOn: 'error' });
        const meta = await img.metadata().catch((e: Error) => {
          throw new Error(`the image is corrupt or not an image (${e.message})`);
        });
        width = meta.width ?? 0;
        height = meta.height ?? 0;
      } else {
        const { pixels, width: w, height: h, channels } = input;
        if (pixels.length === 0 || w === 0 || h === 0) return fail(`${where}: the image is empty (no pixels)`);
        if (pixels.length !== w * h * channels) {
          return fail(`${where}: ${pixels.length} bytes do not make a ${w}×${h} image with ${channels} channels (${w * h * channels} expected)`);
        }
        img = sharp(pixels, { raw: { width: w, height: h, channels } });
        width = w;
        height = h;
      }
      if (width < MIN_CROP_PX || height < MIN_CROP_PX) {
        return fail(`${where}: ${width}×${height} px is too small for a cell crop (at least ${MIN_CROP_PX}×${MIN_CROP_PX} px)`);
      }
      if (Math.abs(width - height) > SQUARE_TOLERANCE * Math.max(width, height)) {
        return fail(`${where}: ${width}×${height} px is not square; a rectified cell crop is square`);
      }
      const raw = await img.removeAlpha().resize(S, S, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
      if (raw.length !== S * S * 3) return fail(`${where}: decoding gave ${raw.length} bytes, expected ${S * S * 3}`);
      return ok(new Uint8Array(raw.buffer, raw.byteOffset, raw.length));
    } catch (e) {
      return fail(`${where}: the image is corrupt or unreadable (${(e as Error).message})`);
    }
  }

  /**
   * Reads crops already in model format (S×S RGB bytes each), in one batch. With several views each
   * crop is also read turned, and the views are merged in the crop's own frame: class and segment
   * indices turned back; class scores become the mean of the views' log-probabilities, a symmetric
   * tile's equivalent turns pooled first (the model may put a symmetric tile's mass on any of them);
   * the other heads' probabilities averaged. The embedding and appearance come from the crop as it
   * is, since enrolled exemplars are matched per rotation.
   */
  async readPrepared(crops: readonly Uint8Array[], views: Views = this.views): Promise<CropReading[]> {
    const S = this.size;
    const n = crops.length;
    if (n === 0) return [];
    crops.forEach((c, k) => {
      if (c.length !== S * S * 3) throw new Error(`crop ${k}: ${c.length} bytes, the model takes ${S}×${S} RGB (${S * S * 3} bytes)`);
    });
    const turns = VIEW_TURNS[views];
    const outputs = await this.run(turns.flatMap((turn) => crops.map((crop) => ({ crop, turn }))));
    return crops.map((crop, k) => this.reading(crop, turns.map((t, v) => ({ turn: t, out: outputs[v * n + k]! }))));
  }

  /**
   * Reads `crop` (the prepared crop `first` was read from) at the quarter turns `views` names that
   * `first` did not read, and merges them with the views already read: the same reading as
   * `readPrepared([crop], views)` at the cost of the missing views only.
   */
  async readMoreViews(crop: Uint8Array, first: CropReading, views: Views = 4): Promise<CropReading> {
    const had = this.viewsOf.get(first);
    if (!had) return (await this.readPrepared([crop], views))[0]!;
    const missing = VIEW_TURNS[views].filter((t) => !had.some((h) => h.turn === t));
    if (missing.length === 0) return first;
    const outputs = await this.run(missing.map((turn) => ({ crop, turn })));
    const all = [...had, ...missing.map((turn, k) => ({ turn, out: outputs[k]! }))].sort((a, b) => a.turn - b.turn);
    return this.reading(crop, all);
  }

  /**
   * One crop's reading from its views (the crop as it is first). The appearance descriptor is made
   * when first asked for (a copy of the crop is kept for it): only decoding against enrolled
   * exemplars uses it, and it costs about a seventh of a batched read (the tile-present checks of a
   * whole board never need it).
   */
  private reading(crop: Uint8Array, vs: readonly { turn: number; out: ViewOutput }[]): CropReading {
    const S = this.size;
    const base = vs[0]!.out;
    const merged = vs.length === 1 ? { ...base } : { ...this.merge(vs), embedding: base.embedding };
    const heads = merged.meepleKind && this.info.meepleKinds ? { ...merged, meepleKinds: this.info.meepleKinds } : merged;
    const pixels = crop.slice();
    let appearance: Float32Array | undefined;
    const reading = Object.defineProperty(heads, 'appearance', { enumerable: true, get: () => (appearance ??= appearanceOf(pixels, S)) }) as CropReading;
    this.viewsOf.set(reading, vs);
    return reading;
  }

  /** Averages turned views of one crop in the crop's frame. */
  private merge(vs: readonly { turn: number; out: ViewOutput }[]): Omit<CropReading, 'embedding' | 'appearance'> {
    const w = 1 / vs.length;
    const C = vs[0]!.out.typeRot.length;
    const typeLog = new Float64Array(C);
    const segments = new Float32Array(48);
    const meepleSegment = new Float32Array(13);
    const meepleColour = new Float32Array(vs[0]!.out.meepleColour.length);
    const meepleKind = vs[0]!.out.meepleKind && new Float32Array(vs[0]!.out.meepleKind.length);
    let present = 0;
    let meeple = 0;
    for (const { turn, out } of vs) {
      present += w * out.present;
      meeple += w * out.meeple;
      // A tile at quarter turn q in the crop is at q + turn in the turned view; segment i is at i + 3·turn.
      const p = softmax(out.typeRot);
      for (let ti = 0; ti < C / 4; ti++) {
        const sym = this.classSymmetry[ti] ?? [0];
        for (let q = 0; q < 4; q++) {
          let orbit = 0;
          for (const d of sym) orbit += p[ti * 4 + ((q + turn + d) % 4)]!;
          typeLog[ti * 4 + q] += w * Math.log(Math.max(orbit / sym.length, 1e-30));
        }
      }
      for (let i = 0; i < 12; i++) {
        const j = (i + 3 * turn) % 12;
        for (let t = 0; t < 4; t++) segments[i * 4 + t] += w * out.segments[j * 4 + t]!;
        meepleSegment[i] += w * out.meepleSegment[j]!;
      }
      meepleSegment[12] += w * out.meepleSegment[12]!;
      for (let c = 0; c < meepleColour.length; c++) meepleColour[c] += w * out.meepleColour[c]!;
      if (meepleKind) for (let c = 0; c < meepleKind.length; c++) meepleKind[c] += w * out.meepleKind![c]!;
    }
    // The views' log-probabilities are averaged (a geometric mean: a class must convince every view)
    // and serve as the class scores.
    const typeRot = Float32Array.from(typeLog);
    return { present, typeRot, segments, meeple, meepleColour, meepleSegment, ...(meepleKind ? { meepleKind } : {}) };
  }

  /**
   * One run of the network over prepared crops, each turned clockwise by its quarter turns. The
   * turn and the normalisation are one pass over each crop (a lookup per byte value, written
   * through the turn's index table) rather than a turned copy and a strided loop, into a buffer
   * used again: the JavaScript around the model cost nearly as much CPU as the model itself.
   */
  private async run(views: readonly { crop: Uint8Array; turn: number }[]): Promise<ViewOutput[]> {
    const S = this.size;
    const n = views.length;
    const plane = S * S;
    const data = this.inputBuffer(n * 3 * plane);
    const [l0, l1, l2] = this.levels;
    for (let k = 0; k < n; k++) {
      const { crop: c, turn } = views[k]!;
      const base = k * 3 * plane;
      const r = data.subarray(base, base + plane);
      const g = data.subarray(base + plane, base + 2 * plane);
      const b = data.subarray(base + 2 * plane, base + 3 * plane);
      const q = ((turn % 4) + 4) % 4;
      if (q === 0 || q === 2) {
        // No turn reads the pixels in order; a half turn reads them in reverse.
        const dj = q === 0 ? 3 : -3;
        for (let i = 0, j = q === 0 ? 0 : (plane - 1) * 3; i < plane; i++, j += dj) {
          r[i] = l0![c[j]!]!;
          g[i] = l1![c[j + 1]!]!;
          b[i] = l2![c[j + 2]!]!;
        }
      } else {
        const from = turnSourceIndex(S, q);
        for (let i = 0; i < plane; i++) {
          const j = from[i]! * 3;
          r[i] = l0![c[j]!]!;
          g[i] = l1![c[j + 1]!]!;
          b[i] = l2![c[j + 2]!]!;
        }
      }
    }
    let out: ort.InferenceSession.ReturnType;
    try {
      out = await this.session.run({ [this.info.input.name]: new ort.Tensor('float32', data, [n, 3, S, S]) });
    } finally {
      if (this.spareInputs.length < TileRecognizer.SPARE_INPUTS) this.spareInputs.push(data.buffer);
    }
    const get = (name: string) => out[name]!.data as Float32Array;
    const present = get('present');
    const typeRot = get('typeRot');
    const segs = get('segments');
    const meeple = get('meeple');
    const colour = get('meepleColour');
    const mseg = get('meepleSegment');
    const emb = get('embedding');
    const kind = this.info.meepleKinds ? get('meepleKind') : undefined;
    const nk = this.info.meepleKinds?.length ?? 0;
    const C = typeRot.length / n;
    const E = emb.length / n;
    const nc = colour.length / n;
    const result: ViewOutput[] = [];
    for (let k = 0; k < n; k++) {
      const segments = new Float32Array(48);
      for (let s = 0; s < 12; s++) softmaxInto(segs, k * 48 + s * 4, k * 48 + s * 4 + 4, segments, s * 4);
      result.push({
        present: present[k]!,
        typeRot: typeRot.slice(k * C, (k + 1) * C),
        segments,
        meeple: meeple[k]!,
        meepleColour: softmax(colour, k * nc, (k + 1) * nc),
        meepleSegment: softmax(mseg, k * 13, (k + 1) * 13),
        ...(kind ? { meepleKind: softmax(kind, k * nk, (k + 1) * nk) } : {}),
        embedding: emb.slice(k * E, (k + 1) * E),
      });
    }
    return result;
  }

  private inputBuffer(length: number): Float32Array<ArrayBuffer> {
    const k = this.spareInputs.findIndex((b) => b.byteLength >= length * 4);
    const buffer = k >= 0 ? this.spareInputs.splice(k, 1)[0]! : new ArrayBuffer(length * 4);
    return new Float32Array(buffer, 0, length);
  }

  /** Reads a batch of crops; each result is a reading or says what was wrong with that crop. */
  async read(crops: readonly CropInput[]): Promise<Result<CropReading>[]> {
    const prepared = await Promise.all(crops.map((c, i) => this.prepare(c, `crop ${i}`)));
    const good = prepared.flatMap((p, i) => (p.ok ? [{ i, px: p.value }] : []));
    const readings = await this.readPrepared(good.map((g) => g.px));
    const out: Result<CropReading>[] = prepared.map((p) => (p.ok ? fail('unread') : fail(p.reason)));
    good.forEach((g, k) => (out[g.i] = ok(readings[k]!)));
    return out;
  }

  /** One crop; throws with the reason when the crop is unusable. */
  async readOne(crop: CropInput): Promise<CropReading> {
    const [r] = await this.read([crop]);
    if (!r!.ok) throw new Error(r!.reason);
    return r!.value;
  }
}
