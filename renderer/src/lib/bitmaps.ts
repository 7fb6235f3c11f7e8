/// <reference lib="dom" />
// (The project's root tsconfig, which type-checks the tests importing this file, has no DOM library.)
/**
 * Tile drawings shown as bitmaps. A tile's drawing is an SVG of hundreds of strokes; as an <img> or an
 * SVG <image> the browser draws every stroke again whenever the part of the screen it lies on is
 * painted again — a tile hovered, a spot lit, a score changed beside the board — and on a machine
 * without a GPU that raster was half of the page's work (the base game's first 120 moves entered by
 * clicks: 9.6 s of raster in 18.7 s; 2.0 s with bitmaps). So each drawing is drawn once into a canvas and shown from then on as the PNG
 * made of it; until that is ready (a few milliseconds) an empty picture stands in. Not the SVG itself:
 * the browser parses each SVG picture as a document of its own on the page's thread, and a screen that
 * first shows a hundred of them (a new game's board and tile picker) held the page for a second in one
 * task — no click or key answered meanwhile. One drawing a task, the page answers between them.
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
/**
 * Drawings waiting for their bitmap, drawn one a task, the newest first: the tile just laid or
 * just picked is drawn next, not after a screenful asked for before it.
 */
const waiting: string[] = [];
let drawing = false;
/** Shown until a drawing's bitmap is made: a transparent pixel. */
export const PENDING_PICTURE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** The rest of this task to the page (its events, its painting) before the next drawing. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function rasterise(svgUrl: string): Promise<void> {
  const img = new Image();
  img.src = svgUrl;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = BITMAP_SIZE;
  canvas.getContext('2d')!.drawImage(img, 0, 0, BITMAP_SIZE, BITMAP_SIZE);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the drawing made no bitmap');
  if (bitmaps.size >= KEEP) {
    const oldest = bitmaps.keys().next().value!;
    URL.revokeObjectURL(bitmaps.get(oldest)!);
    bitmaps.delete(oldest);
    queued.delete(oldest);
  }
  bitmaps.set(svgUrl, URL.createObjectURL(blob));
}

/** Drawings the browser could not decode: shown as SVGs (only drawn more slowly). */
const undecodable = new SvelteMap<string, true>();

/** The drawing's bitmap once made, else an empty picture (and the bitmap on the way). */
export function bitmapOf(svgUrl: string): string {
  const done = bitmaps.get(svgUrl);
  if (done) return done;
  // Outside a page (the engine's and models' tests import the board's art): the drawing as it is.
  if (typeof document === 'undefined' || undecodable.has(svgUrl)) return svgUrl;
  if (queued.has(svgUrl)) return PENDING_PICTURE;
  queued.add(svgUrl);
  waiting.push(svgUrl);
  if (!drawing) void drawWaiting();
  return PENDING_PICTURE;
}

async function drawWaiting(): Promise<void> {
  drawing = true;
  for (let next = waiting.pop(); next !== undefined; next = waiting.pop()) {
    await nextTask();
    await rasterise(next).catch(() => {
      undecodable.set(next, true);
    });
  }
  drawing = false;
}
