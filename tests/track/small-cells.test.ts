/**
 * The model on cells below its 30 px (cell-reader.ts `fuse`, `SMALL_CELL_SURE`): asked only about a
 * reading by the table's own picture of a type it has taught, it answers the fit gate's doubt (unless a
 * twin is legal there), sends a reading with other sides to the table, and leaves a mark (a pennant)
 * to the templates.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../calibration/frame.js';
import type { Homography } from '../../calibration/geometry.js';
import { createGame } from '../../engine/game/engine.js';
import type { GameState } from '../../engine/game/state.js';
import { placementProblem } from '../../engine/game/placement.js';
import { makeSetup } from '../../engine/game/setup.js';
import { decodeReading } from '../../models/decode.js';
import { Enrollment, exemplarsFromCrop } from '../../models/enroll.js';
import { realFacesByTile } from '../../models/eval/realart.js';
import { TileRecognizer } from '../../models/runner.js';
import type { Rgba } from '../../models/synth/image.js';
import { CellReader } from '../../models/track/cell-reader.js';
import { FigureReader } from '../../models/track/figures.js';
import type { Reading } from '../../models/track/reading.js';
import { TileTemplates, type TilePicture } from '../../models/track/templates.js';
import { cellPicture } from './helpers/cell-picture.js';

/** The model's crop of a cell 23 px wide (28 px with the margin), cut at the model's size: upscaled from what the camera saw. */
async function smallCellCrop(face: Rgba, q: number, size: number): Promise<Frame> {
  const sharpPicture = cellPicture(face, q, 224);
  const seen = await sharp(sharpPicture, { raw: { width: 224, height: 224, channels: 3 } }).resize(28, 28).raw().toBuffer();
  const data = await sharp(seen, { raw: { width: 28, height: 28, channels: 3 } }).resize(size, size, { kernel: 'linear' }).raw().toBuffer();
  return { width: size, height: size, channels: 3, data: new Uint8Array(data) };
}

/** Half a pixel per millimetre: 23 px per cell, under the model's 30. */
const SMALL: Homography = [0.5, 0, 320, 0, 0.5, 240, 0, 0, 1];
const TYPES = ['BASE_S', 'BASE_T', 'BASE_U'] as const;

let model: TileRecognizer;
let state: GameState;
let spot: { x: number; y: number; q: number };
let faces: Map<string, Rgba>;
let crop: Frame;
const reading = (tile: string, q: number, d = 0.04): Reading => ({ tile, q, d, match: { d, sx: 0, sy: 0, gain: [1, 1, 1] } });

/** The table's picture of a type, as a teach frame gives it: sharper than a game's cell. */
const pictureOf = (id: string): TilePicture => ({ tileId: id, rot: 0, width: 96, height: 96, data: cellPicture(faces.get(id)!, 0, 96) });

/** The model's exemplars of `ids`, from their pictures. */
async function enrolled(ids: readonly string[]): Promise<Enrollment> {
  const enrollment = new Enrollment();
  for (const id of ids) {
    const p = pictureOf(id);
    const ex = await exemplarsFromCrop(model, { pixels: p.data, width: p.width, height: p.height, channels: 3 }, id, 0);
    if (!ex.ok) throw new Error(ex.reason);
    enrollment.add(...ex.value);
  }
  return enrollment;
}

/** A reader whose templates are the table's pictures of `pictured`, its model enrolled with `taught`. */
async function reader(pictured: readonly string[], taught: readonly string[]): Promise<CellReader> {
  const templates = await TileTemplates.enroll(state.catalog, 'c3');
  for (const id of pictured) expect(templates.usePicture(pictureOf(id))).toBe(true);
  return new CellReader(templates, new FigureReader(templates, []), model, await enrolled(taught));
}

beforeAll(async () => {
  model = await TileRecognizer.load();
  faces = await realFacesByTile([...TYPES]);
  const game = createGame(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }] }));
  if (!game.ok) throw new Error(game.reason);
  state = game.value.state;
  const spots = [[0, -1], [1, 0], [0, 1], [-1, 0]].flatMap(([x, y]) => [0, 1, 2, 3].map((q) => ({ x: x!, y: y!, q })));
  spot = spots.find(({ x, y, q }) => !placementProblem(state, state.catalog.view('BASE_S', q), x, y))!;
  // A second-edition BASE_S (dense print: it fits its own picture loosely at this size) as the camera sees it.
  crop = await smallCellCrop(faces.get('BASE_S')!, spot.q, model.size);
}, 120_000);

describe('the model on cells under 30 px', () => {
  it('reads this small BASE_S surely with the table\'s exemplars (what the cases below stand on)', async () => {
    expect(spot).toBeDefined();
    const enrollment = await enrolled(TYPES);
    const prepared = await model.prepare({ pixels: crop.data, width: crop.width, height: crop.height, channels: 3 });
    if (!prepared.ok) throw new Error(prepared.reason);
    const [read] = await model.readPrepared([prepared.value]);
    const d = decodeReading(read!, model.info, state.catalog, { state, at: [spot.x, spot.y] }, { enrollment });
    expect(d.best?.tileId).toBe('BASE_S');
    expect(d.confidence).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('lifts a reading by a taught picture that the fit gate held, when it reads the same tile surely', async () => {
    const r = await reader(TYPES, TYPES);
    const out = await r.fuse(state, SMALL, [reading('BASE_S', spot.q), reading('BASE_U', spot.q, 0.08)], { readings: 1, fit: 0.4, stricterGate: false }, crop, spot.x, spot.y);
    expect(out.conf).toBeGreaterThanOrEqual(0.95);
    expect(out.modelBest).toBeNull();
  }, 60_000);

  it('leaves a look-alike\'s doubt alone: held to the stricter gate, or doubting between twins, the reading stays as it was', async () => {
    const r = await reader(TYPES, TYPES);
    const held = await r.fuse(state, SMALL, [reading('BASE_S', spot.q), reading('BASE_T', spot.q, 0.045)], { readings: 1, fit: 0.4, stricterGate: true }, crop, spot.x, spot.y);
    expect(held.conf).toBeCloseTo(0.4, 10);
    const twins = await r.fuse(state, SMALL, [reading('BASE_S', spot.q), reading('BASE_T', spot.q, 0.041)], { readings: 0.6, fit: 1, stricterGate: false }, crop, spot.x, spot.y);
    expect(twins.conf).toBeCloseTo(0.6, 10);
    // The fit gate's doubt, with a twin legal there (pictured too): which twin, the model does not tell at this size.
    const twinLegal = await r.fuse(state, SMALL, [reading('BASE_S', spot.q), reading('BASE_U', spot.q, 0.08), reading('BASE_T', spot.q, 0.09)], { readings: 1, fit: 0.4, stricterGate: false }, crop, spot.x, spot.y);
    expect(twinLegal.conf).toBeCloseTo(0.4, 10);
  }, 60_000);

  it('is not asked about a type the table has not taught, nor about a reading by a drawing', async () => {
    const untaught = await reader(TYPES, ['BASE_T', 'BASE_U']);
    const a = await untaught.fuse(state, SMALL, [reading('BASE_S', spot.q)], { readings: 1, fit: 0.4, stricterGate: false }, crop, spot.x, spot.y);
    expect(a).toEqual({ conf: 0.4, modelBest: null });
    const drawn = await reader([], TYPES);
    const b = await drawn.fuse(state, SMALL, [reading('BASE_S', spot.q)], { readings: 1, fit: 0.4, stricterGate: false }, crop, spot.x, spot.y);
    expect(b).toEqual({ conf: 0.4, modelBest: null });
  }, 60_000);

  it('sends a reading with other sides to the table, its own reading offered; a pennant it leaves to the templates', async () => {
    const r = await reader(TYPES, TYPES);
    const road = await r.fuse(state, SMALL, [reading('BASE_U', spot.q), reading('BASE_S', spot.q, 0.05)], { readings: 1, fit: 1, stricterGate: false }, crop, spot.x, spot.y);
    expect(road.conf).toBeLessThan(0.05);
    expect(road.modelBest).toMatchObject({ tile: 'BASE_S', q: spot.q });
    // BASE_T is BASE_S without its pennant: the same sides.
    const pennant = await r.fuse(state, SMALL, [reading('BASE_T', spot.q), reading('BASE_S', spot.q, 0.05)], { readings: 1, fit: 1, stricterGate: false }, crop, spot.x, spot.y);
    expect({ conf: pennant.conf, modelBest: pennant.modelBest }).toEqual({ conf: 1, modelBest: null });
    // The figure heads read a pictured cell too: a figure its picture does not show is asked about (tracker.ts `figureByModelAlone`).
    expect(pennant.modelReading?.meeple).toBeTypeOf('number');
  }, 60_000);
});
