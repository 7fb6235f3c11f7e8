/**
 * The order of new tiles when the table does not tell its draws (the tile laid is the draw, as in
 * Jousts & Crests and Siege & Defense): a tile is laid after every tile seen before it, so each cell
 * that changed is remembered with the frame it was first seen changed in — holes, and the cells one
 * step beyond them where a tile may be laid before its neighbour is in the game — and holes that
 * already show a tile the game lacks are set apart. docs/tracking.md, "Order without a draw".
 */
import type { Board } from '../../engine/features/board.js';
import type { Game } from '../../engine/game/game.js';
import { keyX, keyY, posKey } from '../../engine/geometry/position.js';
import { changedCells, type ChangedCell } from './cell-crops.js';
import type { CellCrop } from './templates.js';
import { earlierTileIn } from './earlier-tile.js';

const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1]] as const;

/** What `earlierTile` needs of a game: its board and this turn's told draw. */
export type OrderState = { readonly board: Pick<Board, 'holes' | 'tiles'>; readonly turn: { readonly drawn: string | null } };

/**
 * Does the table tell this game's draws (then the drawn tile says which new tile is this turn's)?
 * This turn's draw is told, or every tile laid or discarded so far came with a told draw (the
 * bench's recordings). A draw told by itself now and then (a siege symbol, the first river bend,
 * a tile that fits nowhere) leaves the other turns' tiles to be ordered by when they were seen.
 */
export function drawTold(game: Game): boolean {
  if (game.state.turn.drawn !== null) return true;
  let draws = 0, tiles = 0;
  for (const c of game.commands) {
    if (c.type === 'drawTile') draws++;
    else if (c.type === 'placeTile' || c.type === 'discardTile') tiles++;
  }
  return draws > 0 && draws >= tiles;
}

export class TileOrder {
  /**
   * Holes where the table already shows a tile the game does not have (the camera started late,
   * moves were not entered): their baseline is that tile, so the camera cannot see it laid. Not
   * read until the table enters the move (the hole becomes a tile) or the tile is lifted.
   */
  readonly ahead = new Set<number>();
  /**
   * The order of tiles when no draw is told (the tile laid is the draw): the cells one step beyond
   * the holes, as they looked at the last still scene they did not change in, and the frame each
   * cell (there or a hole) was first seen changed in and not read yet. A tile laid beyond the board's
   * edge (next to a tile the game does not have yet) is so seen appearing before its cell is a hole,
   * and read in its turn, before any tile laid after it (docs/tracking.md, "Order without a draw").
   */
  readonly outerCrops = new Map<number, CellCrop>();
  readonly firstSeen = new Map<number, number>();

  /**
   * With no draw told, a cell other than (x, y) holding a tile the game lacks that may have been laid
   * before the tile at (x, y), which was first seen changed at frame `seenAt`, or null: while there is
   * one, nothing says the tile at (x, y) is this turn's. Such a cell is one set apart (a tile the
   * table took back, or one seen at the camera's start) or one first seen changed no later than
   * (x, y) (a still scene between them missed, the services busy): only a cell beyond the board's
   * edge whose one neighbour with a new tile is (x, y) is known to come after it.
   */
  earlierTile(x: number, y: number, seenAt: number, state: OrderState): readonly [number, number] | null {
    // (The rule itself in earlier-tile.ts: the camera service weighs open readings by it too, on the
    // cells its tracker's worker reports, without loading the tracker's modules.)
    return earlierTileIn(this, x, y, seenAt, state);
  }

  /**
   * With no draw told, which changed holes are read now: those first seen changed earliest (a tile
   * is laid after every tile seen before it). When one hole is the earliest, it alone is read and the
   * rest wait for the next still scene (then the game is at their turn); when several were first seen
   * in one scene, nothing orders them: the first read is left to the table (`earlierTile`) and the
   * rest stay new until it has answered.
   */
  inOrder(changed: ChangedCell[], frame: number): { now: typeof changed; later: typeof changed } {
    const seen = (key: number) => this.firstSeen.get(key) ?? frame;
    for (const h of changed) if (!this.firstSeen.has(h.key)) this.firstSeen.set(h.key, frame);
    if (changed.length < 2) return { now: changed, later: [] };
    const first = Math.min(...changed.map((h) => seen(h.key)));
    const oldest = changed.filter((h) => seen(h.key) === first);
    if (oldest.length > 1 || first === frame) return { now: changed, later: [] };
    return { now: oldest, later: changed.filter((h) => seen(h.key) !== first) };
  }

  /** The cells one step beyond the holes: neither a tile nor a hole. */
  ring(board: Pick<Board, 'holes' | 'tiles'>): Set<number> {
    const { holes, tiles } = board;
    const ring = new Set<number>();
    for (const key of holes.keys()) {
      for (const [dx, dy] of NEIGHBOURS) {
        const k = posKey(keyX(key) + dx, keyY(key) + dy);
        if (!holes.has(k) && !tiles.some((t) => t.key === k)) ring.add(k);
      }
    }
    return ring;
  }

  /**
   * The cells one step beyond the holes (no draw told): a cell that changed since its last look is
   * remembered with the frame (a tile laid there before its neighbour is in the game); one that did
   * not is looked at anew. A scene where most of them changed at once (the camera nudged) only
   * renews the looks.
   */
  lookBeyond(board: Pick<Board, 'holes' | 'tiles'>, frame: number, crop: (x: number, y: number) => CellCrop): void {
    const ring = this.ring(board);
    const known = new Map([...ring].filter((k) => this.outerCrops.has(k)).map((k) => [k, this.outerCrops.get(k)!] as const));
    const changed = new Set(changedCells(known, crop, true).map((c) => c.key));
    // Light is levelled out by `changedCells`; a camera move past MOVED_SCENE is followed before this.
    // What is left that changes most of the ring at once is a nudge: tiles laid while the table fell
    // behind (frames dropped) change a few cells, and each must be remembered to be read in its turn.
    const many = changed.size > Math.max(3, ring.size / 2);
    for (const k of [...this.outerCrops.keys()]) if (!ring.has(k) && !board.holes.has(k)) this.outerCrops.delete(k);
    for (const k of ring) {
      if (changed.has(k) && !many) {
        if (!this.firstSeen.has(k)) this.firstSeen.set(k, frame);
        continue;
      }
      this.firstSeen.delete(k);
      this.outerCrops.set(k, crop(keyX(k), keyY(k)));
    }
  }
}
