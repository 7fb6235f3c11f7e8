/**
 * A figure on printed art, read by the tile model's figure heads (model-figure.ts) where the tile's
 * drawing does not describe the table: a first-edition BASE_D on a 64 px crop, a red follower drawn
 * on its road, read by the real model; and how its word and the template reader's are weighed (less
 * sharply where both tell the same figure).
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
import { TileRecognizer, type CropReading } from '../../models/runner.js';
import { PITCH_MM, TILE_MM } from '../../models/scene/render.js';
import { featurePoint } from '../../models/scene/spots.js';
import { printFacesByTile } from '../../models/synth/print-faces.js';
import type { FigureSeen } from '../../models/track/figures.js';
import { fuseFigure, modelFigureMoves } from '../../models/track/model-figure.js';
import { PICTURE_MARGIN } from '../../models/track/templates.js';
import { cellPicture } from './helpers/cell-picture.js';

const TILE = 'BASE_D';
const P = 256;

let model: TileRecognizer;
let state: GameState;
let road: string;
/** The model's reading of the tile bare and with Ada's (red) follower on its road. */
let bare: CropReading;
let withFigure: CropReading;

const meeple = (on: string, kind: 'normal' | 'big' = 'normal'): Command => ({ type: 'placeMeeple', player: 0, kind, on });

/** A game of Ada (red) and Bo (blue) where Ada has just laid BASE_D next to the start tile. */
function laidGame(expansions: string[] = ['base']): { game: Game; x: number; y: number; q: number } {
  const made = Game.start(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }], expansions: expansions as never }));
  if (!made.ok) throw new Error(made.reason);
  const game = made.value;
  const s = game.state;
  const spot = [[0, -1], [1, 0], [0, 1], [-1, 0]].flatMap(([x, y]) => [0, 1, 2, 3].map((q) => ({ x: x!, y: y!, q }))).find(({ x, y, q }) => !placementProblem(s, s.catalog.view(TILE, q), x, y))!;
  const played = game.play({ type: 'placeTile', player: 0, tile: TILE, at: [spot.x, spot.y], rot: ([0, 90, 180, 270] as const)[spot.q]! });
  if (!played.ok) throw new Error(played.reason);
  return { game, ...spot };
}

async function read(pixels: Uint8Array): Promise<CropReading> {
  const data = await sharp(pixels, { raw: { width: P, height: P, channels: 3 } }).resize(model.size, model.size).raw().toBuffer();
  const prepared = await model.prepare({ pixels: new Uint8Array(data), width: model.size, height: model.size, channels: 3 });
  if (!prepared.ok) throw new Error(prepared.reason);
  return (await model.readPrepared([prepared.value]))[0]!;
}

beforeAll(async () => {
  model = await TileRecognizer.load();
  const { game, q } = laidGame();
  state = game.state;
  const placed = state.board.tiles[state.turn.tile]!;
  const f = placed.view.features.find((g) => g.kind === 'road')!;
  road = f.name;
  const face = (await printFacesByTile([TILE])).get(TILE)!;
  const picture = cellPicture(face, q, P);
  bare = await read(picture);
  // A 14 mm red follower standing on the road's point, as the scenes draw one.
  const span = PITCH_MM * (1 + 2 * PICTURE_MARGIN);
  const size = Math.round((14 / span) * P);
  const sprite = await rasterise(pieceSvg('meeple', 'red'), size);
  const [px, py] = featurePoint(placed.view, f.index);
  const u0 = Math.round(P / 2 + ((px - 0.5) * TILE_MM * P) / span - size / 2), v0 = Math.round(P / 2 + ((py - 0.5) * TILE_MM * P) / span - size / 2);
  const drawn = new Uint8Array(picture);
  for (let v = 0; v < size; v++)
    for (let u = 0; u < size; u++) {
      const a = sprite.data[(v * size + u) * 4 + 3]! / 255;
      const o = ((v0 + v) * P + u0 + u) * 3;
      for (let c = 0; c < 3; c++) drawn[o + c] = Math.round(drawn[o + c]! * (1 - a) + sprite.data[(v * size + u) * 4 + c]! * a);
    }
  withFigure = await read(drawn);
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

  it('commit from 0.95 a figure the template sees where the model reads it best; alone or elsewhere only from 0.995', () => {
    const other = state.board.tiles[state.turn.tile]!.view.features.find((g) => g.name !== road && g.kind !== 'field')!.name;
    const model = (p: number) => [{ command: meeple(road), p }, { command: meeple(other), p: 0.01 }];
    const there: FigureSeen = { command: meeple(road), confidence: 1, alternatives: [] };
    const elsewhere: FigureSeen = { command: meeple(other), confidence: 1, alternatives: [] };
    // Two witnesses: where the cell differs from the drawing, and the figure heads.
    expect(fuseFigure(there, 0, model(0.97))).toMatchObject({ command: meeple(road), confidence: 0.97 ** 2 });
    expect(fuseFigure(there, 0, model(0.97))!.confidence).toBeGreaterThan(0.9);
    expect(fuseFigure(there, 0, model(0.93))!.confidence).toBeLessThan(0.9);
    // The model alone, or against the template, is held to its sharper power.
    expect(fuseFigure(null, 0, model(0.97))).toMatchObject({ command: meeple(road), confidence: 0.97 ** 20 });
    expect(fuseFigure(elsewhere, 0, model(0.97))).toMatchObject({ command: meeple(road), confidence: 0.97 ** 20 });
    expect(fuseFigure(elsewhere, 0, model(0.97))!.confidence).toBeLessThan(0.9);
    // Half trusted drawings: each counts as far as its reader is trusted.
    expect(fuseFigure(there, 0.5, model(0.97))!.confidence).toBeCloseTo(0.5 + 0.5 * 0.97 ** 2, 10);
  });

  it('leave to the table a figure the template sees where the model sees none', () => {
    const template: FigureSeen = { command: meeple(road), confidence: 1, alternatives: [] };
    const fused = fuseFigure(template, 0, modelFigureMoves(bare, model.info.meepleColours, state, 'red'));
    expect(fused?.command).toEqual(meeple(road));
    expect(fused!.confidence).toBeLessThan(0.01);
    expect(fuseFigure(null, 0, modelFigureMoves(bare, model.info.meepleColours, state, 'red'))).toBeNull();
  });
});

describe('a follower or a big follower (Inns & Cathedrals)', () => {
  it('is not told apart by the model: the feature is offered with both kinds, left to the table', () => {
    const { game } = laidGame(['base', 'inns-cathedrals']);
    const moves = modelFigureMoves(withFigure, model.info.meepleColours, game.state, 'red');
    expect(moves.slice(0, 2).map((m) => m.command)).toEqual(expect.arrayContaining([meeple(road), meeple(road, 'big')]));
    const fused = fuseFigure(null, 0, moves)!;
    expect(fused.confidence).toBeLessThan(0.01);
    expect([fused.command, ...fused.alternatives]).toEqual(expect.arrayContaining([meeple(road), meeple(road, 'big')]));
  });
});
