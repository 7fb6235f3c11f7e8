/** Seeded randomness (the engine's mulberry32) so that every drawing and every crop is reproducible from a seed. */
import type { Rng } from '../../engine/sim/rng.js';

export { rng, type Rng } from '../../engine/sim/rng.js';

export function between(r: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * r();
}

export function pick<T>(r: Rng, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** Standard normal draw (Box–Muller). */
export function gauss(r: Rng): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Mixes integers into one seed (order matters). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h ^= p >>> 0;
    h = Math.imul(h, 0x01000193) >>> 0;
    h ^= h >>> 13;
  }
  return h >>> 0;
}
