/**
 * The benchmarks' enrollment: one exemplar per tile type, from a mild camera view (no figure, no
 * hand) of the first face of each type, as a table enrolls its own tiles. One place, so that the
 * recognition bench and the decoding's development sets enroll the same way.
 */
import type { TileType } from '../../engine/catalog/types.js';
import { Enrollment, exemplarsFromCrop } from '../enroll.js';
import type { TileRecognizer } from '../runner.js';
import type { CropOptions, SynthWorld, TileFace } from '../synth/crop.js';
import { cropSet } from './crop-sets.js';

export async function enrollFirstFaces(
  recognizer: TileRecognizer,
  tiles: readonly TileType[],
  world: SynthWorld,
  faces: readonly TileFace[],
  seed: number,
  options: CropOptions,
): Promise<Enrollment> {
  const enrollment = new Enrollment();
  const first = new Map<number, TileFace>();
  for (const f of faces) if (!first.has(f.tileIndex)) first.set(f.tileIndex, f);
  const list = [...first.values()];
  const S = options.size;
  const { crops } = await cropSet(world, list.length, seed, { ...options, severity: 0.3, meepleProb: 0, handProb: 0 }, (i) => ({ face: list[i]!, q: list[i]!.baseQ }));
  for (let i = 0; i < list.length; i++) {
    const f = list[i]!;
    const ex = await exemplarsFromCrop(recognizer, { pixels: crops[i]!, width: S, height: S, channels: 3 }, tiles[f.tileIndex]!.id, ((f.baseQ * 90) % 360) as 0 | 90 | 180 | 270);
    if (!ex.ok) throw new Error(ex.reason);
    enrollment.add(...ex.value);
  }
  return enrollment;
}
