/**
 * A teach frame read (issue 30): every tile outline in a still frame (models/photo/outline.ts
 * `findOutlines`), each rectified as the tracker cuts a cell and read by the model without a game
 * against the candidates of an edition and its expansions (as `read-tile` reads one photo). One card
 * per place a tile was seen: its corners, the rectified picture, the three best readings — or why it
 * is not read (out of view, overlapping, covered, not a tile). Never a guess presented as a reading.
 */
import sharp from 'sharp';
import { loadCv } from '../../calibration/cv.js';
import type { Quad } from '../../calibration/geometry.js';
import { TileCatalog } from '../../engine/catalog/registry.js';
import type { Edition } from '../../engine/catalog/types.js';
import { fail, ok, type Result } from '../../engine/result.js';
import { decodeReading } from '../decode.js';
import type { TileRecognizer } from '../runner.js';
import { centreOf, findOutlines, judgeOutline, meanSide, MULTI_SEARCH_PX, orderCorners, outlineOf, OUTLINE_RULES, REFINE_PX, SideField, type FoundTile, type RgbImage } from '../photo/outline.js';
import { OutlineRefiner } from '../photo/outline-net.js';
import type { TileSides } from './sides.js';
import { decodeAt, MIN_PRESENT, photoCandidates, photoSize, PHOTO_EXPANSIONS, rectifyFromPhoto, SHOWN_PX, type PhotoExpansion, type PhotoReading } from '../photo/read.js';

export interface TeachCard {
  /** The tile's corners in the frame's pixels, clockwise from the one at the top side's left. */
  readonly corners: Quad;
  /** Null when the tile is read; else why it is not (and nothing on the card may be taught). */
  readonly why: string | null;
  /** The rectified tile (the cell and 10 % around it, SHOWN_PX square), PNG; null when not cut. */
  readonly cropPng: Uint8Array | null;
  /** Raw RGB of the same crop (SHOWN_PX²·3), for pictures; null when not cut. */
  readonly cropRgb: Uint8Array | null;
  /** Three best readings, best first (empty when not read). */
  readonly readings: readonly PhotoReading[];
  /** The ALTERNATIVES best readings, best first (the box's counts choose among them, `counts.ts`). */
  readonly alternatives: readonly PhotoReading[];
  /** The model's probability that the crop holds a tile. */
  readonly present: number;
  /** Share of the outline's inside the search saw as tile (a hand from the frame's edge lowers it). */
  readonly filled: number;
  /**
   * The outline's side furthest from the tiles' side at its place in the frame (`SideField`), as a
   * share of it: an outline cut off a tile, or reaching past a corner, has a side too short or too long.
   */
  readonly sideOff: number;
}

export interface TeachFrameOptions {
  readonly edition?: Edition;
  readonly expansions?: readonly PhotoExpansion[];
  /** The teach's tiles' side from its earlier frames (`TileSides`): read and updated. */
  readonly sides?: TileSides;
  /** The outline refiner (default: the committed one, loaded once); null: the finder's outlines as they are (benches comparing). */
  readonly refiner?: OutlineRefiner | null;
}

/** Readings kept per card for the box's counts to choose among (a card shows three). */
export const ALTERNATIVES = 10;

/** Below this share of its outline seen as tile, a card says something lies over the tile. */
export const MIN_FILLED = 0.75;

/**
 * The outlines that may be read, moved by the refiner (models/photo/outline-net.ts) onto the tile's
 * true corners. A refined outline that is no longer a convex quadrilateral of near-right angles
 * inside the frame keeps the finder's.
 */
async function refineOutlines(refiner: OutlineRefiner, img: RgbImage, tiles: readonly FoundTile[]): Promise<FoundTile[]> {
  const open = tiles.filter((t) => t.outline && !t.why);
  const moved = await refiner.refine(img, open.map((t) => t.corners));
  const byTile = new Map(open.map((t, i) => [t, moved[i]!]));
  return tiles.map((t) => {
    const q = byTile.get(t);
    if (!q || !t.outline) return t;
    const outline = outlineOf(orderCorners(q), t.outline.edgeSupport);
    return judgeOutline(outline, img.width, img.height) ? t : { ...t, corners: outline.corners, outline };
  });
}

/** `TeachCard.sideOff` of an outline against the tiles' side across the frame. */
function sideOff(q: Quad, field: SideField): number {
  const side = field.at(centreOf(q));
  return Math.max(...q.map((p, i) => Math.abs(Math.hypot(p.x - q[(i + 1) % 4]!.x, p.y - q[(i + 1) % 4]!.y) / side - 1)));
}

export async function readTeachFrame(recognizer: TileRecognizer, bytes: Uint8Array, options: TeachFrameOptions = {}): Promise<Result<TeachCard[]>> {
  const size = await photoSize(bytes);
  if (!size.ok) return size;
  const { width, height } = size.value;
  const candidates = photoCandidates(options.edition ?? 'C2', options.expansions ?? PHOTO_EXPANSIONS);
  if (candidates.length === 0) return fail('no tile type of that edition and those expansions to read it as');
  const catalog = new TileCatalog(candidates);
  const cv = await loadCv();
  let refineImg, searchImg;
  try {
    refineImg = await decodeAt(bytes, REFINE_PX);
    searchImg = await decodeAt(bytes, MULTI_SEARCH_PX);
  } catch (e) {
    return fail(`the image could not be decoded (${(e as Error).message})`);
  }
  const prior = options.sides?.at(refineImg.width, width) ?? null;
  const { tiles: outlined, field } = findOutlines(cv, searchImg, refineImg, prior);
  const found = options.refiner === null ? outlined : await refineOutlines(options.refiner ?? (await OutlineRefiner.shared()), refineImg, outlined);
  // The tiles' side across the frame: as the finder learnt it, else from the outlines read.
  const sideField = field ?? prior ?? SideField.fit(found.filter((t) => t.outline && !t.why).map((t) => ({ at: centreOf(t.corners), side: meanSide(t.corners) })), 0);
  if (field) options.sides?.learn(field, refineImg.width, width);
  const s = width / refineImg.width;
  const cards: TeachCard[] = [];
  const toRead: { i: number; rgb: Uint8Array }[] = [];
  for (const f of found) {
    const corners = f.corners.map((p) => ({ x: p.x * s, y: p.y * s })) as Quad;
    let why = f.why;
    if (!why && f.filled < MIN_FILLED) why = `something lies over the tile (a hand, another tile): ${Math.round((1 - f.filled) * 100)} % of it hidden`;
    let rgb: Uint8Array | null = null;
    if (!why || !/runs out of the frame|not one tile/.test(why)) {
      try {
        rgb = await rectifyFromPhoto(cv, bytes, width, height, corners);
      } catch {
        rgb = null;
      }
    }
    cards.push({ corners, why, cropPng: null, cropRgb: rgb, readings: [], alternatives: [], present: 0, filled: f.filled, sideOff: sideOff(f.corners, sideField) });
    if (rgb) toRead.push({ i: cards.length - 1, rgb });
  }
  if (toRead.length) {
    const S = recognizer.size;
    const small = await Promise.all(toRead.map(async (t) => new Uint8Array(await sharp(t.rgb, { raw: { width: SHOWN_PX, height: SHOWN_PX, channels: 3 } }).resize(S, S, { fit: 'fill' }).raw().toBuffer())));
    const readings = await recognizer.readPrepared(small, 4);
    for (const [k, t] of toRead.entries()) {
      const reading = readings[k]!;
      const card = cards[t.i]!;
      const cropPng = new Uint8Array(await sharp(t.rgb, { raw: { width: SHOWN_PX, height: SHOWN_PX, channels: 3 } }).png().toBuffer());
      let why = card.why;
      let list: PhotoReading[] = [];
      if (!why && reading.present < MIN_PRESENT) why = `does not look like a tile's face (a tile face down, or not a tile): p = ${reading.present.toFixed(2)}`;
      if (!why) {
        const decoded = decodeReading(reading, recognizer.info, catalog, null, { runnersUp: ALTERNATIVES - 1 });
        if (!decoded.best) why = 'none of the candidate tile types is one the model knows';
        else list = [decoded.best, ...decoded.runnersUp].map((c) => ({ tileId: c.tileId, rotation: c.rot as PhotoReading['rotation'], confidence: c.probability }));
      }
      cards[t.i] = { ...card, why, cropPng, readings: list.slice(0, 3), alternatives: list, present: reading.present };
    }
  }
  // Where neither the edges nor the model see a tile — a square found on edges alone, or one without
  // clear edges, that the model sees no tile's face in — it is the table's own pattern (a striped
  // cloth, a wood grain) or a shadow, not a tile: it gets no card for the table to discard. (Tuning,
  // c1-jcz: such cards over no tile had 0–33 % edge support and p ≤ 0.01; those over a tile, cut off
  // by 12 mm, 43–47 % and p ≥ 0.85.)
  const noTile = (f: FoundTile, c: TeachCard) =>
    c.readings.length === 0 && c.present < MIN_PRESENT && (f.onEdges === true || (f.outline !== null && f.outline.edgeSupport < OUTLINE_RULES.minEdgeSupport));
  return ok(cards.filter((c, i) => !noTile(found[i]!, c)));
}
