/**
 * The outline refiner (docs/teach.md, "The outline refiner"): a small CNN that looks at a found
 * tile's outline with a margin around it and says where the tile's four corners truly are. The
 * hand-made finder (outline.ts) places most outlines within 2 mm; the rest sit 2–5 mm off, on a
 * bevel's inner edge, a shadow's rim or a neighbour's art — things a learnt look at the whole
 * neighbourhood tells apart better than one edge per side. Trained on teach frames of the
 * first-edition scans only (models/train/outline/), never on the second edition.
 *
 * The crop and the offsets are shared by training and reading: a crop is the outline's unit square
 * widened by NET_MARGIN on every side, NET_PX square, sampled through the outline's homography; the
 * network gives, for each corner in the outline's order, its true place minus its place in the unit
 * square's coordinates, times OFFSET_SCALE.
 */
import * as ort from 'onnxruntime-node';
import { modelFile } from '../model-files.js';
import { applyHomography, invertHomography, squareToQuadHomography, type Point, type Quad } from '../../calibration/geometry.js';
import { bilinear, type RgbImage } from './outline.js';

export const NET_PX = 80;
/** Share of the side shown beyond the outline on every side. */
export const NET_MARGIN = 0.25;
/** The network's outputs are the corners' offsets (unit-square coordinates) times this. */
export const OFFSET_SCALE = 10;
/** Samples per crop pixel along each axis (a crop pixel spans about two frame pixels). */
const SUPERSAMPLE = 3;
const UNIT: readonly Point[] = [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 1, y: 1 }, { x: 0, y: 1 }];

export const DEFAULT_OUTLINE_MODEL = modelFile('outline-v1.onnx');

/** The crop the refiner reads (NET_PX² RGB, row by row): the outline and NET_MARGIN of its side around it. */
export function cropAroundQuad(img: RgbImage, q: Quad): Uint8Array {
  const H = squareToQuadHomography(q);
  const out = new Uint8Array(NET_PX * NET_PX * 3);
  const span = 1 + 2 * NET_MARGIN;
  const acc = [0, 0, 0], px = new Float32Array(3);
  for (let j = 0; j < NET_PX; j++) {
    for (let i = 0; i < NET_PX; i++) {
      acc[0] = acc[1] = acc[2] = 0;
      for (let b = 0; b < SUPERSAMPLE; b++) {
        for (let a = 0; a < SUPERSAMPLE; a++) {
          const u = -NET_MARGIN + ((i + (a + 0.5) / SUPERSAMPLE) / NET_PX) * span;
          const v = -NET_MARGIN + ((j + (b + 0.5) / SUPERSAMPLE) / NET_PX) * span;
          const p = applyHomography(H, { x: u, y: v });
          bilinear(img, p.x, p.y, px);
          for (let k = 0; k < 3; k++) acc[k]! += px[k]!;
        }
      }
      const o = (j * NET_PX + i) * 3;
      for (let k = 0; k < 3; k++) out[o + k] = Math.round(acc[k]! / (SUPERSAMPLE * SUPERSAMPLE));
    }
  }
  return out;
}

/** The corners' offsets (OFFSET_SCALE × unit-square coordinates of `q`) that take `q` to `truth` (both in the same order). */
export function offsetsTo(q: Quad, truth: Quad): number[] {
  const Hinv = invertHomography(squareToQuadHomography(q));
  return truth.flatMap((p, k) => {
    const u = applyHomography(Hinv, p);
    return [(u.x - UNIT[k]!.x) * OFFSET_SCALE, (u.y - UNIT[k]!.y) * OFFSET_SCALE];
  });
}

/** The outline `q` moved by the network's offsets. */
export function quadFromOffsets(q: Quad, offsets: ArrayLike<number>): Quad {
  const H = squareToQuadHomography(q);
  return UNIT.map((c, k) => applyHomography(H, { x: c.x + offsets[2 * k]! / OFFSET_SCALE, y: c.y + offsets[2 * k + 1]! / OFFSET_SCALE })) as Quad;
}

/** The largest corner move (share of the side) a refine takes. */
export const MAX_MOVE = 0.2;

/**
 * The refiner loaded once. `refine` moves each outline by the network's offsets, `passes` times
 * (each pass looks again from the moved outline). A move larger than MAX_MOVE of the side is not
 * taken: the network has only seen outlines within about 6 mm of a tile.
 */
export class OutlineRefiner {
  private constructor(private readonly session: ort.InferenceSession) {}

  private static loaded: Promise<OutlineRefiner> | null = null;

  /** The committed refiner, loaded on first use and kept (one thread: it reads a dozen crops a frame). */
  static shared(): Promise<OutlineRefiner> {
    OutlineRefiner.loaded ??= OutlineRefiner.load();
    return OutlineRefiner.loaded;
  }

  static async load(path: string = DEFAULT_OUTLINE_MODEL, threads = 1): Promise<OutlineRefiner> {
    const session = await ort.InferenceSession.create(path, { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
    return new OutlineRefiner(session);
  }

  async offsets(img: RgbImage, quads: readonly Quad[]): Promise<Float32Array[]> {
    if (quads.length === 0) return [];
    const n = quads.length;
    const x = new Float32Array(n * 3 * NET_PX * NET_PX);
    const plane = NET_PX * NET_PX;
    quads.forEach((q, i) => {
      const crop = cropAroundQuad(img, q);
      for (let p = 0; p < plane; p++) for (let k = 0; k < 3; k++) x[i * 3 * plane + k * plane + p] = crop[p * 3 + k]! / 255;
    });
    const out = await this.session.run({ input: new ort.Tensor('float32', x, [n, 3, NET_PX, NET_PX]) });
    const y = out['offsets']!.data as Float32Array;
    return quads.map((_, i) => y.slice(i * 8, i * 8 + 8));
  }

  async refine(img: RgbImage, quads: readonly Quad[], passes = 2): Promise<Quad[]> {
    let cur = [...quads];
    for (let p = 0; p < passes; p++) {
      const offs = await this.offsets(img, cur);
      cur = cur.map((q, i) => {
        const o = offs[i]!;
        const move = Math.max(...Array.from({ length: 4 }, (_, k) => Math.hypot(o[2 * k]!, o[2 * k + 1]!))) / OFFSET_SCALE;
        return move > MAX_MOVE ? q : quadFromOffsets(q, o);
      });
    }
    return cur;
  }
}
