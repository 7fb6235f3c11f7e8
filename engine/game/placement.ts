/** Where a tile may go: edge matching, adjacency, and the enabled modules' placement rules. */
import type { TileType } from '../catalog/types.js';
import type { OrientedTile } from '../geometry/oriented.js';
import { formatPosition, posKey } from '../geometry/position.js';
import { ROTATIONS, type Rotation, SIDE_DELTA, SIDE_NAMES } from '../geometry/segments.js';
import type { GameState } from './state.js';
import { fitsHole } from '../features/board.js';

const TERRAIN_NAMES = ['field', 'road', 'city', 'river'];

function sideText(code: number): string {
  return [code & 3, (code >> 2) & 3, (code >> 4) & 3].map((t) => TERRAIN_NAMES[t]).join('/');
}

/** Why the tile, so turned, cannot be placed at (x, y) by its edges, or null when it fits. */
export function edgeProblem(state: GameState, view: OrientedTile, x: number, y: number): string | null {
  const board = state.board;
  if (board.at(x, y)) return `${formatPosition([x, y])} already holds a tile`;
  let neighbours = 0;
  for (let s = 0; s < 4; s++) {
    const d = SIDE_DELTA[s]!;
    const n = board.at(x + d[0], y + d[1]);
    if (!n) continue;
    neighbours++;
    const theirs = n.view.sideCode[(s + 2) % 4]!;
    if (theirs !== view.matchCode[s]) {
      return `its ${SIDE_NAMES[s]} edge (${sideText(view.sideCode[s]!)}) does not match ${n.view.tile.id} at ${formatPosition([n.x, n.y])} (${sideText(theirs)} facing it)`;
    }
  }
  if (neighbours === 0) return `${formatPosition([x, y])} touches no placed tile along an edge`;
  return null;
}

/** Why this tile may not be played now at all (supply, the River's order), or null. */
export function tileProblem(state: GameState, tile: TileType): string | null {
  if ((state.supply.get(tile.id) ?? 0) <= 0) return `no ${tile.id} is left to draw`;
  for (const rule of state.pipeline.tileRules) {
    const why = rule(state, tile);
    if (why) return why;
  }
  return null;
}

export function placementProblem(state: GameState, view: OrientedTile, x: number, y: number): string | null {
  const hole = state.board.holes.get(posKey(x, y));
  if (!hole || !fitsHole(view, hole)) return edgeProblem(state, view, x, y) ?? 'it does not fit there';
  for (const rule of state.pipeline.placementRules) {
    const why = rule(state, view, x, y);
    if (why) return why;
  }
  return null;
}

export interface Placement {
  readonly at: readonly [number, number];
  readonly rot: Rotation;
}

/** Every legal (position × rotation) for a tile, in a stable order. */
export function legalPlacements(state: GameState, tileId: string): Placement[] {
  const tile = state.catalog.get(tileId);
  if (!tile || tileProblem(state, tile)) return [];
  return placementsIgnoringSupply(state, tileId);
}

/** Legal spots by the board alone (the recognizer also asks this for tiles it is unsure of). */
export function placementsIgnoringSupply(state: GameState, tileId: string): Placement[] {
  const out: Placement[] = [];
  findPlacements(state, tileId, (x, y, q) => {
    out.push({ at: [x, y], rot: ROTATIONS[q]! });
    return false;
  });
  return out;
}

export function hasLegalPlacement(state: GameState, tileId: string): boolean {
  return findPlacements(state, tileId, () => true);
}

/** How many spots placementsIgnoringSupply would list, without listing them. */
export function countPlacementsIgnoringSupply(state: GameState, tileId: string): number {
  let n = 0;
  findPlacements(state, tileId, () => {
    n++;
    return false;
  });
  return n;
}

/** The spot at index `k` of placementsIgnoringSupply's list, or null when there are not that many. */
export function nthPlacementIgnoringSupply(state: GameState, tileId: string, k: number): Placement | null {
  let found: Placement | null = null;
  let i = 0;
  findPlacements(state, tileId, (x, y, q) => {
    if (i++ < k) return false;
    found = { at: [x, y], rot: ROTATIONS[q]! };
    return true;
  });
  return found;
}

/** Calls `found` for each legal placement by the board and the placement rules until it returns true. */
function findPlacements(state: GameState, tileId: string, found: (x: number, y: number, q: number) => boolean): boolean {
  const rules = state.pipeline.placementRules;
  const views = state.catalog.views(tileId);
  for (let q = 0; q < 4; q++) {
    const view = views[q]!;
    for (const hole of state.board.holes.values()) {
      if (!fitsHole(view, hole)) continue;
      if (breaksARule(state, rules, view, hole.x, hole.y)) continue;
      if (found(hole.x, hole.y, q)) return true;
    }
  }
  return false;
}

/** Does one of the modules' placement rules forbid the tile, so turned, at (x, y)? */
export function breaksARule(state: GameState, rules: GameState['pipeline']['placementRules'], view: OrientedTile, x: number, y: number): boolean {
  for (let r = 0; r < rules.length; r++) if (rules[r]!(state, view, x, y)) return true;
  return false;
}
