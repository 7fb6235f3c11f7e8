/**
 * What the click entry asks the engine (issue 29): the game's tile types drawn and named for the
 * picker, and every cell where a chosen tile may go with its legal turns there. The engine answers
 * legality (legalPlacements, the tournament tile's spots, and `decide` for prize tiles); this module
 * only shapes the answers for the screens.
 */
import { EXPANSION_WORDS, tileWordsAll } from '../../../engine/catalog/tile-words.js';
import type { ExpansionId } from '../../../engine/catalog/types.js';
import { tiles2025 } from '../../../engine/catalog/provisional2025.js';
import { decide } from '../../../engine/game/engine.js';
import type { Game } from '../../../engine/game/game.js';
import { legalPlacements, tileProblem } from '../../../engine/game/placement.js';
import { pieceAt } from '../../../engine/game/pieces.js';
import { ROTATIONS, type Rotation } from '../../../engine/geometry/segments.js';
import { TOURNAMENT_RIVER_PIECE, tournamentTileSpots } from '../../../engine/expansions/jousts-crests/tournament-tile.js';
import type { PlacementsView, TileChoice, TilePlacement } from '../../contract/entry.js';
import { meepleSpots, tileView } from './view.js';

const quarter = (rot: Rotation) => rot / 90;

/** Every tile type the game may still show (land tiles in its supply, prize tiles), drawn at rest. */
export function tileChoices(game: Game): TileChoice[] {
  const state = game.state;
  const ids = new Set<string>(state.supply.keys());
  if (state.jc) for (const id of state.jc.prizePool.keys()) ids.add(id);
  const types = [...ids].map((id) => state.catalog.get(id)).filter((t) => t !== undefined);
  const words = tileWordsAll(types);
  const prizes: { has(id: string): boolean } = state.jc ? tiles2025().prizeTiles : new Set<string>();
  return types.map((t) => ({
    tile: t.id,
    words: words.get(t.id) ?? t.id,
    expansion: EXPANSION_WORDS[t.expansion as ExpansionId] ?? t.expansion,
    prize: prizes.has(t.id),
    view: tileView(state.catalog.view(t.id, 0), 0, 0),
  }));
}

/** Groups placements by the cell a player points at (a piece: its top-left cell). */
type Turn = TilePlacement['turns'][number];
function byCell(list: { at: readonly [number, number]; rot: Rotation; cells: Turn['cells']; spots?: Turn['spots'] }[]): TilePlacement[] {
  const cells = new Map<string, TilePlacement & { turns: Turn[] }>();
  for (const p of list) {
    const key = `${p.at[0]},${p.at[1]}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { x: p.at[0], y: p.at[1], turns: [] }));
    c.turns.push({ rot: p.rot, cells: p.cells, spots: p.spots ?? [] });
  }
  for (const c of cells.values()) c.turns.sort((a, b) => a.rot - b.rot);
  return [...cells.values()];
}

/**
 * Where `tile` may go now, as `as` says: a land tile, a prize tile, or the tournament tile (its id is
 * ignored). `problem` says why a tile cannot be played at all (none left, the River's order).
 */
export function placements(game: Game, tile: string, as: 'land' | 'prize' | 'tournament'): PlacementsView {
  const state = game.state;
  const player = state.turn.player;
  if (as === 'tournament') {
    const spots = tournamentTileSpots(state).map((s) => ({
      at: s.at,
      rot: s.rot,
      cells: pieceAt(TOURNAMENT_RIVER_PIECE, s.at, s.rot).map((c) => tileView(state.catalog.view(c.tile, quarter(c.rot)), c.at[0], c.at[1])),
    }));
    return { cells: byCell(spots), problem: spots.length ? null : 'the tournament tile cannot continue the river anywhere' };
  }
  const type = state.catalog.get(tile);
  if (!type) return { cells: [], problem: 'this tile is not in the game' };
  if (as === 'prize') {
    const found: { at: readonly [number, number]; rot: Rotation; cells: Turn['cells'] }[] = [];
    for (const hole of state.board.holes.values()) {
      for (const rot of ROTATIONS) {
        if (decide(state, { type: 'placePrizeTile', player, tile, at: [hole.x, hole.y], rot }).ok) {
          found.push({ at: [hole.x, hole.y], rot, cells: [tileView(state.catalog.view(tile, quarter(rot)), hole.x, hole.y)] });
        }
      }
    }
    return { cells: byCell(found), problem: null };
  }
  const problem = tileProblem(state, type);
  if (problem) return { cells: [], problem };
  const found = legalPlacements(state, tile).map((p) => {
    // The figure spots the tile would offer so laid: the turn it leads to, asked of the engine.
    const after = game.peek({ type: 'placeTile', player, tile, at: p.at, rot: p.rot });
    const spots = after.ok ? meepleSpots(after.value) : [];
    return { at: p.at, rot: p.rot, cells: [tileView(state.catalog.view(tile, quarter(p.rot)), p.at[0], p.at[1])], spots };
  });
  return { cells: byCell(found), problem: null };
}

/**
 * The tile types that may lie at `at` now, in some turn (by the rules and what is left: land tiles of
 * the supply, or prize tiles): what a photo answering the camera's question about that cell may show.
 */
export function typesFittingCell(game: Game, at: readonly [number, number], as: 'land' | 'prize'): Set<string> {
  const state = game.state;
  const player = state.turn.player;
  const ids = as === 'land' ? [...state.supply].filter(([, n]) => n > 0).map(([id]) => id) : [...(state.jc?.prizePool.keys() ?? [])];
  const type = as === 'land' ? 'placeTile' : 'placePrizeTile';
  return new Set(ids.filter((tile) => ROTATIONS.some((rot) => decide(state, { type, player, tile, at: [at[0], at[1]], rot }).ok)));
}
