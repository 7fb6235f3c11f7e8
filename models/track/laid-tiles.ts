/**
 * The tiles already laid, checked at each still scene against how they looked at the last one: a
 * figure that came or went is expected (scoring returns figures); a tile that is gone (the cell looks
 * as it did empty) or turned (another turn of it fits far better) is told to the table with the
 * undo or correction it may want. Nothing is committed from here.
 */
import type { Game } from '../../engine/game/game.js';
import { ROTATIONS } from '../../engine/geometry/segments.js';
import { sameUpToSymmetry } from '../classes.js';
import { PITCH_MM } from '../scene/render.js';
import { ANCHOR_MARGIN, tileOffset } from './anchor.js';
import { changedCells } from './cell-crops.js';
import type { FigureReader } from './figures.js';
import { seemsLifted } from './lifted.js';
import type { Reading } from './reading.js';
import { CROP_PX, matchTemplate, type CellCrop, type TileTemplates } from './templates.js';
import type { TrackEvent } from './tracker.js';

/** What the check compares: the game, the drawings, and each laid tile's and cell's last looks. */
export interface LaidTilesSeen {
  readonly game: Game;
  readonly templates: TileTemplates;
  readonly figures: FigureReader;
  /** Each laid tile as the last still scene showed it. */
  readonly tileCrops: ReadonlyMap<number, CellCrop>;
  /** Each cell as it last looked empty. */
  readonly emptyCrops: ReadonlyMap<number, CellCrop>;
}

/**
 * Laid tiles that changed: a figure came or went (scoring returns them) is expected; a tile that is
 * gone (the cell looks as it did empty) or turned (another turn of it fits far better) is reported
 * with an undo or correction for the table. Nothing is committed from here.
 */
export function checkLaidTiles(o: LaidTilesSeen, frame: number, crop: (x: number, y: number) => CellCrop, wide: (x: number, y: number, ox: number, oy: number) => CellCrop): TrackEvent[] {
  const out: TrackEvent[] = [];
  const state = o.game.state;
  const byKey = new Map(state.board.tiles.map((t) => [t.key, t]));
  const tracked = new Map([...o.tileCrops].filter(([k]) => o.emptyCrops.has(k)));
  for (const c of changedCells(tracked, crop)) {
    const t = byKey.get(c.key);
    const empty = o.emptyCrops.get(c.key);
    if (!t || !empty) continue;
    const q = ROTATIONS.indexOf(t.view.rot);
    const tpl = o.templates.get(t.view.tile.id, q);
    if (!tpl) continue;
    const known = matchTemplate(c.now, tpl);
    const r: Reading = { tile: t.view.tile.id, q, d: known.d, match: known };
    // The tile's drawing where the plane puts the cell, with a figure drawn in, or anywhere within
    // the anchors' search (±7 mm; from its edge once more): a plane solved from three markers
    // jumped up to half a cell from one still frame to the next on a tuning game, and every tile
    // it moved looked lifted.
    const dKnown = Math.min(known.d, foundNear(wide, t.x, t.y, tpl), ...o.figures.hypotheses(c.now, r, state).map((h) => h.d));
    const index = o.game.history.findIndex((h) => (h.command.type === 'placeTile' || h.command.type === 'placePrizeTile') && h.command.at[0] === t.x && h.command.at[1] === t.y);
    if (seemsLifted(c.now, { empty, last: o.tileCrops.get(c.key)! }, dKnown)) {
      out.push({ kind: 'notice', frame, message: `the tile ${t.view.tile.id} at (${t.x}, ${t.y}) seems lifted: undo its placement (command ${index})? nothing changed until the table says so` });
      continue;
    }
    for (let q2 = 0; q2 < 4; q2++) {
      if (q2 === q || sameUpToSymmetry(t.view.tile, q, q2)) continue;
      // The other turn with a figure drawn in too: a real figure covers a third of a tile, and the
      // turn the table entered must not win by the figure its drawing alone lacks.
      const m2 = matchTemplate(c.now, o.templates.get(t.view.tile.id, q2)!);
      const turned = m2.d < dKnown * 0.5 || o.figures.hypotheses(c.now, { tile: t.view.tile.id, q: q2, d: m2.d, match: m2 }, state).some((h) => h.d < dKnown * 0.5);
      if (turned) {
        out.push({ kind: 'notice', frame, message: `the tile ${t.view.tile.id} at (${t.x}, ${t.y}) seems turned to ${ROTATIONS[q2]}°: correct command ${index}? nothing changed until the table says so` });
        break;
      }
    }
  }
  return out;
}

/**
 * How well the tile's drawing fits somewhere around its cell (`tileOffset`'s distance): searched
 * ±ANCHOR_MARGIN px, and once more around the best offset when that lies on the search's edge.
 */
function foundNear(wide: (x: number, y: number, ox: number, oy: number) => CellCrop, x: number, y: number, tpl: CellCrop): number {
  const first = tileOffset(wide(x, y, 0, 0), tpl);
  if (Math.abs(first.sx) < ANCHOR_MARGIN && Math.abs(first.sy) < ANCHOR_MARGIN) return first.d;
  const mm = PITCH_MM / CROP_PX;
  return Math.min(first.d, tileOffset(wide(x, y, first.sx * mm, first.sy * mm), tpl).d);
}
