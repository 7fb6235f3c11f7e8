/**
 * The table's own art, learned from the camera: the picture of a tile the table picked in the top-3
 * picker (its identity and rotation confirmed) is stored as an enrolled exemplar, up to
 * `LEARN_PER_TILE` per tile type, and matched by the model's readings from then on (models/enroll.ts);
 * a finished game's board, or the board between turns when the table asks, gives each tile type on it
 * a picture the next games read by as their templates (services/tiles/enrolled.ts).
 *
 * The pictures are cut and encoded in the tracker's worker (from the frame it read the tile on, or
 * its last still frame) and stored here; a picture that cannot be stored is named to the table and
 * the game goes on (learning is a bonus).
 */
import { underTowerFloor } from '../../../engine/expansions/tower.js';
import type { Command, PlacePrizeTile, PlaceTile } from '../../../engine/game/commands.js';
import type { Game } from '../../../engine/game/game.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import type { CameraView } from '../../contract/camera.js';
import type { GameSession } from '../session/session.js';
import type { Store } from '../store/store.js';
import { BOARD_PICTURE_SOURCE, picturedTypes } from '../tiles/enrolled.js';
import { TrackerDown, type TrackerClient } from './tracker-client.js';
import { sameCommand } from './camera-readings.js';

/** Pictures of a tile type the table's answers enroll; more add little and cost every later reading. */
export const LEARN_PER_TILE = 2;

export interface TableArtHost {
  readonly store: Store;
  readonly session: GameSession;
  /** The tracker now (null: none), and the one reading the session's game (null: none yet). */
  tracker(): TrackerClient | null;
  trackerOfThisGame(): TrackerClient | null;
  /** A question of the camera's waits for the table. */
  questionOpen(): boolean;
  /** Runs after the camera's earlier background work (pictures are stored one after another). */
  later(task: () => Promise<void>): void;
  notice(text: string, error: boolean, frame?: number): void;
  changed(): void;
}

export class TableArt {
  /** A tile the table just picked in the picker: its picture is enrolled once the tracker has it. */
  private toLearn: PlaceTile | PlacePrizeTile | null = null;
  /** The game whose final board was pictured (once per game). */
  private boardPicturedFor: number | null = null;
  /** Tile types the store holds a board picture of (the table's art the tracker reads by). */
  private pictured = new Set<string>();
  /** A picture of the board the table asked for is being stored. */
  private picturing = false;

  constructor(private readonly h: TableArtHost) {}

  /** The table picked this tile in the picker (it is in the game now). */
  picked(c: PlaceTile | PlacePrizeTile): void {
    this.toLearn = c;
  }

  /** Another game: a pick of the last one is not learned. */
  newGame(): void {
    this.toLearn = null;
  }

  /** The types a new tracker was given pictures of (it loaded them from the store). */
  picturedNow(tileIds: Iterable<string>): void {
    this.pictured = new Set(tileIds);
  }

  /** The tile types the store holds a picture of, taught or from a board (and the cached set brought level with it). */
  storedPictures(): Set<string> {
    this.pictured = picturedTypes(this.h.store);
    return this.pictured;
  }

  /**
   * The tracker was levelled with the session (`added`: the commands it had to add) for game
   * `gameId`: a tile the table picked is learned once the tracker has it (it must have the tile in
   * its game to cut its picture; a pick made while this levelling was on its way is learned at the
   * next one), and a finished game's board is pictured, once.
   */
  levelled(added: readonly Command[], gameId: number | null): void {
    const learn = this.toLearn;
    if (learn && added.some((c) => sameCommand(c, learn))) {
      this.toLearn = null;
      this.learn(learn);
    } else if (learn && !this.h.session.currentGame?.commands.some((c) => sameCommand(c, learn))) this.toLearn = null;
    // A finished game's board shows the table's art: its tiles become the next games' templates.
    if (this.h.tracker()?.game.state.finished && gameId !== null && this.boardPicturedFor !== gameId) {
      this.boardPicturedFor = gameId;
      this.h.later(async () => {
        const n = await this.pictureBoard();
        if (n > 0) this.h.notice(`pictured ${n} tile type${n === 1 ? '' : 's'} from the final board: the camera reads this table's art by them from the next game on`, false, -1);
        this.h.changed();
      });
    }
  }

  /**
   * Stores a picture of each tile type on the board that has no board picture yet (from the last
   * still frame, a copy with no figure on it where there is one, else the figures' places left
   * transparent; Tracker `boardPictures`): the next games' templates, and exemplars for the model
   * from now on. Returns how many types were pictured; a picture that cannot be stored is named in
   * the notices and the rest go on.
   */
  async pictureBoard(): Promise<number> {
    const tracker = this.h.tracker();
    if (!tracker) return 0;
    const have = this.storedPictures();
    let offered;
    try {
      offered = await tracker.request({ op: 'boardPictures', have: [...have] });
    } catch (e) {
      if (!(e instanceof TrackerDown)) throw e;
      this.h.notice(`the board was not pictured: ${e.message}`, true, -1);
      return 0;
    }
    for (const p of offered.problems) this.h.notice(p, true, -1);
    const stored: string[] = [];
    for (const p of offered.pictures) {
      try {
        this.h.store.addExemplar({ tileId: p.tileId, rot: p.rot, source: BOARD_PICTURE_SOURCE, image: Buffer.from(p.png), mime: 'image/png' });
        stored.push(p.tileId);
        this.pictured.add(p.tileId);
      } catch (e) {
        this.h.notice(`the final board's picture of ${p.tileId} could not be stored: ${(e as Error).message}`, true, -1);
      }
    }
    // The rest of this game reads the types by them too (a game in play is pictured between turns only).
    if (stored.length > 0 && tracker === this.h.tracker())
      await tracker.request({ op: 'usePictures', tileIds: stored }).catch((e: unknown) => {
        if (!(e instanceof TrackerDown)) throw e;
      });
    return stored.length;
  }

  /**
   * Why the board cannot be pictured now, or null when it can. Only between turns: then every
   * figure on the board went through the rules (read by the camera or entered by the table), so
   * the figures' places are known and left out; a figure being put down mid-turn is not known yet
   * and would be frozen into the picture.
   */
  blocker(): string | null {
    if (!this.h.session.currentGame) return 'no game is being played';
    const tracker = this.h.trackerOfThisGame();
    if (!tracker) return 'the camera is not reading this game yet';
    if (this.picturing) return 'the board is being pictured';
    if (this.h.questionOpen()) return 'answer the camera’s question first';
    const state = tracker.game.state;
    if (!state.finished && state.turn.step !== 'tile') return 'wait until this turn is over (its figure placed or passed, its points scored)';
    if (state.board.tiles.every((t) => this.pictured.has(t.view.tile.id) || underTowerFloor(state, t))) return 'every tile type on the board is pictured already';
    return null;
  }

  /**
   * The table asks for a picture of the board now (between turns): each tile type on it without a
   * picture yet is pictured as at a game's end. Starts it; the notices say how many types were pictured.
   */
  pictureNow(): Result<void> {
    const blocked = this.blocker();
    if (blocked) return fail(`the board cannot be pictured now: ${blocked}`);
    this.picturing = true;
    this.h.later(async () => {
      try {
        const n = await this.pictureBoard();
        this.h.notice(n > 0 ? `pictured ${n} tile type${n === 1 ? '' : 's'} from the board: the camera reads ${n === 1 ? 'it' : 'them'} by this table's art from now on` : 'no tile on the board could be pictured: the camera has no still picture of it yet', n === 0);
      } finally {
        this.picturing = false;
        this.h.changed();
      }
    });
    return ok(undefined);
  }

  /**
   * Enrolls the picture of a tile the table confirmed: the tracker's last still frame is the one it
   * read the tile on (frames are held while a question is open).
   */
  private learn(c: PlaceTile | PlacePrizeTile): void {
    const tracker = this.h.tracker();
    if (!tracker) return;
    if ((this.h.store.exemplarCounts().get(c.tile) ?? 0) >= LEARN_PER_TILE) return;
    // Asked now (the tracker's last still frame is the one it read the tile on), stored when it answers.
    const asked = tracker.request({ op: 'learn', tile: c.tile, rot: c.rot, at: c.at });
    this.h.later(async () => {
      try {
        const r = await asked;
        if (r.problem) throw new Error(r.problem);
        if (!r.png) return;
        this.h.store.addExemplar({ tileId: c.tile, rot: c.rot, source: 'camera: the table picked it', image: Buffer.from(r.png), mime: 'image/png' });
      } catch (e) {
        if (e instanceof TrackerDown) return;
        this.h.notice(`the picture of ${c.tile} could not be enrolled: ${(e as Error).message}`, true, -1);
        this.h.changed();
      }
    });
  }

  /** How many of this game's tile types the table's art has been pictured for, and why the board cannot be pictured now. */
  view(state: Game['state'] | null): CameraView['art'] {
    const types = new Set<string>();
    if (state) {
      for (const [id, n] of state.supply) if (n > 0) types.add(id);
      for (const t of state.board.tiles) types.add(t.view.tile.id);
    }
    return { pictured: [...types].filter((id) => this.pictured.has(id)).length, types: types.size, pictureNow: this.blocker() };
  }
}
