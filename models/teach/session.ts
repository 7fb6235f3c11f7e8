/**
 * A teach session (issue 30): the cards of every still frame shown so far, one per tile on the
 * table. A new frame adds the tiles laid since; a tile still where it was keeps its card; a tile
 * moved (its old place now bare, its picture found elsewhere at some quarter turn) keeps its card
 * and answer, found again rather than twice. The table accepts all sure cards at once, picks one of
 * a card's three readings, names another tile, or discards a card. What is taught: each accepted
 * card's tile type, its turn, and its picture turned into the catalog frame.
 */
import type { Quad } from '../../calibration/geometry.js';
import { centreOf, meanSide } from '../photo/outline.js';
import type { PhotoReading } from '../photo/read.js';
import { SHOWN_PX } from '../photo/read.js';
import { assignByCounts } from './counts.js';
import { coveredMasks } from './covered.js';
import type { TeachCard } from './read.js';
import { TileSides } from './sides.js';

/**
 * A card whose first reading has at least this confidence is "sure": "accept all sure cards" takes
 * it without the table looking at it. Chosen on the tuning art (first-edition scans, `bench:teach
 * --art c1-jcz`): above every wrong first reading seen there (the highest 0.997); docs/teach.md.
 */
export const SURE_CONFIDENCE = 0.999;

/**
 * A card's first reading makes it sure: at least SURE_CONFIDENCE, and the first the model gave
 * (`kept`: the box's counts did not move another reading first — when they do, the model's own
 * first was a type the box holds fewer of, and the model was wrong on this card or another).
 */
export function isSure(readings: readonly PhotoReading[], kept: boolean): boolean {
  const first = readings[0];
  return !!first && kept && first.confidence >= SURE_CONFIDENCE;
}

/**
 * A card sure by its reading must also be cut where the tile lies, for its picture to be taught
 * unseen: no side of its outline more than this share off the tiles' side at its place in the frame
 * (`TeachCard.sideOff`). Tuning art (c1-jcz, c1-wiki, 11 draws of bench:teach): sure cards within
 * 1 mm of their tile at most 0.077 in 99 of 100, those over 2 mm off 0.045–0.156.
 */
export const SURE_SIDE_OFF = 0.08;

/** A card's outline lets its picture be taught unseen (`SURE_SIDE_OFF`). */
export const outlineSure = (sideOff: number): boolean => sideOff <= SURE_SIDE_OFF;

/**
 * What the table is told on an open card whose outline keeps it from being sure (its reading may be
 * sure: the card is then the only reason "accept all sure" leaves it), or null.
 */
export function outlineNote(c: Pick<SessionCard, 'state' | 'why' | 'sideOff'>): string | null {
  if (c.state !== 'open' || c.why !== null || outlineSure(c.sideOff)) return null;
  return `The outline found may be off this tile (a side ${Math.round(c.sideOff * 100)} % off the tiles' side here): check its picture, or lay the tile again.`;
}

export type CardState = 'open' | 'accepted' | 'discarded';
type Turn = 0 | 90 | 180 | 270;

export interface SessionCard {
  readonly id: number;
  corners: Quad;
  /** Why the card cannot be taught (out of view, covered, not a tile), or null. */
  why: string | null;
  /** The three readings shown, best first: the model's, unless the box's counts moved another first. */
  readings: readonly PhotoReading[];
  /** The model's readings (more than three), best first: what the counts choose among. */
  alternatives: readonly PhotoReading[];
  /** The box's counts put another of the model's readings first (the card is then never sure). */
  byCounts: boolean;
  cropRgb: Uint8Array | null;
  cropPng: Uint8Array | null;
  /** `TeachCard.sideOff`: how far the card's outline is from a tile's shape at its place. */
  sideOff: number;
  state: CardState;
  /** The table's answer (accepted cards): the tile type and its clockwise turn in the card's picture. */
  tileId: string | null;
  rotation: Turn | null;
  /** The frame the card was last seen in. */
  seen: number;
}

export interface FrameResult {
  readonly added: readonly number[];
  readonly moved: readonly number[];
  readonly kept: readonly number[];
}

/**
 * A card sure by its confidence must also look like the other copies of its type in the session (the
 * box prints every copy of a type alike): its picture's difference (`pictureMatch`) to at least half
 * of theirs at most this. The model's confidence on a print it has not seen is not a probability
 * (docs/teach.md, "Sure cards"); the other copies are evidence that is not the model's. Tuning art
 * (c1-jcz seeds 31000 and 32000): sure cards read right, against the other sure cards read as their
 * type, at a median of 0.022–0.158; two different tiles differ at a median of 0.166 (`MOVED_MATCH`).
 */
export const COPIES_AGREE = 0.166;

/**
 * Whether a card's picture agrees with the pictures of the other cards read or taught as its type
 * (`peers`): with none, it does; else it must be like at least half of them (the lower median of the
 * differences at most COPIES_AGREE). Of two copies that disagree neither is sure: which one the
 * model misread is not known.
 */
export function copiesAgree(crop: Uint8Array | null, peers: readonly Uint8Array[]): boolean {
  if (!crop || peers.length === 0) return true;
  const ds = peers.map((p) => pictureMatch(crop, p).d).sort((a, b) => a - b);
  return ds[(ds.length - 1) >> 1]! <= COPIES_AGREE;
}

/** A card's look in a frame (its readings as the model gave them, before the counts). */
const look = (f: TeachCard) => ({ why: f.why, readings: f.readings, alternatives: f.alternatives.length ? f.alternatives : f.readings, byCounts: false, cropRgb: f.cropRgb, cropPng: f.cropPng, sideOff: f.sideOff });

/** SHOWN_PX crops compared at this size (the tile's area only, gain matched per channel). */
const COMPARE_PX = 24;

/** Thumbs already made, per crop and turn: "accept all sure" compares each card with its type's every copy. */
const thumbs = new WeakMap<Uint8Array, Float32Array[]>();

/** The tile area of a crop (the cell's inner 45/46 of its middle), COMPARE_PX square, turned `q` quarter turns clockwise. */
function thumb(rgb: Uint8Array, q: number): Float32Array {
  let made = thumbs.get(rgb);
  if (!made) thumbs.set(rgb, (made = []));
  return (made[q] ??= makeThumb(rgb, q));
}

function makeThumb(rgb: Uint8Array, q: number): Float32Array {
  const out = new Float32Array(COMPARE_PX * COMPARE_PX * 3);
  const lo = SHOWN_PX * (0.1 / 1.2 + 0.01), span = SHOWN_PX * (1 / 1.2 - 0.02);
  for (let y = 0; y < COMPARE_PX; y++)
    for (let x = 0; x < COMPARE_PX; x++) {
      // Source pixel of the turned thumb's (x, y).
      let sx = x, sy = y;
      for (let k = 0; k < q; k++) { const t = sx; sx = sy; sy = COMPARE_PX - 1 - t; }
      const px = Math.min(SHOWN_PX - 1, Math.floor(lo + ((sx + 0.5) * span) / COMPARE_PX)), py = Math.min(SHOWN_PX - 1, Math.floor(lo + ((sy + 0.5) * span) / COMPARE_PX));
      for (let c = 0; c < 3; c++) out[(y * COMPARE_PX + x) * 3 + c] = rgb[(py * SHOWN_PX + px) * 3 + c]!;
    }
  // Gain per channel: the light may differ between frames.
  for (let c = 0; c < 3; c++) {
    let m = 0;
    for (let i = c; i < out.length; i += 3) m += out[i]!;
    m = m / (out.length / 3) || 1;
    for (let i = c; i < out.length; i += 3) out[i] = out[i]! / m;
  }
  return out;
}

function difference(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d / a.length;
}

/** The best quarter turn `q` (clockwise) taking `from`'s picture to `to`'s, and the difference there. */
export function pictureMatch(from: Uint8Array, to: Uint8Array): { q: number; d: number } {
  const b = thumb(to, 0);
  let best = { q: 0, d: Infinity };
  for (let q = 0; q < 4; q++) {
    const d = difference(thumb(from, q), b);
    if (d < best.d) best = { q, d };
  }
  return best;
}

/**
 * A moved tile's picture must match this well (mean absolute difference after gain), and the model's
 * first reading of it be the card's type. Two frames of one tile on the tuning art: median 0.044,
 * 90th percentile 0.095; two different tiles: median 0.166, 5th percentile 0.072 — the picture alone
 * does not tell them apart (0.25 took every one of 244 pairs of different tiles for the same), the
 * reading with it did (28 of 29 same, 0 of 244 different).
 */
export const MOVED_MATCH = 0.15;
/** At a card's place, a look whose picture differs by this much and whose readings do not name the card's type is another tile. */
export const OTHER_PICTURE = 0.08;

/** The types a card's tile may be: the table's answer, the model's first reading. */
const typesOf = (c: SessionCard) => new Set([c.tileId, c.alternatives[0]?.tileId].filter((x): x is string => !!x));

/** A read look at a read card's place that shows plainly another tile (its three readings miss the card's type, its picture differs). */
function anotherTile(c: SessionCard, f: TeachCard): boolean {
  if (!c.cropRgb || !f.cropRgb || c.why !== null || f.why !== null || f.readings.length === 0) return false;
  const types = typesOf(c);
  if (types.size === 0 || f.readings.some((r) => types.has(r.tileId))) return false;
  return pictureMatch(c.cropRgb, f.cropRgb).d >= OTHER_PICTURE;
}

export class TeachSession {
  readonly cards: SessionCard[] = [];
  /** The tiles' side in this teach's frames (one camera, not moved while the table teaches): `readTeachFrame`'s `sides`. */
  readonly sides = new TileSides();
  private nextId = 1;
  private frame = 0;

  /**
   * `counts`: each type's copies in the box being taught (`counts.ts boxCounts`); with them, no type
   * is read first on more open cards than the box holds, less the copies already answered.
   */
  constructor(
    private readonly counts: ReadonlyMap<string, number> | null = null,
    /**
     * `unreadable`: tiles the model cannot read may be among those laid (a box it was never shown):
     * it reads such a tile as a type it knows, at any confidence, so no card is sure.
     */
    private readonly options: { readonly unreadable?: boolean } = {},
  ) {}

  /** The cards of a new still frame merged in. */
  addFrame(found: readonly TeachCard[]): FrameResult {
    this.frame++;
    const added: number[] = [], moved: number[] = [], kept: number[] = [];
    const live = this.cards.filter((c) => c.state !== 'discarded');
    const claimed = new Set<SessionCard>();
    const fresh: TeachCard[] = [];
    // 1. Tiles still where they were.
    for (const f of found) {
      const fc = centreOf(f.corners), s = meanSide(f.corners);
      // Where a card was, unless the look there is plainly another tile: a table that swept its tiles
      // away and laid others may put one where another lay.
      const same = live.find((c) => !claimed.has(c) && Math.hypot(centreOf(c.corners).x - fc.x, centreOf(c.corners).y - fc.y) < s * 0.35 && !anotherTile(c, f));
      if (same) {
        claimed.add(same);
        same.seen = this.frame;
        same.corners = f.corners;
        // An open card takes the newer look (a hand gone, a clearer frame); an answered one keeps its picture.
        if (same.state === 'open' && (f.why === null || same.why !== null)) Object.assign(same, look(f));
        kept.push(same.id);
      } else fresh.push(f);
    }
    // 2. Tiles moved: a card whose place shows nothing now, whose picture this one matches at some turn.
    const gone = live.filter((c) => !claimed.has(c) && c.cropRgb);
    for (const f of fresh) {
      let best: { c: SessionCard; q: number; d: number } | null = null;
      const first = (f.alternatives[0] ?? f.readings[0])?.tileId;
      if (f.cropRgb && f.why === null && first)
        for (const c of gone) {
          if (claimed.has(c) || !typesOf(c).has(first)) continue;
          const m = pictureMatch(c.cropRgb!, f.cropRgb);
          if (m.d < MOVED_MATCH && (!best || m.d < best.d)) best = { c, ...m };
        }
      if (best) {
        const c = best.c;
        claimed.add(c);
        c.corners = f.corners;
        c.seen = this.frame;
        // An answered card keeps its picture and answer (both from its first look); an open one takes the new look.
        if (c.state === 'accepted') {
          moved.push(c.id);
          continue;
        }
        Object.assign(c, look(f));
        moved.push(c.id);
        continue;
      }
      const card: SessionCard = { id: this.nextId++, corners: f.corners, ...look(f), state: 'open', tileId: null, rotation: null, seen: this.frame };
      this.cards.push(card);
      added.push(card.id);
    }
    this.recount();
    return { added, moved, kept };
  }

  get(id: number): SessionCard {
    const c = this.cards.find((x) => x.id === id);
    if (!c) throw new Error(`no card ${id} in this teach session`);
    return c;
  }

  /** Whether "accept all sure cards" would take this card: sure by its reading and its outline, and like the other copies of its type. */
  isSure(c: SessionCard): boolean {
    if (this.options.unreadable || !(c.state === 'open' && c.why === null && this.sureByReading(c) && outlineSure(c.sideOff))) return false;
    const id = c.readings[0]!.tileId;
    const peers = this.cards.filter((o) => o !== c && o.cropRgb && o.why === null && (o.state === 'accepted' ? o.tileId === id : o.state === 'open' && this.sureByReading(o) && o.readings[0]!.tileId === id));
    return copiesAgree(c.cropRgb, peers.map((o) => o.cropRgb!));
  }

  private sureByReading(c: SessionCard): boolean {
    return isSure(c.readings, !c.byCounts);
  }

  /** Accepts every open card that can be taught and whose first reading is sure; their ids. */
  acceptAllSure(): number[] {
    const out: number[] = [];
    for (const c of this.cards) {
      if (!this.isSure(c)) continue;
      const first = c.readings[0]!;
      this.answer(c, first.tileId, first.rotation, false);
      out.push(c.id);
    }
    this.recount();
    return out;
  }

  /** The table picks reading k (0–2) of a card. */
  pick(id: number, k: number): void {
    const c = this.get(id);
    const r = c.readings[k];
    if (!r) throw new Error(`card ${id} has no reading ${k + 1}`);
    this.answer(c, r.tileId, r.rotation);
  }

  /** The table names the tile (a search by name) and its turn in the card's picture. */
  correct(id: number, tileId: string, rotation: Turn): void {
    this.answer(this.get(id), tileId, rotation);
  }

  discard(id: number): void {
    this.get(id).state = 'discarded';
    this.recount();
  }

  private answer(c: SessionCard, tileId: string, rotation: Turn, recount = true): void {
    if (c.why !== null) throw new Error(`card ${c.id} cannot be taught: ${c.why}`);
    if (!c.cropRgb) throw new Error(`card ${c.id} has no picture`);
    c.state = 'accepted';
    c.tileId = tileId;
    c.rotation = rotation;
    if (recount) this.recount();
  }

  /**
   * The open cards' first readings under the box's counts: the answered cards take their copies,
   * the open ones share what is left (`assignByCounts`). A card the counts move shows the reading
   * they gave it first, then the model's others.
   */
  private recount(): void {
    const open = this.cards.filter((c) => c.state === 'open' && c.why === null && c.alternatives.length > 0);
    const answered = this.cards.filter((c) => c.state === 'accepted' && c.tileId);
    if (!this.counts) return;
    const chosen = assignByCounts([...answered.map((c) => ({ readings: [], answered: c.tileId })), ...open.map((c) => ({ readings: c.alternatives }))], this.counts);
    open.forEach((c, k) => {
      const j = chosen[answered.length + k] ?? 0;
      c.byCounts = j > 0;
      c.readings = [c.alternatives[j]!, ...c.alternatives.filter((_, x) => x !== j)].slice(0, 3);
    });
  }

  /**
   * What the session teaches: each accepted card's type, its turn in the picture, the picture
   * (SHOWN_PX RGB) and the part of it to leave out (`alpha`, 0 there; null: none), where the copy
   * differs from its type's other copies in this session (a figure or a hand over it: `covered.ts`).
   * `types`: only the copies of these types (the rest are not compared).
   */
  taught(types?: ReadonlySet<string>): { cardId: number; tileId: string; rotation: Turn; cropRgb: Uint8Array; alpha: Uint8Array | null }[] {
    const accepted = this.cards.filter((c) => c.state === 'accepted' && c.tileId && c.rotation !== null && c.cropRgb && (!types || types.has(c.tileId)));
    const alpha = new Map<SessionCard, Uint8Array | null>();
    for (const id of new Set(accepted.map((c) => c.tileId!))) {
      const copies = accepted.filter((c) => c.tileId === id);
      coveredMasks(copies.map((c) => ({ rgb: c.cropRgb!, rotation: c.rotation! }))).forEach((m, k) => alpha.set(copies[k]!, m));
    }
    return accepted.map((c) => ({ cardId: c.id, tileId: c.tileId!, rotation: c.rotation!, cropRgb: c.cropRgb!, alpha: alpha.get(c) ?? null }));
  }
}
