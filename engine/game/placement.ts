/** Where a tile may go: edge matching, adjacency, and the enabled modules' placement rules. */
import type { TileType } from '../catalog/types.js';
import type { OrientedTile } from '../geometry/oriented.js';
import { formatPosition, keyX, keyY, posKey } from '../geometry/position.js';
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
  findPlacements(state, tileId, (p) => {
    out.push(p);
    return false;
  });
  return out;
}

export function hasLegalPlacement(state: GameState, tileId: string): boolean {
  return findPlacements(state, tileId, () => true);
}

/** Calls `found` for each legal placement by the board and the placement rules until it returns true. */
function findPlacements(state: GameState, tileId: string, found: (p: Placement) => boolean): boolean {
  const rules = state.pipeline.placementRules;
  for (let q = 0; q < 4; q++) {
    const view = state.catalog.view(tileId, q);
    for (const [key, hole] of state.board.holes) {
      if (!fitsHole(view, hole)) continue;
      const x = keyX(key);
      const y = keyY(key);
      if (rules.some((rule) => rule(state, view, x, y))) continue;
      if (found({ at: [x, y], rot: ROTATIONS[q]! })) return true;
    }
  }
  return false;
}
