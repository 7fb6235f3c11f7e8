/**
 * The data splits, all derived from fixed seeds. Training uses TRAIN_STYLES with variants 0..5 and
 * seeds from TRAIN_SEED; validation and the benchmark use other variants and other seeds, and the
 * held-out style appears only in the benchmark.
 */
export const TRAIN_SEED = 20261129;
export const TRAIN_VARIANTS = plainTrainVariants(6);
/** The first n plain variants (`PLAIN_FACES=n npm run train`; the recipe's default is 6). */
export function plainTrainVariants(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
/**
 * `VARIED_FACES=n npm run train` (the recipe's default is 18, as the committed model was trained):
 * n more variants per style drawn varied in geometry and style (`tileSvg`'s `vary`), from variant 1000 on.
 */
export function variedTrainVariants(n: number): number[] {
  return Array.from({ length: n }, (_, i) => 1000 + i);
}
export const VAL_SEED = 77001;
export const BENCH_SEED = 99001;
export const EVAL_VARIANTS = [101, 102];
export const CROP_SIZE = 64;
