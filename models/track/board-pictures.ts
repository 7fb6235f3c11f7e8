/**
 * The board as pictures of the table's own tiles: one per tile type, cut from the last still frame
 * (Tracker `cellPicture`), the places where figures stand left out. The next games' templates, and
 * exemplars for the model.
 */
import type { Frame } from '../../calibration/frame.js';
import { underTowerFloor } from '../../engine/expansions/tower.js';
import type { GameState } from '../../engine/game/state.js';
import { posKey } from '../../engine/geometry/position.js';
import type { Rotation } from '../../engine/geometry/segments.js';
import { featurePoint } from '../scene/spots.js';
import type { TilePicture } from './templates.js';

/** Radius (tile units) left out of a picture around a figure standing on the tile: a big follower leaning off its point. */
const HIDDEN_FIGURE_R = 0.25;

/**
 * One picture per tile type on the board, from the last still frame: of a copy with no figure on
 * it where there is one, else of the copy with fewest, their places left out (`hidden`); copies
 * under a tower floor are not pictured, nor a copy the table entered after that frame
 * (`stillTiles`). What a table enrolls from a game it played
 * (at its end, or between turns when it asks).
 */
export function boardPictures(state: GameState, stillTiles: ReadonlySet<number>, picture: (x: number, y: number) => Frame | null): TilePicture[] {
  const copies = new Map<string, { x: number; y: number; rot: Rotation; hidden: { x: number; y: number; r: number }[] }[]>();
  for (const t of state.board.tiles) {
    // A tower floor covers too much of a tile to picture it with the floor left out.
    if (underTowerFloor(state, t)) continue;
    const hidden = state.meeples
      .filter((m) => m.x === t.x && m.y === t.y)
      .map((m) => {
        const f = t.view.features.find((g) => g.name === m.on);
        const [x, y] = f ? featurePoint(t.view, f.index) : [0.5, 0.5];
        return { x, y, r: HIDDEN_FIGURE_R };
      });
    const list = copies.get(t.view.tile.id) ?? [];
    list.push({ x: t.x, y: t.y, rot: t.view.rot, hidden });
    copies.set(t.view.tile.id, list);
  }
  const out: TilePicture[] = [];
  for (const [tileId, list] of copies) {
    // Fewest figures first (a stable sort: board order among equals).
    list.sort((a, b) => a.hidden.length - b.hidden.length);
    for (const c of list) {
      // The last still frame may be older than a tile the table entered by hand.
      if (!stillTiles.has(posKey(c.x, c.y))) continue;
      const f = picture(c.x, c.y);
      if (!f || f.channels !== 3) continue;
      out.push({ tileId, rot: c.rot, width: f.width, height: f.height, data: f.data, ...(c.hidden.length ? { hidden: c.hidden } : {}) });
      break;
    }
  }
  return out;
}
