/**
 * A tile read from a photo (or a flat scan) without a game: the tile's outline found
 * (outline.ts), the tile rectified as the tracker rectifies a cell (the cell, 46 mm, plus 10 % of it
 * on every side, 64 × 64, north = the tile side facing the photo's top), read at every quarter turn
 * and decoded against the candidate tile types of an edition and its expansions. The three best
 * readings (catalog id, rotation clockwise against the crop, confidence among the candidates) —
 * or why the photo is not read. Used by `npm run read-tile` and by the app's services.
 */
import sharp, { type Metadata } from 'sharp';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { applyHomography, squareToQuadHomography, type Point, type Quad } from '../../calibration/geometry.js';
import { rectifyCell } from '../../calibration/rectify.js';
import { TileCatalog } from '../../engine/catalog/registry.js';
import type { Edition, TileType } from '../../engine/catalog/types.js';
import { fail, ok, type Result } from '../../engine/result.js';
import { decodeReading } from '../decode.js';
import type { Enrollment } from '../enroll.js';
import type { TileRecognizer } from '../runner.js';
import { FINE_SEARCH_PX, findOutline, judgeOutline, orderCorners, outlineOf, REFINE_PX, SEARCH_PX, type Outline, type RgbImage } from './outline.js';
import { OutlineRefiner } from './outline-net.js';
import { pulledOffAnEdge } from './refine-guard.js';

export { squareToQuadHomography } from '../../calibration/geometry.js';

/** The classic expansions a photo's tile may come from (the Abbot brings no tiles of its own: its gardens are printed on C2/C3 base and expansion tiles). */
export const PHOTO_EXPANSIONS = ['base', 'river', 'abbot', 'inns-cathedrals', 'tower'] as const;
export type PhotoExpansion = (typeof PHOTO_EXPANSIONS)[number];
export const PHOTO_EDITIONS: readonly Edition[] = ['C1', 'C2', 'C3'];

/** Largest photo accepted (pixels): a 16 MP phone photo and then some. */
export const MAX_PHOTO_PIXELS = 50_000_000;
/** Largest photo accepted (bytes). */
export const MAX_PHOTO_BYTES = 40 * 1024 * 1024;

/** The crop convention (docs/recognition.md): cell pitch 46 mm for a 45 mm tile, 10 % of it on every side. */
const PITCH_OVER_TILE = 46 / 45;
const CROP_HALF = 0.6 * PITCH_OVER_TILE;
/** The rectified tile kept for showing (its crop at this size, the model's made from it). */
export const SHOWN_PX = 256;
/** Where the tile's face lies in a SHOWN_PX picture (pixels from its left or top edge to the face's). */
export const SHOWN_FACE = { from: SHOWN_PX * (0.5 - 1 / (4 * CROP_HALF)), to: SHOWN_PX * (0.5 + 1 / (4 * CROP_HALF)) };
/** Around a flat scan the crop's margin is an empty table of this colour. */
const SCAN_MARGIN_RGB = { r: 128, g: 128, b: 128 };

/**
 * The model's "a tile is there" probability below which a found outline is not read: what it holds
 * does not look like a tile to the model (docs/photos.md).
 */
export const MIN_PRESENT = 0.5;

export interface PhotoReading {
  readonly tileId: string;
  /** Clockwise degrees: the catalog tile turned this much is what the crop shows. */
  readonly rotation: 0 | 90 | 180 | 270;
  readonly confidence: number;
}

export interface PhotoRead {
  /** Three best readings (fewer when fewer candidates), best first. */
  readonly readings: readonly PhotoReading[];
  /** Corners of the tile in the photo's pixels (after its EXIF orientation), clockwise from the one at the top side's left; null for a scan. */
  readonly corners: Quad | null;
  /** The rectified crop as the tracker cuts a cell, SHOWN_PX square, PNG. */
  readonly cropPng: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** The model's probability that the crop holds a tile. */
  readonly present: number;
  readonly outline: Outline | null;
}

export interface ReadOptions {
  readonly edition?: Edition;
  readonly expansions?: readonly PhotoExpansion[];
  /** The image is already the tile (a flat scan, nothing around it). */
  readonly scan?: boolean;
  /** The outline refiner (default: the committed one); null: the finder's outline as it is (benches comparing). */
  readonly refiner?: OutlineRefiner | null;
  /**
   * The table's own pictures of its tiles (taught, answered in the camera's picker, the tile editor's
   * crops) as the model's exemplars: the photo is read against the print the table plays with, as the
   * tracker reads a cell (models/decode.ts).
   */
  readonly enrollment?: Enrollment;
  /**
   * Tile types the model never learnt (the 2025 tiles, as the table's catalog describes them): each is
   * a candidate too where `enrollment` holds a picture of it, read through those pictures alone
   * (models/decode.ts), as the tracker reads them. One with no picture cannot be told from the photo.
   */
  readonly unlearnt?: readonly TileType[];
  /**
   * Only these tile types are candidates (the photo answers the camera's question about a cell: the
   * types that may lie there by the rules and the supply, at any turn — a photo's turn is not the board's).
   */
  readonly only?: ReadonlySet<string>;
}

/** The catalog's tile types printed in `edition` for the expansions given. */
export function photoCandidates(edition: Edition, expansions: readonly PhotoExpansion[], catalog = TileCatalog.classic()): TileType[] {
  const wanted = new Set<string>(expansions.filter((e) => e !== 'abbot'));
  const out: TileType[] = [];
  for (const e of wanted) for (const t of catalog.ofExpansion(e)) if ((t.counts[edition] ?? 0) > 0) out.push(t);
  return out;
}

/** Decodes an encoded photo (EXIF orientation applied) at most `maxSide` px on its longest side. */
export async function decodeAt(bytes: Uint8Array, maxSide: number): Promise<RgbImage> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS })
    .rotate()
    .removeAlpha()
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Projective map of the unit square onto `q` (corners in order), as a function. */
function squareToQuad(q: Quad): (u: number, v: number) => Point {
  const H = squareToQuadHomography(q);
  return (u, v) => applyHomography(H, { x: u, y: v });
}

export async function rectifyFromPhoto(cv: Cv, bytes: Uint8Array, fullW: number, fullH: number, corners: Quad): Promise<Uint8Array> {
  const map = squareToQuad(corners);
  const lo = 0.5 - CROP_HALF, hi = 0.5 + CROP_HALF;
  const cropQuad = [map(lo, lo), map(hi, lo), map(hi, hi), map(lo, hi)] as Quad;
  const left = Math.max(0, Math.floor(Math.min(...cropQuad.map((p) => p.x))) - 2);
  const top = Math.max(0, Math.floor(Math.min(...cropQuad.map((p) => p.y))) - 2);
  const right = Math.min(fullW, Math.ceil(Math.max(...cropQuad.map((p) => p.x))) + 2);
  const bottom = Math.min(fullH, Math.ceil(Math.max(...cropQuad.map((p) => p.y))) + 2);
  const side = Math.max(...corners.map((p, i) => Math.hypot(p.x - corners[(i + 1) % 4]!.x, p.y - corners[(i + 1) % 4]!.y)));
  const scale = Math.min(1, (SHOWN_PX * 1.2) / side);
  const w = Math.max(1, Math.round((right - left) * scale)), h = Math.max(1, Math.round((bottom - top) * scale));
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS })
    .rotate()
    .removeAlpha()
    .extract({ left, top, width: right - left, height: bottom - top })
    .resize(w, h, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sx = info.width / (right - left), sy = info.height / (bottom - top);
  const region = cv.matFromArray(info.height, info.width, cv.CV_8UC3, new Uint8Array(data.buffer, data.byteOffset, data.length));
  try {
    const q = cropQuad.map((p) => ({ x: (p.x - left) * sx, y: (p.y - top) * sy })) as Quad;
    return rectifyCell(cv, region, q, SHOWN_PX).data;
  } finally {
    region.delete();
  }
}

/** A flat scan as the tracker would crop it: the tile with an empty margin of 10 % of the pitch around it. */
async function cropOfScan(bytes: Uint8Array): Promise<Uint8Array> {
  const inner = Math.round(SHOWN_PX / (2 * CROP_HALF));
  const pad = Math.floor((SHOWN_PX - inner) / 2);
  const raw = await sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS })
    .rotate()
    .removeAlpha()
    .resize(inner, inner, { fit: 'fill' })
    .extend({ top: pad, left: pad, bottom: SHOWN_PX - inner - pad, right: SHOWN_PX - inner - pad, background: SCAN_MARGIN_RGB })
    .raw()
    .toBuffer();
  return new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
}

/** Checks the bytes are an image sharp can decode, and within the limits; its size after EXIF orientation. */
export async function photoSize(bytes: Uint8Array): Promise<Result<{ width: number; height: number }>> {
  if (bytes.length === 0) return fail('the file is empty');
  if (bytes.length > MAX_PHOTO_BYTES) return fail(`the file is ${(bytes.length / 1048576).toFixed(0)} MB; at most ${MAX_PHOTO_BYTES / 1048576} MB is read`);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return fail('not an image (neither JPEG, PNG nor another format this reader knows)');
  }
  if (!meta.width || !meta.height) return fail('not an image (no size)');
  if (meta.width * meta.height > MAX_PHOTO_PIXELS) return fail(`the image is ${meta.width}×${meta.height} px; at most ${MAX_PHOTO_PIXELS / 1e6} megapixels are read`);
  const turned = (meta.orientation ?? 1) >= 5;
  return ok({ width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height });
}

/** Reads one photo (or scan). Every failure is a reason, never an exception for bad input. */
export async function readTilePhoto(recognizer: TileRecognizer, bytes: Uint8Array, options: ReadOptions = {}): Promise<Result<PhotoRead>> {
  const size = await photoSize(bytes);
  if (!size.ok) return size;
  const { width, height } = size.value;
  const candidates = [
    ...photoCandidates(options.edition ?? 'C2', options.expansions ?? PHOTO_EXPANSIONS),
    ...(options.unlearnt ?? []).filter((t) => options.enrollment?.hasTile(t.id) && !recognizer.info.tiles.includes(t.id)),
  ].filter((t) => !options.only || options.only.has(t.id));
  if (candidates.length === 0) return fail(options.only ? 'no tile type that may lie there is one the model or the table\'s pictures can read' : 'no tile type of that edition and those expansions to read it as');
  const cv = await loadCv();
  let shown: Uint8Array;
  let corners: Quad | null = null;
  let outline: Outline | null = null;
  try {
    if (options.scan) {
      if (width < 24 || height < 24) return fail(`the scan is ${width}×${height} px; at least 24×24 px is read`);
      shown = await cropOfScan(bytes);
    } else {
      const refineImg = await decodeAt(bytes, REFINE_PX);
      const searchImg = await decodeAt(bytes, SEARCH_PX);
      // The finer image is decoded only when the search asks for it (a small tile, or none found).
      const found = await findOutline(cv, searchImg, refineImg, () => decodeAt(bytes, FINE_SEARCH_PX));
      if (!found.ok) return found;
      outline = found.value;
      if (options.refiner !== null) {
        const [moved] = await (options.refiner ?? (await OutlineRefiner.shared())).refine(refineImg, [outline.corners]);
        const refined = outlineOf(orderCorners(moved!), outline.edgeSupport);
        if (!judgeOutline(refined, refineImg.width, refineImg.height) && !pulledOffAnEdge(refineImg, outline.corners, refined.corners)) outline = refined;
      }
      const s = width / refineImg.width;
      corners = outline.corners.map((p) => ({ x: p.x * s, y: p.y * s })) as Quad;
      shown = await rectifyFromPhoto(cv, bytes, width, height, corners);
    }
  } catch (e) {
    return fail(`the image could not be decoded (${(e as Error).message})`);
  }
  const S = recognizer.size;
  const small = await sharp(shown, { raw: { width: SHOWN_PX, height: SHOWN_PX, channels: 3 } }).resize(S, S, { fit: 'fill' }).raw().toBuffer();
  const [reading] = await recognizer.readPrepared([new Uint8Array(small.buffer, small.byteOffset, small.length)], 4);
  const decoded = decodeReading(reading!, recognizer.info, new TileCatalog(candidates), null, options.enrollment ? { enrollment: options.enrollment } : {});
  if (!decoded.best) return fail('none of the candidate tile types is one the model knows');
  const cropPng = new Uint8Array(await sharp(shown, { raw: { width: SHOWN_PX, height: SHOWN_PX, channels: 3 } }).png().toBuffer());
  if (!options.scan && reading!.present < MIN_PRESENT) {
    return fail(`no tile found (what the outline holds does not look like a tile: p = ${reading!.present.toFixed(2)} < ${MIN_PRESENT})`);
  }
  const readings = [decoded.best, ...decoded.runnersUp].map((c) => ({ tileId: c.tileId, rotation: c.rot as PhotoReading['rotation'], confidence: c.probability }));
  return ok({ readings, corners, cropPng, width, height, present: reading!.present, outline });
}
