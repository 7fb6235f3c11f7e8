/**
 * The table's grid and its feature graph. Every feature drawn on a placed tile is a "part"; parts that
 * join across tile edges are merged with union-find, and each root carries what scoring needs (tiles,
 * open ends, pennants, inns, cathedrals, meeples, bordering cities). Mutable on purpose: it is the
 * working structure behind the event fold, rebuilt by replaying events, never shared.
 */
import type { FeatureKind } from '../catalog/types.js';
import type { OrientedFeature, OrientedTile } from '../geometry/oriented.js';
import { keyX, keyY, posKey, RING8 } from '../geometry/position.js';
import { SIDE_DELTA } from '../geometry/segments.js';

export type MeepleKind = 'normal' | 'big' | 'abbot';

export interface MeepleOnBoard {
  readonly id: number;
  readonly player: number;
  readonly kind: MeepleKind;
  readonly x: number;
  readonly y: number;
  /** The feature part it stands on, or -1 on top of a tower. */
  readonly part: number;
  /** The feature's name on its tile (segment, CLOISTER, GARDEN, TOWER or catalog id). */
  readonly on: string;
}

export interface PlacedTile {
  readonly index: number;
  readonly x: number;
  readonly y: number;
  readonly key: number;
  readonly view: OrientedTile;
  /** Feature index on the tile → part id. */
  readonly parts: readonly number[];
  /** The piece this cell belongs to (multi-cell pieces share one), or -1 for an ordinary tile. */
  readonly piece: number;
}

/** Aggregated data of a merged feature, valid on its root part. */
export interface FeatureData {
  readonly kind: FeatureKind;
  /** Indices of the placed tiles the feature covers; may repeat when it visits a tile twice. */
  tiles: number[];
  /** Unconnected side ends (roads, cities, rivers). */
  open: number;
  pennants: number;
  inns: number;
  cathedrals: number;
  /** Copy-on-write: replaced, never changed in place, so parts can share the empty list. */
  meeples: readonly MeepleOnBoard[];
  /** Fields: part ids of the cities they border (the root's own list, grown in place by unions). */
  cities: readonly number[];
  /** Counts as a completed city for farmers, whatever its edges (a fortress). */
  alwaysComplete: boolean;
}


/** The shared empty list new parts start with. */
const NONE: readonly never[] = Object.freeze([]);

/** The grid starts this many cells wide and high around the origin and grows when a tile lands outside. */
const GRID_START = 32;
const GRID_MARGIN = 16;

export class Board {
  readonly tiles: PlacedTile[] = [];
  /** Placed tiles by position, row-major over [gridX, gridX + gridW) × [gridY, gridY + gridH). */
  private cells: (PlacedTile | undefined)[] = new Array<PlacedTile | undefined>(GRID_START * GRID_START).fill(undefined);
  /** The holes by position on the same grid (the Map keeps their order for listings). */
  private holeCells: (Hole | undefined)[] = new Array<Hole | undefined>(GRID_START * GRID_START).fill(undefined);
  private gridX = -GRID_START / 2;
  private gridY = -GRID_START / 2;
  private gridW = GRID_START;
  private gridH = GRID_START;
  private parent: number[] = [];
  private data: (FeatureData | null)[] = [];
  /** Part id → index of the placed tile it is drawn on. */
  readonly partTile: number[] = [];
  /** Part id → the feature it is on that tile. */
  readonly partFeature: OrientedFeature[] = [];
  /** Cloister and garden parts, which complete by their neighbours rather than their edges. */
  readonly monasteries: number[] = [];
  /**
   * Empty positions next to a placed tile, each with what its sides must match. Kept up to date on
   * every placement so that a fit test is one integer comparison.
   */
  readonly holes = new Map<number, Hole>();
  /** The values of `holes` in its order, kept up to date only once someone has asked (see holeList). */
  private holesInOrder: Hole[] | null = null;
  minX = 0;
  maxX = 0;
  minY = 0;
  maxY = 0;

  get size(): number {
    return this.tiles.length;
  }

  at(x: number, y: number): PlacedTile | undefined {
    const i = x - this.gridX;
    const j = y - this.gridY;
    if (i < 0 || j < 0 || i >= this.gridW || j >= this.gridH) return undefined;
    return this.cells[j * this.gridW + i];
  }

  atKey(key: number): PlacedTile | undefined {
    return this.at(keyX(key), keyY(key));
  }

  /** Makes the grid cover (x, y) and its neighbours (the holes a tile there opens), with room to spare. */
  private cover(x: number, y: number): void {
    if (x > this.gridX && y > this.gridY && x + 1 < this.gridX + this.gridW && y + 1 < this.gridY + this.gridH) return;
    const x0 = Math.min(this.gridX, x - GRID_MARGIN);
    const y0 = Math.min(this.gridY, y - GRID_MARGIN);
    const w = Math.max(this.gridX + this.gridW, x + GRID_MARGIN + 1) - x0;
    const h = Math.max(this.gridY + this.gridH, y + GRID_MARGIN + 1) - y0;
    this.cells = new Array<PlacedTile | undefined>(w * h).fill(undefined);
    this.holeCells = new Array<Hole | undefined>(w * h).fill(undefined);
    this.gridX = x0;
    this.gridY = y0;
    this.gridW = w;
    this.gridH = h;
    for (const t of this.tiles) this.cells[(t.y - y0) * w + (t.x - x0)] = t;
    for (const hole of this.holes.values()) this.holeCells[(hole.y - y0) * w + (hole.x - x0)] = hole;
  }

  find(p: number): number {
    let r = p;
    while (this.parent[r] !== r) r = this.parent[r]!;
    while (this.parent[p] !== r) {
      const n = this.parent[p]!;
      this.parent[p] = r;
      p = n;
    }
    return r;
  }

  feature(part: number): FeatureData {
    return this.data[this.find(part)]!;
  }

  /**
   * Puts a tile on the grid and joins its features with its neighbours'. Legality is the caller's
   * business. Returns the placed tile.
   */
  place(view: OrientedTile, x: number, y: number, piece = -1): PlacedTile {
    const index = this.tiles.length;
    const key = posKey(x, y);
    const parts: number[] = [];
    for (const f of view.features) {
      const id = this.parent.length;
      this.parent.push(id);
      this.partTile.push(index);
      this.partFeature.push(f);
      const def = f.def;
      const k = def.kind;
      if (k === 'cloister' || k === 'garden') this.monasteries.push(id);
      this.data.push({
        kind: k,
        tiles: [index],
        open: f.openEnds,
        pennants: def.pennants,
        inns: def.inn ? 1 : 0,
        cathedrals: def.cathedral ? 1 : 0,
        meeples: NONE,
        cities: NONE,
        alwaysComplete: false,
      });
      parts.push(id);
    }
    // Fields learn their bordering cities once all parts of the tile exist.
    for (let i = 0; i < view.features.length; i++) {
      const cities = view.features[i]!.cityIndices;
      if (cities.length === 0) continue;
      const d = this.data[parts[i]!]!;
      const list: number[] = [];
      for (const ci of cities) list.push(parts[ci]!);
      d.cities = list;
    }
    const placed: PlacedTile = { index, x, y, key, view, parts, piece };
    this.tiles.push(placed);
    // Holes are next to placed tiles, so every hole and its neighbours lie on the grid once the tile does.
    this.cover(x, y);
    const cell = (y - this.gridY) * this.gridW + (x - this.gridX);
    this.cells[cell] = placed;
    const filled = this.holeCells[cell];
    if (filled) {
      this.holeCells[cell] = undefined;
      this.holes.delete(key);
      if (this.holesInOrder) this.holesInOrder.splice(this.holesInOrder.indexOf(filled), 1);
    }
    if (index === 0) {
      this.minX = this.maxX = x;
      this.minY = this.maxY = y;
    } else {
      if (x < this.minX) this.minX = x;
      if (x > this.maxX) this.maxX = x;
      if (y < this.minY) this.minY = y;
      if (y > this.maxY) this.maxY = y;
    }
    for (let s = 0; s < 4; s++) {
      const d = SIDE_DELTA[s]!;
      const nx = x + d[0];
      const ny = y + d[1];
      const n = this.at(nx, ny);
      if (!n) {
        const ncell = (ny - this.gridY) * this.gridW + (nx - this.gridX);
        let hole = this.holeCells[ncell];
        if (!hole) {
          hole = { x: nx, y: ny, mask: 0, want: 0 };
          this.holeCells[ncell] = hole;
          this.holes.set(posKey(nx, ny), hole);
          this.holesInOrder?.push(hole);
        }
        const facing = ((s + 2) % 4) * 6;
        hole.mask |= 63 << facing;
        hole.want |= view.sideCode[s]! << facing;
        continue;
      }
      this.joinSide(placed, n, s);
    }
    return placed;
  }

  /**
   * The holes in the order of `holes`, as an array (do not change it). Kept up to date from the first
   * call on, which is cheaper than walking the Map on every turn for whoever asks every turn.
   */
  holeList(): readonly Hole[] {
    this.holesInOrder ??= [...this.holes.values()];
    return this.holesInOrder;
  }

  /** Joins two parts that meet inside a multi-cell piece, where no printed edge separates them. */
  joinInside(a: number, b: number): void {
    this.union(a, b, 0);
  }

  markAlwaysComplete(part: number): void {
    this.feature(part).alwaysComplete = true;
  }

  private joinSide(t: PlacedTile, n: PlacedTile, side: number): void {
    let lastA = -1;
    let lastB = -1;
    const facing = ((side + 2) % 4) * 3 + 2; // segment k faces 2 - k of the opposite side
    for (let k = 0; k < 3; k++) {
      const fa = t.view.segmentFeature[side * 3 + k]!;
      const a = t.parts[fa]!;
      const b = n.parts[n.view.segmentFeature[facing - k]!]!;
      if (a === lastA && b === lastB) continue;
      lastA = a;
      lastB = b;
      this.union(a, b, t.view.features[fa]!.def.kind === 'field' ? 0 : 2);
    }
  }

  private union(a: number, b: number, closedEnds: number): void {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) {
      this.data[ra]!.open -= closedEnds;
      return;
    }
    let da = this.data[ra]!;
    let db = this.data[rb]!;
    if (da.tiles.length < db.tiles.length) {
      [ra, rb] = [rb, ra];
      [da, db] = [db, da];
    }
    this.parent[rb] = ra;
    this.data[rb] = null;
    for (const t of db.tiles) da.tiles.push(t);
    if (db.meeples.length > 0) da.meeples = da.meeples.length > 0 ? da.meeples.concat(db.meeples) : db.meeples;
    // A root's non-empty cities list is its own (built for it or taken from a merged root), so it may grow in place.
    if (db.cities.length > 0) {
      if (da.cities.length === 0) da.cities = db.cities;
      else for (const c of db.cities) (da.cities as number[]).push(c);
    }
    da.open += db.open - closedEnds;
    da.pennants += db.pennants;
    da.inns += db.inns;
    da.cathedrals += db.cathedrals;
    da.alwaysComplete ||= db.alwaysComplete;
  }

  /** Distinct tiles a feature covers: a tile visited twice counts once. */
  tileCount(part: number): number {
    const tiles = this.feature(part).tiles;
    if (tiles.length < 2) return tiles.length;
    return new Set(tiles).size;
  }

  isComplete(part: number): boolean {
    const k = this.partFeature[part]!.def.kind;
    if (k === 'cloister' || k === 'garden') return this.neighbourCount(this.tiles[this.partTile[part]!]!) === 8;
    if (k === 'field' || k === 'tower') return false;
    const d = this.feature(part);
    return d.alwaysComplete || d.open === 0;
  }

  neighbourCount(t: PlacedTile): number {
    let n = 0;
    for (let i = 0; i < 8; i++) {
      const d = RING8[i]!;
      if (this.at(t.x + d[0], t.y + d[1])) n++;
    }
    return n;
  }

  addMeeple(m: MeepleOnBoard): void {
    if (m.part < 0) return;
    const d = this.feature(m.part);
    d.meeples = d.meeples.length > 0 ? [...d.meeples, m] : [m];
  }

  removeMeeple(m: MeepleOnBoard): void {
    if (m.part < 0) return;
    const d = this.feature(m.part);
    d.meeples = d.meeples.filter((x) => x.id !== m.id);
  }

  /** The part named by a record's feature name on the tile at (x, y). */
  partAt(x: number, y: number, on: string): number | undefined {
    const t = this.at(x, y);
    if (!t) return undefined;
    const seg = SEGMENT_INDEX[on];
    if (seg !== undefined) {
      const fi = t.view.segmentFeature[seg];
      return fi === undefined || fi < 0 ? undefined : t.parts[fi];
    }
    const kind = INTERIOR_KIND[on];
    const fi = t.view.features.findIndex((f) => (kind ? f.def.kind === kind : f.segments.length === 0 && f.def.id === on));
    return fi < 0 ? undefined : t.parts[fi];
  }
}

/**
 * An empty position next to the board: the side codes its neighbours show towards it, packed 6 bits
 * per side like `OrientedTile.matchPacked`, and a mask of the sides that have a neighbour.
 */
export interface Hole {
  readonly x: number;
  readonly y: number;
  mask: number;
  want: number;
}

/** Does the tile, so turned, fit the hole's neighbours? */
export function fitsHole(view: OrientedTile, hole: Hole): boolean {
  return (view.matchPacked & hole.mask) === hole.want;
}

const SEGMENT_INDEX: Record<string, number> = {
  N0: 0, N1: 1, N2: 2, E0: 3, E1: 4, E2: 5, S0: 6, S1: 7, S2: 8, W0: 9, W1: 10, W2: 11,
};
const INTERIOR_KIND: Record<string, FeatureKind> = { CLOISTER: 'cloister', GARDEN: 'garden', TOWER: 'tower', FORTRESS: 'fortress' };
