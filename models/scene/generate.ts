/**
 * Makes a synthetic overhead recording of a game: the ground-truth game comes from the engine's
 * seeded random player; every tile, figure and tower floor the camera could see is drawn from the
 * engine's state after each visit of a hand; the camera is bumped once, the light changes once.
 */
import { rng } from '../../engine/sim/rng.js';
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { makeSetup, type GameSetup } from '../../engine/game/setup.js';
import type { Edition } from '../../engine/catalog/types.js';
import type { GameState } from '../../engine/game/state.js';
import { randomGame } from '../../engine/sim/random-game.js';
import { recordFromGame } from '../../engine/record/write.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { quarterTurns } from '../../engine/geometry/segments.js';
import { loadCv } from '../../calibration/cv.js';
import { markerBits } from '../../calibration/sheet/bits.js';
import type { SheetLayout } from '../../calibration/sheet/layout.js';
import type { Homography } from '../../calibration/geometry.js';
import { multiplyHomography } from '../../calibration/geometry.js';
import { DRAWN_FIGURE_BOX_MM, PIECE_COLORS, type FigureSize, pieceSvg, WOODEN_FIGURE_BOX_MM, woodenFigureSvg, type PieceColor, type WoodenPose } from '../render/pieces.js';
import { rasterise } from '../render/rasterise.js';
import { styleByName } from '../render/styles.js';
import { tileSvg } from '../render/svg.js';
import type { Rgba } from '../synth/image.js';
import { encodeScene, PITCH_MM, type Scene, type SceneMarker, type SceneSprite, type SceneTile } from './render.js';
import { namedPoint } from './spots.js';
import type { Manifest, Visit } from './recording.js';

export const FACE_PX = 64;
/** Marker edge: the camera must see each marker with at least ~25 px on a side. */
export const MARKER_MM = 60;

export interface GenerateOptions {
  readonly seed: number;
  readonly expansions?: GameSetup['expansions'];
  readonly players?: number;
  readonly style?: string;
  readonly width?: number;
  readonly height?: number;
  readonly fps?: number;
  readonly maxTurns?: number;
  readonly jpegQuality?: number;
  /** Severity of drift, shake, light change and noise (1 = the documented ranges). */
  readonly severity?: number;
  /**
   * Tile faces (catalog frame) drawn instead of the style's drawings: the printed scans, to measure
   * the tracker on real art (models/eval/realart.ts). `style` still names the art the tracker's
   * table profile was set to; `art` names what the faces are, in the manifest.
   */
  readonly faces?: ReadonlyMap<string, Rgba>;
  readonly art?: string;
  /** The printing on the table (tile counts; C1 has no garden tiles). Default: the engine's. */
  readonly edition?: Edition;
  /**
   * How the figures look: `drawn` (default) as every figure reader learnt them (pieces.ts `pieceSvg`),
   * `wooden` as real figures stand on a table, which none learnt (`woodenFigureSvg`): to measure
   * what the readers make of figures they never saw (scripts/far-calibration.ts `--figures`).
   */
  readonly figures?: 'drawn' | 'wooden';
  /** How large drawn figures are (pieces.ts `FigureSize`; default `drawing`). Wooden ones are always real-sized. */
  readonly figureSize?: FigureSize;
}

const PLAYER_COLOURS: readonly PieceColor[] = ['red', 'blue', 'green', 'yellow', 'black', 'grey'];

/** The marker layout around a board spanning the given cells: one 40 mm marker beyond each corner. */
export function tableMarkers(minX: number, minY: number, maxX: number, maxY: number): SheetLayout {
  const m = 25; // clearance from the outermost tiles, mm
  const x0 = (minX - 0.5) * PITCH_MM - m - MARKER_MM, y0 = (minY - 0.5) * PITCH_MM - m - MARKER_MM;
  const x1 = (maxX + 0.5) * PITCH_MM + m, y1 = (maxY + 0.5) * PITCH_MM + m;
  return {
    name: 'table-corners', paper: { widthMm: x1 - x0 + MARKER_MM, heightMm: y1 - y0 + MARKER_MM }, dictionary: 'DICT_4X4_50', markerSizeMm: MARKER_MM,
    markers: [{ id: 0, xMm: x0, yMm: y0 }, { id: 1, xMm: x1, yMm: y0 }, { id: 2, xMm: x1, yMm: y1 }, { id: 3, xMm: x0, yMm: y1 }],
    scaleBarMm: 100,
  };
}

const between = (r: () => number, lo: number, hi: number) => lo + (hi - lo) * r();

/** Commands a camera sees being done by a hand (a visit each); the rest is table input. */
const VISIT_STARTERS = new Set(['placeTile', 'placePrizeTile', 'placeTowerFloor', 'closeTower']);
/** Of those, what the tracker reads from the camera (tower floors are table input for now). */
export const CAMERA_READ = new Set(['placeTile', 'placePrizeTile', 'placeMeeple']);

interface Drift { dx: number; dy: number; angle: number; variant: number }

export async function generateRecording(o: GenerateOptions): Promise<{ manifest: Manifest; frames: Uint8Array[]; record: unknown; setup: GameSetup }> {
  const sev = o.severity ?? 1;
  const W = o.width ?? 640, H = o.height ?? 480;
  const nPlayers = o.players ?? 2;
  const setup = makeSetup({
    expansions: o.expansions ?? ['base', 'tower', 'jousts-crests'],
    players: Array.from({ length: nPlayers }, (_, i) => ({ name: `P${i + 1}`, color: PLAYER_COLOURS[i]! })),
    ...(o.edition ? { tileSet: { edition: o.edition } } : {}),
  });
  const truth = randomGame(setup, o.seed, o.maxTurns !== undefined ? { maxTurns: o.maxTurns, finish: false } : {});
  const commands = truth.commands;
  const style = styleByName(o.style ?? 'c2');
  const r = rng(o.seed * 7 + 1);

  // Faces and sprites, once.
  const catalog = defaultCatalog();
  const faces = new Map<string, Rgba>();
  const face = async (id: string) => {
    let f = faces.get(id) ?? o.faces?.get(id);
    if (!f) faces.set(id, (f = await rasterise(tileSvg(catalog.get(id)!, style, { variant: 1 }), FACE_PX)));
    return f;
  };
  const sprites = new Map<string, Rgba>();
  const sprite = async (kind: 'meeple' | 'big' | 'abbot' | 'tower-floor', colour: PieceColor) => {
    const k = `${kind}/${colour}`;
    let s = sprites.get(k);
    if (!s) sprites.set(k, (s = await rasterise(pieceSvg(kind, colour), 48)));
    return s;
  };
  const wooden = o.figures === 'wooden';
  const drawnSize = o.figureSize ?? 'drawing';
  const woodenSprite = async (kind: 'meeple' | 'big' | 'abbot', colour: PieceColor, pose: WoodenPose) => {
    const k = `wooden/${kind}/${colour}/${pose.standing}/${pose.facing}`;
    let s = sprites.get(k);
    if (!s) sprites.set(k, (s = await rasterise(woodenFigureSvg(kind, colour, pose), 64)));
    return s;
  };
  /** A figure's sprite and its box on the table, mm: drawn at `figureSize`, wooden as large as a real one. */
  const figure = async (kind: 'meeple' | 'big' | 'abbot', colour: PieceColor, pose: WoodenPose) =>
    wooden ? { img: await woodenSprite(kind, colour, pose), sizeMm: WOODEN_FIGURE_BOX_MM[kind] } : { img: await sprite(kind, colour), sizeMm: DRAWN_FIGURE_BOX_MM[drawnSize][kind] };

  // Board extent from the final state sets the camera's framing.
  const final = truth.state;
  const xs = final.board.tiles.map((t) => t.x), ys = final.board.tiles.map((t) => t.y);
  const layout = tableMarkers(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
  const cv = await loadCv();
  const markers: SceneMarker[] = layout.markers.map((m) => ({ cells: markerBits(cv, layout.dictionary, m.id).cells, x: m.xMm, y: m.yMm, sizeMm: layout.markerSizeMm }));
  const tx0 = layout.markers[0]!.xMm - 10, ty0 = layout.markers[0]!.yMm - 10;
  const tx1 = layout.markers[2]!.xMm + MARKER_MM + 10, ty1 = layout.markers[2]!.yMm + MARKER_MM + 10;
  // A little room so that shake, bump and tilt never push a marker out of the frame.
  const scale = 0.93 * Math.min(W / (tx1 - tx0), H / (ty1 - ty0));
  const camera = (shiftU: number, shiftV: number, turn: number, tilt: number): Homography => {
    const c = Math.cos(turn), s = Math.sin(turn);
    const centre: Homography = [1, 0, -(tx0 + tx1) / 2, 0, 1, -(ty0 + ty1) / 2, 0, 0, 1];
    const rs: Homography = [c * scale, -s * scale, 0, s * scale, c * scale, 0, tilt, tilt * 0.5, 1];
    const to: Homography = [1, 0, W / 2 + shiftU, 0, 1, H / 2 + shiftV, 0, 0, 1];
    return multiplyHomography(to, multiplyHomography(rs, centre));
  };
  const tilt = between(r, -1, 1) * 1e-4 * sev;

  const drift = new Map<number, Drift>();
  const driftOf = (key: number, start: boolean): Drift => {
    let d = drift.get(key);
    if (!d) {
      d = start
        ? { dx: 0, dy: 0, angle: 0, variant: 0 }
        : { dx: between(r, -1.5, 1.5) * sev, dy: between(r, -1.5, 1.5) * sev, angle: (between(r, -3, 3) * sev * Math.PI) / 180, variant: 0 };
      drift.set(key, d);
    }
    return d;
  };
  const colours = setup.players.map((p) => (PIECE_COLORS.includes(p.color as PieceColor) ? (p.color as PieceColor) : 'grey'));

  async function sceneOf(state: GameState, startKeys: Set<number>): Promise<{ tiles: SceneTile[]; sprites: SceneSprite[] }> {
    const tiles: SceneTile[] = [];
    for (const t of state.board.tiles) {
      const d = driftOf(t.key, startKeys.has(t.key));
      tiles.push({ x: t.x, y: t.y, q: quarterTurns(t.view.rot), face: await face(t.view.tile.id), dx: d.dx, dy: d.dy, angle: d.angle });
    }
    const sprites: SceneSprite[] = [];
    const tileAt = new Map(state.board.tiles.map((t) => [`${t.x},${t.y}`, t]));
    const place = (x: number, y: number, p: [number, number]) => {
      const d = drift.get(tileAt.get(`${x},${y}`)!.key)!;
      return [x * PITCH_MM + d.dx + (p[0] - 0.5) * 45, y * PITCH_MM + d.dy + (p[1] - 0.5) * 45] as const;
    };
    for (const tw of state.towers.values()) {
      if (tw.height <= 0) continue;
      const [x, y] = place(tw.x, tw.y, [0.5, 0.5]);
      sprites.push({ img: await sprite('tower-floor', 'grey'), x, y, sizeMm: 20 + tw.height * 1.5 });
      if (tw.top) sprites.push({ ...(await figure(tw.top.kind === 'big' ? 'big' : 'meeple', colours[tw.top.player]!, { standing: true, facing: 0 })), x, y });
    }
    for (const m of state.meeples) {
      if (m.part < 0) continue;
      const t = tileAt.get(`${m.x},${m.y}`);
      const p = t && namedPoint(t.view, m.on);
      if (!t || !p) continue;
      const [x, y] = place(m.x, m.y, p);
      const kind = m.kind === 'big' ? 'big' : m.kind === 'abbot' ? 'abbot' : 'meeple';
      // A farmer lies on its back; every other figure stands, facing the way its player set it down.
      const field = t.view.features.find((f) => f.name === m.on)?.kind === 'field';
      const pose = { standing: !field, facing: (((m.x * 7 + m.y * 13 + m.part * 5) % 24) + 24) % 24 * 15 };
      sprites.push({ ...(await figure(kind, colours[m.player]!, pose)), x, y });
    }
    return { tiles, sprites };
  }

  // Replay the truth, cutting it into visits.
  const started = Game.start(setup, catalog);
  if (!started.ok) throw new Error(started.reason);
  const game = started.value;
  const startKeys = new Set(game.state.board.tiles.map((t) => t.key));
  const frames: Uint8Array[] = [];
  const visits: Visit[] = [];
  const notes: Manifest['notes'] = [];
  const fps = o.fps ?? 3;
  const quality = o.jpegQuality ?? 60;
  let bumped = false;
  let lightChanged = false;
  let frameSeed = o.seed * 1000;
  const starters = commands.map((c, i) => (VISIT_STARTERS.has(c.type) ? i : -1)).filter((i) => i >= 0);
  const bumpAt = starters[Math.floor(starters.length * 0.4)] ?? -1;
  const lightAt = starters[Math.floor(starters.length * 0.65)] ?? -1;

  const emit = async (state: GameState, hand: Scene['hand'], shake: number) => {
    const { tiles, sprites } = await sceneOf(state, startKeys);
    const bump = bumped ? [3 * sev, -2 * sev, 0.006 * sev] : [0, 0, 0];
    const su = bump[0]! + between(r, -shake, shake), sv = bump[1]! + between(r, -shake, shake);
    const scene: Scene = {
      width: W, height: H, tableToImage: camera(su, sv, bump[2]!, tilt), tiles, sprites, markers, hand,
      light: lightChanged ? [0.86, 0.84, 0.74] : [1, 1, 1], gradient: (lightChanged ? 0.2 : 0.08) * sev,
      noise: 2.5 * sev, blur: hand ? 0.9 : 0.5, jpegQuality: quality, seed: frameSeed++,
    };
    frames.push(await encodeScene(scene));
  };

  // The start: a few still frames for calibration.
  for (let k = 0; k < 3; k++) await emit(game.state, null, 0);
  let i = 0;
  while (i < commands.length) {
    const c = commands[i]!;
    if (!VISIT_STARTERS.has(c.type)) {
      play(game, c);
      i++;
      continue;
    }
    if (i === bumpAt) {
      bumped = true;
      notes.push({ frame: frames.length, what: 'camera bumped' });
    }
    if (i === lightAt) {
      lightChanged = true;
      notes.push({ frame: frames.length, what: 'light changed' });
    }
    const at = 'at' in c ? (c.at as readonly [number, number]) : [0, 0];
    const handFrom = frames.length;
    const edge = Math.floor(r() * 3);
    const fromU = edge === 0 ? W * between(r, 0.2, 0.8) : edge === 1 ? W + 20 : -20;
    const fromV = edge === 0 ? H + 20 : H * between(r, 0.3, 0.9);
    await emit(game.state, { tipX: at[0] * PITCH_MM, tipY: at[1] * PITCH_MM, fromU, fromV, skin: [225, 180, 150] }, 3 * sev);
    const camera: number[] = [];
    if (CAMERA_READ.has(c.type)) camera.push(i);
    play(game, c);
    i++;
    // The figure the same hand puts on the tile belongs to this visit, also when table input (a
    // nomination) comes between the two in the record.
    let m = i;
    while (m < commands.length && !VISIT_STARTERS.has(commands[m]!.type) && commands[m]!.type !== 'placeMeeple' && commands[m]!.type !== 'endTurn') m++;
    if (CAMERA_READ.has(c.type) && commands[m]?.type === 'placeMeeple') {
      for (; i < m; i++) play(game, commands[i]!);
      camera.push(i);
      play(game, commands[i]!);
      i++;
    }
    const stillFrom = frames.length;
    await emit(game.state, null, 0);
    await emit(game.state, null, 0);
    visits.push({ handFrom, stillFrom, camera, ...(c.type === 'placeTile' || c.type === 'placePrizeTile' ? { cell: [at[0], at[1]] as [number, number] } : {}) });
  }
  const record = recordFromGame(truth, { source: `synthetic recording, seed ${o.seed}` });
  const manifest: Manifest = {
    format: 'recording@1', fps, width: W, height: H, frames: frames.length,
    source: { generator: 'models/scene/generate.ts', seed: o.seed, style: style.name, ...(o.art ? { art: o.art } : {}), ...(wooden ? { figures: 'wooden' } : {}), ...(!wooden && drawnSize !== 'drawing' ? { figureSize: drawnSize } : {}), severity: sev, markers: layout, expansions: setup.expansions, players: setup.players },
    commands: commands as unknown as Record<string, unknown>[],
    visits, notes,
  };
  return { manifest, frames, record, setup };
}

function play(game: Game, c: Command): void {
  const res = game.play(c);
  if (!res.ok) throw new Error(`recording generator: the ground truth did not replay at ${JSON.stringify(c)}: ${res.reason}`);
}
