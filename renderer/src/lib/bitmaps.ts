/// <reference lib="dom" />
// (The project's root tsconfig, which type-checks the tests importing this file, has no DOM library.)
/**
 * Tile drawings shown as bitmaps. A tile's drawing is an SVG of hundreds of strokes; as an <img> or an
 * SVG <image> the browser draws every stroke again whenever the part of the screen it lies on is
 * painted again — a tile hovered, a spot lit, a score changed beside the board — and on a machine
 * without a GPU that raster was half of the page's work (the base game's first 120 moves entered by
 * clicks: 9.6 s of raster in 18.7 s; 2.0 s with bitmaps). So each drawing is drawn once into a canvas and shown from then on as the PNG
 * made of it; until that is ready (a few milliseconds) the SVG itself is shown.
 *
 * `bitmapOf` is reactive (a SvelteMap): a template that called it draws again with the bitmap.
 */
import { SvelteMap } from 'svelte/reactivity';

/** Pixels a side: twice a tile on the board at its usual zoom, and the picker's tile several times over. */
export const BITMAP_SIZE = 256;
/** Drawings kept; past this the oldest are let go (their URLs revoked: pictures shown keep what they loaded). */
const KEEP = 2000;

const bitmaps = new SvelteMap<string, string>();
const queued = new Set<string>();
/** One drawing at a time, so that a whole board shown at once does not hold the page up in one go. */
let chain: Promise<void> = Promise.resolve();

async function rasterise(svgUrl: string): Promise<void> {
  const img = new Image();
  img.src = svgUrl;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = BITMAP_SIZE;
  canvas.getContext('2d')!.drawImage(img, 0, 0, BITMAP_SIZE, BITMAP_SIZE);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) return;
  if (bitmaps.size >= KEEP) {
    const oldest = bitmaps.keys().next().value!;
    URL.revokeObjectURL(bitmaps.get(oldest)!);
    bitmaps.delete(oldest);
    queued.delete(oldest);
  }
  bitmaps.set(svgUrl, URL.createObjectURL(blob));
}

/** The drawing's bitmap once made, else the drawing itself (and its bitmap on the way). */
export function bitmapOf(svgUrl: string): string {
  const done = bitmaps.get(svgUrl);
  if (done) return done;
  // Outside a page (the engine's and models' tests import the board's art): the drawing as it is.
  if (typeof document === 'undefined' || queued.has(svgUrl)) return svgUrl;
  queued.add(svgUrl);
  chain = chain.then(() => rasterise(svgUrl)).catch(() => {
    // A drawing the browser could not decode stays an SVG: it is shown, only drawn more slowly.
  });
  return svgUrl;
}
