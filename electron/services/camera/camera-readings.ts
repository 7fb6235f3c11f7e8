/**
 * What the tracker read, to the table: every reading is a proposal (proposals.ts), so the engine
 * decides each one. A sure reading (at the table's `commitAt`) is proposed and accepted at once —
 * the rules may still refuse it; an unsure one waits for the table's answer in the top-3 picker.
 * Readings left open when the game moves on are looked at again (`reviewOpen`): a tile seen before
 * its turn is committed once the rules take it, a figure about a moment the game left is withdrawn.
 * A reading of a tracker that went down since is never committed by the camera.
 */
import type { Command, PlacePrizeTile, PlaceTile } from '../../../engine/game/commands.js';
import type { Game } from '../../../engine/game/game.js';
import { decide } from '../../../engine/game/engine.js';
import { posKey } from '../../../engine/geometry/position.js';
import type { TrackEvent } from '../../../models/track/tracker.js';
import type { GameSession } from '../session/session.js';
import type { ProposalDesk, StoredProposal } from './proposals.js';
import type { TrackerClient } from './tracker-client.js';

type Reading = Extract<TrackEvent, { kind: 'proposal' }>;

const CAMERA_SOURCE = 'camera';

export interface CameraReadingsHost {
  readonly desk: ProposalDesk;
  readonly session: GameSession;
  /** The confidence at which a reading is committed without asking. */
  commitAt(): number;
  /** The tracker (worker generation) reading now, and the first one made after a worker went down. */
  generation(): number;
  restartedAt(): number;
  /** The tracker reading the session's game, or null (none yet, or it went down). */
  trackerOfThisGame(): TrackerClient | null;
  /** No camera now (chosen so, or the demo stopped): no reading is the camera's to commit. */
  switchedOff(): boolean;
  /** Brings the tracker level with the session after a move (what that releases is proposed too). */
  level(): Promise<unknown>;
  notice(text: string, error: boolean, frame: number): void;
  /** The tracker could not find the grid (`message` says why). */
  cannotCalibrate(message: string): void;
}

export const isTileCommand = (c: Command): c is PlaceTile | PlacePrizeTile => c.type === 'placeTile' || c.type === 'placePrizeTile';
export const sameCommand = (a: Command, b: Command) => JSON.stringify(a) === JSON.stringify(b);
const sameCommands = (a: readonly Command[], b: readonly Command[]) => a.length === b.length && a.every((c, i) => sameCommand(c, b[i]!));

/** A tile reading restated for the turn now being played (it may have been seen before its turn). */
export function forTheTurnNow(game: Game | null, c: Command): Command {
  if (!game || !isTileCommand(c)) return c;
  return { ...c, player: game.state.turn.player };
}

export class CameraReadings {
  /** Readings committed by the camera and asked of the table in this game. */
  committed = 0;
  asked = 0;

  constructor(private readonly h: CameraReadingsHost) {}

  /** A fed frame's events: notices and errors to the table, readings proposed. */
  async handle(events: readonly TrackEvent[]): Promise<void> {
    const together = this.tilesTogether(events);
    for (const e of events) {
      if (e.kind === 'notice') this.h.notice(e.message, false, e.frame);
      else if (e.kind === 'error') {
        this.h.notice(e.message, true, e.frame);
        if (e.message.startsWith('cannot calibrate')) this.h.cannotCalibrate(e.message);
      } else if (e.kind === 'proposal') {
        if (!together) await this.propose(e);
        // None of them is committed: the table says which tile is this turn's. A figure on one of them
        // is read again once the table has answered (or entered by hand).
        else if (isTileCommand(e.command)) await this.propose({ ...e, committed: false, why: e.committed ? 'two tiles appeared at once, and no draw says which was laid first: the table picks' : e.why });
      }
    }
  }

  /**
   * Readings that table input released (the tracker's `level`), about the position `at` of the
   * game's history. Decided here as the tracker would have: sure (at the table's `commitAt`) is
   * committed through the rules, otherwise the table is asked. About the position the game is at,
   * they go the way of a fed frame's readings; about one the table has since moved past, see
   * `proposeBefore`.
   */
  async tableReadings(at: number, events: readonly TrackEvent[]): Promise<void> {
    for (const e of events) {
      const game = this.h.session.currentGame;
      if (!game) return;
      if (e.kind !== 'proposal') {
        await this.handle([e]);
        continue;
      }
      const sure = !e.tableConfirms && e.confidence >= this.h.commitAt();
      const decided = { ...e, committed: sure, why: sure ? 'sure' : e.why };
      if (at >= game.history.length) await this.propose(decided);
      else await this.proposeBefore(decided, at);
    }
  }

  /**
   * Open readings after the game moved on. A figure reading is about one moment of a turn: once the
   * game moved on without it, it is withdrawn. A tile reading stays while its cell is empty: a tile
   * seen before its turn (the one before it went unread, say) is refused by the rules at first and
   * waits; once the table has caught up and the rules accept it, a sure one is played, an unsure one is
   * the table's to pick. It is withdrawn when a tile is laid on its cell or the game is over.
   */
  reviewOpen(): void {
    const game = this.h.session.currentGame;
    if (!game) return;
    for (const p of this.h.desk.open() as { id: number; payload: StoredProposal }[]) {
      const c = p.payload.command;
      const before = p.payload.before;
      if (before !== undefined) {
        // About an earlier moment: it stays while that moment does (undone back to it, it is about now:
        // put in at the end) and the table has not placed the figure itself.
        if (game.history.length < before || figureEnteredSince(game, before) || !sameCommands(momentOf(game, before), p.payload.context ?? [])) this.h.desk.reject(p.id);
        continue;
      }
      if (p.payload.at === undefined || p.payload.at === game.history.length) continue;
      if (!isTileCommand(c)) {
        this.h.desk.reject(p.id);
        continue;
      }
      const state = game.state;
      if (state.finished || !state.board.holes.has(posKey(c.at[0], c.at[1]))) {
        this.h.desk.reject(p.id);
        continue;
      }
      // Read by a worker that went down since: the next one lost what it knew of the order (which
      // cells hold tiles the game lacks), so nothing read before the restart is committed after it.
      if ((p.payload.generation ?? 0) < this.h.restartedAt()) continue;
      // Not while a tile laid before it lies unentered (no draw told: that one is this turn's). Asked
      // of where the worker's tracker stood at its last reply (no frame is being read now), against
      // the session's game (the tracker is levelled with the table's input after this); with no
      // tracker to ask, not at all.
      const tracker = this.h.trackerOfThisGame();
      if (!tracker || tracker.earlierTile(c.at[0], c.at[1], p.payload.frame, state)) continue;
      // A camera switched off (the demo stopped) commits nothing more: its open readings are the table's.
      if (this.h.switchedOff()) continue;
      // Restated for the turn as it is when accepted (an earlier one in this review may have moved it on).
      const now = (x: Command) => forTheTurnNow(this.h.session.currentGame, x);
      if (p.payload.confidence >= this.h.commitAt() && decide(state, now(c)).ok) {
        const played = this.h.desk.accept(p.id, undefined, now);
        if (played.ok) this.committed++;
      }
    }
  }

  /**
   * Several tiles read from one frame (a still scene between them missed) while no draw is told: the
   * tile laid is the draw, so nothing says which of them is this turn's (with a draw told, the
   * tracker reads the drawn one first, `loneNewTile`).
   */
  private tilesTogether(events: readonly TrackEvent[]): boolean {
    if (this.h.session.currentGame?.state.turn.drawn !== null) return false;
    return events.filter((e) => e.kind === 'proposal' && isTileCommand(e.command)).length > 1;
  }

  private async propose(e: Reading): Promise<void> {
    const game = this.h.session.currentGame;
    if (!game) return;
    // The position the reading is about: the tracker played a sure reading already, the session not yet.
    const payload: StoredProposal = { command: e.command, confidence: e.confidence, alternatives: e.alternatives, frame: e.frame, why: e.why ?? (e.committed ? 'sure' : 'not sure'), at: game.history.length, generation: this.h.generation() };
    const id = this.h.desk.propose(CAMERA_SOURCE, payload);
    if (!id.ok) return;
    if (!e.committed) {
      this.asked++;
      return;
    }
    // A sure reading: proposed and accepted at once, through the rules like any move.
    const played = this.h.desk.accept(id.value);
    if (played.ok) this.committed++;
    else {
      this.h.desk.reject(id.value);
      this.h.notice(`the camera's reading was refused: ${played.reason}`, true, e.frame);
    }
    await this.h.level();
  }

  /**
   * A figure reading about a moment the table has moved past: the figure waited for a nomination,
   * and the table went on instead (it ended the turn, say), or entered more before the camera caught
   * up. If the table entered a figure itself in that turn, its word stands and the reading is
   * withdrawn (nothing placed twice). Otherwise the figure goes into the history where it stood —
   * before the input that came after it — a sure one at once, an unsure one when the table picks it;
   * the rules replay everything after it, and refuse it if anything no longer holds.
   */
  private async proposeBefore(e: Reading, at: number): Promise<void> {
    const game = this.h.session.currentGame;
    if (!game) return;
    const payload: StoredProposal = { command: e.command, confidence: e.confidence, alternatives: e.alternatives, frame: e.frame, why: e.committed ? 'sure' : (e.why ?? 'not sure'), at, before: at, context: momentOf(game, at), generation: this.h.generation() };
    const id = this.h.desk.propose(CAMERA_SOURCE, payload);
    if (!id.ok) return;
    if (figureEnteredSince(game, at)) {
      this.h.desk.reject(id.value);
      this.h.notice('the table entered the figure on the new tile itself: the camera’s reading of it is withdrawn', false, e.frame);
      return;
    }
    if (!e.committed) {
      this.asked++;
      return;
    }
    const played = this.h.desk.accept(id.value, undefined, undefined, at);
    if (played.ok) this.committed++;
    else {
      this.h.desk.reject(id.value);
      this.h.notice(`the camera's reading was refused: ${played.reason}`, true, e.frame);
    }
    await this.h.level();
  }
}

/** Did the table place a figure itself in the turn from history position `at` on? */
function figureEnteredSince(game: Game, at: number): boolean {
  for (const c of game.commands.slice(at)) {
    if (c.type === 'placeMeeple') return true;
    if (c.type === 'endTurn') return false;
  }
  return false;
}

/** The few commands before history position `at`: what a reading about that moment was read against. */
function momentOf(game: Game, at: number): Command[] {
  return game.commands.slice(Math.max(0, at - 3), at);
}
