/**
 * The camera, end to end on the services' side: frames in (the bundled recording played here, or
 * JPEG frames the screen's own camera sends), the tracker (models/track) reading them, and its
 * readings out as proposals through the ProposalDesk, so the engine decides every one of them: a
 * sure reading is proposed and accepted at once (the rules may still refuse it), an unsure one waits
 * for the table's answer in the top-3 picker, a rejected one is never committed.
 *
 * The camera waits for the table. Every frame is looked at as it comes, but only the frames of still
 * scenes are kept (frame-intake.ts: a few per scene, a bounded number of scenes); they are read in
 * the order they came, and only while the game awaits something the camera can read (a tile to
 * place) and no reading waits for the table's answer, so the tracker never runs a visit ahead of the
 * game. It never waits for a typed draw: where the rules need the draw (the 2025 expansions) the
 * tile it sees laid is the draw (the engine implies it from the placement).
 *
 * The tracker runs in a worker thread (tracker-client.ts, tracker-host.ts): the session, the store
 * and the WebSocket never wait for a frame to be read. It keeps its own copy of the game (it reads
 * against the legal moves); before every frame that copy is brought level with the session's game,
 * which is the truth. A worker that crashes or hangs is replaced by a new one (a new generation),
 * levelled with the session, shown the last scene it read and the frame it was reading again; the
 * table is told; a reading from an earlier generation is never committed.
 *
 * The table's answers teach the camera its art (table-art.ts): a tile the table picked in the top-3
 * picker is stored as an enrolled exemplar, a finished board gives the next games their templates.
 *
 * This file holds the reading loop (frames kept → the worker → readings) and the tracker's life
 * (made, levelled with the session, restarted, made again for another grid); the rest is
 * beside it: where frames come from (camera-feed.ts), which frames are kept (frame-intake.ts), the
 * worker and its protocol (tracker-client.ts, tracker-host.ts), readings to proposals
 * (camera-readings.ts), the table's art (table-art.ts), how the grid is found (camera-calibration.ts),
 * the table's stored choices (camera-settings.ts), the view's pieces (camera-view.ts).
 */
import { frameSizeProblem, jpegSize } from './frame-size.js';
import type { Command, PlaceTile, PlacePrizeTile } from '../../../engine/game/commands.js';
import type { Game } from '../../../engine/game/game.js';
import { reminders } from '../../../engine/game/reminders.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import type { TrackEvent } from '../../../models/track/tracker.js';
import { picturesFromStore } from '../tiles/enrolled.js';
import type { CameraAnswer, CameraReport, CameraSourceKind, CameraView } from '../../contract/camera.js';
import { DEMO_OFF, type DemoView } from '../../contract/demo.js';
import type { Ack, GameSession } from '../session/session.js';
import type { Store } from '../store/store.js';
import { gridView, proposalView } from './camera-view.js';
import { TableWords, withoutGame } from '../session/words.js';
import { ProposalDesk, type StoredProposal } from './proposals.js';
import { CameraFeed } from './camera-feed.js';
import { FrameIntake, MAX_BYTES, type KeptFrame } from './frame-intake.js';
import type { HeldFrames, SocketFrame } from './frame-socket.js';
import { TrackerClient, TrackerDown, type TrackerClientOptions } from './tracker-client.js';
import type { Replies as TrackerReplies, Request as TrackerRequest, StoredCrop } from './tracker-protocol.js';
import type { TableProfile } from './recording-info.js';
import { ASK_EVERYTHING_SETTING, SURE, commitAtFor, storedCameraSettings } from './camera-settings.js';
import { CameraReadings, forTheTurnNow, isTileCommand } from './camera-readings.js';
import { TableArt } from './table-art.js';
import { placements, typesFittingCell } from '../session/entry.js';
import { TableCalibration } from './camera-calibration.js';

export interface CameraServiceOptions {
  readonly session: GameSession;
  readonly store: Store;
  /** The default source when no camera is connected; its manifest also gives the default table profile. */
  readonly recording?: string | null;
  /** Playback speed of the recording (tests: faster than real time). */
  readonly recordingSpeed?: number;
  /** Where the markers lie for the screen's camera (default: the recording's layout). */
  readonly profile?: TableProfile;
  /** JPEG bytes of still scenes held while the tracker waits for the table (frame-intake.ts); beyond it the oldest scenes are dropped (and counted). */
  readonly maxHeldBytes?: number;
  /** How long the tracker's worker may take to answer before it is taken to hang (tracker-client.ts). */
  readonly tracker?: TrackerClientOptions;
  /**
   * Confidence at which a reading is committed without asking (default 0.9). Above 1 the table
   * confirms every reading: a first game on a new table, to teach the camera the table's art.
   */
  readonly commitAt?: number;
}

const NOTICES = 6;
/** Recent frames the start piece is looked for in after the newest picture (each look ≈ 15 ms when nothing is there). */
const FIND_IN_FRAMES = 8;

export class CameraService {
  readonly desk: ProposalDesk;
  /** The tracker's readings, proposed to the table (camera-readings.ts). */
  private readonly readings: CameraReadings;
  /** The table's art learned from the camera (table-art.ts). */
  private readonly art: TableArt;
  /** Background work done one after another: pictures stored, the start piece looked for. */
  private learning: Promise<void> = Promise.resolve();
  /** Where frames come from, and whether the camera is live (camera-feed.ts). */
  private readonly feed: CameraFeed;
  private tracker: TrackerClient | null = null;
  /** Trackers made so far (each worker is one generation; a reading of an earlier one is never committed). */
  private generation = 0;
  /** The two still frames of the scene the tracker read last: shown to a new worker first, as its baseline. */
  private lastScene: KeptFrame[] = [];
  /** Frames read since (a scene begun): read again by a new worker when the old one goes down in its middle. */
  private sinceScene: KeptFrame[] = [];
  /** The first generation made after a worker went down: open readings of earlier ones are not committed by the camera. */
  private restartedAt = 0;
  /** The frame being read when a worker went down, and how often that happened with it. */
  private retry: { index: number; times: number } | null = null;
  private trackerFor: number | null = null;
  /** The game the held frames and counts belong to. */
  private boundTo: number | null = null;
  private trackerLoading: Promise<void> | null = null;
  private trackerProblem: string | null = null;
  /** How the tracker finds the grid, as the table chose it (camera-calibration.ts). */
  private readonly calibration: TableCalibration;
  private readonly intake: FrameIntake;
  /**
   * Frames read while the tracker could not find the grid (no marker sheet in view, no corners given
   * yet), oldest first: the table as set up. They are read again once the table gives the start
   * piece's corners, and the start piece is looked for on them. Since the tile laid is its own draw,
   * the camera reads from the game's first moment, before the table has had a chance to calibrate.
   * Kept frames (still scenes), at most `maxHeldBytes` of JPEG (the oldest go first).
   */
  private uncalibrated: KeptFrame[] = [];
  private received = 0;
  private read = 0;
  private dropped = 0;
  private lastRead = -1;
  private pumping = false;
  /**
   * Session changes so far, and how many of them the tracker had been levelled with at its last
   * `sync` (`settled` waits for the table's input to reach the worker, not only for frames).
   */
  private sessionSeq = 0;
  private levelledSeq = 0;
  /** `pump` was called while it ran. */
  private pumpAgain = false;
  /** The frame the tracker is reading, null between frames. */
  private reading: KeptFrame | null = null;
  /** The index of the frame being read or whose readings are being proposed, -1 between frames (`settled`). */
  private busyWith = -1;
  private size: [number, number] | null = null;
  private lastImage: Uint8Array | null = null;
  /** The size of the last frame that came on the frame socket (its bytes are not here). */
  private socketSize: readonly [number, number] | null = null;
  /** The frame the tracker read last: what an open question is about. */
  private lastReadImage: Uint8Array | null = null;
  private notices: { frame: number; text: string; error: boolean }[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private closed = false;
  /** The confidence at which a reading is committed without asking (above 1: the table is asked about every one). */
  private commitAt: number;
  /** The demo game driving this camera, shown in its view (services/demo). */
  private demo: () => DemoView = () => DEMO_OFF;
  /** Times the table's pictures changed (`tablePicturesChanged`): a tracker loaded meanwhile is made again. */
  private picturesChanged = 0;
  /** Teach mode's hold on the frames (`tapFrames`). */
  private tap: ((bytes: Uint8Array) => boolean) | null = null;
  /** Where frames that came on the frame socket are held (`socketFrame`), once one is attached. */
  private socket: HeldFrames | null = null;

  constructor(private readonly o: CameraServiceOptions) {
    this.desk = new ProposalDesk(o.store, o.session);
    this.intake = new FrameIntake({
      ...(o.maxHeldBytes !== undefined ? { maxBytes: o.maxHeldBytes } : {}),
      onKept: () => void this.pump(),
      onProblem: (index, message) => {
        this.notice(index, message, true);
        this.changed();
      },
      socket: () => this.socket,
    });
    this.commitAt = o.commitAt ?? SURE;
    // The table's choices outlive the session: ask about every tile, the start piece's clicked
    // corners (the camera is where it was, or it clicks again), the marker sheet it printed.
    const stored = storedCameraSettings(o.store);
    for (const p of stored.problems) this.notice(-1, p, true);
    if (stored.askEverything !== null) this.commitAt = commitAtFor(stored.askEverything, o.commitAt);
    this.calibration = new TableCalibration(o.store, stored);
    this.readings = new CameraReadings({
      desk: this.desk,
      session: o.session,
      commitAt: () => this.commitAt,
      generation: () => this.generation,
      restartedAt: () => this.restartedAt,
      trackerOfThisGame: () => this.trackerOfThisGame,
      switchedOff: () => this.switchedOff,
      level: () => this.level(),
      notice: (text, error, frame) => this.notice(frame, text, error),
      cannotCalibrate: () => this.offerStartPiece(),
    });
    this.art = new TableArt({
      store: o.store,
      session: o.session,
      tracker: () => this.tracker,
      trackerOfThisGame: () => this.trackerOfThisGame,
      questionOpen: () => this.desk.open().length > 0,
      later: (task) => {
        this.learning = this.learning.then(task);
      },
      notice: (text, error, frame) => this.notice(frame ?? this.lastRead, text, error),
      changed: () => this.changed(),
    });
    this.feed = new CameraFeed({ session: o.session, recording: o.recording ?? null, ...(o.recordingSpeed !== undefined ? { speed: o.recordingSpeed } : {}), frame: (jpeg) => this.enqueue(jpeg), changed: () => this.changed() });
    this.boundTo = o.session.currentGameId;
    this.unsubscribe = o.session.onChange(() => this.sessionChanged());
  }

  /** Where the tracker reads the table from: the given profile, else the recording's; the table's sheet over either. */
  private get profile(): TableProfile | null {
    return this.calibration.profile(this.o.profile ?? this.feed.recording?.profile ?? null);
  }

  /** The marker sheet the tracker looks for (a layout's name), or null when the table has none (no profile). */
  get markerSheetName(): string | null {
    return this.profile?.markers.name ?? null;
  }

  /**
   * The table's marker sheet (a layout the app prints, by name), or null for the recording's. The
   * tracker is made again, the choice kept in the store (saved first: if the store cannot take it,
   * nothing changes).
   */
  markerSheet(name: string | null): Result<CameraView> {
    const chosen = this.calibration.chooseSheet(name);
    if (!chosen.ok) return chosen;
    if (!chosen.value) return ok(this.view(true));
    // A new tracker that has seen nothing (as for clicked corners): the scene in view is kept again.
    this.newGrid();
    this.notice(this.lastRead, `the marker sheet looked for is now ${this.markerSheetName ?? 'none'}`, false);
    this.changed();
    return ok(this.view(true));
  }

  // ── sources ──

  /**
   * Chooses the source. 'browser': the screen's camera sends frames (the recording stops);
   * 'recording': the bundled recording plays from its start; 'none': no camera, manual entry only.
   */
  use(kind: CameraSourceKind, label?: string, speed?: number): Result<CameraView> {
    const r = this.feed.use(kind, label, speed);
    this.changed();
    return r.ok ? ok(this.view()) : r;
  }

  /** The screen's camera reports: live, or its track ended (unplugged). */
  report(r: CameraReport): Result<CameraView> {
    const told = this.feed.report(r);
    if (!told.ok) return told;
    this.changed();
    return ok(this.view());
  }

  /** One JPEG frame from the screen's camera. */
  frame(bytes: Uint8Array): Result<void> {
    if (this.feed.kind !== 'browser') return fail(this.notExpected());
    const problem = frameSizeProblem(bytes);
    if (problem) {
      // Named to the table like a frame that does not decode: which frame, and why nothing was read.
      const index = this.received++;
      this.notice(index, `frame ${index} was refused before decoding: ${problem}; nothing was read from it`, true);
      this.changed();
      return fail(`frame ${index}: ${problem}`);
    }
    this.feed.frameArrived();
    this.enqueue(bytes);
    return ok(undefined);
  }

  /** Why a frame from the screen's camera is refused when another source is chosen (both sockets say it). */
  private notExpected(): string {
    return `the camera source is ${this.feed.kind}: frames from the screen are not expected`;
  }

  /**
   * One frame from the screen's camera that came on the frame socket (frame-socket.ts): looked at on
   * the socket's thread, its bytes held there (`held`) until the intake keeps it. As `frame` otherwise.
   */
  socketFrame(f: SocketFrame, held: HeldFrames): void {
    this.socket = held;
    if (this.feed.kind !== 'browser') {
      // Not the chosen source: nothing kept, nothing held for it; the screen is told, as on the main socket.
      held.release(f.seq + 1);
      held.refuse(f.seq, this.notExpected());
      return;
    }
    this.feed.frameArrived();
    this.socketSize = f.size;
    this.lastImage = null;
    const index = this.received++;
    // Teach mode takes the frames: fetched for it, not kept for the tracker (as `enqueue`).
    const tap = this.tap;
    if (tap) {
      void held.bytes([f.seq]).then(([b]) => b && tap(b));
      this.intake.pushLooked(index, f.seq, f.look, false);
      return this.changed();
    }
    const keep = this.o.session.currentGameId !== null && !this.o.session.currentGame?.state.finished;
    this.intake.pushLooked(index, f.seq, f.look, keep);
    this.noteDropped(index);
    this.changed();
  }

  /** A frame the frame socket refused (its size) or did not look at (the services behind): told as on the main socket. */
  socketFrameRefused(why: string, skipped: boolean): void {
    if (this.feed.kind !== 'browser') return;
    const index = this.received++;
    this.notice(index, skipped ? `frame ${index} was not looked at: ${why}` : `frame ${index} was refused before decoding: ${why}; nothing was read from it`, true);
    this.changed();
  }

  // ── frames ──

  private enqueue(bytes: Uint8Array): void {
    this.lastImage = bytes;
    const index = this.received++;
    // Teach mode (services/teach) takes the frames: loose tiles are not moves for the tracker.
    if (this.tap?.(bytes)) {
      // Nor kept: the first still scene after the teach is a new one.
      this.intake.push(bytes, index, false);
      return this.changed();
    }
    // Frames before a game is set up, or after it is over, are looked at, not read.
    const keep = this.o.session.currentGameId !== null && !this.o.session.currentGame?.state.finished;
    this.intake.push(bytes, index, keep);
    this.noteDropped(index);
    this.changed();
  }

  private noteDropped(index: number): void {
    const dropped = this.intake.droppedScenes;
    if (dropped > this.dropped) {
      this.dropped = dropped;
      this.notice(index, `${dropped} still scene${dropped === 1 ? '' : 's'} dropped while the camera waited for the table (the newest are kept)`, true);
    }
  }

  /** The tracker reading the session's game, or null (none yet, or made for another game). */
  private get trackerOfThisGame(): TrackerClient | null {
    return this.tracker && this.trackerFor === this.o.session.currentGameId ? this.tracker : null;
  }

  /** No camera now (chosen so, or the demo stopped): nothing more is read, and no reading is the camera's to commit. */
  private get switchedOff(): boolean {
    return this.feed.kind === 'none';
  }

  /**
   * A frame's readings still on their way, whatever the game awaits meanwhile: the frame is being
   * read or its readings proposed one by one (a tile before the figure on it), or the table's tile (an
   * answer, or entered) has yet to reach the tracker, which then reads the figure on it from the same
   * frame (`sync`), or the table's input that releases a figure waiting for a nomination has yet to
   * reach it. The view says the camera reads: no table is told to enter what is still to come.
   */
  private get midFrame(): boolean {
    if (this.busyWith >= 0) return true;
    if (!this.trackerOfThisGame || this.trackerProblem || this.switchedOff || this.levelledSeq >= this.sessionSeq) return false;
    const last = this.o.session.currentGame?.commands.at(-1);
    // Also the table's input (the end of the turn) that releases a figure waiting for a nomination:
    // the camera puts that figure in before it once the worker has it.
    return last !== undefined && (isTileCommand(last) || (this.trackerOfThisGame?.figureWaits ?? false));
  }

  /** The tracker saw the new tile and reads the figure on it once the turn's nomination is made or passed (Tracker `figureWaits`). */
  private get figureWaits(): boolean {
    return !this.midFrame && (this.trackerOfThisGame?.figureWaits ?? false);
  }

  /** Why the tracker does not read now, or null when it does. */
  private waitingFor(): string | null {
    const game = this.o.session.currentGame;
    if (!game) return 'a game to be set up';
    if (game.state.finished) return 'nothing: the game is over';
    if (this.trackerProblem) return `a working tracker (${this.trackerProblem})`;
    if (!this.tracker || this.trackerFor !== this.o.session.currentGameId) return 'the tracker to load';
    if (this.desk.open().length > 0) return 'the table to answer the camera’s question';
    const first = reminders(game.state)[0];
    if (!first || (first.what !== 'placeTile' && first.what !== 'placePrizeTile')) {
      // (Else the table, told only that it may place a figure, enters the one already on the tile.)
      const figure = this.figureWaits ? '; the camera reads the figure on the new tile once the table nominates or ends the turn' : '';
      return `the table: ${first?.text ?? 'nothing to do'}${figure}`;
    }
    return null;
  }

  /**
   * Reads held frames while the tracker may. Everything that touches the tracker's game runs here, one
   * step at a time, so a session change never lands in the middle of a frame being read.
   */
  private async pump(): Promise<void> {
    if (this.closed) return;
    if (this.pumping) {
      // Looked at again once this round ends: a scene kept while it was finishing is not left unread.
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.pumpAgain = false;
    try {
      for (;;) {
        // Again after each tracker dropped: the table's new corners drop it mid-pump (made again here).
        await this.ensureTracker();
        const tracker = this.tracker;
        if (!tracker) break;
        try {
          if (await this.readHeld()) break;
        } catch (e) {
          if (!(e instanceof TrackerDown) || this.closed) throw e;
          // (One closed by the service itself was dropped on purpose: nothing to tell.)
          if (tracker === this.tracker && e.why !== 'closed') this.trackerWentDown(e);
        }
      }
    } catch (e) {
      this.trackerProblem = (e as Error).message;
    } finally {
      this.pumping = false;
      this.reading = null;
      this.busyWith = -1;
    }
    this.changed();
    if (this.pumpAgain && !this.trackerProblem) void this.pump();
  }

  /**
   * Reads the kept frames while the tracker may (see `pump`). True: nothing more to read now; false:
   * the tracker was dropped meanwhile (other corners, another sheet, the table's pictures changed):
   * `pump` makes the next one, which reads on from the frame the dropped one had not finished.
   */
  private async readHeld(): Promise<boolean> {
    for (;;) {
      this.busyWith = -1;
      const tracker = this.tracker;
      const generation = this.generation;
      if (!tracker) return false;
      await this.sync();
      if (tracker !== this.tracker || generation !== this.generation) return false;
      // The table moved while the worker was levelled (an undo, say): levelled again first, so that no
      // frame is read against a game the table has already left.
      if (this.levelledSeq < this.sessionSeq) continue;
      // A camera switched off (the demo stopped) reads nothing more: the game is the table's.
      if (this.closed || this.switchedOff || this.intake.held === 0 || this.waitingFor() !== null) return true;
      const f = this.intake.next()!;
      this.reading = f;
      this.busyWith = f.index;
      let events: readonly TrackEvent[];
      try {
        events = (await tracker.feed(f.bytes, f.index)).events;
      } catch (e) {
        // Dropped for another tracker meanwhile: the frame went back to the intake (`returnToIntake`).
        if (tracker !== this.tracker || generation !== this.generation) return false;
        // Read again by the next worker (once: a frame that brings two down is passed over).
        if (e instanceof TrackerDown) {
          const times = this.retry?.index === f.index ? this.retry.times + 1 : 1;
          this.retry = { index: f.index, times };
          // The scene from its beginning: the tracker's still check wants its frames in a row.
          if (times < 2) this.intake.putBack([...this.sinceScene, f]);
          else this.notice(f.index, `frame ${f.index} was passed over: the tracker went down reading it twice`, true);
          this.sinceScene = [];
          this.reading = null;
        }
        throw e;
      } finally {
        if (this.reading === f) this.reading = null;
      }
      if (tracker !== this.tracker || generation !== this.generation) return false;
      this.read++;
      this.lastRead = f.index;
      this.lastReadImage = f.bytes;
      const prev = this.sinceScene.at(-1);
      const pair = f.still && prev?.still && prev.bytes === f.bytes ? [prev, f] : null;
      if (!tracker.calibrated && events.some((e) => e.kind === 'error' && e.message.startsWith('cannot calibrate'))) this.keepUncalibrated(pair ?? [f]);
      else if (tracker.calibrated) this.uncalibrated = [];
      if (pair) {
        this.lastScene = pair;
        this.sinceScene = [];
      } else this.sinceScene.push(f);
      // (Switched off while the worker read it: its readings are not the table's to get.)
      if (!this.switchedOff) await this.readings.handle(events);
      this.busyWith = -1;
      this.changed();
    }
  }

  /**
   * A still scene read while no grid was found (`uncalibrated`), both of its still frames (the next
   * tracker's still check wants them in a row); at most `maxHeldBytes` of JPEG, the oldest dropped.
   */
  private keepUncalibrated(frames: readonly KeptFrame[]): void {
    const last = this.uncalibrated.at(-1)?.index ?? -1;
    this.uncalibrated.push(...frames.filter((f) => f.index > last));
    const max = this.o.maxHeldBytes ?? MAX_BYTES;
    const bytes = () => [...new Set(this.uncalibrated.map((f) => f.bytes))].reduce((n, b) => n + b.length, 0);
    while (this.uncalibrated.length > 2 && bytes() > max) this.uncalibrated.splice(0, this.uncalibrated[1]?.bytes === this.uncalibrated[0]!.bytes ? 2 : 1);
  }

  /**
   * The tracker is dropped for another in the same game: what it read since its last still scene,
   * and the frame it was reading, go back to the intake (with `earlier`, older frames to read first),
   * so the next tracker reads them, in order, before anything newer.
   */
  private returnToIntake(earlier: readonly KeptFrame[] = []): void {
    const frames = new Map<number, KeptFrame>();
    for (const f of [...earlier, ...this.sinceScene, ...(this.reading ? [this.reading] : [])]) frames.set(f.index, f);
    this.reading = null;
    this.sinceScene = [];
    if (frames.size > 0) this.intake.putBack([...frames.values()].sort((a, b) => a.index - b.index));
  }

  /**
   * The tracker's worker crashed or hung: the table is told, and the next worker (made by `pump`)
   * is levelled with the session — every acknowledged command is there — and shown the last scene
   * the tracker read before it reads on.
   */
  private trackerWentDown(d: TrackerDown): void {
    this.restartedAt = this.generation + 1;
    const old = this.tracker;
    this.tracker = null;
    this.trackerFor = null;
    void old?.close();
    this.notice(this.lastRead, `the tracker ${d.why === 'hung' ? 'stopped answering' : 'stopped'} (${d.message}): it was restarted; nothing the table entered or answered is lost, and nothing it read before is committed now`, true);
    this.changed();
  }

  /** Levels the tracker with the session; after the table answered an open tile reading, reads the figure on it. */
  private async sync(): Promise<void> {
    const seq = this.sessionSeq;
    this.readings.reviewOpen();
    const added = await this.level();
    const last = added.at(-1);
    // The table answered a reading the tracker left open (or entered the tile itself): the figure on
    // that tile is read from the same frame.
    const tracker = this.tracker;
    if (last && (last.type === 'placeTile' || last.type === 'placePrizeTile') && tracker && !this.switchedOff) {
      const generation = this.generation;
      const r = await tracker.request({ op: 'afterTableAnswer' });
      if (tracker === this.tracker && generation === this.generation) await this.readings.handle(r.events);
    }
    this.art.levelled(added, this.trackerFor);
    this.levelledSeq = Math.max(this.levelledSeq, seq);
  }

  /**
   * Stores a picture of each tile type on the board that has no board picture yet (table-art.ts):
   * done by itself when a game ends. Returns how many types were pictured.
   */
  async pictureBoard(): Promise<number> {
    return this.art.pictureBoard();
  }

  /**
   * Teach mode (services/teach) takes every frame while `tap` says so: the tracker neither reads nor
   * holds them. Null: frames go to the tracker again.
   */
  tapFrames(tap: ((bytes: Uint8Array) => boolean) | null): void {
    this.tap = tap;
  }

  /**
   * The table's pictures changed (a tile taught, retaken, deleted, imported): the tracker is made
   * again on the next frame with the stored pictures as templates and exemplars (the game is levelled
   * into it as after a restart).
   */
  tablePicturesChanged(): void {
    this.picturesChanged++;
    void this.tracker?.close();
    this.tracker = null;
    this.trackerFor = null;
    // The next one is shown the last scene read (its baseline), then reads on where this one was.
    this.returnToIntake();
    this.art.storedPictures();
    this.changed();
  }

  /**
   * The table asks for a picture of the board now (between turns): each tile type on it without a
   * picture yet is pictured as at a game's end, and read by that picture from now on. Returns at
   * once; the notices say how many types were pictured.
   */
  pictureBoardNow(): Result<CameraView> {
    const started = this.art.pictureNow();
    if (!started.ok) return started;
    this.changed();
    return ok(this.view());
  }

  // ── the tracker and the session ──

  private async ensureTracker(): Promise<void> {
    const id = this.o.session.currentGameId;
    const game = this.o.session.currentGame;
    if (id === null || !game) return;
    if (this.tracker && this.trackerFor === id) return;
    if (this.trackerLoading) {
      // One already loading may be for another game or other corners (then made again): asked again.
      await this.trackerLoading;
      return this.ensureTracker();
    }
    const profile = this.profile;
    if (!profile) {
      this.trackerProblem = 'no table profile: the marker layout and tile set are unknown';
      return;
    }
    let stale = false;
    const loading = (async () => {
      try {
        // A table that clicked its start piece's corners has no marker sheet down: none is looked for.
        const corners = this.calibration.corners;
        const sheet = this.calibration.sheet;
        const calibration = this.calibration.trackerCalibration(profile);
        // The pictures of earlier games' final boards are the tracker's templates: the table's own
        // printed art (a picture the table picked mid-game may carry a figure not read yet).
        const pictures = await picturesFromStore(this.o.store);
        this.art.picturedNow(pictures.pictures.map((p) => p.tileId));
        for (const p of pictures.problems) this.notice(-1, `an enrolled tile picture could not be used as a template: ${p}`, true);
        // What the table enrolled before (its answers in earlier games, the tile editor's crops) and the
        // tiles it taught (every copy an exemplar): read through the model in the worker.
        const crops: StoredCrop[] = [
          ...this.o.store.exemplars().map((e) => ({ what: 'exemplar' as const, id: e.id, tileId: e.tileId, rot: e.rot, image: new Uint8Array(e.image) })),
          ...this.o.store.taughtTiles().map((t) => ({ what: 'taught picture' as const, id: t.id, tileId: t.tileId, rot: t.rot, image: new Uint8Array(t.image) })),
        ];
        const picturesAt = this.picturesChanged;
        // OpenCV, the templates and the model load in the worker, on first use: the app's start does not pay for them.
        const generation = ++this.generation;
        const commitAt = this.commitAt;
        const { client: tracker, problems } = await TrackerClient.start(generation, { setup: game.setup, style: profile.style, ...calibration, commitAt, crops, pictures: pictures.pictures }, this.o.tracker ?? {});
        for (const p of problems) this.notice(-1, p, true);
        // Not when the table gave new corners or another sheet, taught a tile, or began another game, while it loaded: made again below.
        if (this.o.session.currentGameId === id && this.calibration.corners === corners && this.calibration.sheet === sheet && this.picturesChanged === picturesAt && !this.closed) {
          // The table may have changed it while the tracker loaded.
          if (this.commitAt !== commitAt) await tracker.request({ op: 'commitAt', value: this.commitAt });
          // A worker after one that went down: the session's game, then the last scene read (its baseline).
          if (this.lastScene.length > 0) {
            await tracker.level(game.commands);
            for (const f of this.lastScene) await tracker.feed(f.bytes, f.index);
          }
          this.tracker = tracker;
          this.trackerFor = id;
          this.trackerProblem = null;
          // Down while nothing was asked of it: the table is told now, and another is made.
          tracker.onDown((d) => {
            if (tracker !== this.tracker || this.pumping || this.closed) return;
            this.trackerWentDown(d);
            void this.pump();
          });
        } else {
          stale = !this.closed;
          void tracker.close();
        }
      } catch (e) {
        this.trackerProblem = (e as Error).message;
      } finally {
        this.trackerLoading = null;
      }
    })();
    this.trackerLoading = loading;
    await loading;
    // No later frame need come to ask for it (a recording that has ended, a camera left still).
    if (stale && !this.closed) return this.ensureTracker();
  }

  /**
   * Brings the tracker's game level with the session's (the table's input, answers, undos,
   * corrections). Returns the commands it had to add.
   *
   * Table input can end a figure's wait for a nomination (Jousts & Crests: the tracker holds a figure
   * seen on the new tile until the table has nominated or moved on, `Tracker.tableInput`), and the
   * figure is read then. While it is levelled the tracker only proposes (it must not play into its copy
   * a figure the session does not have: the session's next commands would no longer fit it); once it is
   * level, each reading is decided here like a fed frame's (`tableReadings`). A tracker holds one
   * waiting figure at most and table input starts no new wait, so one levelling gives one reading at most.
   */
  private async level(): Promise<readonly Command[]> {
    const tracker = this.tracker;
    const game = this.o.session.currentGame;
    if (!tracker || !game) return [];
    // Done in the worker (tracker-host.ts `level`): the same steps, on the tracker's copy.
    const generation = this.generation;
    const r = await tracker.level(game.commands);
    if (tracker !== this.tracker || generation !== this.generation) return [];
    // (A camera switched off gets none: what it saw before is the table's to enter.)
    if (!this.switchedOff) for (const x of r.readings) await this.readings.tableReadings(x.at, x.events);
    return r.added;
  }

  private sessionChanged(): void {
    if (this.closed) return;
    this.sessionSeq++;
    const id = this.o.session.currentGameId;
    if (this.boundTo !== id) {
      this.boundTo = id;
      // Another game: its frames start afresh; a recording plays again from its start.
      void this.tracker?.close();
      this.tracker = null;
      this.trackerFor = null;
      this.art.newGame();
      this.calibration.newGame();
      this.lastScene = [];
      this.sinceScene = [];
      this.reading = null;
      this.intake.clear();
      this.uncalibrated = [];
      this.notices = [];
      this.readings.committed = this.readings.asked = this.read = this.received = this.dropped = 0;
      this.lastRead = -1;
      this.lastReadImage = null;
      this.feed.gameChanged(true);
    } else this.feed.gameChanged(false);
    if (this.o.session.currentGame?.state.finished) this.intake.clear();
    // Deferred (pump starts with an await): an answer being accepted is decided before anything is reviewed.
    void this.pump();
    this.changed();
  }

  /**
   * The grid cannot be found (no marker sheet in view, no corners given): the start piece is looked
   * for once a game, as *Find the start piece* would, so that the table has an outline to confirm
   * rather than four corners to click.
   */
  private offerStartPiece(): void {
    if (this.calibration.offerFor(this.o.session.currentGameId) && this.findStartPiece().ok) this.calibration.offered();
  }

  /**
   * The grid changes (another sheet, clicked corners): a new tracker that has seen nothing, made by
   * the next pump; what the old one had not finished goes back to the intake after `earlier`, and the
   * scene in view is kept again once it is still.
   */
  private newGrid(earlier: readonly KeptFrame[] = []): void {
    void this.tracker?.close();
    this.tracker = null;
    this.trackerFor = null;
    this.lastScene = [];
    this.returnToIntake(earlier);
    this.intake.restart();
  }

  /**
   * The table calibrates without the marker sheet: the start piece's four corners as clicked on the
   * camera's picture (image pixels; north-west, north-east, south-east, south-west in the game's
   * frame), or null to go back to the marker sheet. The tracker is made again (the game is levelled
   * into it as after a restart), and the choice is kept in the store for the next session (saved
   * first: if the store cannot take it, nothing changes).
   */
  startPieceCorners(corners: readonly (readonly [number, number])[] | null): Result<CameraView> {
    const chosen = this.calibration.chooseCorners(corners);
    if (!chosen.ok) return chosen;
    const checked = chosen.value;
    // A new tracker that has seen nothing: the frames read while no grid was found are read again on
    // the new grid first (the table as set up), then what the old one had not finished, then the rest.
    this.newGrid(this.uncalibrated);
    this.uncalibrated = [];
    this.notice(this.lastRead, checked ? "the grid comes from the start piece's clicked corners from now on (no marker sheet is looked for)" : 'the grid comes from the marker sheet again', false);
    this.changed();
    // The held frames are read on the new grid now: no later frame need come (a recording that has
    // ended), nor a move of the table's (the tile laid is its draw: none comes before the first tile).
    void this.pump();
    return ok(this.view(true));
  }

  /**
   * Without the marker sheet, instead of four clicks: the start piece looked for on the camera's
   * pictures — the newest, then the frames read without a grid and the last few before the newest,
   * oldest first (the table as set up, before a hand came) — and its corners offered to the table
   * (`found` in the view). Nothing is read with them until the table takes them
   * (`startPieceCorners`); not found, a notice says why.
   */
  findStartPiece(): Result<CameraView> {
    if (this.o.session.currentGameId === null) return fail('the start piece cannot be looked for: set up a game first');
    if (this.calibration.looking) return fail('the start piece is being looked for already');
    if (this.lastImage === null && this.received === 0) return fail('the start piece cannot be looked for: no picture from the camera yet');
    const uncalibrated = this.uncalibrated.map((f) => f.bytes);
    const lastImage = this.lastImage;
    this.calibration.startLooking();
    let found: { corners: [number, number][]; sure: boolean } | null = null;
    this.learning = this.learning.then(async () => {
      try {
        // (Frames that came on the frame socket are fetched from it: their bytes are not here.)
        const recent = await this.intake.recentFrames();
        const newest = lastImage ?? recent.at(-1) ?? null;
        const earlier = [...new Set([...uncalibrated, ...recent])].filter((b) => b !== newest);
        const pictures = [newest, ...earlier.slice(0, FIND_IN_FRAMES)].filter((b): b is Uint8Array => b !== null);
        if (pictures.length === 0) return this.notice(this.lastRead, 'the start piece was not looked for: the camera’s pictures are no longer held', true);
        await this.ensureTracker();
        const tracker = this.tracker;
        if (!tracker) return this.notice(this.lastRead, `the start piece cannot be looked for: ${this.trackerProblem ?? 'the tracker did not load'}`, true);
        const r = await tracker.request({ op: 'findStartPiece', pictures: pictures.map((bytes, i) => ({ bytes, label: i === 0 ? 'the newest picture' : `recent frame ${i}` })) });
        if (r.found) {
          found = { corners: r.found.corners.map((p): [number, number] => [p.x, p.y]), sure: r.found.sure };
          return;
        }
        this.notice(this.lastRead, `the start piece was not found on the camera's pictures (${r.why}): click its corners`, true);
      } catch (e) {
        if (!(e instanceof TrackerDown)) throw e;
        this.notice(this.lastRead, `the start piece was not looked for: ${e.message}`, true);
      } finally {
        this.calibration.lookedFor(found);
        this.changed();
      }
    });
    this.changed();
    return ok(this.view());
  }

  /**
   * Whether the table is asked about every reading (a new table: each answer teaches the camera the
   * table's tiles) or only about unsure ones. Readings already committed stay. The choice is kept in
   * the store (saved first: if the store cannot take it, nothing changes) and restored by the next
   * session's camera service.
   */
  askEverything(on: boolean): CameraView {
    this.o.store.saveSetting(ASK_EVERYTHING_SETTING, on);
    this.commitAt = commitAtFor(on, this.o.commitAt);
    if (this.tracker) void this.tracker.request({ op: 'commitAt', value: this.commitAt }).catch(() => undefined);
    this.changed();
    return this.view(true);
  }

  /** The table's answer in the top-3 picker. A rejected reading is never committed. */
  answer(id: number, answer: CameraAnswer): Result<Ack | null> {
    const open = this.desk.open().find((p) => p.id === id);
    if (!open) return fail(`camera reading ${id} is not open (answered already, or withdrawn when the game moved on)`);
    if (answer === 'reject') {
      this.desk.reject(id);
      this.changed();
      void this.pump();
      return ok(null);
    }
    const before = (open.payload as StoredProposal).before;
    const now = (c: Command) => forTheTurnNow(this.o.session.currentGame, c);
    let r: Result<Ack>;
    if (typeof answer === 'object' && 'figure' in answer) {
      // The table shows the figure and its spot itself: the reading's player and moment stay.
      const read = open.payload.command;
      if (read.type !== 'placeMeeple') return fail(`camera reading ${id} is about ${isTileCommand(read) ? 'a tile' : `a ${read.type} move`}, not a figure: only a figure reading is answered with a figure`);
      r = this.desk.acceptAs(id, () => ({ ...read, kind: answer.figure, on: answer.on }), now, before);
    } else if (typeof answer === 'object') {
      // The table names the tile itself: the reading's cell and kind of placement stay, the tile and
      // its turn are the table's; the rules judge it like a tile entered by hand.
      const read = open.payload.command;
      if (!isTileCommand(read)) return fail(`camera reading ${id} is about ${read.type === 'placeMeeple' ? 'a figure' : `a ${read.type} move`}, not a tile: only a tile reading is answered with a tile`);
      if (!this.o.session.currentGame?.catalog.has(answer.tile)) return fail(`${answer.tile} is not a tile of this game`);
      r = this.desk.acceptAs(id, () => ({ ...read, tile: answer.tile, rot: answer.rot }), now, before);
    } else r = this.desk.accept(id, answer === 'best' ? undefined : answer, now, before);
    // (An answer put in before later moves is a figure: the last command is then not the answer.)
    const played = before === undefined ? this.o.session.currentGame?.commands.at(-1) : undefined;
    if (r.ok && played && isTileCommand(played)) this.art.picked(played);
    return r;
  }

  /**
   * The tile types that may lie, in some turn, at the cell of the open tile reading `id`: what a
   * photo answering it may show (the photo's turn is not the board's, so every turn counts).
   */
  typesFittingQuestion(id: number): Result<Set<string>> {
    const q = this.openTileReading(id);
    return q.ok ? ok(typesFittingCell(q.value.game, q.value.read.at, q.value.as)) : q;
  }

  /** Open tile reading `id`, the game it is about, and the kind of placement it reads. */
  private openTileReading(id: number): Result<{ read: PlaceTile | PlacePrizeTile; game: Game; as: 'land' | 'prize' }> {
    const open = this.desk.open().find((p) => p.id === id);
    if (!open) return fail(`camera reading ${id} is not open (answered already, or withdrawn when the game moved on)`);
    const read = open.payload.command;
    const game = this.o.session.currentGame;
    if (!game || !isTileCommand(read)) return fail(`camera reading ${id} is not about a tile`);
    return ok({ read, game, as: read.type === 'placePrizeTile' ? 'prize' : 'land' });
  }

  /** A request to this game's tracker, its being down a reason rather than an exception. */
  private async askTracker<R extends TrackerRequest>(r: R): Promise<Result<TrackerReplies[R['op']]>> {
    const tracker = this.trackerOfThisGame;
    if (!tracker) return fail('the camera is not reading this game now');
    try {
      return ok(await tracker.request(r));
    } catch (e) {
      if (e instanceof TrackerDown) return fail(`the camera's tracker is down: ${e.message}`);
      throw e;
    }
  }

  /**
   * The tile types the camera's last still picture of the cell of open tile reading `id` may show,
   * likeliest first (the model's reading decoded as the tracker decodes a cell): the order in which
   * "Another tile…" draws the types that may lie there.
   */
  async typesSeen(id: number): Promise<Result<string[]>> {
    const q = this.openTileReading(id);
    if (!q.ok) return q;
    const r = await this.askTracker({ op: 'typesSeen', at: q.value.read.at });
    if (!r.ok) return r;
    return r.value.types ? ok([...r.value.types]) : fail(r.value.why);
  }

  /**
   * The turns in which `tile` may lie at the cell of open tile reading `id`, best first by what the
   * camera's last still picture of that cell shows along its edges (the model's segment head, which
   * reads any print), each with its probability among them: the table named the tile ("Another
   * tile…", a photo) and picks its turn, the camera's first.
   */
  async turnsSeen(id: number, tile: string): Promise<Result<{ rot: number; p: number }[]>> {
    const q = this.openTileReading(id);
    if (!q.ok) return q;
    const { read, game, as } = q.value;
    const cell = placements(game, tile, as).cells.find((c) => c.x === read.at[0] && c.y === read.at[1]);
    if (!cell || cell.turns.length === 0) return fail(`${tile} cannot lie at the cell of camera reading ${id}`);
    const r = await this.askTracker({ op: 'turnsSeen', tile, at: read.at, turns: cell.turns.map((t) => t.rot / 90) });
    if (!r.ok) return r;
    return r.value.turns ? ok(r.value.turns.map((t) => ({ rot: t.q * 90, p: t.p }))) : fail(r.value.why);
  }

  private notice(frame: number, text: string, error: boolean): void {
    this.notices.push({ frame, text, error });
    if (this.notices.length > NOTICES) this.notices.shift();
  }

  // ── the view ──

  view(withImage = false): CameraView {
    const game = this.o.session.currentGame;
    const tracker = this.trackerOfThisGame;
    const midFrame = this.midFrame;
    const waiting = this.switchedOff ? 'a camera' : midFrame ? null : this.waitingFor();
    if (tracker && this.lastImage && !this.size) this.size = jpegSize(this.lastImage);
    // Everything the camera says reaches a player: in the table's words (session/words.ts).
    const words = game ? new TableWords(game.state) : null;
    const say = (t: string) => (words ? words.rewrite(t).text : withoutGame(t));
    const proposals = game ? this.desk.open().map((p) => proposalView(game, p.id, p.payload as StoredProposal, this.commitAt > 1)) : [];
    // While the table is asked, or frames wait to be read (the demo game played fast), the recording's
    // picture is the frame the camera read last (later frames may show hands or the next tiles);
    // otherwise the latest frame.
    const picture = (proposals.length > 0 || this.intake.held > 0) && this.lastReadImage ? this.lastReadImage : this.lastImage;
    return {
      source: this.feed.kind,
      label: this.feed.label,
      status: this.feed.status,
      message: this.feed.message ? say(this.feed.message) : this.trackerProblem ? `The tracker cannot run: ${say(this.trackerProblem)}` : null,
      reading: waiting === null,
      waiting: waiting === null ? null : say(waiting),
      figureWaits: waiting !== null && this.figureWaits,
      calibrated: tracker?.calibrated ?? false,
      calibratedFrom: tracker?.calibratedFrom ?? null,
      ...this.calibration.view(tracker?.calibratedFrom ?? null),
      frames: { received: this.received, read: this.read, last: this.lastRead, queued: this.intake.held + this.intake.inFlight + (midFrame ? 1 : 0), dropped: this.dropped },
      size: this.size ?? (this.lastImage ? jpegSize(this.lastImage) : this.socketSize ? [this.socketSize[0], this.socketSize[1]] : null),
      grid: game && tracker ? gridView(game, tracker.tableToImage) : [],
      proposals,
      notices: [...this.notices].reverse().map((n) => ({ ...n, text: say(n.text) })),
      askEverything: this.commitAt > 1,
      counts: { committed: this.readings.committed, asked: this.readings.asked },
      art: this.art.view(game?.state ?? null),
      image: withImage && this.feed.kind === 'recording' && picture ? `data:image/jpeg;base64,${Buffer.from(picture).toString('base64')}` : null,
      demo: this.demo(),
    };
  }

  /** The demo game that drives this camera shows its state in the camera's view (pushed with it). */
  showDemo(view: () => DemoView): void {
    this.demo = view;
  }

  /** Something outside the camera changed what its view shows (the demo game): pushed to the screens. */
  viewChanged(): void {
    this.changed();
  }

  /**
   * Drops the frames held for the table (the demo game stopped: what its recording showed beyond the
   * game is not the table's, and the game goes on by hand).
   */
  dropHeld(): void {
    this.intake.drop();
    this.uncalibrated = [];
    this.changed();
  }

  /** The recording this camera plays when no camera is connected, if any. */
  get recordingDir(): string | null {
    return this.feed.recording?.dir ?? null;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /**
   * Resolves once every frame received so far is read (or let go), the tracker levelled with the
   * session, and what it taught stored (tests, shutdown) — not once the pump is idle: a camera that
   * sends faster than a loaded machine reads keeps the pump busy for good.
   */
  async settled(): Promise<void> {
    // The frames received so far: looked at (kept or not), then those kept read, unless the tracker
    // may not read them now (a question open, the game over).
    const upTo = this.received - 1;
    const seq = this.sessionSeq;
    await this.intake.lookedAt();
    // (The tracker levelled with the session as it is now: answers and input reach the worker by a
    // message, so what they release — a figure read, a picture learned — comes after a reply.)
    const pending = () => this.trackerLoading || (this.pumping && ((this.busyWith !== -1 && this.busyWith <= upTo) || this.intake.oldestHeld <= upTo || (this.tracker !== null && this.levelledSeq < seq)));
    while (pending()) await new Promise((r) => setTimeout(r, 5));
    await this.learning;
  }

  /** What the frame intake did (frame-intake.ts): frames looked at, JPEGs kept over the session, bytes held now and at most, scenes dropped. */
  get intakeFigures(): { looked: number; kept: number; heldBytes: number; heldBytesMax: number; scenes: number; droppedScenes: number; skipped: number; inFlight: number } {
    const i = this.intake;
    return { looked: i.looked, kept: i.kept, heldBytes: i.heldBytes, heldBytesMax: i.heldBytesMax, scenes: i.scenes, droppedScenes: i.droppedScenes, skipped: i.skipped, inFlight: i.inFlight };
  }

  /** Trackers made so far: each worker is one generation. */
  get trackerGeneration(): number {
    return this.generation;
  }

  /** The tracker's worker now (tests: killed or made to hang; null before one is made). */
  get trackerWorker(): TrackerClient | null {
    return this.tracker;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    await this.feed.stopPlayer();
    await this.settled();
    await this.tracker?.close();
  }
}
