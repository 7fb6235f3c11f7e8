/**
 * Camera readings are proposals until the rules accept them (the engine never trusts the camera).
 * They are stored apart from the game's log; accepting one plays its command through the session,
 * which checks it like any other move, and only then is the proposal marked accepted.
 */
import type { Command } from '../../../engine/game/commands.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import { commandSchema } from '../../contract/commands.js';
import type { Ack, GameSession } from '../session/session.js';
import type { Proposal, Store } from '../store/store.js';

export interface CameraProposal {
  readonly command: Command;
  /** The recognizer's confidence in [0, 1], and its next best readings for the top-3 picker. */
  readonly confidence: number;
  readonly alternatives: readonly Command[];
}

/** The payload kept with each camera proposal in the store (beside the command and its runners-up). */
export interface StoredProposal extends CameraProposal {
  readonly frame?: number;
  readonly why?: string;
  /** The game's history length when it was read: the position it is about. */
  readonly at?: number;
  /**
   * A figure reading about a moment the table had already moved past (camera-readings.ts
   * `proposeBefore`): it goes into the history at this place, not at its end.
   */
  readonly before?: number;
  /** The commands just before `before` when it was read: the moment it is about, should the table rewrite it. */
  readonly context?: readonly Command[];
  /** The tracker (worker generation) that read it: one read before a worker went down is the table's to commit. */
  readonly generation?: number;
}

export class ProposalDesk {
  constructor(
    private readonly store: Store,
    private readonly session: GameSession,
  ) {}

  propose(source: string, p: CameraProposal): Result<number> {
    const gameId = this.session.currentGameId;
    if (gameId === null) return fail('no game is open');
    return ok(this.store.addProposal(gameId, source, p));
  }

  open(): Proposal<CameraProposal>[] {
    const gameId = this.session.currentGameId;
    return gameId === null ? [] : this.store.openProposals<CameraProposal>(gameId);
  }

  /**
   * Plays the proposal's command (or the alternative the table picked) through the rules; `adjust` may
   * restate it for the game as it is now (a tile seen before its turn is placed by whoever's turn it is).
   * With `insertAt` the command goes in at that place of the history instead of at its end (a reading
   * about a moment the table has since moved past); the rules replay everything after it, and refuse
   * it if anything after it no longer holds.
   */
  accept(id: number, pick?: number, adjust: (c: Command) => Command = (c) => c, insertAt?: number): Result<Ack> {
    return this.acceptAs(id, (p) => (pick === undefined ? p.command : p.alternatives[pick]), adjust, insertAt, pick === undefined ? '' : ` at alternative ${pick}`);
  }

  /**
   * Plays the command `choose` makes of the proposal (the table's own correction of a reading, say)
   * through the rules, and marks the proposal accepted once they take it.
   */
  acceptAs(id: number, choose: (p: CameraProposal) => Command | undefined, adjust: (c: Command) => Command = (c) => c, insertAt?: number, what = ''): Result<Ack> {
    const p = this.open().find((x) => x.id === id);
    if (!p) return fail(`proposal ${id} is not open`);
    const chosen = choose(p.payload);
    const command = commandSchema.safeParse(chosen === undefined ? chosen : adjust(chosen));
    if (!command.success) return fail(`proposal ${id} holds no readable command${what}`);
    // At the end of the history an insertion is a plain move.
    const atEnd = insertAt === undefined || insertAt === this.session.currentGame?.history.length;
    const played = atEnd ? this.session.play(command.data) : this.session.insert(insertAt, command.data);
    if (!played.ok) return fail(`the rules refuse proposal ${id}: ${played.reason}`);
    this.store.decideProposal(id, 'accepted');
    return played;
  }

  reject(id: number): void {
    this.store.decideProposal(id, 'rejected');
  }
}
