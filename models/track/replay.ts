/**
 * Headless replay of a recording: frames go to the tracker; what no camera can see (draws, tower
 * floors, tournaments, emblem values, endings of turns) comes from the recording's ground truth as
 * the table's input, and the table answers the tracker's open questions from it. Only moves the
 * camera committed by itself, exactly as in the ground truth, count as exact.
 */
import type { Command, PlacePrizeTile, PlaceTile } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { parseRecord } from '../../engine/record/schema.js';
import type { SheetLayout } from '../../calibration/sheet/layout.js';
import type { Point } from '../../calibration/geometry.js';
import sharp from 'sharp';
import { Enrollment, exemplarsFromCrop } from '../enroll.js';
import { sameMove } from './same-move.js';
import { manifestWithoutDraws } from './implied-draws.js';
import { CAMERA_READ } from '../scene/generate.js';
import { readRecordJson, RecordingSource, type FrameSource } from '../scene/recording.js';
import type { TilePicture } from './templates.js';
import { Tracker, type TrackEvent, type TrackerOptions } from './tracker.js';

export { sameMove };

export interface ReplayResult {
  /** The tracker as the recording left it (its last still frame, its game). */
  readonly tracker: Tracker;
  readonly game: Game;
  /** Camera-read moves of the ground truth, and how many the camera committed exactly by itself. */
  readonly cameraMoves: number;
  readonly exact: number;
  /** Per history index of the reconstructed game: who made it. */
  readonly by: ('camera' | 'table')[];
  readonly scores: number[];
  readonly truthScores: number[];
  readonly events: TrackEvent[];
  /** Milliseconds from each still frame's arrival to the tile proposal. */
  readonly proposalMs: number[];
  /** Milliseconds the frame after each such proposal took (work left from the proposal's scene, `CellReader.settleArtFit`). */
  readonly afterProposalMs: number[];
  readonly frames: number;
  /** What became of each camera-readable move of the ground truth, and the camera's false figures. */
  readonly outcomes: MoveOutcome[];
  /** Tiles enrolled from the table's answers (`learnAnswers`), and the frame after which each was. */
  readonly learned: { readonly tileId: string; readonly frame: number }[];
  /**
   * Questions about a move that did not happen: the camera asked the table to pick (a figure, a
   * tile) where the truth's next camera move is of another kind. A table answers each with "none of
   * these"; the replay, as that table, moves on.
   */
  readonly needlessQuestions: Command[];
}

/**
 * One camera-readable move of the ground truth and what the camera made of it: committed exactly,
 * committed wrongly (the table took it back), left to the table unsure or refused by the engine (with
 * the camera's best reading), or missed (the table entered it). `extra` is a figure the camera
 * committed where the truth had none.
 */
export interface MoveOutcome {
  readonly truth: Command | null;
  /** Index into the ground truth's commands (for `extra`: the command expected then). */
  readonly index: number;
  readonly result: 'exact' | 'wrong' | 'unsure' | 'refused' | 'missed' | 'extra';
  readonly got?: Command;
  readonly confidence?: number;
  readonly frame?: number;
  /** Left to the table (unsure, refused): where the truth stood among the three readings offered (0 first), −1 not among them. */
  readonly offered?: number;
}

/** A figure committed on the wrong spot, or where none stood (an extra move). */
export function wrongFigureCommit(o: MoveOutcome): boolean {
  return (o.result === 'wrong' && o.truth?.type === 'placeMeeple') || (o.result === 'extra' && o.got?.type === 'placeMeeple');
}

export interface ReplayOptions {
  /** Replace the recording's frames (tests: a camera that stops, a broken frame). */
  readonly source?: FrameSource;
  readonly onEvent?: (e: TrackEvent) => void;
  /** The table's pictures of its tiles (Tracker `pictures`): its own art as the templates. */
  readonly pictures?: readonly TilePicture[];
  /**
   * The table has the board pictured between turns at each of these turns (the first moment from
   * that turn on; the camera screen's "Picture the board now"): the types on it are read by their
   * pictures for the rest of the game.
   */
  readonly pictureBoardAtTurns?: readonly number[];
  /**
   * Played as if no marker sheet lay on the table: the plane comes from the start piece's corners as
   * the table clicked them in the image (Tracker `startPieceCorners`).
   */
  readonly startPieceCorners?: readonly Point[];
  /**
   * False: the table types no draw its placement implies (the tile laid is its draw, as the app's
   * table plays now: implied-draws.ts), and the tracker tells the tiles apart by itself. Default true.
   */
  readonly drawsTold?: boolean;
  /**
   * As the app's table does (electron/services/camera/table-art.ts): the picture of a tile the table
   * picked from the camera's top 3 is enrolled as an exemplar for the model, up to this many per
   * tile type (the app: 2). Default 0: nothing enrolled.
   */
  readonly learnAnswers?: number;
  /**
   * As the app's tracker does with the tiles a table taught (tracker-host.ts `create`, every copy):
   * these pictures enrolled as the model's exemplars before the first frame is read.
   */
  readonly exemplars?: readonly TilePicture[];
  /** false: the tracker reads small cells without the far camera's model (TrackerOptions.useFarModel). */
  readonly useFarModel?: boolean;
  /** Another far camera's model file, and a listener to its readings (TrackerOptions.farModelFile, onFarRead). */
  readonly farModelFile?: string;
  readonly onFarRead?: TrackerOptions['onFarRead'];
  /** A listener to the model's figure readings (TrackerOptions.onFigureRead). */
  readonly onFigureRead?: TrackerOptions['onFigureRead'];
  /** How large the table's figures are (TrackerOptions.figureSize). Default: the recording's (its manifest's `figureSize`). */
  readonly figureSize?: TrackerOptions['figureSize'];
}

export async function replayRecording(dir: string, options: ReplayOptions = {}): Promise<ReplayResult> {
  const opened = RecordingSource.open(dir);
  if (!opened.ok) throw new Error(opened.error);
  const recorded = opened.value.manifest;
  const manifest =
    options.drawsTold === false ? { ...recorded, ...(manifestWithoutDraws({ commands: recorded.commands as unknown as Command[], visits: recorded.visits }) as unknown as Pick<typeof recorded, 'commands' | 'visits'>) } : recorded;
  const source = options.source ?? opened.value.source;
  const rec = readRecordJson(dir);
  if (!rec.ok) throw new Error(rec.error);
  const parsed = parseRecord(rec.value);
  if (!parsed.ok) throw new Error(`${dir}: ground truth: ${parsed.reason}`);
  const setup = setupFromRecord(parsed.record);
  const src = manifest.source as { style?: string; markers?: SheetLayout; figureSize?: TrackerOptions['figureSize'] };
  const figureSize = options.figureSize ?? src.figureSize;
  if (!src.style || !src.markers) throw new Error(`${dir}: manifest source lacks the tile set's style or the marker layout`);
  const calibration = options.startPieceCorners ? { startPieceCorners: options.startPieceCorners } : { markers: src.markers };
  const enrollment = options.learnAnswers || options.exemplars?.length ? new Enrollment() : null;
  const tracker = await Tracker.create({ setup, style: src.style, ...calibration, ...(options.pictures ? { pictures: options.pictures } : {}), ...(enrollment ? { enrollment } : {}), ...(options.useFarModel === false ? { useFarModel: false } : {}), ...(options.farModelFile ? { farModelFile: options.farModelFile } : {}), ...(options.onFarRead ? { onFarRead: options.onFarRead } : {}), ...(options.onFigureRead ? { onFigureRead: options.onFigureRead } : {}), ...(figureSize ? { figureSize } : {}) });
  const recognizer = tracker.recognizer;
  for (const p of options.exemplars ?? []) {
    if (!enrollment || !recognizer) break;
    const ex = await exemplarsFromCrop(recognizer, { pixels: p.data, width: p.width, height: p.height, channels: 3 }, p.tileId, p.rot, { newTile: !recognizer.info.tiles.includes(p.tileId) });
    if (!ex.ok) throw new Error(`exemplar of ${p.tileId}: ${ex.reason}`);
    enrollment.add(...ex.value);
  }
  /** Pictures of answered tiles to enroll before the next frame is read (the app enrols them in the background). */
  const toLearn: (PlaceTile | PlacePrizeTile)[] = [];
  const learned: { tileId: string; frame: number }[] = [];
  const learnAnswered = async (frame: number) => {
    for (const c of toLearn.splice(0)) {
      const picture = tracker.cellPicture(c.at[0], c.at[1]);
      if (!enrollment || !options.learnAnswers || !picture || !recognizer || learned.filter((l) => l.tileId === c.tile).length >= options.learnAnswers) continue;
      const png = await sharp(picture.data, { raw: { width: picture.width, height: picture.height, channels: 3 } }).png().toBuffer();
      const ex = await exemplarsFromCrop(recognizer, png, c.tile, c.rot, { newTile: !recognizer.info.tiles.includes(c.tile) });
      if (!ex.ok) continue;
      enrollment.add(...ex.value);
      learned.push({ tileId: c.tile, frame });
    }
  };

  const truth = manifest.commands as unknown as Command[];
  const N = truth.length;
  const isCam = (i: number) => CAMERA_READ.has(truth[i]!.type);
  const visitOf = new Map<number, number>();
  manifest.visits.forEach((v, k) => v.camera.forEach((i) => visitOf.set(i, k)));
  const nextCam = (from: number) => { for (let i = from; i < N; i++) if (isCam(i)) return i; return -1; };
  const by: ('camera' | 'table')[] = [];
  const events: TrackEvent[] = [];
  const proposalMs: number[] = [];
  const afterProposalMs: number[] = [];
  let proposed = false;
  let exact = 0;
  let p = 0;
  const outcomes: MoveOutcome[] = [];
  const needlessQuestions: Command[] = [];
  /** The table enters the ground truth's next command; what the tracker reads because of it follows. */
  const enter = (c: Command) => {
    // The table moving on closes a figure's wait for a nomination (the tracker would read it first).
    if (c.type !== 'nominate' && c.type !== 'placeMeeple') for (const e of tracker.flush()) handle(e);
    const before = tracker.game.history.length;
    const r = tracker.tableInput(c);
    if (!r.ok) throw new Error(`replay: the ground truth's ${JSON.stringify(c)} was refused: ${r.reason}`);
    by[before] = 'table';
    p++;
    for (const e of r.events) handle(e);
  };
  const settle = (frame: number) => {
    while (p < N) {
      if (isCam(p)) {
        const v = manifest.visits[visitOf.get(p) ?? -1];
        const next = manifest.visits[(visitOf.get(p) ?? -1) + 1];
        // Its visit is over: a figure that waited for a nomination that did not come is read now
        // (the next hand); else the camera missed it and the table enters it.
        if (!v || (next ? frame >= next.handFrom : frame === Infinity)) {
          const before = p;
          for (const e of tracker.flush()) handle(e);
          if (p !== before) continue;
          outcomes.push({ truth: truth[p]!, index: p, result: 'missed' });
          enter(truth[p]!);
          continue;
        }
        break;
      }
      const c = nextCam(p);
      const v = c >= 0 ? manifest.visits[visitOf.get(c)!] : undefined;
      if (v && frame < v.handFrom) break;
      if (c < 0 && frame < manifest.frames) break; // the game's ending waits for the last frame
      enter(truth[p]!);
    }
  };
  const handle = (e: TrackEvent) => {
    events.push(e);
    if (process.env.TRACK_DEBUG && e.kind === 'proposal') console.error(JSON.stringify({ f: e.frame, c: e.command, conf: +e.confidence.toFixed(3), ok: e.committed, why: e.why, exp: truth[p], alt: e.alternatives }));
    options.onEvent?.(e);
    if (e.kind !== 'proposal') return;
    const expected = truth[p];
    if (e.committed) {
      const at = e.index!;
      if (at >= tracker.game.history.length) return; // taken back with the tile it stood on
      if (expected && isCam(p) && sameMove(e.command, expected)) {
        outcomes.push({ truth: expected, index: p, result: 'exact', got: e.command, confidence: e.confidence, frame: e.frame });
        by[at] = 'camera';
        exact++;
        p++;
        return;
      }
      // A wrong reading the rules allowed: the table takes it back and enters what happened.
      while (tracker.game.history.length > at) tracker.game.undo();
      const matches = expected && isCam(p) && expected.type === e.command.type;
      outcomes.push({ truth: matches ? expected : null, index: p, result: matches ? 'wrong' : 'extra', got: e.command, confidence: e.confidence, frame: e.frame });
      if (matches) { enter(expected); }
      return;
    }
    // Unsure or refused: the table picks (from the top 3, or enters it), counted as not exact.
    if (expected && isCam(p) && expected.type === e.command.type) {
      const offered = [e.command, ...e.alternatives].findIndex((c) => sameMove(c, expected));
      outcomes.push({ truth: expected, index: p, result: e.why?.startsWith('the engine rejects') ? 'refused' : 'unsure', got: e.command, confidence: e.confidence, frame: e.frame, offered });
      const picked = offered >= 0;
      if (options.learnAnswers && picked && (expected.type === 'placeTile' || expected.type === 'placePrizeTile')) toLearn.push(expected);
      enter(expected);
      for (const f of tracker.afterTableAnswer()) handle(f);
    } else needlessQuestions.push(e.command);
  };

  let frames = 0;
  const pictureTurns = [...(options.pictureBoardAtTurns ?? [])].sort((a, b) => a - b);
  for (;;) {
    const f = await source.next();
    if (!f) break;
    frames++;
    settle(f.index);
    const due = pictureTurns.length > 0 && tracker.game.state.turn.number >= pictureTurns[0]!;
    if (due && tracker.game.state.turn.step === 'tile') {
      while (pictureTurns.length > 0 && tracker.game.state.turn.number >= pictureTurns[0]!) pictureTurns.shift();
      for (const picture of tracker.boardPictures()) tracker.learnPicture(picture);
    }
    const t0 = performance.now();
    const out = await tracker.feed(f.bytes, f.index);
    const ms = performance.now() - t0;
    if (proposed) afterProposalMs.push(ms);
    proposed = out.some((e) => e.kind === 'proposal' && (e.command.type === 'placeTile' || e.command.type === 'placePrizeTile'));
    if (proposed) proposalMs.push(ms);
    for (const e of out) handle(e);
    await learnAnswered(f.index);
  }
  source.close();
  if (frames < manifest.frames) for (const e of tracker.end()) handle(e);
  else settle(Infinity);

  const started = Game.start(setup, defaultCatalog());
  if (!started.ok) throw new Error(started.reason);
  for (const c of truth) started.value.play(c);
  const cameraMoves = truth.filter((c) => CAMERA_READ.has(c.type)).length;
  return {
    tracker, game: tracker.game, cameraMoves, exact, by, events, proposalMs, afterProposalMs, frames, outcomes, learned, needlessQuestions,
    scores: tracker.game.state.players.map((pl) => pl.score),
    truthScores: started.value.state.players.map((pl) => pl.score),
  };
}
