/**
 * The benchmark's crop sets: crops from a world, JPEG-compressed in mosaics as the training data is.
 * One place, so that the recognition bench, the ambiguity bench and experiments draw the same bytes
 * from the same seed.
 */
import { between, mixSeed, rng } from '../render/random.js';
import { synthCrop, type CropLabels, type CropOptions, type SynthWorld, type TileFace } from '../synth/crop.js';
import { cameraScaleJpeg, jpegInPlace } from '../synth/dataset.js';

/** A face and its quarter turns in the crop. */
export interface FaceTurn {
  readonly face: TileFace;
  readonly q: number;
}

export interface CropSet {
  readonly crops: Uint8Array[];
  readonly labels: CropLabels[];
}

/**
 * `n` crops from seeds `mixSeed(seed, i)`; `fixed(i)` forces crop i's tile and turn (never empty);
 * `drawnAs(i)` draws another face in crop i's cell with the rest of its scene unchanged (see
 * `CropOptions.centreDrawnAs`), null for the seed's own.
 */
export async function cropSet(
  world: SynthWorld,
  n: number,
  seed: number,
  options: CropOptions,
  fixed?: (i: number) => FaceTurn,
  drawnAs?: (i: number) => FaceTurn | null,
): Promise<CropSet> {
  const S = options.size;
  const flat = new Uint8Array(n * S * S * 3);
  const labels: CropLabels[] = [];
  for (let i = 0; i < n; i++) {
    const f = fixed?.(i);
    const w = f ? { ...world, centreFace: () => f.face } : world;
    const as = drawnAs?.(i);
    const opts = { ...options, ...(f ? { centreQ: f.q, forcePresent: true } : {}), ...(as ? { centreDrawnAs: as } : {}) };
    const c = synthCrop(w, mixSeed(seed, i), opts);
    flat.set(c.rgb, i * S * S * 3);
    labels.push(c.labels);
  }
  await jpegInPlace(flat, n, S, mixSeed(seed, 7));
  return { crops: labels.map((_, i) => flat.slice(i * S * S * 3, (i + 1) * S * S * 3)), labels };
}

/**
 * A far webcam's crops (`drawnAt` pixels across, 22–34 by default: a 640×480 camera over a full
 * board gives cells 20–28 px), each JPEG-compressed at that scale at a quality of 35–95, as a webcam
 * compresses its frames (`cameraScaleJpeg`), then scaled up as the tracker's rectification does.
 */
export async function farCameraSet(world: SynthWorld, n: number, seed: number, options: CropOptions, fixed?: (i: number) => FaceTurn, drawnAt: readonly [number, number] = [22, 34]): Promise<CropSet> {
  const S = options.size;
  const r = rng(mixSeed(seed, 9));
  const crops: Uint8Array[] = [];
  const labels: CropLabels[] = [];
  for (let i = 0; i < n; i++) {
    const f = fixed?.(i);
    const w = f ? { ...world, centreFace: () => f.face } : world;
    const c = synthCrop(w, mixSeed(seed, i), { ...options, drawnAt, ...(f ? { centreQ: f.q, forcePresent: true } : {}) });
    crops.push(await cameraScaleJpeg(c.rgb, S, c.drawnAt, Math.round(between(r, 35, 95))));
    labels.push(c.labels);
  }
  return { crops, labels };
}
