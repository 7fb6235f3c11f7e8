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
 * The table's answers teach the camera its art: a tile the table picked in the top-3 picker is a tile
 * whose identity and rotation the table has confirmed, so its picture (cut from the frame the tracker
 * read it on) is stored as an enrolled exemplar (up to `LEARN_PER_TILE` per tile type) and matched by
 * the model's readings from then on, in this game and the next (models/enroll.ts).
 */
import { frameSizeProblem, jpegSize } from './frame-size.js';
import type { Command, PlacePrizeTile, PlaceTile } from '../../../engine/game/commands.js';
import type { Game } from '../../../engine/game/game.js';
import type { GameSetup } from '../../../engine/game/setup.js';
import { reminders } from '../../../engine/game/reminders.js';
import { underTowerFloor } from '../../../engine/expansions/tower.js';
import { decide } from '../../../engine/game/engine.js';
import { posKey } from '../../../engine/geometry/position.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import { setupFromRecord } from '../../../engine/record/convert.js';
import { parseRecord } from '../../../engine/record/schema.js';
import { SHEET_LAYOUTS, type SheetLayout } from '../../../calibration/sheet/layout.js';
import { homographyFromCorners } from '../../../calibration/fallbacks.js';
import { readManifest, readRecordJson } from '../../../models/scene/recording.js';
import type { TrackEvent } from '../../../models/track/tracker.js';
import { BOARD_PICTURE_SOURCE, picturedTypes, picturesFromStore } from '../tiles/enrolled.js';
import type { CameraAnswer, CameraReport, CameraSourceKind, CameraStatusKind, CameraView } from '../../contract/camera.js';
import { DEMO_OFF, type DemoView } from '../../contract/demo.js';
import type { Ack, GameSession } from '../session/session.js';
import type { Store } from '../store/store.js';
import { cellOf, gridView, readingView } from './camera-view.js';
import { TableWords, fromStart, withoutGame } from '../session/words.js';
import { ProposalDesk, type CameraProposal } from './proposals.js';
import { RecordingCamera } from './recording-camera.js';
import { FrameIntake, MAX_BYTES, type KeptFrame } from './frame-intake.js';
import { TrackerClient, TrackerDown, type TrackerClientOptions } from './tracker-client.js';
import type { StoredCrop } from './tracker-protocol.js';

/** What the tracker must know of the table: the tile set's art as enrolled, and where the markers lie. */
export interface TableProfile {
  readonly style: string;
  readonly markers: SheetLayout;
}

export interface RecordingInfo {
  readonly dir: string;
  readonly profile: TableProfile;
  /** The recorded game's setup: the recording is only played into a game set up the same way. */
  readonly setup: GameSetup;
  readonly fps: number;
}

/** Reads what the camera service needs from a recording directory (docs/recording-format.md). */
export function recordingInfo(dir: string): Result<RecordingInfo> {
  const m = readManifest(dir);
  if (!m.ok) return fail(m.error);
  const src = m.value.source as { style?: unknown; markers?: unknown };
  if (typeof src.style !== 'string' || !src.markers) return fail(`${dir}: the manifest names no tile set style or marker layout`);
  const raw = readRecordJson(dir);
  if (!raw.ok) return fail(raw.error);
  const rec = parseRecord(raw.value);
  if (!rec.ok) return fail(`${dir}: ground truth: ${rec.reason}`);
  return ok({ dir, profile: { style: src.style, markers: src.markers as SheetLayout }, setup: setupFromRecord(rec.record), fps: m.value.fps });
}

/**
 * Four clicked corners (image pixels) as the tracker takes them, or what is wrong with them: not four
 * pairs of finite numbers, or no quadrilateral (crossed, in a line, too close). Only their shape is
 * checked; the tracker knows the piece's size.
 */
function checkedCorners(value: unknown): [number, number][] | string {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((p) => Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v))))
    return `expected four [x, y] pairs of finite numbers, got ${JSON.stringify(value)}`;
  const corners = value.map((p: number[]) => [p[0]!, p[1]!] as [number, number]);
  const quad = homographyFromCorners(corners.map(([x, y]) => ({ x, y })), { widthMm: 1, heightMm: 1 });
  return quad.ok ? corners : quad.error.message;
}

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

/** Payload kept with each camera proposal in the store (beside the command and its runners-up). */
interface StoredProposal extends CameraProposal {
  readonly frame?: number;
  readonly why?: string;
  /** The game's history length when it was read: the position it is about. */
  readonly at?: number;
  /**
   * A figure reading about a moment the table had already moved past (`proposeBefore`): it goes into
   * the history at this place, not at its end.
   */
  readonly before?: number;
  /** The commands just before `before` when it was read: the moment it is about, should the table rewrite it. */
  readonly context?: readonly Command[];
  /** The tracker (worker generation) that read it: one read before a worker went down is the table's to commit. */
  readonly generation?: number;
}

const NOTICES = 6;
const CAMERA_SOURCE = 'camera';
/** The tracker commits a reading at this confidence (its default `commitAt`). */
const SURE = 0.9;
/** Pictures of a tile type the table's answers enroll; more add little and cost every later reading. */
export const LEARN_PER_TILE = 2;
/** No reading is this sure: the table is asked about every one. */
const ASK_EVERYTHING = 2;
/** The store's key for the table's "ask about every tile" choice (kept between sessions). */
export const ASK_EVERYTHING_SETTING = 'camera.askEverything';
/** The start piece's corners the table clicked (image pixels), or null: the marker sheet. */
export const START_PIECE_CORNERS_SETTING = 'camera.startPieceCorners';
/** The marker sheet the table printed (a layout's name), or absent: the recording's layout. */
export const MARKER_SHEET_SETTING = 'camera.markerSheet';
/** Recent frames the start piece is looked for in after the newest picture (each look ≈ 15 ms when nothing is there). */
const FIND_IN_FRAMES = 8;

const sameCommand = (a: Command, b: Command) => JSON.stringify(a) === JSON.stringify(b);
const isTileCommand = (c: Command): c is PlaceTile | PlacePrizeTile => c.type === 'placeTile' || c.type === 'placePrizeTile';

export class CameraService {
  readonly desk: ProposalDesk;
  private kind: CameraSourceKind = 'none';
  private status: CameraStatusKind = 'off';
  private label = 'no camera';
  private message: string | null = null;
  private recording: RecordingInfo | null = null;
  private recordingProblem: string | null = null;
  private player: RecordingCamera | null = null;
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
  /** The start piece's corners the table clicked (image pixels), when it calibrates without the marker sheet. */
  private corners: [number, number][] | null = null;
  /** The marker sheet the table chose (A4 or A3 layout), when not the recording's. */
  private sheet: SheetLayout | null = null;
  /** The start piece as found on the picture, for the table to confirm (`findStartPiece`). */
  private found: { corners: [number, number][]; sure: boolean } | null = null;
  private finding = false;
  /** The game the start piece was last looked for by itself (`offerStartPiece`). */
  private offeredFor: number | null = null;
  /** The start piece on offer was looked for by itself, not asked for. */
  private foundItself = false;
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
  private committed = 0;
  private asked = 0;
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
  /** The frame the tracker read last: what an open question is about. */
  private lastReadImage: Uint8Array | null = null;
  private notices: { frame: number; text: string; error: boolean }[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private closed = false;
  /** A tile the table just picked in the picker: its picture is enrolled once the tracker has it. */
  private toLearn: PlaceTile | PlacePrizeTile | null = null;
  private learning: Promise<void> = Promise.resolve();
  /** The game whose final board was pictured (once per game). */
  private boardPicturedFor: number | null = null;
  /** Tile types the store holds a board picture of (the table's art the tracker reads by). */
  private pictured = new Set<string>();
  /** A picture of the board the table asked for is being stored. */
  private picturing = false;
  /** The confidence at which a reading is committed without asking (above 1: the table is asked about every one). */
  private commitAt: number;
  /** The recording's playback speed (the demo game sets it; default the option's). */
  private speed: number;
  /** The demo game driving this camera, shown in its view (services/demo). */
  private demo: () => DemoView = () => DEMO_OFF;
  /** Times the table's pictures changed (`tablePicturesChanged`): a tracker loaded meanwhile is made again. */
  private picturesChanged = 0;
  /** Teach mode's hold on the frames (`tapFrames`). */
  private tap: ((bytes: Uint8Array) => boolean) | null = null;

  constructor(private readonly o: CameraServiceOptions) {
    this.desk = new ProposalDesk(o.store, o.session);
    this.intake = new FrameIntake({
      ...(o.maxHeldBytes !== undefined ? { maxBytes: o.maxHeldBytes } : {}),
      onKept: () => void this.pump(),
      onProblem: (index, message) => {
        this.notice(index, message, true);
        this.changed();
      },
    });
    this.commitAt = o.commitAt ?? SURE;
    this.speed = o.recordingSpeed ?? 1;
    // The table's last word on "ask about every tile" outlives the session.
    const asked = o.store.setting(ASK_EVERYTHING_SETTING);
    if (typeof asked === 'boolean') this.commitAt = this.commitAtFor(asked);
    else if (asked !== undefined) this.notice(-1, `the stored choice “ask about every tile” is not yes or no (${JSON.stringify(asked)}): ignored until the table chooses again`, true);
    // …and so do the start piece's corners it clicked (the camera is where it was, or it clicks again).
    const stored = o.store.setting(START_PIECE_CORNERS_SETTING);
    if (stored !== undefined && stored !== null) {
      const corners = checkedCorners(stored);
      if (typeof corners === 'string') this.notice(-1, `the stored start piece's corners are not usable (${corners}): the marker sheet is looked for until the table clicks them again`, true);
      else this.corners = corners;
    }
    // …and the marker sheet it printed.
    const sheet = o.store.setting(MARKER_SHEET_SETTING);
    if (sheet !== undefined && sheet !== null) {
      const layout = SHEET_LAYOUTS.find((l) => l.name === sheet);
      if (layout) this.sheet = layout;
      else this.notice(-1, `the stored marker sheet ${JSON.stringify(sheet)} is not one this app prints: the recording's layout is used until the table chooses again`, true);
    }
    if (o.recording) {
      const r = recordingInfo(o.recording);
      if (r.ok) this.recording = r.value;
      else this.recordingProblem = r.reason;
    }
    this.boundTo = o.session.currentGameId;
    this.unsubscribe = o.session.onChange(() => this.sessionChanged());
  }

  /** Where the tracker reads the table from: the given profile, else the recording's; the table's sheet over either. */
  private get profile(): TableProfile | null {
    const p = this.o.profile ?? this.recording?.profile ?? null;
    return p && this.sheet ? { ...p, markers: this.sheet } : p;
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
    const layout = name === null ? null : SHEET_LAYOUTS.find((l) => l.name === name);
    if (layout === undefined) return fail(`the marker sheet ${JSON.stringify(name)} is not one this app prints (${SHEET_LAYOUTS.map((l) => l.name).join(', ')})`);
    this.o.store.saveSetting(MARKER_SHEET_SETTING, layout?.name ?? null);
    if (this.sheet?.name === layout?.name) return ok(this.view(true));
    this.sheet = layout;
    // A new tracker that has seen nothing (as for clicked corners): the scene in view is kept again.
    void this.tracker?.close();
    this.tracker = null;
    this.trackerFor = null;
    this.lastScene = [];
    this.returnToIntake();
    this.intake.restart();
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
    void this.stopPlayer();
    if (speed !== undefined) this.speed = speed;
    this.kind = kind;
    this.message = null;
    if (kind === 'none') {
      this.status = 'off';
      this.label = 'no camera';
    } else if (kind === 'browser') {
      this.status = 'starting';
      this.label = label ?? 'this screen’s camera';
    } else {
      if (!this.recording) {
        this.kind = 'none';
        this.status = 'off';
        this.changed();
        return fail(`no recording to play: ${this.recordingProblem ?? 'none was configured'}`);
      }
      this.label = `recorded game (${this.recording.dir.split(/[\\/]/).pop()})`;
      this.status = 'starting';
      this.startPlayer();
    }
    this.changed();
    return ok(this.view());
  }

  /** The screen's camera reports: live, or its track ended (unplugged). */
  report(r: CameraReport): Result<CameraView> {
    if (this.kind !== 'browser') return fail(`the camera source is ${this.kind}, not this screen's camera`);
    if (r.label) this.label = r.label;
    if (r.state === 'live') {
      this.status = 'live';
      this.message = null;
    } else {
      this.status = 'unplugged';
      this.message = `The camera stopped${r.reason ? ` (${r.reason})` : ''}. Nothing it had not read is lost and nothing was committed from it; go on by manual entry, and reconnect it to let it read again.`;
    }
    this.changed();
    return ok(this.view());
  }

  /** One JPEG frame from the screen's camera. */
  frame(bytes: Uint8Array): Result<void> {
    if (this.kind !== 'browser') return fail(`the camera source is ${this.kind}: frames from the screen are not expected`);
    const problem = frameSizeProblem(bytes);
    if (problem) {
      // Named to the table like a frame that does not decode: which frame, and why nothing was read.
      const index = this.received++;
      this.notice(index, `frame ${index} was refused before decoding: ${problem}; nothing was read from it`, true);
      this.changed();
      return fail(`frame ${index}: ${problem}`);
    }
    // A frame taken just before the track ended can arrive after the screen said so: it is read, but
    // the camera stays unplugged until the screen reports it live again.
    if (this.status === 'starting') {
      this.status = 'live';
      this.message = null;
    }
    this.enqueue(bytes);
    return ok(undefined);
  }

  private startPlayer(): void {
    const rec = this.recording!;
    const game = this.o.session.currentGame;
    if (!game) {
      this.status = 'off';
      this.message = 'The recording plays once a game is set up as it was recorded.';
      return;
    }
    const mismatch = setupMismatch(game.setup, rec.setup);
    if (mismatch) {
      this.status = 'off';
      this.message = `The recording shows a game set up differently (${mismatch}); start a game set up as it was to follow it.`;
      return;
    }
    const player = new RecordingCamera(rec.dir, this.speed);
    this.player = player;
    player.onFrame((f) => {
      if (this.player === player && f.jpeg) this.enqueue(f.jpeg);
    });
    player.onStatus((s) => {
      if (this.player !== player) return;
      if (s.state === 'live') {
        this.status = 'live';
        this.message = null;
      } else if (s.state === 'stopped') {
        this.status = 'stopped';
        this.message = 'The recording has ended: the camera reads no more; anything left goes in by manual entry.';
      } else {
        this.status = 'unplugged';
        this.message = `The recording cannot be played: ${s.reason}`;
      }
      this.changed();
    });
    void player.start();
  }

  /** Stops the recording; its late frames and status are ignored (they no longer come from `this.player`). */
  private async stopPlayer(): Promise<void> {
    const p = this.player;
    this.player = null;
    await p?.stop();
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
    const dropped = this.intake.droppedScenes;
    if (dropped > this.dropped) {
      this.dropped = dropped;
      this.notice(index, `${dropped} still scene${dropped === 1 ? '' : 's'} dropped while the camera waited for the table (the newest are kept)`, true);
    }
    this.changed();
  }

  /** No camera now (chosen so, or the demo stopped): nothing more is read, and no reading is the camera's to commit. */
  private get switchedOff(): boolean {
    return this.kind === 'none';
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
    if (!first || (first.what !== 'placeTile' && first.what !== 'placePrizeTile')) return `the table: ${first?.text ?? 'nothing to do'}`;
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
      if (!this.switchedOff) await this.handle(events);
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
    this.reviewOpen();
    const added = await this.level();
    const last = added.at(-1);
    // The table answered a reading the tracker left open (or entered the tile itself): the figure on
    // that tile is read from the same frame.
    const tracker = this.tracker;
    if (last && (last.type === 'placeTile' || last.type === 'placePrizeTile') && tracker && !this.switchedOff) {
      const generation = this.generation;
      const r = await tracker.request({ op: 'afterTableAnswer' });
      if (tracker === this.tracker && generation === this.generation) await this.handle(r.events);
    }
    // (A pick made while this levelling was on its way to the worker is learned at the next one: the
    // tracker must have the tile in its game to cut its picture.)
    const learn = this.toLearn;
    if (learn && added.some((c) => sameCommand(c, learn))) {
      this.toLearn = null;
      this.learn(learn);
    } else if (learn && !this.o.session.currentGame?.commands.some((c) => sameCommand(c, learn))) this.toLearn = null;
    // A finished game's board shows the table's art: its tiles become the next games' templates.
    if (this.tracker?.game.state.finished && this.trackerFor !== null && this.boardPicturedFor !== this.trackerFor) {
      this.boardPicturedFor = this.trackerFor;
      this.learning = this.learning.then(async () => {
        const n = await this.pictureBoard();
        if (n > 0) this.notice(-1, `pictured ${n} tile type${n === 1 ? '' : 's'} from the final board: the camera reads this table's art by them from the next game on`, false);
        this.changed();
      });
    }
    this.levelledSeq = Math.max(this.levelledSeq, seq);
  }

  /**
   * Stores a picture of each tile type on the board that has no board picture yet (from the last
   * still frame, a copy with no figure on it where there is one, else the figures' places left
   * transparent; Tracker `boardPictures`): the next games' templates,
   * and exemplars for the model from now on. Done by itself when a game ends. Returns how many types
   * were pictured; a picture that cannot be stored is named in the notices and the rest go on.
   */
  async pictureBoard(): Promise<number> {
    const tracker = this.tracker;
    if (!tracker) return 0;
    const have = this.storedPictures();
    // Cut and encoded in the tracker's worker; stored here; the stored ones used there.
    let offered;
    try {
      offered = await tracker.request({ op: 'boardPictures', have: [...have] });
    } catch (e) {
      if (!(e instanceof TrackerDown)) throw e;
      this.notice(-1, `the board was not pictured: ${e.message}`, true);
      return 0;
    }
    for (const p of offered.problems) this.notice(-1, p, true);
    const stored: string[] = [];
    for (const p of offered.pictures) {
      try {
        this.o.store.addExemplar({ tileId: p.tileId, rot: p.rot, source: BOARD_PICTURE_SOURCE, image: Buffer.from(p.png), mime: 'image/png' });
        stored.push(p.tileId);
        this.pictured.add(p.tileId);
      } catch (e) {
        this.notice(-1, `the final board's picture of ${p.tileId} could not be stored: ${(e as Error).message}`, true);
      }
    }
    // The rest of this game reads the types by them too (a game in play is pictured between turns only).
    if (stored.length > 0 && tracker === this.tracker) await tracker.request({ op: 'usePictures', tileIds: stored }).catch((e: unknown) => {
      if (!(e instanceof TrackerDown)) throw e;
    });
    return stored.length;
  }

  /** The tile types the store holds a picture of, taught or from a board (and the cached set brought level with it). */
  private storedPictures(): Set<string> {
    this.pictured = picturedTypes(this.o.store);
    return this.pictured;
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
    this.storedPictures();
    this.changed();
  }

  /**
   * Why the board cannot be pictured now, or null when it can. Only between turns: then every
   * figure on the board went through the rules (read by the camera or entered by the table), so
   * the figures' places are known and left out; a figure being put down mid-turn is not known yet
   * and would be frozen into the picture.
   */
  private pictureBlocker(): string | null {
    const game = this.o.session.currentGame;
    if (!game) return 'no game is being played';
    const tracker = this.tracker && this.trackerFor === this.o.session.currentGameId ? this.tracker : null;
    if (!tracker) return 'the camera is not reading this game yet';
    if (this.picturing) return 'the board is being pictured';
    if (this.desk.open().length > 0) return 'answer the camera’s question first';
    const state = tracker.game.state;
    if (!state.finished && state.turn.step !== 'tile') return 'wait until this turn is over (its figure placed or passed, its points scored)';
    if (state.board.tiles.every((t) => this.pictured.has(t.view.tile.id) || underTowerFloor(state, t))) return 'every tile type on the board is pictured already';
    return null;
  }

  /**
   * The table asks for a picture of the board now (between turns): each tile type on it without a
   * picture yet is pictured as at a game's end, and read by that picture from now on. Returns at
   * once; the notices say how many types were pictured.
   */
  pictureBoardNow(): Result<CameraView> {
    const blocked = this.pictureBlocker();
    if (blocked) return fail(`the board cannot be pictured now: ${blocked}`);
    this.picturing = true;
    this.learning = this.learning.then(async () => {
      try {
        const n = await this.pictureBoard();
        this.notice(this.lastRead, n > 0 ? `pictured ${n} tile type${n === 1 ? '' : 's'} from the board: the camera reads ${n === 1 ? 'it' : 'them'} by this table's art from now on` : 'no tile on the board could be pictured: the camera has no still picture of it yet', n === 0);
      } finally {
        this.picturing = false;
        this.changed();
      }
    });
    this.changed();
    return ok(this.view());
  }

  /**
   * Enrolls the picture of a tile the table confirmed: the tracker's last still frame is the one it
   * read the tile on (frames are held while a question is open). Stored with the store's other
   * exemplars, and matched from the next reading on.
   */
  private learn(c: PlaceTile | PlacePrizeTile): void {
    const tracker = this.tracker;
    if (!tracker) return;
    if ((this.o.store.exemplarCounts().get(c.tile) ?? 0) >= LEARN_PER_TILE) return;
    // Asked now (the tracker's last still frame is the one it read the tile on), stored when it answers.
    const asked = tracker.request({ op: 'learn', tile: c.tile, rot: c.rot, at: c.at });
    this.learning = this.learning.then(async () => {
      try {
        const r = await asked;
        if (r.problem) throw new Error(r.problem);
        if (!r.png) return;
        this.o.store.addExemplar({ tileId: c.tile, rot: c.rot, source: 'camera: the table picked it', image: Buffer.from(r.png), mime: 'image/png' });
      } catch (e) {
        if (e instanceof TrackerDown) return;
        // Learning is a bonus: the game goes on, the table is told.
        this.notice(-1, `the picture of ${c.tile} could not be enrolled: ${(e as Error).message}`, true);
        this.changed();
      }
    });
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
        const corners = this.corners;
        const sheet = this.sheet;
        const calibration = corners ? { startPieceCorners: corners.map(([x, y]) => ({ x, y })) } : { markers: profile.markers };
        // The pictures of earlier games' final boards are the tracker's templates: the table's own
        // printed art (a picture the table picked mid-game may carry a figure not read yet).
        const pictures = await picturesFromStore(this.o.store);
        this.pictured = new Set(pictures.pictures.map((p) => p.tileId));
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
        if (this.o.session.currentGameId === id && this.corners === corners && this.sheet === sheet && this.picturesChanged === picturesAt && !this.closed) {
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
    if (!this.switchedOff) for (const x of r.readings) await this.tableReadings(x.at, x.events);
    return r.added;
  }

  /**
   * Readings that table input released (see `level`), about the position `at` of the game's history.
   * The service decides what the tracker would have: sure (at the table's `commitAt`) is committed
   * through the rules, otherwise the table is asked. About the position the game is at, they go the
   * way of a fed frame's readings; about one the table has since moved past, see `proposeBefore`.
   */
  private async tableReadings(at: number, events: readonly TrackEvent[]): Promise<void> {
    for (const e of events) {
      const game = this.o.session.currentGame;
      if (!game) return;
      if (e.kind !== 'proposal') {
        await this.handle([e]);
        continue;
      }
      const sure = e.confidence >= this.commitAt;
      const decided = { ...e, committed: sure, why: sure ? 'sure' : e.why };
      if (at >= game.history.length) await this.propose(decided);
      else await this.proposeBefore(decided, at);
    }
  }

  /**
   * A figure reading about a moment the table has moved past: the figure waited for a nomination,
   * and the table went on instead (it ended the turn, say), or entered more before the camera caught
   * up. If the table entered a figure itself in that turn, its word stands and the reading is
   * withdrawn (nothing placed twice). Otherwise the figure goes into the history where it stood —
   * before the input that came after it — a sure one at once, an unsure one when the table picks it;
   * the rules replay everything after it, and refuse it if anything no longer holds.
   */
  private async proposeBefore(e: Extract<TrackEvent, { kind: 'proposal' }>, at: number): Promise<void> {
    const game = this.o.session.currentGame;
    if (!game) return;
    const payload: StoredProposal = { command: e.command, confidence: e.confidence, alternatives: e.alternatives, frame: e.frame, why: e.committed ? 'sure' : (e.why ?? 'not sure'), at, before: at, context: momentOf(game, at), generation: this.generation };
    const id = this.desk.propose(CAMERA_SOURCE, payload);
    if (!id.ok) return;
    if (figureEnteredSince(game, at)) {
      this.desk.reject(id.value);
      this.notice(e.frame, 'the table entered the figure on the new tile itself: the camera’s reading of it is withdrawn', false);
      return;
    }
    if (!e.committed) {
      this.asked++;
      return;
    }
    const played = this.desk.accept(id.value, undefined, undefined, at);
    if (played.ok) this.committed++;
    else {
      this.desk.reject(id.value);
      this.notice(e.frame, `the camera's reading was refused: ${played.reason}`, true);
    }
    await this.level();
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
      this.toLearn = null;
      this.found = null;
      this.lastScene = [];
      this.sinceScene = [];
      this.reading = null;
      this.intake.clear();
      this.uncalibrated = [];
      this.notices = [];
      this.committed = this.asked = this.read = this.received = this.dropped = 0;
      this.lastRead = -1;
      this.lastReadImage = null;
      if (this.kind === 'recording') {
        void this.stopPlayer();
        this.startPlayer();
      }
    } else if (this.kind === 'recording' && !this.player && id !== null) {
      this.startPlayer();
    }
    if (this.o.session.currentGame?.state.finished) this.intake.clear();
    // Deferred (pump starts with an await): an answer being accepted is decided before anything is reviewed.
    void this.pump();
    this.changed();
  }

  /**
   * Open readings after the game moved on. A figure reading is about one moment of a turn: once the
   * game moved on without it, it is withdrawn. A tile reading stays while its cell is empty: a tile
   * seen before its turn (the one before it went unread, say) is refused by the rules at first and
   * waits; once the table has caught up and the rules accept it, a sure one is played, an unsure one is
   * the table's to pick. It is withdrawn when a tile is laid on its cell or the game is over.
   */
  private reviewOpen(): void {
    const game = this.o.session.currentGame;
    if (!game) return;
    for (const p of this.desk.open() as { id: number; payload: StoredProposal }[]) {
      const c = p.payload.command;
      const before = p.payload.before;
      if (before !== undefined) {
        // About an earlier moment: it stays while that moment does (undone back to it, it is about now:
        // put in at the end) and the table has not placed the figure itself.
        if (game.history.length < before || figureEnteredSince(game, before) || !sameCommands(momentOf(game, before), p.payload.context ?? [])) this.desk.reject(p.id);
        continue;
      }
      if (p.payload.at === undefined || p.payload.at === game.history.length) continue;
      if (c.type !== 'placeTile' && c.type !== 'placePrizeTile') {
        this.desk.reject(p.id);
        continue;
      }
      const state = game.state;
      if (state.finished || !state.board.holes.has(posKey(c.at[0], c.at[1]))) {
        this.desk.reject(p.id);
        continue;
      }
      // Read by a worker that went down since: the next one lost what it knew of the order (which
      // cells hold tiles the game lacks), so nothing read before the restart is committed after it.
      if ((p.payload.generation ?? 0) < this.restartedAt) continue;
      // Not while a tile laid before it lies unentered (no draw told: that one is this turn's). Asked
      // of where the worker's tracker stood at its last reply (no frame is being read now), against
      // the session's game (the tracker is levelled with the table's input after this); with no
      // tracker to ask, not at all.
      const tracker = this.tracker && this.trackerFor === this.o.session.currentGameId ? this.tracker : null;
      if (!tracker || tracker.earlierTile(c.at[0], c.at[1], p.payload.frame, state)) continue;
      // A camera switched off (the demo stopped) commits nothing more: its open readings are the table's.
      if (this.kind === 'none') continue;
      if (p.payload.confidence >= this.commitAt && decide(state, this.now(c)).ok) {
        const played = this.desk.accept(p.id, undefined, (x) => this.now(x));
        if (played.ok) this.committed++;
      }
    }
  }

  private async handle(events: readonly TrackEvent[]): Promise<void> {
    const together = this.tilesTogether(events);
    for (const e of events) {
      if (e.kind === 'notice') this.notice(e.frame, e.message, false);
      else if (e.kind === 'error') {
        this.notice(e.frame, e.message, true);
        this.offerStartPiece(e.message);
      } else if (e.kind === 'proposal') {
        if (!together) await this.propose(e);
        // None of them is committed: the table says which tile is this turn's. A figure on one of them
        // is read again once the table has answered (or entered by hand).
        else if (isTileCommand(e.command)) await this.propose({ ...e, committed: false, why: e.committed ? 'two tiles appeared at once, and no draw says which was laid first: the table picks' : e.why });
      }
    }
  }

  /**
   * Several tiles read from one frame (a still scene between them missed) while no draw is told: the
   * tile laid is the draw, so nothing says which of them is this turn's (with a draw told, the
   * tracker reads the drawn one first, `loneNewTile`).
   */
  private tilesTogether(events: readonly TrackEvent[]): boolean {
    if (this.o.session.currentGame?.state.turn.drawn !== null) return false;
    return events.filter((e) => e.kind === 'proposal' && isTileCommand(e.command)).length > 1;
  }

  /**
   * The grid cannot be found (no marker sheet in view, no corners given): the start piece is looked
   * for once a game, as *Find the start piece* would, so that the table has an outline to confirm
   * rather than four corners to click.
   */
  private offerStartPiece(error: string): void {
    const id = this.o.session.currentGameId;
    if (!error.startsWith('cannot calibrate') || this.corners !== null || this.offeredFor === id) return;
    this.offeredFor = id;
    if (this.findStartPiece().ok) this.foundItself = true;
  }

  private async propose(e: Extract<TrackEvent, { kind: 'proposal' }>): Promise<void> {
    const game = this.o.session.currentGame;
    if (!game) return;
    // The position the reading is about: the tracker played a sure reading already, the session not yet.
    const payload: StoredProposal = { command: e.command, confidence: e.confidence, alternatives: e.alternatives, frame: e.frame, why: e.why ?? (e.committed ? 'sure' : 'not sure'), at: game.history.length, generation: this.generation };
    const id = this.desk.propose(CAMERA_SOURCE, payload);
    if (!id.ok) return;
    if (!e.committed) {
      this.asked++;
      return;
    }
    // A sure reading: proposed and accepted at once, through the rules like any move.
    const played = this.desk.accept(id.value);
    if (played.ok) this.committed++;
    else {
      this.desk.reject(id.value);
      this.notice(e.frame, `the camera's reading was refused: ${played.reason}`, true);
    }
    await this.level();
  }

  /**
   * The table calibrates without the marker sheet: the start piece's four corners as clicked on the
   * camera's picture (image pixels; north-west, north-east, south-east, south-west in the game's
   * frame), or null to go back to the marker sheet. The tracker is made again (the game is levelled
   * into it as after a restart), and the choice is kept in the store for the next session (saved
   * first: if the store cannot take it, nothing changes).
   */
  startPieceCorners(corners: readonly (readonly [number, number])[] | null): Result<CameraView> {
    const checked = corners === null ? null : checkedCorners(corners);
    if (typeof checked === 'string') return fail(`the start piece's corners: ${checked}`);
    this.o.store.saveSetting(START_PIECE_CORNERS_SETTING, checked);
    this.corners = checked;
    this.found = null;
    void this.tracker?.close();
    this.tracker = null;
    this.trackerFor = null;
    // A new tracker that has seen nothing: the frames read while no grid was found are read again on
    // the new grid first (the table as set up), then what the old one had not finished, then the rest.
    this.lastScene = [];
    this.returnToIntake(this.uncalibrated);
    this.uncalibrated = [];
    this.intake.restart();
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
    if (this.finding) return fail('the start piece is being looked for already');
    const earlier = [...new Set([...this.uncalibrated.map((f) => f.bytes), ...this.intake.recentFrames()])];
    const pictures = [this.lastImage, ...earlier.slice(0, FIND_IN_FRAMES)].filter((b): b is Uint8Array => b !== null);
    if (pictures.length === 0) return fail('the start piece cannot be looked for: no picture from the camera yet');
    this.finding = true;
    this.found = null;
    this.foundItself = false;
    this.learning = this.learning.then(async () => {
      try {
        await this.ensureTracker();
        const tracker = this.tracker;
        if (!tracker) return this.notice(this.lastRead, `the start piece cannot be looked for: ${this.trackerProblem ?? 'the tracker did not load'}`, true);
        const r = await tracker.request({ op: 'findStartPiece', pictures: pictures.map((bytes, i) => ({ bytes, label: i === 0 ? 'the newest picture' : `recent frame ${i}` })) });
        if (r.found) {
          this.found = { corners: r.found.corners.map((p): [number, number] => [p.x, p.y]), sure: r.found.sure };
          return;
        }
        this.notice(this.lastRead, `the start piece was not found on the camera's pictures (${r.why}): click its corners`, true);
      } catch (e) {
        if (!(e instanceof TrackerDown)) throw e;
        this.notice(this.lastRead, `the start piece was not looked for: ${e.message}`, true);
      } finally {
        this.finding = false;
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
    this.commitAt = this.commitAtFor(on);
    if (this.tracker) void this.tracker.request({ op: 'commitAt', value: this.commitAt }).catch(() => undefined);
    this.changed();
    return this.view(true);
  }

  /** The confidence at which a reading is committed, asked about every one or not. */
  private commitAtFor(askEverything: boolean): number {
    return askEverything ? ASK_EVERYTHING : this.o.commitAt !== undefined && this.o.commitAt <= 1 ? this.o.commitAt : SURE;
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
    const r = this.desk.accept(id, answer === 'best' ? undefined : answer, (c) => this.now(c), before);
    // (An answer put in before later moves is a figure: the last command is then not the answer.)
    const played = before === undefined ? this.o.session.currentGame?.commands.at(-1) : undefined;
    if (r.ok && played && (played.type === 'placeTile' || played.type === 'placePrizeTile')) this.toLearn = played;
    return r;
  }

  /** A tile reading restated for the turn now being played (it may have been seen before its turn). */
  private now(c: Command): Command {
    const game = this.o.session.currentGame;
    if (!game || (c.type !== 'placeTile' && c.type !== 'placePrizeTile')) return c;
    return { ...c, player: game.state.turn.player };
  }

  private notice(frame: number, text: string, error: boolean): void {
    this.notices.push({ frame, text, error });
    if (this.notices.length > NOTICES) this.notices.shift();
  }

  // ── the view ──

  view(withImage = false): CameraView {
    const game = this.o.session.currentGame;
    const tracker = this.tracker && this.trackerFor === this.o.session.currentGameId ? this.tracker : null;
    const waiting = this.kind === 'none' ? 'a camera' : this.waitingFor();
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
      source: this.kind,
      label: this.label,
      status: this.status,
      message: this.message ? say(this.message) : this.trackerProblem ? `The tracker cannot run: ${say(this.trackerProblem)}` : null,
      reading: waiting === null,
      waiting: waiting === null ? null : say(waiting),
      calibrated: tracker?.calibrated ?? false,
      calibratedFrom: tracker?.calibratedFrom ?? null,
      startPieceCorners: this.corners,
      // An outline offered unasked goes once the markers give the grid after all (a hand had hidden one).
      startPieceFound: this.finding ? 'looking' : this.foundItself && tracker?.calibratedFrom === 'markers' ? null : this.found,
      frames: { received: this.received, read: this.read, last: this.lastRead, queued: this.intake.held + this.intake.inFlight, dropped: this.dropped },
      size: this.size ?? (this.lastImage ? jpegSize(this.lastImage) : null),
      grid: game && tracker ? gridView(game, tracker.tableToImage) : [],
      proposals,
      notices: [...this.notices].reverse().map((n) => ({ ...n, text: say(n.text) })),
      askEverything: this.commitAt > 1,
      counts: { committed: this.committed, asked: this.asked },
      art: artView(game?.state ?? null, this.pictured, this.pictureBlocker()),
      image: withImage && this.kind === 'recording' && picture ? `data:image/jpeg;base64,${Buffer.from(picture).toString('base64')}` : null,
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
    return this.recording?.dir ?? null;
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
    await this.stopPlayer();
    await this.settled();
    await this.tracker?.close();
  }
}

/** How many of this game's tile types the table's art has been pictured for. */
function artView(state: Game['state'] | null, pictured: ReadonlySet<string>, blocker: string | null): CameraView['art'] {
  const types = new Set<string>();
  if (state) {
    for (const [id, n] of state.supply) if (n > 0) types.add(id);
    for (const t of state.board.tiles) types.add(t.view.tile.id);
  }
  return { pictured: [...types].filter((id) => pictured.has(id)).length, types: types.size, pictureNow: blocker };
}

function proposalView(game: Game, id: number, p: StoredProposal, askEverything: boolean): CameraView['proposals'][number] {
  const readings = [p.command, ...p.alternatives].map((c) => readingView(game, c));
  const cell = p.before === undefined ? cellOf(game, p.command) : tileBefore(game, p.before);
  return { id, frame: p.frame ?? -1, confidence: p.confidence, why: questionWords(game, p, askEverything), readings, cell };
}

/**
 * Why the camera asks, as the table would understand it: never "not sure … 100 % sure". A reading
 * sure enough to commit is asked about only because the table asked about every tile, and says so.
 */
export function questionWords(game: Game, p: Pick<StoredProposal, 'why' | 'confidence' | 'command'>, askEverything: boolean): string {
  const pct = Math.round(p.confidence * 100);
  const what = p.command.type === 'placeMeeple' ? 'the figure on the new tile' : 'this tile';
  const why = p.why ?? 'not sure';
  const rejected = /^the engine rejects it: (.*)$/s.exec(why);
  if (rejected) return `The camera’s best reading of ${what} breaks the rules (${new TableWords(game.state).rewrite(rejected[1]!).text}): which is it?`;
  const behind = /^a tile the game does not have lies at cell \((-?\d+), (-?\d+)\), laid before this one: enter it first$/.exec(why);
  if (behind) return `The camera sees ${what}, but a tile laid before it, the square ${fromStart(Number(behind[1]), Number(behind[2]))}, is not in the game yet: enter that one first, then say which this is.`;
  if (/^two tiles appeared at once\b/.test(why)) return `Two tiles appeared at once, and no draw says which was laid first: which is this one?`;
  if (why === 'sure' || (askEverything && p.confidence >= SURE)) return `The camera reads ${what} well (${pct} % sure) but asks about every tile, as this table chose: which is it?`;
  return `The camera is not sure about ${what} (its best reading is ${pct} % likely): which is it?`;
}

/** Where the last tile before history position `at` was laid (the tile a figure reading about that moment stands on). */
function tileBefore(game: Game, at: number): readonly [number, number] | null {
  for (let i = Math.min(at, game.commands.length) - 1; i >= 0; i--) {
    const c = game.commands[i]!;
    if (c.type === 'placeTile' || c.type === 'placePrizeTile') return c.at;
  }
  return null;
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

const sameCommands = (a: readonly Command[], b: readonly Command[]) => a.length === b.length && a.every((c, i) => sameCommand(c, b[i]!));

/** Does a game's setup match the recording's (the same expansions and seats)? The mismatch in words, or null. */
function setupMismatch(game: GameSetup, rec: GameSetup): string | null {
  const ex = (s: GameSetup) => [...s.expansions].sort().join(', ');
  if (ex(game) !== ex(rec)) return `expansions ${ex(rec)}`;
  const seats = (s: GameSetup) => s.players.map((p) => p.color).join(', ');
  if (seats(game) !== seats(rec)) return `${rec.players.length} players, colours ${seats(rec)} in that order`;
  return null;
}

