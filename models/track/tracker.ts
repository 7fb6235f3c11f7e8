/**
 * Camera frames in, game moves out. Per frame: decode, check for a still scene; on a still scene that
 * differs from the last one: re-solve the table plane from the markers (the camera may have been
 * bumped), look at every hole of the board for a new tile, read it against the legal readings
 * (constraint decoding: engine placement rules and remaining supply), propose it to the engine, then
 * look for a figure on it among the legal meeple spots. Proposals the engine rejects are never
 * committed; unsure ones wait for the table (top-3).
 */
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import type { GameSetup } from '../../engine/game/setup.js';
import { legalMeepleSpots } from '../../engine/game/legal.js';
import { placementProblem, tileProblem } from '../../engine/game/placement.js';
import { keyX, keyY } from '../../engine/geometry/position.js';
import { ROTATIONS, type Rotation } from '../../engine/geometry/segments.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { loadCv, type Cv } from '../../calibration/cv.js';
import { decodeFrame, frameToMat, type Frame } from '../../calibration/frame.js';
import { applyHomography, type Homography, type Quad } from '../../calibration/geometry.js';
import { homographyFromSheet } from '../../calibration/markers.js';
import { changedFraction, StillScene, thumbnail, type Thumb } from '../../calibration/motion.js';
import { rectifyCell } from '../../calibration/rectify.js';
import type { SheetLayout } from '../../calibration/sheet/layout.js';
import { sameUpToSymmetry } from '../classes.js';
import { PITCH_MM } from '../scene/render.js';
import { featurePoint } from '../scene/spots.js';
import { CROP_PX, matchTemplate, residualBlob, TileTemplates, type CellCrop } from './templates.js';

export type TrackEvent =
  | { kind: 'calibrated'; frame: number; markers: number[]; rmsPx: number }
  | { kind: 'error'; frame: number; message: string }
  | { kind: 'notice'; frame: number; message: string }
  | { kind: 'proposal'; frame: number; command: Command; confidence: number; alternatives: Command[]; committed: boolean; why?: string; /** History index when committed. */ index?: number };

export interface TrackerOptions {
  readonly setup: GameSetup;
  /** The table's tile set as enrolled (art style name). */
  readonly style: string;
  /** Where the calibration markers lie on the table (table millimetres; cell (0,0) centred on the origin). */
  readonly markers: SheetLayout;
  /** Commit a reading when its confidence reaches this. */
  readonly commitAt?: number;
  /** Frames without a still scene before the tracker says a hand seems to stay in view. */
  readonly handPatience?: number;
}

interface Reading { tile: string; q: number; d: number; match: ReturnType<typeof matchTemplate> }

export class Tracker {
  readonly game: Game;
  private H: Homography | null = null;
  private readonly still = new StillScene(2, 0.004);
  private baseline: Thumb | null = null;
  private readonly holeCrops = new Map<number, CellCrop>();
  private unstillSince = -1;
  private handReported = false;
  private lastFrame = -1;
  /** Commands the camera committed (by history index), apart from table input. */
  readonly cameraCommitted = new Set<number>();

  private constructor(private readonly cv: Cv, private readonly templates: TileTemplates, private readonly o: TrackerOptions) {
    const g = Game.start(o.setup, defaultCatalog());
    if (!g.ok) throw new Error(`tracker: the setup is not playable: ${g.reason}`);
    this.game = g.value;
  }

  static async create(o: TrackerOptions): Promise<Tracker> {
    const [cv, templates] = await Promise.all([loadCv(), TileTemplates.enroll(defaultCatalog(), o.style)]);
    return new Tracker(cv, templates, o);
  }

  get calibrated(): boolean {
    return this.H !== null;
  }

  /** Table input (what no camera can see): played as given; the engine still decides. */
  tableInput(c: Command): { ok: true } | { ok: false; reason: string } {
    const r = this.game.play(c);
    return r.ok ? { ok: true } : { ok: false, reason: r.reason };
  }

  async feed(bytes: Uint8Array, index: number): Promise<TrackEvent[]> {
    this.lastFrame = index;
    const decoded = await decodeFrame(bytes, `frame ${index}`);
    if (!decoded.ok) return [{ kind: 'error', frame: index, message: decoded.error.message }];
    return this.feedFrame(decoded.value, index);
  }

  /** The camera stopped: say where the game stands; nothing is dropped. */
  end(): TrackEvent[] {
    return [{ kind: 'notice', frame: this.lastFrame, message: `camera stopped after frame ${this.lastFrame}; the game is kept at ${this.game.history.length} accepted commands` }];
  }

  feedFrame(frame: Frame, index: number): TrackEvent[] {
    const out: TrackEvent[] = [];
    const thumb = thumbnail(this.cv, frame);
    if (!this.still.push(thumb)) {
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
    if (this.baseline && changedFraction(this.baseline, thumb) < 0.002) return out;
    const sheet = homographyFromSheet(this.cv, frame, this.o.markers);
    if (sheet.ok) {
      if (!this.H) out.push({ kind: 'calibrated', frame: index, markers: sheet.value.markerIds, rmsPx: sheet.value.rmsPx });
      this.H = sheet.value.tableToImage;
    } else if (!this.H) {
      out.push({ kind: 'error', frame: index, message: `cannot calibrate: ${sheet.error.message}` });
      return out;
    }
    const mat = frameToMat(this.cv, frame);
    try {
      const crop = (x: number, y: number) => this.crop(mat, x, y);
      if (this.baseline) out.push(...this.lookForTiles(index, crop));
      // The new baseline: this scene, with every hole as it looks now.
      this.baseline = thumb;
      this.holeCrops.clear();
      for (const key of this.game.state.board.holes.keys()) this.holeCrops.set(key, crop(keyX(key), keyY(key)));
    } finally {
      mat.delete();
    }
    return out;
  }

  private crop(mat: unknown, x: number, y: number): CellCrop {
    const h = PITCH_MM / 2;
    const c = (dx: number, dy: number) => applyHomography(this.H!, { x: x * PITCH_MM + dx, y: y * PITCH_MM + dy });
    const quad: Quad = [c(-h, -h), c(h, -h), c(h, h), c(-h, h)];
    const f = rectifyCell(this.cv, mat, quad, CROP_PX);
    return Float32Array.from(f.data);
  }

  /** Holes that look different now, beyond a change of light over the whole table. */
  private changedHoles(crop: (x: number, y: number) => CellCrop): { key: number; score: number; now: CellCrop }[] {
    const rows: { key: number; ratio: number[]; d: number; now: CellCrop }[] = [];
    for (const [key, before] of this.holeCrops) {
      const now = crop(keyX(key), keyY(key));
      const mean = (c: CellCrop, k: number) => { let s = 0; for (let i = k; i < c.length; i += 3) s += c[i]!; return s / (c.length / 3) + 1; };
      const ratio = [0, 1, 2].map((k) => mean(now, k) / mean(before, k));
      rows.push({ key, ratio, d: matchTemplate(now, before).d, now });
    }
    if (rows.length === 0) return [];
    const med = [0, 1, 2].map((k) => rows.map((r) => r.ratio[k]!).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!);
    return rows
      .map((r) => ({ key: r.key, now: r.now, score: Math.max(...r.ratio.map((x, k) => Math.abs(x / med[k]! - 1))) + r.d * 10 }))
      .filter((r) => r.score > 0.2)
      .sort((a, b) => b.score - a.score);
  }

  private lookForTiles(frame: number, crop: (x: number, y: number) => CellCrop): TrackEvent[] {
    const out: TrackEvent[] = [];
    for (const hole of this.changedHoles(crop)) {
      const x = keyX(hole.key), y = keyY(hole.key);
      if (!this.game.state.board.holes.has(hole.key)) continue;
      const readings = this.readCell(hole.now, x, y);
      if (readings.length === 0) {
        out.push({ kind: 'notice', frame, message: `something appeared at cell (${x}, ${y}) but no rule allows a tile there now; nothing committed` });
        continue;
      }
      const conf = confidence(readings);
      const cmd = (r: Reading): Command => {
        const player = this.game.state.turn.player;
        const rot = ROTATIONS[r.q] as Rotation;
        return r.tile.startsWith('JC-P') ? { type: 'placePrizeTile', player, tile: r.tile, at: [x, y], rot } : { type: 'placeTile', player, tile: r.tile, at: [x, y], rot };
      };
      const best = cmd(readings[0]!);
      const alternatives = readings.slice(1, 3).map(cmd);
      if (conf < (this.o.commitAt ?? 0.9)) {
        out.push({ kind: 'proposal', frame, command: best, confidence: conf, alternatives, committed: false, why: 'not sure: the table picks' });
        return out; // the rest waits for the table's answer
      }
      const played = this.game.play(best);
      if (!played.ok) {
        out.push({ kind: 'proposal', frame, command: best, confidence: conf, alternatives, committed: false, why: `the engine rejects it: ${played.reason}` });
        return out;
      }
      this.cameraCommitted.add(this.game.history.length - 1);
      out.push({ kind: 'proposal', frame, command: best, confidence: conf, alternatives, committed: true, index: this.game.history.length - 1 });
      const figure = this.readFigure(hole.now, readings[0]!, frame);
      if (figure) out.push(figure);
    }
    return out;
  }

  /** Every legal (tile, turn) at the cell, best first. */
  readCell(now: CellCrop, x: number, y: number): Reading[] {
    const state = this.game.state;
    const ids = new Set<string>();
    for (const [id, n] of state.supply) if (n > 0) ids.add(id);
    // Prize tiles only while the player holds one (Jousts & Crests): then only they.
    const prizes = (state.jc?.players[state.turn.player]?.prizesHeld ?? 0) > 0;
    if (prizes) {
      ids.clear();
      for (const [id, n] of state.jc!.prizePool) if (n > 0) ids.add(id);
    }
    const readings: Reading[] = [];
    for (const id of ids) {
            const tile = state.catalog.get(id);
      if (!tile || !this.templates.has(id)) continue;
      if (!prizes && tileProblem(state, tile)) continue;
      for (let q = 0; q < 4; q++) {
        if (placementProblem(state, state.catalog.view(id, q), x, y)) continue;
        if (readings.some((r) => r.tile === id && sameUpToSymmetry(tile, r.q, q))) continue;
        const match = matchTemplate(now, this.templates.get(id, q)!);
        readings.push({ tile: id, q, d: match.d, match });
      }
    }
    return readings.sort((a, b) => a.d - b.d);
  }

  private readFigure(now: CellCrop, r: Reading, frame: number): TrackEvent | null {
    const blob = residualBlob(now, this.templates.get(r.tile, r.q)!, r.match);
    if (blob.count < 10) return null;
    const state = this.game.state;
    const placed = state.board.tiles[state.turn.tile];
    const spots = legalMeepleSpots(state).filter((s) => s.kind === 'normal');
    if (!placed || spots.length === 0) {
      return { kind: 'notice', frame, message: `a figure seems to stand on the tile at (${placed?.x}, ${placed?.y}) but no meeple may go there; nothing committed` };
    }
    const s = 46 / 45;
    const scored = spots.map((sp) => {
      const f = placed.view.features.find((g) => g.name === sp.on)!;
      const p = featurePoint(placed.view, f.index);
      const pu = (p[0] - 0.5) / s + 0.5, pv = (p[1] - 0.5) / s + 0.5;
      return { sp, d: Math.hypot(pu - blob.u, pv - blob.v) };
    }).sort((a, b) => a.d - b.d);
    const player = state.turn.player;
    const cmd = (k: number): Command => ({ type: 'placeMeeple', player, kind: scored[k]!.sp.kind, on: scored[k]!.sp.on });
    const margin = scored.length > 1 ? scored[1]!.d - scored[0]!.d : 1;
    const conf = Math.min(1, margin / 0.08);
    const alternatives = scored.slice(1, 3).map((_, i) => cmd(i + 1));
    if (conf < (this.o.commitAt ?? 0.9)) return { kind: 'proposal', frame, command: cmd(0), confidence: conf, alternatives, committed: false, why: 'not sure which feature: the table picks' };
    const played = this.game.play(cmd(0));
    if (!played.ok) return { kind: 'proposal', frame, command: cmd(0), confidence: conf, alternatives, committed: false, why: `the engine rejects it: ${played.reason}` };
    this.cameraCommitted.add(this.game.history.length - 1);
    return { kind: 'proposal', frame, command: cmd(0), confidence: conf, alternatives, committed: true, index: this.game.history.length - 1 };
  }
}

/** Softmax-like confidence of the best reading from the template distances. */
export function confidence(readings: readonly Reading[]): number {
  if (readings.length < 2) return 1;
  const d0 = readings[0]!.d;
  const t = 0.06 * d0 + 2e-4;
  let z = 0;
  for (const r of readings) z += Math.exp(-(r.d - d0) / t);
  return 1 / z;
}
