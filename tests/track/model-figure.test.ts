/**
 * A figure on printed art, read by the tile model's figure heads (model-figure.ts) where the tile's
 * drawing does not describe the table: a first-edition BASE_D on a 64 px crop, a red follower drawn
 * on its road, read by the real model; and how its word and the template reader's are weighed (less
 * sharply where both tell the same figure). A follower and a big follower: the default model cannot
 * tell them apart; the far camera's model, with its kind head, does on a far webcam's cell, and tells
 * them for the default model's reading of a larger cell on any print (cell-reader.ts `withFarKinds`).
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { placementProblem } from '../../engine/game/placement.js';
import { makeSetup } from '../../engine/game/setup.js';
import type { GameState } from '../../engine/game/state.js';
import { pieceSvg } from '../../models/render/pieces.js';
import { rasterise } from '../../models/render/rasterise.js';
import { FAR_MODEL, TileRecognizer, type CropReading } from '../../models/runner.js';
import { PITCH_MM, TILE_MM } from '../../models/scene/render.js';
import { featurePoint, segmentSpot, STANDING_CATCH } from '../../models/scene/spots.js';
import { printFacesByTile } from '../../models/synth/print-faces.js';
import { followerInstead, fuseFigure, modelFigureMoves } from '../../models/track/model-figure.js';
import { PICTURE_MARGIN, TileTemplates } from '../../models/track/templates.js';
import { CellReader } from '../../models/track/cell-reader.js';
import { FigureReader, type FigureSeen } from '../../models/track/figures.js';
import type { Reading } from '../../models/track/reading.js';
import type { Frame } from '../../calibration/frame.js';
import type { Homography } from '../../calibration/geometry.js';
import { cellPicture } from './helpers/cell-picture.js';

const TILE = 'BASE_D';
const P = 256;

let model: TileRecognizer;
let state: GameState;
let road: string;
/** The model's reading of the tile bare and with Ada's (red) follower on its road. */
let bare: CropReading;
let withFigure: CropReading;
/** The bare cell picture and where its road's figure stands (for the far camera's model below). */
let picture: Uint8Array;
let roadAt: { view: Parameters<typeof featurePoint>[0]; feature: number };

const meeple = (on: string, kind: 'normal' | 'big' = 'normal'): Command => ({ type: 'placeMeeple', player: 0, kind, on });

/** A game of Ada (red) and Bo (blue) where Ada has just laid BASE_D next to the start tile. */
function laidGame(expansions: string[] = ['base'], edition: 'C1' | 'C2' = 'C2', tile = TILE): { game: Game; before: GameState; x: number; y: number; q: number } {
  const start = () => {
    const made = Game.start(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }], expansions: expansions as never, tileSet: { edition } }));
    if (!made.ok) throw new Error(made.reason);
    return made.value;
  };
  const game = start();
  const s = game.state;
  const spot = [[0, -1], [1, 0], [0, 1], [-1, 0]].flatMap(([x, y]) => [0, 1, 2, 3].map((q) => ({ x: x!, y: y!, q }))).find(({ x, y, q }) => !placementProblem(s, s.catalog.view(tile, q), x, y))!;
  const played = game.play({ type: 'placeTile', player: 0, tile, at: [spot.x, spot.y], rot: ([0, 90, 180, 270] as const)[spot.q]! });
  if (!played.ok) throw new Error(played.reason);
  // The state before the tile, from a game of its own (a Game's state is its live state).
  return { game, before: start().state, ...spot };
}

async function read(pixels: Uint8Array): Promise<CropReading> {
  const data = await sharp(pixels, { raw: { width: P, height: P, channels: 3 } }).resize(model.size, model.size).raw().toBuffer();
  const prepared = await model.prepare({ pixels: new Uint8Array(data), width: model.size, height: model.size, channels: 3 });
  if (!prepared.ok) throw new Error(prepared.reason);
  return (await model.readPrepared([prepared.value]))[0]!;
}

/**
 * `picture` with a red follower (14 mm) or big follower (17 mm) standing on the feature's point, as
 * the scenes draw one.
 */
async function drawFollower(picture: Uint8Array, view: Parameters<typeof featurePoint>[0], feature: number, kind: 'normal' | 'big'): Promise<Uint8Array> {
  const span = PITCH_MM * (1 + 2 * PICTURE_MARGIN);
  const size = Math.round(((kind === 'big' ? 17 : 14) / span) * P);
  const sprite = await rasterise(pieceSvg(kind === 'big' ? 'big' : 'meeple', 'red'), size);
  const [px, py] = featurePoint(view, feature);
  const u0 = Math.round(P / 2 + ((px - 0.5) * TILE_MM * P) / span - size / 2), v0 = Math.round(P / 2 + ((py - 0.5) * TILE_MM * P) / span - size / 2);
  const drawn = new Uint8Array(picture);
  for (let v = 0; v < size; v++)
    for (let u = 0; u < size; u++) {
      const a = sprite.data[(v * size + u) * 4 + 3]! / 255;
      const o = ((v0 + v) * P + u0 + u) * 3;
      for (let c = 0; c < 3; c++) drawn[o + c] = Math.round(drawn[o + c]! * (1 - a) + sprite.data[(v * size + u) * 4 + c]! * a);
    }
  return drawn;
}

beforeAll(async () => {
  model = await TileRecognizer.load();
  const { game, q } = laidGame();
  state = game.state;
  const placed = state.board.tiles[state.turn.tile]!;
  const f = placed.view.features.find((g) => g.kind === 'road')!;
  road = f.name;
  const face = (await printFacesByTile([TILE])).get(TILE)!;
  picture = cellPicture(face, q, P);
  roadAt = { view: placed.view, feature: f.index };
  bare = await read(picture);
  withFigure = await read(await drawFollower(picture, placed.view, f.index, 'normal'));
}, 120_000);

describe("the model's figure heads on print", () => {
  it("read the player's follower on the road of a first-edition tile, and nothing on the bare tile", () => {
    const moves = modelFigureMoves(withFigure, model.info.meepleColours, state, 'red');
    expect(moves[0]!.command).toEqual(meeple(road));
    expect(moves[0]!.p).toBeGreaterThan(0.99);
    // Not Bo's colour, and no figure on the bare tile.
    expect(modelFigureMoves(withFigure, model.info.meepleColours, state, 'blue')[0]!.p).toBeLessThan(0.5);
    expect(modelFigureMoves(bare, model.info.meepleColours, state, 'red')[0]!.p).toBeLessThan(0.5);
  });

  it('commit the follower where the drawings are not trusted, against a template reading elsewhere', () => {
    const other = state.board.tiles[state.turn.tile]!.view.features.find((g) => g.name !== road && g.kind !== 'field')!.name;
    const template: FigureSeen = { command: meeple(other), confidence: 1, alternatives: [] };
    const fused = fuseFigure(template, 0, modelFigureMoves(withFigure, model.info.meepleColours, state, 'red'))!;
    expect(fused.command).toEqual(meeple(road));
    expect(fused.confidence).toBeGreaterThan(0.9);
    expect(fused.alternatives).toContainEqual(meeple(other));
    // Trusted drawings keep their word.
    expect(fuseFigure(template, 1, modelFigureMoves(withFigure, model.info.meepleColours, state, 'red'))).toEqual(template);
  });

  it('commit from 0.9 a figure the template sees where the model reads it best; alone or elsewhere only from 0.979', () => {
    const other = state.board.tiles[state.turn.tile]!.view.features.find((g) => g.name !== road && g.kind !== 'field')!.name;
    const model = (p: number) => [{ command: meeple(road), p }, { command: meeple(other), p: 0.01 }];
    const there: FigureSeen = { command: meeple(road), confidence: 1, alternatives: [] };
    const elsewhere: FigureSeen = { command: meeple(other), confidence: 1, alternatives: [] };
    // Two witnesses: where the cell differs from the drawing, and the figure heads.
    expect(fuseFigure(there, 0, model(0.93))).toMatchObject({ command: meeple(road), confidence: 0.93 });
    expect(fuseFigure(there, 0, model(0.93))!.confidence).toBeGreaterThan(0.9);
    expect(fuseFigure(there, 0, model(0.88))!.confidence).toBeLessThan(0.9);
    // The model alone, or against the template, is held to its sharper power.
    expect(fuseFigure(null, 0, model(0.97))).toMatchObject({ command: meeple(road), confidence: 0.97 ** 5 });
    expect(fuseFigure(null, 0, model(0.97))!.confidence).toBeLessThan(0.9);
    expect(fuseFigure(null, 0, model(0.985))!.confidence).toBeGreaterThan(0.9);
    expect(fuseFigure(elsewhere, 0, model(0.97))).toMatchObject({ command: meeple(road), confidence: 0.97 ** 5 });
    expect(fuseFigure(elsewhere, 0, model(0.97))!.confidence).toBeLessThan(0.9);
    // Half trusted drawings: each counts as far as its reader is trusted.
    expect(fuseFigure(there, 0.5, model(0.97))!.confidence).toBeCloseTo(0.5 + 0.5 * 0.97, 10);
  });

  it('ask nothing about a figure only an untrusted drawing sees; leave it to the table as far as the drawing is trusted', () => {
    const template: FigureSeen = { command: meeple(road), confidence: 1, alternatives: [] };
    const none = modelFigureMoves(bare, model.info.meepleColours, state, 'red');
    // The drawing of another art differs from the bare print everywhere: its figure is no question.
    expect(fuseFigure(template, 0, none)).toBeNull();
    expect(fuseFigure(null, 0, none)).toBeNull();
    // Half trusted, it is asked: left to the table.
    const half = fuseFigure(template, 0.5, none);
    expect(half?.command).toEqual(meeple(road));
    expect(half!.confidence).toBeGreaterThan(0.4);
    expect(half!.confidence).toBeLessThan(0.9);
    // A figure the model is unsure of, where the template sees it too, is asked.
    const unsure = fuseFigure(template, 0, [{ command: meeple(road), p: 0.3 }]);
    expect(unsure?.command).toEqual(meeple(road));
    expect(unsure!.confidence).toBeLessThan(0.9);
  });

  it('ask about a figure the model half sees where the template sees none; not about what it hardly sees', () => {
    // Bare tiles got at most 0.13 from the model, figures placed 0.30 or more (first-edition games).
    const other = state.board.tiles[state.turn.tile]!.view.features.find((g) => g.name !== road && g.kind !== 'field')!.name;
    const half = fuseFigure(null, 0, [{ command: meeple(road), p: 0.3 }, { command: meeple(other), p: 0.05 }]);
    expect(half?.command).toEqual(meeple(road));
    expect(half!.alternatives).toEqual([meeple(other)]);
    expect(half!.confidence).toBeLessThan(0.9);
    expect(fuseFigure(null, 0, [{ command: meeple(road), p: 0.13 }])).toBeNull();
    // As far as the drawing is trusted its word that no figure stands there counts.
    expect(fuseFigure(null, 0.5, [{ command: meeple(road), p: 0.3 }])).toBeNull();
    expect(fuseFigure(null, 1, [{ command: meeple(road), p: 0.45 }])).toBeNull();
  });
});

describe('where a figure stands', () => {
  /** Bare's reading with Ada's (red) figure seen for sure, its segment head split as given. */
  const seenAt = (split: Record<number, number>): CropReading => {
    const meepleSegment = new Float32Array(13);
    for (const [s, p] of Object.entries(split)) meepleSegment[Number(s)] = p;
    const meepleColour = new Float32Array(bare.meepleColour.length);
    meepleColour[model.info.meepleColours.indexOf('red')] = 1;
    return { ...bare, meeple: 1, meepleColour, meepleSegment };
  };

  it("at a corner, a figure the heads split between two features' segments is the one's that stands there", () => {
    // BASE_H: a field between two city caps stands at a corner, beside a city segment's spot.
    const { game } = laidGame(['base'], 'C2', 'BASE_H');
    const view = game.state.board.tiles[game.state.turn.tile]!.view;
    const field = view.features.find((f) => f.kind === 'field')!;
    const at = featurePoint(view, field.index);
    const own = field.segments.find((s) => Math.hypot(segmentSpot(view, s)[0] - at[0], segmentSpot(view, s)[1] - at[1]) < 1e-9)!;
    const city = [...Array(12).keys()].find((s) => !field.segments.includes(s) && Math.hypot(segmentSpot(view, s)[0] - at[0], segmentSpot(view, s)[1] - at[1]) < STANDING_CATCH)!;
    expect(own).toBeDefined();
    expect(city).toBeDefined();
    const cityName = view.features[view.segmentFeature[city]!]!.name;
    const moves = modelFigureMoves(seenAt({ [own]: 0.5, [city]: 0.5 }), model.info.meepleColours, game.state, 'red');
    expect(moves[0]).toMatchObject({ command: meeple(field.name), p: expect.closeTo(1, 6) });
    expect(moves.find((m) => (m.command as { on: string }).on === cityName)!.p).toBeLessThan(1e-6);
    // Seen at the city's own standing point, the figure is the city's.
    const cityAt = featurePoint(view, view.segmentFeature[city]!);
    const middle = view.features[view.segmentFeature[city]!]!.segments.find((s) => Math.hypot(segmentSpot(view, s)[0] - cityAt[0], segmentSpot(view, s)[1] - cityAt[1]) < 1e-9)!;
    expect(modelFigureMoves(seenAt({ [middle]: 1 }), model.info.meepleColours, game.state, 'red')[0]).toMatchObject({ command: meeple(cityName), p: expect.closeTo(1, 6) });
  });

  it("keeps a road's segment the road's beside a cloister, which has its own label", () => {
    // RIVER_H: a road ends at a cloister by its side; the road's spot lies at the cloister's point.
    const { game } = laidGame(['base', 'river'], 'C2', 'RIVER_H');
    const view = game.state.board.tiles[game.state.turn.tile]!.view;
    const road = view.features.find((f) => f.kind === 'road')!;
    const cloister = featurePoint(view, view.features.find((f) => f.kind === 'cloister')!.index);
    expect(Math.hypot(segmentSpot(view, road.segments[0]!)[0] - cloister[0], segmentSpot(view, road.segments[0]!)[1] - cloister[1])).toBeLessThan(STANDING_CATCH);
    const moves = modelFigureMoves(seenAt({ [road.segments[0]!]: 1 }), model.info.meepleColours, game.state, 'red');
    expect(moves[0]).toMatchObject({ command: meeple(road.name), p: expect.closeTo(1, 6) });
    expect(modelFigureMoves(seenAt({ 12: 1 }), model.info.meepleColours, game.state, 'red')[0]).toMatchObject({ command: meeple('CLOISTER'), p: expect.closeTo(1, 6) });
  });
});

describe('a follower or a big follower (Inns & Cathedrals)', () => {
  it('is not told apart by the model: the feature is offered with both kinds, left to the table', () => {
    const { game } = laidGame(['base', 'inns-cathedrals']);
    const moves = modelFigureMoves(withFigure, model.info.meepleColours, game.state, 'red');
    expect(moves.slice(0, 2).map((m) => m.command)).toEqual(expect.arrayContaining([meeple(road), meeple(road, 'big')]));
    const fused = fuseFigure(null, 0, moves)!;
    // Each kind at most half the feature's likelihood, at the model's power: far from committed.
    expect(fused.confidence).toBeLessThanOrEqual(0.5 ** 5);
    expect([fused.command, ...fused.alternatives]).toEqual(expect.arrayContaining([meeple(road), meeple(road, 'big')]));
  });
});

describe('a big follower read where a follower may stand too', () => {
  it('is the table\'s to confirm, the follower offered instead; a follower, or a big one where no follower may stand, is not', () => {
    const { game } = laidGame(['base', 'inns-cathedrals']);
    expect(followerInstead(game.state, meeple(road, 'big'))).toEqual(meeple(road));
    expect(followerInstead(game.state, meeple(road))).toBeNull();
    expect(followerInstead(game.state, { type: 'endTurn', player: 0 } as Command)).toBeNull();
    // Every follower of Ada's on the board but the big one: none to offer instead.
    const noFollowers: GameState = { ...game.state, players: game.state.players.map((p, i) => (i === 0 ? { ...p, supply: { ...p.supply, normal: 0 } } : p)) };
    expect(followerInstead(noFollowers, meeple(road, 'big'))).toBeNull();
  });
});

describe('a model with a kind head (the far camera\'s model, `meepleKinds`)', () => {
  const told = (normal: number, big: number, abbot = 0): CropReading => ({ ...withFigure, meepleKind: Float32Array.from([normal, big, abbot]) });
  const KINDS = ['normal', 'big', 'abbot'];

  it('tells a big follower from a follower where both may stand, as far as its kind head is sure', () => {
    const { game } = laidGame(['base', 'inns-cathedrals']);
    const base = modelFigureMoves(withFigure, model.info.meepleColours, game.state, 'red')[0]!.p * 2;
    const big = modelFigureMoves(told(0.02, 0.98), model.info.meepleColours, game.state, 'red', KINDS);
    expect(big[0]!.command).toEqual(meeple(road, 'big'));
    expect(big[0]!.p).toBeCloseTo(base * 0.98, 6);
    expect(big.find((m) => m.command.type === 'placeMeeple' && m.command.kind === 'normal' && m.command.on === road)!.p).toBeCloseTo(base * 0.02, 6);
    const normal = modelFigureMoves(told(0.999, 0.001), model.info.meepleColours, game.state, 'red', KINDS);
    expect(normal[0]!.command).toEqual(meeple(road));
    expect(fuseFigure(null, 0, normal)!.confidence).toBeGreaterThan(0.9);
    // Unsure between the two: left to the table, both offered.
    const unsure = fuseFigure(null, 0, modelFigureMoves(told(0.6, 0.4), model.info.meepleColours, game.state, 'red', KINDS))!;
    expect(unsure.confidence).toBeLessThanOrEqual(0.6 ** 5);
    expect([unsure.command, ...unsure.alternatives]).toEqual(expect.arrayContaining([meeple(road), meeple(road, 'big')]));
  });

  it('weighs only the kinds that may stand there: without Inns & Cathedrals its big-follower word is no evidence', () => {
    // Base game only: no big follower in supply, so the follower stands as sure as the other heads.
    const moves = modelFigureMoves(told(0.3, 0.7), model.info.meepleColours, state, 'red', KINDS);
    expect(moves[0]!.command).toEqual(meeple(road));
    expect(moves[0]!.p).toBeCloseTo(modelFigureMoves(withFigure, model.info.meepleColours, state, 'red')[0]!.p, 6);
  });
});

describe("the far camera's model tells a big follower from a follower on a far webcam's cell", () => {
  let far: TileRecognizer;
  /** The cell as a 640×480 webcam sees it (28 px across the crop, JPEG at that scale), scaled up to the model's input. */
  async function readFar(pixels: Uint8Array): Promise<CropReading> {
    const small = await sharp(pixels, { raw: { width: P, height: P, channels: 3 } }).resize(28, 28).jpeg({ quality: 80 }).toBuffer();
    const data = await sharp(small).resize(far.size, far.size, { kernel: 'linear' }).removeAlpha().raw().toBuffer();
    const prepared = await far.prepare({ pixels: new Uint8Array(data), width: far.size, height: far.size, channels: 3 });
    if (!prepared.ok) throw new Error(prepared.reason);
    return (await far.readPrepared([prepared.value]))[0]!;
  }

  beforeAll(async () => {
    far = await TileRecognizer.load(FAR_MODEL, 1);
  }, 120_000);

  it('reads each kind where both may stand (Inns & Cathedrals), sure enough to commit (a big one the table confirms: `followerInstead`)', async () => {
    expect(far.info.meepleKinds).toEqual(['normal', 'big', 'abbot']);
    const { game } = laidGame(['base', 'inns-cathedrals']);
    for (const kind of ['normal', 'big'] as const) {
      const reading = await readFar(await drawFollower(picture, roadAt.view, roadAt.feature, kind));
      // The reading names what its kind head tells apart: the tracker passes no names of its own.
      expect(reading.meepleKinds, kind).toEqual(far.info.meepleKinds);
      const moves = modelFigureMoves(reading, far.info.meepleColours, game.state, 'red');
      expect(moves[0]!.command, kind).toEqual(meeple(road, kind));
      expect(fuseFigure(null, 0, moves)!.confidence, kind).toBeGreaterThan(0.9);
    }
  });
});

describe("a figure's kind on a cell the default model reads", () => {
  /** About 55 px per cell: the default model reads it (from 30 px). */
  const LARGE: Homography = [1.2, 0, 640, 0, 1.2, 480, 0, 0, 1];
  let far: TileRecognizer;
  let templates: TileTemplates;

  beforeAll(async () => {
    far = await TileRecognizer.load(FAR_MODEL, 1);
    templates = await TileTemplates.enroll(state.catalog, 'c3');
  }, 120_000);

  /** What the cell reader hands the figure reader for the laid tile (its drawings not trusted: print). */
  async function fused(edition: 'C1' | 'C2', kind: 'normal' | 'big', farModel: TileRecognizer | null, artFit = 0.05) {
    const laid = laidGame(['base', 'inns-cathedrals'], edition);
    const data = await sharp(await drawFollower(picture, roadAt.view, roadAt.feature, kind), { raw: { width: P, height: P, channels: 3 } }).resize(model.size, model.size).raw().toBuffer();
    const crop: Frame = { width: model.size, height: model.size, channels: 3, data: new Uint8Array(data) };
    const reader = new CellReader(templates, new FigureReader(templates, []), model, undefined, farModel);
    reader.artFit = artFit;
    const readings: Reading[] = [{ tile: TILE, q: laid.q, d: 0.03, match: { d: 0.03, sx: 0, sy: 0, gain: [1, 1, 1] } }];
    const out = await reader.fuse(laid.before, LARGE, readings, { readings: 1, fit: 0, stricterGate: false }, crop, laid.x, laid.y);
    expect(out.modelReading, 'the default model read the cell').toBeDefined();
    return { reading: out.modelReading!, moves: modelFigureMoves(out.modelReading!, model.info.meepleColours, laid.game.state, 'red') };
  }

  it('is told by the far camera\'s kind head, on the print it learnt and on another, and the figure committed', async () => {
    expect(model.info.meepleKinds, 'the default model has no kind head (what this stands on)').toBeUndefined();
    for (const edition of ['C1', 'C2'] as const)
      for (const kind of ['normal', 'big'] as const) {
        const { reading, moves } = await fused(edition, kind, far);
        expect(reading.meepleKinds, `${edition} ${kind}`).toEqual(far.info.meepleKinds);
        expect(moves[0]!.command, `${edition} ${kind}`).toEqual(meeple(road, kind));
        expect(fuseFigure(null, 0, moves)!.confidence, `${edition} ${kind}`).toBeGreaterThan(0.9);
      }
  }, 120_000);

  it('is not asked where the drawings are trusted (the figure heads do not speak there)', async () => {
    const { reading } = await fused('C1', 'big', far, Infinity);
    expect(reading.meepleKind).toBeUndefined();
    expect(reading.meepleKinds).toBeUndefined();
  }, 120_000);

  it('is not told without the far camera\'s model: both kinds offered, left to the table', async () => {
    const { reading, moves } = await fused('C1', 'big', null);
    expect(reading.meepleKind).toBeUndefined();
    const seen = fuseFigure(null, 0, moves)!;
    expect(seen.confidence).toBeLessThanOrEqual(0.5 ** 5);
    expect([seen.command, ...seen.alternatives]).toEqual(expect.arrayContaining([meeple(road), meeple(road, 'big')]));
  }, 120_000);
});
