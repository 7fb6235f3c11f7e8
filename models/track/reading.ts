/**
 * A cell read by the tile templates — a tile type and turn, its distance to the cell — and how sure a
 * set of such readings is: a softmax over the distances, look-alikes weighed by the pixels where
 * they differ, and how far the best fit lets a template reading be trusted at all.
 */
import type { matchTemplate } from './templates.js';

export interface Reading { tile: string; q: number; d: number; match: ReturnType<typeof matchTemplate>; /** Distance where look-alikes differ (`byDetail`). */ detail?: number }

/** Look-alikes compared by their detail (CellReader `byDetail`) are weighed with this softmax temperature (× the best detail distance; set on the tuning recordings' prize tiles, see docs/tracking.md). */
const DETAIL_TEMPERATURE = 0.15;
/**
 * How well the best tile template must fit a new tile for the template reading to be trusted: in
 * full up to FIT_TRUSTED (mean squared difference after gain matching), not at all from
 * FIT_UNTRUSTED. Where no template is drawn like the table's art (printed tiles the table has not
 * pictured yet) the best template still wins the softmax, often by far, and was committed wrong;
 * it misses the cell by 0.027–0.085 there, where on the 30 c3 tuning games the best fit of a new
 * tile never passed 0.026 (docs/tracking-print.md, "Printed art").
 */
export const FIT_TRUSTED = 0.03;
export const FIT_UNTRUSTED = 0.05;

/** How far the best template's fit lets its reading be trusted: 1 up to `trusted`, 0 from `untrusted`. */
export function templateFit(d: number, trusted = FIT_TRUSTED, untrusted = FIT_UNTRUSTED): number {
  return Math.min(1, Math.max(0, (untrusted - d) / (untrusted - trusted)));
}

/** Softmax-like confidence of the best reading from the template distances. */
export function confidence(readings: readonly { d: number }[]): number {
  if (readings.length < 2) return 1;
  const d0 = readings[0]!.d;
  const t = 0.04 * d0 + 1e-4;
  let z = 0;
  for (const r of readings) z += Math.exp(-(r.d - d0) / t);
  return 1 / z;
}

/** A cell reading's confidence: look-alikes compared by their detail (CellReader `byDetail`) are weighed by it. */
export function readingConfidence(readings: readonly { d: number; detail?: number }[]): number {
  const close = readings.filter((r) => r.detail !== undefined);
  if (close.length < 2) return confidence(readings);
  const m0 = close[0]!.detail!;
  const t = DETAIL_TEMPERATURE * m0 + 1e-6;
  let z = 0;
  for (const r of close) z += Math.exp(-(r.detail! - m0) / t);
  return 1 / z;
}
