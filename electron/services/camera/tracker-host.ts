/**
 * The worker's side of tracker-protocol.ts: owns one Tracker (models/track), its enrollment and the
 * model, and answers the services' requests one at a time, in the order they came. Nothing here
 * touches the store or the session: the services send what is stored, and store what comes back.
 */
import sharp from 'sharp';
import type { Command } from '../../../engine/game/commands.js';
import { Enrollment, exemplarsFromCrop } from '../../../models/enroll.js';
import { pictureAlpha, type TilePicture } from '../../../models/track/templates.js';
import type { Tracker, TrackEvent } from '../../../models/track/tracker.js';
import { turnsByEdges } from '../../../models/track/edges-alone.js';
import { decodeReading } from '../../../models/decode.js';
import type { CropReading, TileRecognizer } from '../../../models/runner.js';

/** Every reading of a cell (each type at each legal turn): more than any cell leaves open. */
const ALL_READINGS = 4 * 400;
import type { BoardPicture, Faults, Replies, Request, TrackerState } from './tracker-protocol.js';

const sameCommand = (a: Command, b: Command) => a === b || JSON.stringify(a) === JSON.stringify(b);

export class TrackerHost {
  private tracker: Tracker | null = null;
  /** The table's enrolled exemplars for this tracker (made again with it: a worker serves one game at a time). */
  private enrollment = new Enrollment();
  /** The tracker's commands as last reported (`state`). */
  private reported: Command[] = [];
  private faults: Faults = {};
  /** The last board pictures offered (`boardPictures`), until the services say which were stored. */
  private offered: TilePicture[] = [];

  async handle(r: Request): Promise<Replies[Request['op']]> {
    if (r.op === 'create') return this.create(r.args);
    if (r.op === 'faults') {
      this.faults = r.faults;
      return null;
    }
    const t = this.tracker;
    if (!t) throw new Error(`tracker worker: ${r.op} before the tracker was made`);
    switch (r.op) {
      case 'feed':
        if (this.faults.crashAtFrame === r.index) process.exit(70);
        if (this.faults.hangAtFrame === r.index) for (;;);
        if (this.faults.modelBusyAtFrame === r.index) await modelBusy(t, this.faults.modelBusyMs ?? 1000);
        return { events: await t.feed(r.bytes, r.index) };
      case 'level':
        return this.level(t, r.commands);
      case 'afterTableAnswer':
        return { events: t.afterTableAnswer() };
      case 'commitAt':
        t.commitAt = r.value;
        return null;
      case 'learn':
        return this.learn(t, r.tile, r.rot, r.at);
      case 'boardPictures':
        return this.boardPictures(t, r.have);
      case 'usePictures':
        return this.usePictures(t, r.tileIds);
      case 'turnsSeen':
        return this.turnsSeen(t, r.tile, r.at, r.turns);
      case 'typesSeen':
        return this.typesSeen(t, r.at);
      case 'findStartPiece': {
        let why = '';
        for (const p of r.pictures) {
          const f = await t.findStartPiece(p.bytes, p.label);
          if (f.ok) return { found: { corners: f.corners, sure: f.sure }, why: '' };
          why ||= f.why;
        }
        return { found: null, why };
      }
    }
  }

  /** Where the tracker stands, its game as what changed since the last report. */
  state(): TrackerState {
    const t = this.tracker;
    if (!t) return { calibratedFrom: null, tableToImage: null, keep: 0, add: [], ahead: [], firstSeen: [], figureWaits: false };
    const now = t.game.commands;
    let k = 0;
    while (k < this.reported.length && k < now.length && sameCommand(this.reported[k]!, now[k]!)) k++;
    const add = now.slice(k);
    this.reported = [...now];
    const cells = t.unreadCells;
    return { calibratedFrom: t.calibratedFrom, tableToImage: t.tableToImage, keep: k, add, ahead: [...cells.ahead], firstSeen: [...cells.firstSeen], figureWaits: t.figureWaits };
  }

  private async create(a: Extract<Request, { op: 'create' }>['args']): Promise<Replies['create']> {
    // Loaded here, not at the top: the worker answers `faults` before OpenCV and the model are in.
    const { Tracker } = await import('../../../models/track/tracker.js');
    const calibration = a.startPieceCorners ? { startPieceCorners: a.startPieceCorners } : a.markers ? { markers: a.markers } : {};
    // A worker left idle by an earlier client makes a new tracker: nothing of the last one carries over.
    this.tracker = null;
    this.reported = [];
    this.offered = [];
    this.faults = {};
    this.enrollment = new Enrollment();
    const tracker = await Tracker.create({ setup: a.setup, style: a.style, ...calibration, commitAt: a.commitAt, enrollment: this.enrollment });
    const problems: string[] = [];
    const recognizer = tracker.recognizer;
    if (recognizer) {
      // What the table enrolled before (its answers in earlier games, the tile editor's crops) and the
      // tiles it taught (every copy an exemplar).
      for (const e of a.crops) {
        const r = await exemplarsFromCrop(recognizer, e.image, e.tileId, e.rot, { newTile: !recognizer.info.tiles.includes(e.tileId) });
        if (r.ok) this.enrollment.add(...r.value);
        else problems.push(`an enrolled tile picture could not be read: ${e.what} ${e.id} (${e.tileId}): ${r.reason}`);
      }
    }
    for (const p of a.pictures) tracker.learnPicture(p);
    this.tracker = tracker;
    this.reported = [];
    return { problems };
  }

  /**
   * Brings the tracker's game level with the session's commands (CameraService `level`): back to
   * where they agree, then each session command as table input. While it is levelled the tracker
   * only proposes; what table input released is returned with the history position it is about.
   */
  private level(t: Tracker, want: readonly Command[]): Replies['level'] {
    const have = t.game.commands;
    let k = 0;
    while (k < have.length && k < want.length && sameCommand(have[k]!, want[k]!)) k++;
    while (t.game.history.length > k) t.game.undo();
    const added = want.slice(k);
    const readings: { at: number; events: readonly TrackEvent[] }[] = [];
    const commitAt = t.commitAt;
    t.commitAt = Infinity;
    try {
      for (const c of added) {
        const before = t.game.history.length;
        const r = t.tableInput(c);
        if (!r.ok) throw new Error(`camera: the tracker's copy of the game refused the session's ${c.type}: ${r.reason}`);
        // A figure read on the nomination it waited for stands after it; one read because other input came, before that input.
        if (r.events.length > 0) readings.push({ at: c.type === 'nominate' ? before + 1 : before, events: r.events });
      }
    } finally {
      t.commitAt = commitAt;
    }
    return { added, readings };
  }

  /** The model's reading of the camera's last still picture of hole `at`, or why there is none. */
  private async readHole(t: Tracker, at: readonly [number, number]): Promise<{ reading: CropReading; recognizer: TileRecognizer } | { why: string }> {
    const recognizer = t.recognizer;
    if (!recognizer) return { why: 'the tracker reads without a model' };
    const picture = t.holePicture(at[0], at[1]);
    if (!picture || picture.channels !== 3) return { why: 'the camera has no still picture of that cell' };
    const prepared = await recognizer.prepare({ pixels: picture.data, width: picture.width, height: picture.height, channels: 3 }, `cell (${at[0]}, ${at[1]})`);
    if (!prepared.ok) return { why: prepared.reason };
    const [reading] = await recognizer.readPrepared([prepared.value]);
    return { reading: reading!, recognizer };
  }

  /** Which of `turns` of `tile` the camera's last still picture of hole `at` shows, by its edges. */
  private async turnsSeen(t: Tracker, tile: string, at: readonly [number, number], turns: readonly number[]): Promise<Replies['turnsSeen']> {
    const type = t.game.catalog.get(tile);
    if (!type) return { turns: null, why: `${tile} is not in the game's catalog` };
    const read = await this.readHole(t, at);
    if ('why' in read) return { turns: null, why: read.why };
    return { turns: turnsByEdges(read.reading, read.recognizer.info.terrains, type, turns), why: '' };
  }

  /**
   * The tile types the camera's last still picture of hole `at` may show, likeliest first: the model's
   * reading decoded as the tracker decodes a cell (legal placements and supply, the table's
   * exemplars), each type at its best turn. Types it cannot weigh (a 2025 tile not pictured) are left out.
   */
  private async typesSeen(t: Tracker, at: readonly [number, number]): Promise<Replies['typesSeen']> {
    const read = await this.readHole(t, at);
    if ('why' in read) return { types: null, why: read.why };
    const decoded = decodeReading(read.reading, read.recognizer.info, t.game.catalog, { state: t.game.state, at }, { enrollment: this.enrollment, runnersUp: ALL_READINGS });
    const types = [decoded.best, ...decoded.runnersUp].flatMap((c) => (c ? [c.tileId] : []));
    return { types: [...new Set(types)], why: '' };
  }

  /** Enrolls the picture of a tile the table confirmed (CameraService `learn`): the PNG to store, or why not. */
  private async learn(t: Tracker, tile: string, rot: 0 | 90 | 180 | 270, at: readonly [number, number]): Promise<Replies['learn']> {
    const recognizer = t.recognizer;
    if (!recognizer) return { png: null, problem: null };
    const picture = t.cellPicture(at[0], at[1]);
    if (!picture || picture.channels !== 3) return { png: null, problem: null };
    try {
      const png = await sharp(picture.data, { raw: { width: picture.width, height: picture.height, channels: 3 } }).png().toBuffer();
      const ex = await exemplarsFromCrop(recognizer, png, tile, rot, { newTile: !recognizer.info.tiles.includes(tile) });
      if (!ex.ok) return { png: null, problem: ex.reason };
      this.enrollment.add(...ex.value);
      return { png: new Uint8Array(png), problem: null };
    } catch (e) {
      return { png: null, problem: (e as Error).message };
    }
  }

  /** One PNG per tile type on the board without a stored picture (Tracker `boardPictures`); used once stored (`usePictures`). */
  private async boardPictures(t: Tracker, have: readonly string[]): Promise<Replies['boardPictures']> {
    const out: BoardPicture[] = [];
    const problems: string[] = [];
    this.offered = [];
    for (const p of t.boardPictures()) {
      if (have.includes(p.tileId)) continue;
      try {
        // Where figures stood is stored transparent (left out of the template).
        const alpha = pictureAlpha(p);
        const rgba = new Uint8Array(p.width * p.height * 4);
        for (let i = 0; i < p.width * p.height; i++) rgba.set([p.data[i * 3]!, p.data[i * 3 + 1]!, p.data[i * 3 + 2]!, alpha[i]!], i * 4);
        const png = await sharp(rgba, { raw: { width: p.width, height: p.height, channels: 4 } }).png().toBuffer();
        out.push({ tileId: p.tileId, rot: p.rot, png: new Uint8Array(png) });
        this.offered.push(p);
      } catch (e) {
        problems.push(`the final board's picture of ${p.tileId} could not be stored: ${(e as Error).message}`);
      }
    }
    return { pictures: out, problems };
  }

  /** The board pictures the services stored: the rest of this game reads their types by them, the model too. */
  private async usePictures(t: Tracker, tileIds: readonly string[]): Promise<Replies['usePictures']> {
    const problems: string[] = [];
    const recognizer = t.recognizer;
    for (const p of this.offered) {
      if (!tileIds.includes(p.tileId)) continue;
      t.learnPicture(p);
      if (!recognizer) continue;
      const alpha = pictureAlpha(p);
      const rgba = new Uint8Array(p.width * p.height * 4);
      for (let i = 0; i < p.width * p.height; i++) rgba.set([p.data[i * 3]!, p.data[i * 3 + 1]!, p.data[i * 3 + 2]!, alpha[i]!], i * 4);
      const png = await sharp(rgba, { raw: { width: p.width, height: p.height, channels: 4 } }).png().toBuffer();
      const ex = await exemplarsFromCrop(recognizer, png, p.tileId, p.rot, { newTile: !recognizer.info.tiles.includes(p.tileId) });
      // (As before the worker: a picture the model cannot take is still a template.)
      if (ex.ok) this.enrollment.add(...ex.value);
    }
    this.offered = [];
    return { problems };
  }
}

/** Test hook (`Faults.modelBusyAtFrame`): the model reads a grey crop back to back for `ms`, as on a board of new tiles. */
async function modelBusy(t: Tracker, ms: number): Promise<void> {
  const model = t.recognizer;
  if (!model) return;
  const prepared = await model.prepare({ pixels: new Uint8Array(model.size * model.size * 3).fill(128), width: model.size, height: model.size, channels: 3 });
  if (!prepared.ok) return;
  const batch = Array.from({ length: 32 }, () => prepared.value);
  for (const end = Date.now() + ms; Date.now() < end; ) await model.readPrepared(batch);
}
