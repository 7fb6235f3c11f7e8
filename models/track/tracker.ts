/**
 * Camera frames in, game moves out. Per frame: decode, check for a still scene; on a still scene that
 * differs from the last one: re-solve the table plane from the markers (the camera may have been
 * bumped), look at every hole of the board for a new tile, read it against the legal readings
 * (constraint decoding: engine placement rules and remaining supply), propose it to the engine, then
 * look for a figure on it among the legal meeple spots. Proposals the engine rejects are never
 * committed; unsure ones wait for the table (top-3).
 *
 * This file keeps the frame loop and the state between frames; the parts are beside it: cutting
 * cells (cell-crops.ts), reading a hole (cell-reader.ts, reading.ts), the figure on a new tile
 * (figures.ts), the order of tiles with no draw told (tile-order.ts), the laid tiles' check
 * (laid-tiles.ts), the start piece as calibration (start-piece.ts), the board's pictures
 * (board-pictures.ts), the drawings (templates.ts).
 */
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import type { GameSetup } from '../../engine/game/setup.js';
import { nominationCandidates } from '../../engine/expansions/jousts-crests.js';
import { keyX, keyY, posKey } from '../../engine/geometry/position.js';
import { ROTATIONS, type Rotation } from '../../engine/geometry/segments.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { loadCv, type Cv, type Mat } from '../../calibration/cv.js';
import { decodeFrame, frameToGrayMat, frameToMat, type Frame } from '../../calibration/frame.js';
import { applyHomography, type Homography, type Point } from '../../calibration/geometry.js';
import { carriedBy, growWith, startGrowing, type Cell, type GrowingPlane, type StartPiece } from '../../calibration/lattice.js';
import { detectCameraMove } from '../../calibration/bump.js';
import { homographyFromSheet, markerRegions } from '../../calibration/markers.js';
import { changedFraction, StillScene, thumbnail, type Thumb } from '../../calibration/motion.js';
import { steadyPlane, type Plane } from '../../calibration/steady-plane.js';
import { afterSearch, passedOver, type MarkersMissed } from './marker-memory.js';
import type { SheetLayout } from '../../calibration/sheet/layout.js';
import { existsSync } from 'node:fs';
import { DEFAULT_MODEL, FAR_MODEL, TileRecognizer, type CropReading } from '../runner.js';
import type { Enrollment } from '../enroll.js';
import { sameMove } from './same-move.js';
import { BIG_BY_SIZE, FIGURE_BY_MODEL_ALONE, followerInstead, fuseFigure, MODEL_SEES_UNPICTURED_FIGURE, modelFigureMoves, type FigureRead } from './model-figure.js';
import { PITCH_MM, TILE_MM } from '../scene/render.js';
import { ANCHOR_PX } from './anchor.js';
import { CROP_PX, type TilePicture, matchTemplate, TileTemplates, type CellCrop } from './templates.js';
import { readingConfidence, type Reading } from './reading.js';
import type { FigureSize } from '../render/pieces.js';
import { FigureReader, figureSprites } from './figures.js';
import { boardPictures } from './board-pictures.js';
import { CellReader, type FarRead } from './cell-reader.js';
import { checkLaidTiles } from './laid-tiles.js';
import { drawTold, TileOrder, type OrderState } from './tile-order.js';
import type { UnreadCells } from './earlier-tile.js';
import { findStartPiece, planeFromCorners, startOutline } from './start-piece.js';
import { anchorOffset, cellCrop, changedCells, modelCrop, modelReadsCell, type ChangedCell } from './cell-crops.js';

/** The model's tile-present probability above which a hole is taken to hold a tile the game lacks. */
const AHEAD_PRESENT = 0.9;
/**
 * Share of the still scene's thumbnail that changed above which the camera may have moved (checked
 * only with a plane from clicked corners). A new tile changes at most 0.3 % on the recordings, the
 * demo's bumped camera 8 %, a change of light all of it.
 */
const MOVED_SCENE = 0.02;
/** The ideal grid in the tracker's table frame (calibration/lattice.ts). */
const GRID = { originMm: { x: 0, y: 0 }, pitchMm: PITCH_MM, angleDeg: 0, tileMm: TILE_MM };

export type TrackEvent =
  /** `markers`: the sheet's markers seen (none when the plane came from the start piece's clicked corners). */
  | { kind: 'calibrated'; frame: number; markers: number[]; rmsPx: number; from: 'markers' | 'start piece corners' }
  | { kind: 'error'; frame: number; message: string }
  | { kind: 'notice'; frame: number; message: string }
  | {
      kind: 'proposal'; frame: number; command: Command; confidence: number; alternatives: Command[]; committed: boolean; why?: string;
      /** History index when committed. */
      index?: number;
      /** The table confirms it however sure the reading is (a big follower: model-figure.ts `followerInstead`). */
      tableConfirms?: boolean;
    };

export interface TrackerOptions {
  readonly setup: GameSetup;
  /** The table's tile set as enrolled (art style name). */
  readonly style: string;
  /**
   * Where the calibration markers lie on the table (table millimetres; cell (0,0) centred on the
   * origin). Without a marker sheet: `startPieceCorners`.
   */
  readonly markers?: SheetLayout;
  /**
   * The manual fallback when no marker sheet lies on the table (or none is found): the start piece's
   * four corners in the camera image, as the table clicked them — its north-west, north-east,
   * south-east and south-west corners in the game's frame. The start piece is what the setup lays
   * before the first turn: the start tile, or the Jousts & Crests tournament tile (3 × 2 cells). The
   * plane is exact over the piece; as tiles are laid it is refitted to them, nearest the piece first
   * (calibration/lattice.ts `growWith`), since one piece says little of the perspective far from it.
   */
  readonly startPieceCorners?: readonly Point[];
  /** Commit a reading when its confidence reaches this. */
  readonly commitAt?: number;
  /** Use the issue-4 ONNX model beside the templates (default: when models/tiles-v1.onnx exists). */
  readonly useModel?: boolean;
  /** false: no far camera's model (runner.ts FAR_MODEL); small cells on a known print are read by the default model. */
  readonly useFarModel?: boolean;
  /** Another far camera's model file than FAR_MODEL (its calibration: scripts/far-calibration.ts). */
  readonly farModelFile?: string;
  /** Told each constrained reading of a new tile by the far camera's model, before it is weighed (its calibration). */
  readonly onFarRead?: (read: FarRead) => void;
  /** Told what the model's figure heads read on each tile laid where they speak, and the fused figure (their calibration). */
  readonly onFigureRead?: (read: FigureRead) => void;
  /** How large the table's figures are (pieces.ts `FigureSize`): the enrolled figures' size. Default `drawing`. */
  readonly figureSize?: FigureSize;
  /** Frames without a still scene before the tracker says a hand seems to stay in view. */
  readonly handPatience?: number;
  /**
   * The table's enrolled exemplars (models/enroll.ts): the model's readings are matched against
   * them too. The same object may grow while the game runs (the table's answers teach it).
   */
  readonly enrollment?: Enrollment;
  /**
   * The table's own pictures of its tiles (cut as `cellPicture` cuts them): each replaces its type's
   * drawn template (templates.ts `usePicture`; the camera service gives those of earlier games'
   * final boards). `learnPicture` adds one later.
   */
  readonly pictures?: readonly TilePicture[];
}

export class Tracker {
  readonly game: Game;
  private H: Homography | null = null;
  private plane: Plane | null = null;
  /** Still scenes whose markers were looked for only where the plane in use puts them, and those that searched the whole frame (calibration/markers.ts). */
  readonly markerSearches = { regions: 0, frame: 0 };
  /** Markers the plane puts in view that the last whole-frame search did not find (`NearPlane.missedByFrame`), and the still scenes looked at in regions since. */
  private markersMissed: MarkersMissed | null = null;
  /** The plane from the start piece's clicked corners (null when the markers give it), as refitted to the board's tiles so far. */
  private clicked: GrowingPlane | null = null;
  /** The cells the setup's start piece covers. */
  private readonly startCells: Cell[];
  private readonly still = new StillScene(2, 0.004);
  private baseline: Thumb | null = null;
  private readonly holeCrops = new Map<number, CellCrop>();
  /** The last look of each cell while it was empty, and of each laid tile at the last still scene. */
  private readonly emptyCrops = new Map<number, CellCrop>();
  private readonly tileCrops = new Map<number, CellCrop>();
  /**
   * Cells the last still frame showed a tile in: the board's tiles then, and the tiles read from it
   * (an unsure one the table answered afterwards). A tile the table entered later is not in that
   * frame, and a picture of its cell would be of the bare table.
   */
  private stillTiles = new Set<number>();
  /**
   * A figure seen on a new tile while the table may still nominate (Jousts & Crests: a nomination
   * comes before the figure, and the engine takes none after it): read after the nomination, or,
   * when none came, at the next frame (a hand, or the next still scene) or other table input.
   */
  private figureWait: { now: CellCrop; r: Reading; frame: number; modelReading: CropReading | undefined } | null = null;
  /** A reading left to the table: its crop, to read the figure once the table has answered. */
  private pending: { now: CellCrop; x: number; y: number; frame: number; modelReading: CropReading | undefined } | null = null;
  /** The last still frame looked at, and the plane then. */
  private lastStill: { frame: Frame; H: Homography } | null = null;
  /** Which new tile comes first when no draw is told, and the holes set apart (tile-order.ts). */
  private readonly order = new TileOrder();
  private unstillSince = -1;
  private handReported = false;
  private lastFrame = -1;
  /** Reads a changed hole: templates, look-alikes, the model, the gates on how far each is trusted. */
  private readonly reader: CellReader;
  /** Commands the camera committed (by history index), apart from table input. */
  readonly cameraCommitted = new Set<number>();
  /** Commit a reading at this confidence; the table may raise it above 1 to be asked about every reading. */
  commitAt: number;

  private constructor(private readonly cv: Cv, private readonly templates: TileTemplates, private readonly figures: FigureReader, private readonly model: TileRecognizer | null, private readonly o: TrackerOptions, far: TileRecognizer | null = null) {
    const g = Game.start(o.setup, defaultCatalog());
    if (!g.ok) throw new Error(`tracker: the setup is not playable: ${g.reason}`);
    this.game = g.value;
    this.startCells = this.game.state.board.tiles.map((t): Cell => [t.x, t.y]);
    this.commitAt = o.commitAt ?? 0.9;
    this.reader = new CellReader(templates, figures, model, o.enrollment, far, o.onFarRead);
  }

  static async create(o: TrackerOptions): Promise<Tracker> {
    const [cv, templates] = await Promise.all([loadCv(), TileTemplates.enroll(defaultCatalog(), o.style)]);
    const figures = new FigureReader(templates, await figureSprites(o.setup.players), o.figureSize);
    // The issue-4 model joins the reading when it is there (models/tiles-v1.onnx); without it the
    // templates read alone.
    const model = o.useModel === false || !existsSync(DEFAULT_MODEL) ? null : await TileRecognizer.load(DEFAULT_MODEL, 1);
    // Cells under 30 px on a print the models learnt are read by the far camera's model (runner.ts
    // FAR_MODEL); on any print its figure heads read the figure on such cells, and its kind head tells
    // a big follower from a follower on larger ones (cell-reader.ts `figureHeads`, `withFarKinds`).
    const farFile = o.farModelFile ?? FAR_MODEL;
    const far = model && o.useFarModel !== false && existsSync(farFile) ? await TileRecognizer.load(farFile, 1) : null;
    for (const p of o.pictures ?? []) templates.usePicture(p);
    return new Tracker(cv, templates, figures, model, o, far);
  }

  get calibrated(): boolean {
    return this.H !== null;
  }

  /** Where the table plane comes from now, or null before it is known. */
  get calibratedFrom(): 'markers' | 'start piece corners' | null {
    return this.H === null ? null : this.clicked ? 'start piece corners' : 'markers';
  }

  /** The far camera's model, where this game's print is one it learnt (else null: not loaded). */
  get farRecognizer(): TileRecognizer | null {
    return this.reader.farModel;
  }

  /** The issue-4 model the tracker reads with, if there is one (for enrolling the table's tiles with the same reader). */
  get recognizer(): TileRecognizer | null {
    return this.model;
  }

  /**
   * The last still frame's crop of hole (x, y), as the model reads a cell (anchored where laid
   * neighbours say): what the camera saw there when it asked about a tile the game does not hold yet.
   */
  holePicture(x: number, y: number): Frame | null {
    return this.game.state.board.holes.has(posKey(x, y)) ? this.stillPicture(x, y) : null;
  }

  /**
   * A laid tile as the last still frame showed it, cut the way the model reads a cell (the cell plus
   * 10 % of the pitch on every side, in the table's frame, so the tile's rotation in the picture is
   * its rotation in the game), or null before any still frame or where no tile lies.
   */
  cellPicture(x: number, y: number): Frame | null {
    return this.game.state.board.tiles.some((t) => t.x === x && t.y === y) ? this.stillPicture(x, y) : null;
  }

  /** Cell (x, y) of the last still frame as the model reads a cell, or null before any still frame. */
  private stillPicture(x: number, y: number): Frame | null {
    if (!this.lastStill) return null;
    const mat = frameToMat(this.cv, this.lastStill.frame);
    try {
      // Cut where the laid neighbours say the tile lies: a picture is matched pixel by pixel later.
      const o = this.anchorOffset(mat, x, y, this.lastStill.H);
      return this.modelCrop(mat, x, y, this.lastStill.H, o?.ox ?? 0, o?.oy ?? 0);
    } finally {
      mat.delete();
    }
  }


  /**
   * One picture per tile type on the board, from the last still frame (board-pictures.ts): what a
   * table enrolls from a game it played (at its end, or between turns when it asks).
   */
  boardPictures(): TilePicture[] {
    return boardPictures(this.game.state, this.stillTiles, (x, y) => this.cellPicture(x, y));
  }

  /**
   * The table's picture of a tile type (from `cellPicture`, or stored from an earlier game): its
   * template from now on, when the type has none from a picture yet. True when it was taken.
   */
  learnPicture(p: TilePicture): boolean {
    return this.templates.usePicture(p);
  }

  /**
   * A figure seen on the tile just read waits for the turn's nomination (Jousts & Crests): the camera
   * reads it once the table nominates or moves on. The table must be told, or it enters the figure itself.
   */
  get figureWaits(): boolean {
    return this.figureWait !== null;
  }

  /** The table plane as last solved (table millimetres to image pixels), for the camera view's grid. */
  get tableToImage(): Homography | null {
    return this.H;
  }

  /** Table input (what no camera can see): played as given; the engine still decides. */
  tableInput(c: Command): { ok: true; events: TrackEvent[] } | { ok: false; reason: string } {
    // Other table input while a figure waits closes the wait: the figure is read first (the table
    // entering the figure itself overrides it).
    const before = c.type !== 'nominate' && c.type !== 'placeMeeple' && this.figureWait ? this.flush() : [];
    const r = this.game.play(c);
    if (!r.ok) return { ok: false, reason: r.reason };
    if (before.length) return { ok: true, events: before };
    const wait = this.figureWait;
    this.figureWait = null;
    // The nomination the figure waited for is in (one per turn): the figure seen can be read now.
    if (wait && c.type === 'nominate' && this.game.state.turn.step === 'action') {
      const f = this.readFigure(wait.now, wait.r, wait.frame, true, wait.modelReading);
      return { ok: true, events: f ? [f] : [] };
    }
    return { ok: true, events: [] };
  }

  async feed(bytes: Uint8Array, index: number): Promise<TrackEvent[]> {
    this.lastFrame = index;
    const decoded = await decodeFrame(bytes, `frame ${index}`);
    if (!decoded.ok) return [{ kind: 'error', frame: index, message: decoded.error.message }];
    return this.feedFrame(decoded.value, index);
  }

  /**
   * Reads a figure that waited for a nomination (see `figureWait`) now. Called by the tracker itself
   * when the next hand comes into view; a driver whose table moves on without another frame calls it.
   */
  flush(): TrackEvent[] {
    const wait = this.figureWait;
    this.figureWait = null;
    if (!wait) return [];
    const f = this.readFigure(wait.now, wait.r, wait.frame, true, wait.modelReading);
    return f ? [f] : [];
  }

  /** The camera stopped: say where the game stands; nothing is dropped. */
  end(): TrackEvent[] {
    return [{ kind: 'notice', frame: this.lastFrame, message: `camera stopped after frame ${this.lastFrame}; the game is kept at ${this.game.history.length} accepted commands` }];
  }

  async feedFrame(frame: Frame, index: number): Promise<TrackEvent[]> {
    // The last still scene's bookkeeping left until its proposal was out (`noteArtFit`).
    this.reader.settleArtFit();
    const out: TrackEvent[] = [];
    const thumb = thumbnail(this.cv, frame);
    if (!this.still.push(thumb)) {
      // The next hand: no nomination came for the figure that waited.
      out.push(...this.flush());
      if (this.unstillSince < 0) this.unstillSince = index;
      const patience = this.o.handPatience ?? 30;
      if (!this.handReported && index - this.unstillSince >= patience) {
        this.handReported = true;
        out.push({ kind: 'notice', frame: index, message: `no still scene for ${index - this.unstillSince} frames since frame ${this.unstillSince} (a hand in view?); nothing read meanwhile` });
      }
      return out;
    }
    this.unstillSince = -1;
    this.handReported = false;
    if (this.figureWait && this.figureWait.frame < index) out.push(...this.flush());
    // A 25 px tile can change as little as 4 thumbnail pixels of 19 200: any change is worth a look.
    const changed = this.baseline ? changedFraction(this.baseline, thumb, 6) : 1;
    if (process.env.TRACK_DEBUG && this.baseline) console.error(`still frame ${index}: changed ${changed.toFixed(5)}`);
    // A field-green tile on a brown table can differ by fewer than 18 grey levels: a low threshold here.
    if (changed < 0.00005) return out;
    out.push(...(await this.catchUp(index)));
    out.push(...(await this.closedUnanswered(index)));
    // Where the camera has not moved, the markers are where the plane in use puts them; a marker the
    // whole frame did not give is for a while no reason to search it again (marker-memory.ts).
    const near = this.plane && changed <= MOVED_SCENE ? { ...this.plane, missedByFrame: passedOver(this.markersMissed, this.plane.markerIds.length) } : undefined;
    const sheet = this.o.markers ? homographyFromSheet(this.cv, frame, this.o.markers, 2, near) : null;
    if (sheet?.ok) {
      const { searched, markerIds, tableToImage } = sheet.value;
      this.markerSearches[searched]++;
      this.markersMissed = afterSearch(this.markersMissed, searched, markerIds, () => markerRegions(tableToImage, this.o.markers!, frame).map((r) => r.id!));
      if (!this.H) out.push({ kind: 'calibrated', frame: index, markers: markerIds, rmsPx: sheet.value.rmsPx, from: 'markers' });
      // Not every frame's markers solve the plane as well (two markers on one side extrapolate badly).
      this.plane = steadyPlane(this.plane, sheet.value, this.o.markers!);
      this.H = this.plane.tableToImage;
      this.clicked = null;
    } else if (!this.H) {
      const corners = this.fromCorners();
      if (!corners.ok) {
        const why = [sheet && !sheet.ok ? sheet.error.message : null, corners.why].filter((w) => w).join('; ');
        out.push({ kind: 'error', frame: index, message: `cannot calibrate: ${why}` });
        return out;
      }
      this.clicked = startGrowing(corners.plane, GRID, corners.piece);
      this.H = corners.plane;
      out.push({ kind: 'calibrated', frame: index, markers: [], rmsPx: 0, from: 'start piece corners' });
    }
    const mat = frameToMat(this.cv, frame);
    try {
      if (changed > MOVED_SCENE) out.push(...this.followCamera(frame, index));
      this.regrowPlane(mat);
      const crop = (x: number, y: number) => this.crop(mat, x, y);
      let changedHoles: ReadonlySet<number> = new Set();
      let deferred: ReadonlySet<number> = new Set();
      const ordered = !drawTold(this.game);
      if (ordered) this.order.lookBeyond(this.game.state.board, index, crop);
      if (this.baseline) {
        const anchored = (x: number, y: number) => {
          const o = this.anchorOffset(mat, x, y);
          return o ? { now: this.crop(mat, x, y, this.H!, CROP_PX, o.ox, o.oy), model: this.modelCrop(mat, x, y, this.H!, o.ox, o.oy) } : null;
        };
        const looked = await this.lookForTiles(index, crop, (x, y) => this.modelCrop(mat, x, y), anchored);
        out.push(...looked.events);
        changedHoles = looked.changed;
        deferred = looked.deferred;
        out.push(...checkLaidTiles({ game: this.game, templates: this.templates, figures: this.figures, tileCrops: this.tileCrops, emptyCrops: this.emptyCrops }, index, crop, (x, y, ox, oy) => this.crop(mat, x, y, this.H!, ANCHOR_PX, ox, oy)));
      } else {
        out.push(...(await this.reportAhead(index, mat, this.H!, [...this.game.state.board.holes.keys()])));
      }
      // The new baseline: this scene, with every hole and every laid tile as they look now.
      this.baseline = thumb;
      for (const k of this.order.ahead) if (!this.game.state.board.holes.has(k)) this.order.ahead.delete(k);
      const before = new Map(this.holeCrops);
      this.holeCrops.clear();
      for (const key of this.game.state.board.holes.keys()) {
        const c = crop(keyX(key), keyY(key));
        // A tile left for a later turn, or laid before its cell was a hole: the cell keeps the look it
        // had empty, so the next still scene sees the tile appear and reads it then.
        const earlier = deferred.has(key) ? (this.emptyCrops.get(key) ?? before.get(key)) : !before.has(key) && ordered && this.order.firstSeen.has(key) ? this.order.outerCrops.get(key) : undefined;
        this.order.outerCrops.delete(key);
        if (earlier) {
          this.holeCrops.set(key, earlier);
          this.emptyCrops.set(key, earlier);
          continue;
        }
        this.order.firstSeen.delete(key);
        this.holeCrops.set(key, c);
        // A hole set apart shows a tile, and one that changed may (a reading the table has yet to
        // answer, one the engine refused, a still scene missed): what it looked like empty stays.
        if (!this.order.ahead.has(key) && !(changedHoles.has(key) && this.emptyCrops.has(key))) this.emptyCrops.set(key, c);
      }
      for (const k of this.order.firstSeen.keys()) if (!this.game.state.board.holes.has(k) && !this.order.outerCrops.has(k)) this.order.firstSeen.delete(k);
      this.tileCrops.clear();
      for (const t of this.game.state.board.tiles) this.tileCrops.set(t.key, crop(t.x, t.y));
      // How well the drawings describe this table's art: the best scene counts.
      this.reader.noteArtFit(this.game.state, this.tileCrops);
      this.lastStill = { frame, H: this.H! };
      this.stillTiles = new Set(this.tileCrops.keys());
      for (const e of out) if (e.kind === 'proposal' && (e.command.type === 'placeTile' || e.command.type === 'placePrizeTile')) this.stillTiles.add(posKey(e.command.at[0], e.command.at[1]));
    } finally {
      mat.delete();
    }
    return out;
  }

  /** The plane from the start piece's clicked corners, and the piece, or why there is none. */
  private fromCorners(): { ok: true; plane: Homography; piece: StartPiece } | { ok: false; why: string | null } {
    const corners = this.o.startPieceCorners;
    if (!corners) return { ok: false, why: this.o.markers ? null : "no marker sheet is set up and the start piece's corners were not given" };
    const r = planeFromCorners(this.startCells, corners);
    if (!r.ok) return { ok: false, why: `the start piece's clicked corners: ${r.why}` };
    return { ok: true, plane: r.plane, piece: { cells: this.startCells, tableQuad: startOutline(this.startCells).quad } };
  }





  /**
   * Without a marker sheet, before the first tile: the start piece looked for in a picture
   * (start-piece.ts). The table confirms the corners (`startPieceCorners`) before anything is read
   * with them.
   */
  findStartPiece(bytes: Uint8Array, label = 'the picture'): Promise<{ ok: true; corners: Point[]; sure: boolean } | { ok: false; why: string }> {
    return findStartPiece(this.cv, bytes, label, { cells: this.startCells, tiles: this.game.state.board.tiles, templates: this.templates });
  }

  /**
   * With no draw told, a cell other than (x, y) holding a tile the game lacks that may have been laid
   * before the tile at (x, y), first seen changed at frame `seenAt` (TileOrder `earlierTile`). The
   * camera service asks this of an open reading, against the session's game (`state`), before it plays it.
   */
  earlierTile(x: number, y: number, seenAt = -Infinity, state: OrderState = this.game.state): readonly [number, number] | null {
    return this.order.earlierTile(x, y, seenAt, state);
  }

  /**
   * The cells with a tile the game lacks, as `earlierTile` weighs them: set apart (`ahead`) and first
   * seen changed, not read yet (`firstSeen`, cell key to frame, in the order seen). The camera
   * service's tracker runs in a worker: these go with each of its replies, so the services weigh an
   * open reading without asking it (electron/services/camera/tracker-client.ts).
   */
  get unreadCells(): UnreadCells {
    return { ahead: this.order.ahead, firstSeen: this.order.firstSeen };
  }

  /**
   * With a plane from the clicked corners, nothing on the table says where the camera is: a bumped
   * camera is seen as the whole picture moving between this still frame and the last (image
   * features matched, calibration/bump.ts), and the plane is carried along with it.
   */
  private followCamera(frame: Frame, index: number): TrackEvent[] {
    if (!this.clicked || !this.lastStill) return [];
    const before = frameToGrayMat(this.cv, this.lastStill.frame), after = frameToGrayMat(this.cv, frame);
    try {
      const centres = this.game.state.board.tiles.map((t) => applyHomography(this.H!, { x: t.x * PITCH_MM, y: t.y * PITCH_MM }));
      const check = detectCameraMove(this.cv, before, after, centres);
      if (!check.ok || !check.value.moved) return [];
      this.clicked = carriedBy(this.clicked, check.value.motion);
      this.H = this.clicked.plane;
      return [{ kind: 'notice', frame: index, message: `the camera moved (the board by up to ${check.value.shiftPx.toFixed(1)} px): the table plane follows it` }];
    } finally {
      before.delete();
      after.delete();
    }
  }

  /**
   * With a plane from the clicked corners: refitted to the tiles laid since the last still frame,
   * before this one is looked at, so that a new tile far from the start is cut where it lies.
   */
  private regrowPlane(mat: Mat): void {
    if (!this.clicked) return;
    const grown = growWith(this.cv, mat, this.clicked, this.game.state.board.tiles.map((t): Cell => [t.x, t.y]));
    if (grown === this.clicked) return;
    this.clicked = grown;
    this.H = grown.plane;
  }

  /**
   * Cells the table changed (answers, corrections) after the last still frame was looked at have no
   * baseline yet: they are cut from that frame. A hole it opened was still empty there — or already
   * held a tile the game has not been told about (the table ahead of the game). A tile it laid lay
   * there already when the table answered the camera's reading, or came after: either way this frame
   * is what the laid-tile check compares with, so a tile lifted or turned since is noticed.
   */
  private async catchUp(frame: number): Promise<TrackEvent[]> {
    if (!this.lastStill) return [];
    const missing = [...this.game.state.board.holes.keys()].filter((k) => !this.holeCrops.has(k));
    if (process.env.TRACK_DEBUG) console.error(`catchUp ${frame}: missing ${missing.map((k) => `${keyX(k)},${keyY(k)}${this.order.firstSeen.has(k) ? '@' + this.order.firstSeen.get(k) : ''}${this.order.outerCrops.has(k) ? 'o' : ''}`).join(' ')}`);
    const laid = this.game.state.board.tiles.filter((t) => !this.tileCrops.has(t.key));
    if (missing.length === 0 && laid.length === 0) return [];
    const mat = frameToMat(this.cv, this.lastStill.frame);
    try {
      for (const t of laid) this.tileCrops.set(t.key, this.crop(mat, t.x, t.y, this.lastStill.H));
      // The cells beyond the holes the table opened, as they looked then: a tile laid there since is
      // seen appearing at the next still scene and waits for its turn (else it joins the background).
      if (!drawTold(this.game)) for (const k of this.order.ring(this.game.state.board)) if (!this.order.outerCrops.has(k)) this.order.outerCrops.set(k, this.crop(mat, keyX(k), keyY(k), this.lastStill.H));
      // A hole the table opened where a tile appeared before it was a hole (no draw told): its look
      // from before, so this frame sees the tile and reads it in order.
      const seen = !drawTold(this.game) ? missing.filter((k) => this.order.firstSeen.has(k) && this.order.outerCrops.has(k)) : [];
      for (const key of missing) this.holeCrops.set(key, seen.includes(key) ? this.order.outerCrops.get(key)! : this.crop(mat, keyX(key), keyY(key), this.lastStill.H));
      // A tile the table took back (the camera read it wrong) still lies there: the game lacks it, and
      // it is not read again (it would be read the same) until the table enters a move there or lifts it.
      if (!drawTold(this.game)) for (const k of missing) if (this.stillTiles.has(k) && !seen.includes(k)) this.order.ahead.add(k);
      const events = await this.reportAhead(frame, mat, this.lastStill.H, missing.filter((k) => !seen.includes(k)));
      // As on a still frame: a hole set apart shows a tile, not how the cell looks empty.
      for (const key of missing) if (!this.order.ahead.has(key)) this.emptyCrops.set(key, this.holeCrops.get(key)!);
      return events;
    } finally {
      mat.delete();
    }
  }

  /**
   * A tile reading left to the table that the table closed without laying a tile there (it turned
   * the readings down, or the question was withdrawn), now that the camera reads again: with no draw
   * told, the tile seen there was laid before any tile seen after it. The cell is set apart (unless
   * the model, where it can read the cell, sees no tile there), so no later tile is committed as
   * this turn's before the table enters that move or lifts the tile. (The reading stays `pending`: a
   * tile the table then enters there by hand still has its figure read from the same frame.)
   */
  private async closedUnanswered(frame: number): Promise<TrackEvent[]> {
    const p = this.pending;
    if (!p || !this.lastStill || drawTold(this.game)) return [];
    const key = posKey(p.x, p.y);
    if (!this.game.state.board.holes.has(key) || this.order.ahead.has(key)) return [];
    const { frame: still, H } = this.lastStill;
    if (this.model && this.modelReadsCell(p.x, p.y, H)) {
      const mat = frameToMat(this.cv, still);
      try {
        if ((await this.tilesAt([key], (x, y) => this.modelCrop(mat, x, y, H), H)).length === 0) return [];
      } finally {
        mat.delete();
      }
    }
    this.order.ahead.add(key);
    return [{ kind: 'notice', frame, message: `the tile at cell (${p.x}, ${p.y}) the camera asked about was not entered: it was laid before any tile the camera sees next, so the camera commits none of them until that move is entered or the tile is lifted` }];
  }

  private modelReadsCell(x: number, y: number, H: Homography = this.H!): boolean {
    return modelReadsCell(H, x, y);
  }

  /**
   * Which of these holes the model reads as holding a tile, cut by `cut` (the model's crop of a
   * cell in one picture under plane `H`). Only where the cells are large enough for the model (cell
   * occupancy 99.97 % on the benchmark).
   */
  private async tilesAt(keys: readonly number[], cut: (x: number, y: number) => Frame, H: Homography): Promise<number[]> {
    if (!this.model) return [];
    const usable = keys.filter((k) => this.modelReadsCell(keyX(k), keyY(k), H));
    const readings = await this.model.readPrepared(usable.map((k) => cut(keyX(k), keyY(k)).data as Uint8Array));
    return usable.filter((_, i) => readings[i]!.present >= AHEAD_PRESENT);
  }

  /** Holes that already show a tile become `ahead`, and the table is told which. */
  private async reportAhead(frame: number, mat: unknown, H: Homography, keys: readonly number[]): Promise<TrackEvent[]> {
    const found = (await this.tilesAt(keys, (x, y) => this.modelCrop(mat, x, y, H), H)).filter((k) => !this.order.ahead.has(k));
    if (found.length === 0) return [];
    for (const k of found) this.order.ahead.add(k);
    const cells = found.map((k) => `(${keyX(k)}, ${keyY(k)})`).join(', ');
    return [{ kind: 'notice', frame, message: `the table already shows a tile at ${found.length === 1 ? 'cell' : 'cells'} ${cells} that the game does not have (moves not entered, or the camera started late): enter those moves, or lift the ${found.length === 1 ? 'tile' : 'tiles'}; the camera does not read ${found.length === 1 ? 'that cell' : 'those cells'} until then` }];
  }

  private crop(mat: unknown, x: number, y: number, H: Homography = this.H!, px = CROP_PX, ox = 0, oy = 0): CellCrop {
    return cellCrop(this.cv, mat, H, x, y, px, ox, oy);
  }

  private anchorOffset(mat: unknown, x: number, y: number, H: Homography = this.H!): { ox: number; oy: number } | null {
    // A drawing the table's art does not fit (print) is no anchor (`CellReader.trustIn`).
    return anchorOffset(this.cv, mat, H, x, y, this.game.state.board.tiles, this.templates, (id) => this.reader.trustIn(id) >= 1);
  }


  private modelCrop(mat: unknown, x: number, y: number, H: Homography = this.H!, ox = 0, oy = 0): Frame {
    return modelCrop(this.cv, mat, H, x, y, this.model?.size ?? 64, ox, oy);
  }





  /** Reads the holes that changed since the last still frame; returns what it found and which changed. */
  private async lookForTiles(frame: number, crop: (x: number, y: number) => CellCrop, modelCrop: (x: number, y: number) => Frame, anchored: (x: number, y: number) => { now: CellCrop; model: Frame } | null): Promise<{ events: TrackEvent[]; changed: ReadonlySet<number>; deferred: ReadonlySet<number> }> {
    // (Cells the table has filled since the last still scene are no longer holes: they order nothing.)
    const changed = changedCells(this.holeCrops, crop, true).filter((h) => this.game.state.board.holes.has(h.key));
    const { now, later } = drawTold(this.game) ? { now: changed, later: [] } : this.order.inOrder(changed, frame);
    // Holes left unread when a reading waits for the table wait with those left for a later turn:
    // their tiles are still new at the next still scene, seen since the frame they were first seen.
    const unread = new Set(now.map((h) => h.key));
    const events = await this.readChangedHoles(frame, now, modelCrop, anchored, unread);
    return { events, changed: new Set(changed.map((h) => h.key)), deferred: new Set([...later.map((h) => h.key), ...unread]) };
  }






  private async readChangedHoles(frame: number, changed: ChangedCell[], modelCrop: (x: number, y: number) => Frame, anchored: (x: number, y: number) => { now: CellCrop; model: Frame } | null, unread: Set<number>): Promise<TrackEvent[]> {
    const out: TrackEvent[] = [];
    const lone = this.reader.loneNewTile(this.game.state, changed);
    for (const hole of lone ? [lone.hole, ...changed.filter((h) => h !== lone.hole)] : changed) {
      unread.delete(hole.key);
      const x = keyX(hole.key), y = keyY(hole.key);
      if (!this.game.state.board.holes.has(hole.key)) continue;
      if (this.order.ahead.has(hole.key)) {
        // It changed: the tile the game lacks was lifted (then the cell is read from now on) or moved.
        if ((await this.tilesAt([hole.key], modelCrop, this.H!)).length === 0) this.order.ahead.delete(hole.key);
        continue;
      }
      // Read where the laid neighbours say the cell is (the marker plane may be a few pixels off).
      const at = anchored(x, y);
      const now = at?.now ?? hole.now;
      const readings = this.reader.read(this.game.state, now, x, y, changed.length === 1 || hole === lone?.hole);
      if (readings.length === 0) {
        out.push({ kind: 'notice', frame, message: `something appeared at cell (${x}, ${y}) but no rule allows a tile there now; nothing committed` });
        continue;
      }
      if (changed.length === 1 && this.reader.notTheDrawnTile(this.game.state, now, x, y, readings)) {
        // A later turn's tile (the video or the table ahead of the game) or a drawn tile entered
        // wrong: either way not this turn's tile, and the cell keeps that picture as its baseline,
        // so it is set apart as a tile the game lacks until the table enters a move there or lifts it.
        this.order.ahead.add(hole.key);
        const drawn = this.game.state.turn.drawn!;
        out.push({ kind: 'notice', frame, message: `a tile appeared at cell (${x}, ${y}) that does not look like ${drawn}, the drawn tile: a later turn's tile (enter the moves before it), or the drawn tile was entered wrong (correct it); nothing committed, and the camera does not read that cell until a move is entered there or the tile is lifted` });
        continue;
      }
      const fused = await this.reader.fuse(this.game.state, this.H!, readings, { readings: readingConfidence(readings), fit: this.reader.fitOf(readings, this.game.state.catalog), stricterGate: this.reader.stricterGate(readings, this.game.state.catalog) }, at?.model ?? modelCrop(x, y), x, y);
      const conf = fused.conf;
      if (fused.modelBest && fused.modelBest !== readings[0]) {
        readings.splice(readings.indexOf(fused.modelBest), 1);
        readings.splice(fused.leads ? 0 : 1, 0, fused.modelBest);
      }
      // Left to the table where the drawings are not its art: the model's top 3 are offered first.
      if (conf < this.commitAt && fused.offer?.length) readings.splice(0, readings.length, ...fused.offer, ...readings.filter((r) => !fused.offer!.includes(r)));
      if (process.env.TRACK_DEBUG) console.error(`tile? frame ${frame} (${x},${y}): ${readings.slice(0, 4).map((r) => `${r.tile}/${r.q} ${r.d.toFixed(5)}`).join(', ')}`);
      const cmd = (r: Reading): Command => {
        const player = this.game.state.turn.player;
        const rot = ROTATIONS[r.q] as Rotation;
        return r.tile.startsWith('JC-P') ? { type: 'placePrizeTile', player, tile: r.tile, at: [x, y], rot } : { type: 'placeTile', player, tile: r.tile, at: [x, y], rot };
      };
      const best = cmd(readings[0]!);
      const alternatives = readings.slice(1, 3).map(cmd);
      if (conf < this.commitAt) {
        out.push({ kind: 'proposal', frame, command: best, confidence: conf, alternatives, committed: false, why: 'not sure: the table picks' });
        this.pending = { now, x, y, frame, modelReading: fused.modelReading };
        return out; // the rest waits for the table's answer
      }
      // With no draw told, a tile the game lacks that lay there before this one (set apart, or taken
      // back) was laid first: this one is a later turn's, whatever the rules would take now.
      const earlier = this.earlierTile(x, y, this.order.firstSeen.get(hole.key) ?? frame);
      if (process.env.TRACK_DEBUG) console.error(`earlier? (${x},${y}) seen ${this.order.firstSeen.get(hole.key)} → ${earlier} firstSeen ${[...this.order.firstSeen].map(([k, f]) => `${keyX(k)},${keyY(k)}@${f}`).join(' ')} ahead ${[...this.order.ahead].map((k) => `${keyX(k)},${keyY(k)}`).join(' ')}`);
      if (earlier !== null) {
        out.push({ kind: 'proposal', frame, command: best, confidence: conf, alternatives, committed: false, why: `a tile the game does not have lies at cell (${earlier[0]}, ${earlier[1]}), laid before this one or with it: the table says which is this turn's` });
        this.pending = { now, x, y, frame, modelReading: fused.modelReading };
        return out;
      }
      const played = this.game.play(best);
      if (!played.ok) {
        out.push({ kind: 'proposal', frame, command: best, confidence: conf, alternatives, committed: false, why: `the engine rejects it: ${played.reason}` });
        this.pending = { now, x, y, frame, modelReading: fused.modelReading };
        return out;
      }
      this.cameraCommitted.add(this.game.history.length - 1);
      out.push({ kind: 'proposal', frame, command: best, confidence: conf, alternatives, committed: true, index: this.game.history.length - 1 });
      const figure = this.readFigure(now, readings[0]!, frame, false, fused.modelReading);
      if (figure) out.push(figure);
    }
    return out;
  }



  /**
   * The table answered a reading the tracker left open (picked from the top 3 or entered it): now that
   * the engine has the tile, read the figure on it from the same still frame.
   */
  afterTableAnswer(): TrackEvent[] {
    const p = this.pending;
    this.pending = null;
    if (!p) return [];
    const state = this.game.state;
    const placed = state.board.tiles[state.turn.tile];
    if (!placed || placed.x !== p.x || placed.y !== p.y || state.turn.step !== 'action') return [];
    const q = ROTATIONS.indexOf(placed.view.rot);
    const tpl = this.templates.get(placed.view.tile.id, q);
    if (!tpl) return [];
    const r: Reading = { tile: placed.view.tile.id, q, d: 0, match: matchTemplate(p.now, tpl) };
    const figure = this.readFigure(p.now, r, p.frame, false, p.modelReading);
    return figure ? [figure] : [];
  }

  /**
   * A figure the table's picture of the tile does not show but the model's figure heads see
   * (`MODEL_SEES_UNPICTURED_FIGURE`): asked, never committed. Only where the template is a picture:
   * there the heads are not weighed, and its figure hypotheses are drawings a real figure may not fit.
   */
  private figureByModelAlone(state: Game['state'], r: Reading, frame: number, modelReading: CropReading | undefined, colour: string | undefined): TrackEvent | null {
    if (!modelReading || !this.model || !this.templates.fromPicture(r.tile)) return null;
    const moves = modelFigureMoves(modelReading, this.model.info.meepleColours, state, colour);
    const best = moves[0];
    if (!best || moves.reduce((a, m) => a + m.p, 0) < MODEL_SEES_UNPICTURED_FIGURE) return null;
    return { kind: 'proposal', frame, command: best.command, confidence: best.p, alternatives: moves.slice(1, 3).map((m) => m.command), committed: false, tableConfirms: true, why: FIGURE_BY_MODEL_ALONE };
  }

  /** Every legal (tile, turn) at the cell, best first (cell-reader.ts). */
  readCell(now: CellCrop, x: number, y: number, onlyDrawn = false): Reading[] {
    return this.reader.read(this.game.state, now, x, y, onlyDrawn);
  }





  /**
   * The figure on the tile just placed (the player's enrolled figure at each legal spot, figures.ts),
   * committed when sure. While the table may still nominate (Jousts & Crests), it waits (`figureWait`).
   */
  private readFigure(now: CellCrop, r: Reading, frame: number, waited = false, modelReading?: CropReading): TrackEvent | null {
    const state = this.game.state;
    const placed = state.board.tiles[state.turn.tile];
    if (!placed || state.turn.step !== 'action') return null;
    if (!waited && nominationCandidates(state).length > 0) {
      this.figureWait = { now, r, frame, modelReading };
      return null;
    }
    const colour = this.o.setup.players[state.turn.player]?.color;
    // A figure is told by where the cell differs from the tile's template: a drawing the table's art
    // does not match (cell-reader.ts `artTrust`) differs everywhere, so it tells a figure only as far
    // as it is trusted (first-edition print, first game: 9 of 23 figures committed were wrong); as
    // far as it is not, the model's figure heads on the same still frame speak (model-figure.ts).
    const trust = this.reader.trustIn(r.tile);
    const template = this.figures.read(now, r, state, colour, frame);
    // The reading tells kinds where its own model has the head (`CropReading.meepleKinds`).
    const model = modelReading && trust < 1 && this.model ? modelFigureMoves(modelReading, this.model.info.meepleColours, state, colour) : null;
    const seen = model ? fuseFigure(template, trust, model) : template && { ...template, confidence: template.confidence * trust };
    if (model) this.o.onFigureRead?.({ x: placed.x, y: placed.y, frame, model, template: template?.command ?? null, fused: seen && { command: seen.command, confidence: seen.confidence } });
    if (process.env.TRACK_DEBUG && modelReading) console.error(`figure by the model? frame ${frame}: present ${modelReading.meeple.toFixed(3)}, template ${template ? `${JSON.stringify(template.command)} ${template.confidence.toFixed(3)}` : 'none'} → ${seen ? `${JSON.stringify(seen.command)} ${seen.confidence.toFixed(3)}` : 'none'}`);
    if (!seen) return this.figureByModelAlone(state, r, frame, modelReading, colour);
    const { command } = seen;
    const conf = seen.confidence;
    // A big follower is read by its size, learnt from drawings smaller than real figures: the table confirms it.
    const follower = followerInstead(state, command);
    const alternatives = follower ? [follower, ...seen.alternatives.filter((a) => !sameMove(a, follower))].slice(0, 2) : seen.alternatives;
    if (follower) return { kind: 'proposal', frame, command, confidence: conf, alternatives, committed: false, tableConfirms: true, why: BIG_BY_SIZE };
    if (conf < this.commitAt) return { kind: 'proposal', frame, command, confidence: conf, alternatives, committed: false, why: 'not sure about the figure: the table picks' };
    const played = this.game.play(command);
    if (!played.ok) return { kind: 'proposal', frame, command, confidence: conf, alternatives, committed: false, why: `the engine rejects it: ${played.reason}` };
    this.cameraCommitted.add(this.game.history.length - 1);
    return { kind: 'proposal', frame, command, confidence: conf, alternatives, committed: true, index: this.game.history.length - 1 };
  }
}
