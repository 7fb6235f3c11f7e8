/**
 * The model where the drawings do not describe the table (cell-reader.ts `fuse`, first-edition print
 * on a cell of 55 px): it leads with its own reading; the drawings agreeing add nothing to it; a
 * reading the rules chose for it among tiles it did not see there is offered first but left to the
 * table. Below its 30 px it leads on the print of an edition it was trained on, and on another only on a
 * type the table has answered (its pictures enrolled), its reading without them agreeing. The exemplars of
 * one twin the table has shown do not decide against a legal twin it has not. Where the edges its
 * segment head reads are those of its reading alone among the legal moves, they commit it even where
 * its type head would not. On drawn art (the drawings trusted) agreement still adds up.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../calibration/frame.js';
import type { Homography } from '../../calibration/geometry.js';
import { createGame } from '../../engine/game/engine.js';
import type { GameState } from '../../engine/game/state.js';
import { placementProblem } from '../../engine/game/placement.js';
import { ROTATIONS } from '../../engine/geometry/segments.js';
import { makeSetup } from '../../engine/game/setup.js';
import { TileSupply } from '../../engine/game/tile-supply.js';
import { decodeReading } from '../../models/decode.js';
import { Enrollment, exemplarsFromCrop } from '../../models/enroll.js';
import { FAR_MODEL, TileRecognizer } from '../../models/runner.js';
import { decodeWithSecondLook } from '../../models/second-look.js';
import { printFacesByTile } from '../../models/synth/print-faces.js';
import { CellReader } from '../../models/track/cell-reader.js';
import { FigureReader } from '../../models/track/figures.js';
import type { Reading } from '../../models/track/reading.js';
import { TileTemplates } from '../../models/track/templates.js';
import { cellPicture } from './helpers/cell-picture.js';
import { realFacesByTile } from '../../models/eval/realart.js';

/** 1.2 px per millimetre: a cell of about 55 px, in the model's range. */
const LARGE: Homography = [1.2, 0, 640, 0, 1.2, 480, 0, 0, 1];
/** What the drawings fit on first-edition print (docs/tracking-print.md): not trusted at all. */
const PRINT_ART_FIT = 0.05;
const TILE = 'BASE_S';

let model: TileRecognizer;
let state: GameState;
let spot: { x: number; y: number; q: number };
let crop: Frame;
let templates: TileTemplates;

/** Every legal (tile, turn) at the spot, `first` leading (the reader's template order, here made up). */
function legalReadings(s: GameState, first: string): Reading[] {
  const out: Reading[] = [];
  for (const [id, n] of s.supply) {
    if (n <= 0) continue;
    for (let q = 0; q < 4; q++) {
      if (placementProblem(s, s.catalog.view(id, q), spot.x, spot.y)) continue;
      const d = id === first ? 0.03 : 0.05 + out.length * 1e-4;
      out.push({ tile: id, q, d, match: { d, sx: 0, sy: 0, gain: [1, 1, 1] } });
    }
  }
  return out.sort((a, b) => a.d - b.d);
}

const reader = (artFit: number, enrollment?: Enrollment, farModel: TileRecognizer | null = null) => {
  const r = new CellReader(templates, new FigureReader(templates, []), model, enrollment, farModel);
  r.artFit = artFit;
  return r;
};

beforeAll(async () => {
  model = await TileRecognizer.load();
  const game = createGame(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }] }));
  if (!game.ok) throw new Error(game.reason);
  state = game.value.state;
  templates = await TileTemplates.enroll(state.catalog, 'c3');
  const spots = [[0, -1], [1, 0], [0, 1], [-1, 0]].flatMap(([x, y]) => [0, 1, 2, 3].map((q) => ({ x: x!, y: y!, q })));
  spot = spots.find(({ x, y, q }) => !placementProblem(state, state.catalog.view(TILE, q), x, y))!;
  const face = (await printFacesByTile([TILE])).get(TILE)!;
  const data = await sharp(cellPicture(face, spot.q, 256), { raw: { width: 256, height: 256, channels: 3 } }).resize(model.size, model.size).raw().toBuffer();
  crop = { width: model.size, height: model.size, channels: 3, data: new Uint8Array(data) };
}, 120_000);

/** The model's constrained reading of the crop in `s`, and its confidence. */
async function modelReads(s: GameState, seen: Frame = crop) {
  const prepared = await model.prepare({ pixels: seen.data, width: seen.width, height: seen.height, channels: 3 });
  if (!prepared.ok) throw new Error(prepared.reason);
  const [read] = await model.readPrepared([prepared.value]);
  return { constrained: decodeReading(read!, model.info, s.catalog, { state: s, at: [spot.x, spot.y] }), raw: decodeReading(read!, model.info, s.catalog) };
}

describe('the model where the drawings fail', () => {
  it('reads this first-edition tile as itself, before the rules and with them (what the cases below stand on)', async () => {
    const { constrained, raw } = await modelReads(state);
    expect(raw.best?.tileId).toBe(TILE);
    expect(constrained.best?.tileId).toBe(TILE);
    expect(constrained.confidence).toBeGreaterThan(0.999);
  }, 60_000);

  it('leads with its own reading, sharpened; from 30 px the drawings agreeing add nothing to it', async () => {
    const r = reader(PRINT_ART_FIT);
    expect(r.artTrust()).toBe(0);
    const { constrained } = await modelReads(state);
    const wrongFirst = legalReadings(state, 'BASE_U');
    const led = await r.fuse(state, LARGE, wrongFirst, { readings: 1, fit: 0, stricterGate: false }, crop, spot.x, spot.y);
    expect(led.leads).toBe(true);
    expect(led.modelBest).toMatchObject({ tile: TILE, q: spot.q });
    expect(led.conf).toBeCloseTo(constrained.confidence ** 20, 10);
    expect(led.conf).toBeGreaterThan(0.9);
    const agreeing = await r.fuse(state, LARGE, legalReadings(state, TILE), { readings: 1, fit: 0, stricterGate: false }, crop, spot.x, spot.y);
    expect(agreeing.modelBest).toBeNull();
    expect(agreeing.conf).toBeCloseTo(led.conf, 10);
  }, 60_000);

  it('offers first, but leaves to the table, a reading the rules chose among tiles it did not see there', async () => {
    // The tile and its pennant-less twin are gone from the supply: whatever is legal there, the model saw another tile.
    const supply = new TileSupply();
    for (const [id, n] of state.supply) supply.set(id, id === TILE || id === 'BASE_T' ? 0 : n);
    const s: GameState = { ...state, supply };
    const { constrained, raw } = await modelReads(s);
    expect(raw.best?.tileId).toBe(TILE);
    expect(constrained.best?.tileId).not.toBe(TILE);
    const r = reader(PRINT_ART_FIT);
    const out = await r.fuse(s, LARGE, legalReadings(s, 'BASE_U'), { readings: 1, fit: 0, stricterGate: false }, crop, spot.x, spot.y);
    expect(out.leads).toBe(true);
    expect(out.modelBest?.tile).toBe(constrained.best!.tileId);
    expect(out.conf).toBe(0);
  }, 60_000);

  it('below its 30 px orders what the table is offered where the drawings fail; it leads only on a print it was trained on', async () => {
    // The same tile seen at 0.58 px/mm (a 640×480 camera: a 26 px cell), cut and scaled up as the tracker's model crop is.
    const small: Homography = [0.58, 0, 320, 0, 0.58, 240, 0, 0, 1];
    const face = (await printFacesByTile([TILE])).get(TILE)!;
    const seen = await sharp(cellPicture(face, spot.q, 256), { raw: { width: 256, height: 256, channels: 3 } }).resize(32, 32).raw().toBuffer();
    const up = await sharp(seen, { raw: { width: 32, height: 32, channels: 3 } }).resize(model.size, model.size).raw().toBuffer();
    const smallCrop: Frame = { width: model.size, height: model.size, channels: 3, data: new Uint8Array(up) };
    expect(model.info.printEditions, 'the committed model was trained on first-edition print').toEqual(['C1']);
    // A game of the second edition: this print is not one the model learnt, so its reading only orders the offer.
    expect(state.setup.tileSet.edition).toBe('C2');
    const readings = legalReadings(state, 'BASE_U');
    const out = await reader(PRINT_ART_FIT).fuse(state, small, readings, { readings: 0.8, fit: 0, stricterGate: false }, smallCrop, spot.x, spot.y);
    expect(out.offer?.[0]).toMatchObject({ tile: TILE, q: spot.q });
    expect(out.offer!.length).toBeLessThanOrEqual(3);
    expect(out.modelBest).toBeNull();
    expect(out.conf).toBe(0);
    // The far camera's model, there for its kind head (Inns & Cathedrals), reads no tile of a print it did not learn.
    const far = await TileRecognizer.load(FAR_MODEL, 1);
    expect(far.info.printEditions).not.toContain('C2');
    const withFar = await reader(PRINT_ART_FIT, undefined, far).fuse(state, small, readings, { readings: 0.8, fit: 0, stricterGate: false }, smallCrop, spot.x, spot.y);
    expect(withFar.offer).toEqual(out.offer);
    expect(withFar.modelBest).toBeNull();
    expect(withFar.conf).toBe(0);
    // A first-edition game: the model leads with its reading, sharpened more than on a large cell.
    const c1 = createGame(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }], tileSet: { edition: 'C1' } }));
    if (!c1.ok) throw new Error(c1.reason);
    const s1 = c1.value.state;
    const { constrained } = await modelReads(s1, smallCrop);
    expect(constrained.best?.tileId).toBe(TILE);
    const led = await reader(PRINT_ART_FIT).fuse(s1, small, legalReadings(s1, 'BASE_U'), { readings: 0.8, fit: 0, stricterGate: false }, smallCrop, spot.x, spot.y);
    expect(led.leads).toBe(true);
    expect(led.modelBest).toMatchObject({ tile: TILE, q: spot.q });
    expect(led.offer?.[0]).toMatchObject({ tile: TILE, q: spot.q });
    expect(led.conf).toBeCloseTo(constrained.confidence ** 40, 10);
    // On the print it learnt it reads without the table's answers below 30 px: answers of another type
    // that lift it there (this very crop enrolled as BASE_C, the drawings' best) do not carry the reading.
    const answers = new Enrollment();
    const asC = await exemplarsFromCrop(model, { pixels: smallCrop.data, width: smallCrop.width, height: smallCrop.height, channels: 3 }, 'BASE_C', ROTATIONS[spot.q]!);
    if (!asC.ok) throw new Error(asC.reason);
    answers.add(...asC.value);
    const prep = await model.prepare({ pixels: smallCrop.data, width: smallCrop.width, height: smallCrop.height, channels: 3 });
    if (!prep.ok) throw new Error(prep.reason);
    const [seen1] = await model.readPrepared([prep.value]);
    expect(decodeReading(seen1!, model.info, s1.catalog, { state: s1, at: [spot.x, spot.y] }, { enrollment: answers }).best?.tileId).toBe('BASE_C');
    const cFirst = legalReadings(s1, 'BASE_C');
    expect(cFirst[0]!.tile, 'BASE_C is legal there').toBe('BASE_C');
    const notCarried = await reader(PRINT_ART_FIT, answers).fuse(s1, small, cFirst, { readings: 0.8, fit: 0, stricterGate: false }, smallCrop, spot.x, spot.y);
    expect(notCarried.leads).toBe(true);
    expect(notCarried.modelBest).toMatchObject({ tile: TILE, q: spot.q });
    expect(notCarried.conf).toBeCloseTo(led.conf, 10);
    // Below 30 px the drawings agreeing ease the power to a quarter (the 10th).
    const agreeing = await reader(PRINT_ART_FIT).fuse(s1, small, legalReadings(s1, TILE), { readings: 0.8, fit: 0, stricterGate: false }, smallCrop, spot.x, spot.y);
    expect(agreeing.modelBest).toBeNull();
    expect(agreeing.conf).toBeCloseTo(constrained.confidence ** 10, 10);
    // With the far camera's model (trained on such cells, a print it learnt) it is that model that
    // reads and leads, sharpened to the 5th power (its sureness measured on a copy of the print it never
    // saw), not the 40th the default model needs there.
    expect(far.info.printEditions).toContain('C1');
    const farPrep = await far.prepare({ pixels: smallCrop.data, width: smallCrop.width, height: smallCrop.height, channels: 3 });
    if (!farPrep.ok) throw new Error(farPrep.reason);
    const [farFirst] = await far.readPrepared([farPrep.value]);
    const farSaid = await decodeWithSecondLook(far, farPrep.value, farFirst!, (r) => decodeReading(r, far.info, s1.catalog, { state: s1, at: [spot.x, spot.y] }));
    expect(farSaid.decoded.best?.tileId).toBe(TILE);
    const farLed = await reader(PRINT_ART_FIT, undefined, far).fuse(s1, small, legalReadings(s1, 'BASE_U'), { readings: 0.8, fit: 0, stricterGate: false }, smallCrop, spot.x, spot.y);
    expect(farLed.leads).toBe(true);
    expect(farLed.modelBest).toMatchObject({ tile: TILE, q: spot.q });
    expect(farLed.conf).toBeCloseTo(farSaid.decoded.confidence ** 5, 10);
    expect(Math.abs(farLed.conf - farSaid.decoded.confidence ** 40), 'the 5th and 40th powers differ here').toBeGreaterThan(1e-6);
    // Where the drawings are the table's art, the templates' order stands, whatever the edition.
    for (const s of [state, s1]) {
      const trusted = await reader(Infinity).fuse(s, small, legalReadings(s, 'BASE_U'), { readings: 0.8, fit: 0.5, stricterGate: false }, smallCrop, spot.x, spot.y);
      expect(trusted.offer).toBeUndefined();
      expect(trusted.modelBest).toBeNull();
      expect(trusted.conf).toBeCloseTo(0.4, 10);
    }
  }, 60_000);

  it('below its 30 px on a print it did not learn, leads on a type the table has answered, its reading without the answers agreeing, no twin unanswered', async () => {
    const small: Homography = [0.58, 0, 320, 0, 0.58, 240, 0, 0, 1];
    const smallFrame = async (tile: string): Promise<Frame> => {
      const face = (await printFacesByTile([tile])).get(tile)!;
      const seen = await sharp(cellPicture(face, spot.q, 256), { raw: { width: 256, height: 256, channels: 3 } }).resize(32, 32).raw().toBuffer();
      const up = await sharp(seen, { raw: { width: 32, height: 32, channels: 3 } }).resize(model.size, model.size).raw().toBuffer();
      return { width: model.size, height: model.size, channels: 3, data: new Uint8Array(up) };
    };
    const smallCrop = await smallFrame(TILE);
    expect(state.setup.tileSet.edition).toBe('C2');
    // The table answered this very tile earlier (a picture of the same print), and in one case its twin.
    const answer = async (enrollment: Enrollment, tile: string, seen: Frame) => {
      const ex = await exemplarsFromCrop(model, { pixels: seen.data, width: seen.width, height: seen.height, channels: 3 }, tile, ROTATIONS[spot.q]!);
      if (!ex.ok) throw new Error(ex.reason);
      enrollment.add(...ex.value);
    };
    const readings = () => legalReadings(state, 'BASE_U');
    expect(readings().some((r) => r.tile === 'BASE_T'), 'the pennant-less twin is legal there').toBe(true);
    const fuse = (enrollment: Enrollment) => reader(PRINT_ART_FIT, enrollment).fuse(state, small, readings(), { readings: 0.8, fit: 0, stricterGate: false }, smallCrop, spot.x, spot.y);
    const prepared = await model.prepare({ pixels: smallCrop.data, width: smallCrop.width, height: smallCrop.height, channels: 3 });
    if (!prepared.ok) throw new Error(prepared.reason);
    const [read] = await model.readPrepared([prepared.value]);
    const context = { state, at: [spot.x, spot.y] as const };
    const alone = decodeReading(read!, model.info, state.catalog, context);
    expect(alone.best?.tileId).toBe(TILE);

    // Answered, but its twin not: the answers would lift it over the twin whichever lay there.
    const onlyIt = new Enrollment();
    await answer(onlyIt, TILE, smallCrop);
    const twinUnanswered = await fuse(onlyIt);
    expect(twinUnanswered.modelBest).toBeNull();
    expect(twinUnanswered.conf).toBe(0);
    expect(twinUnanswered.offer?.[0]).toMatchObject({ tile: TILE, q: spot.q });

    // Both twins answered: it leads, as sure as the less sure of its readings with and without the answers.
    const both = new Enrollment();
    await answer(both, TILE, smallCrop);
    await answer(both, 'BASE_T', await smallFrame('BASE_T'));
    const withAnswers = decodeReading(read!, model.info, state.catalog, context, { enrollment: both });
    expect(withAnswers.best?.tileId).toBe(TILE);
    const led = await fuse(both);
    expect(led.leads).toBe(true);
    expect(led.modelBest).toMatchObject({ tile: TILE, q: spot.q });
    expect(led.conf).toBeCloseTo(Math.min(withAnswers.confidence, alone.confidence) ** 40, 10);
    expect(led.conf, "sure enough to commit").toBeGreaterThan(0.9);

    // Answers of another type lift it over this one (the crop enrolled as BASE_C, a type with no twin),
    // where the model alone reads this one: it does not lead.
    const misread = new Enrollment();
    await answer(misread, 'BASE_C', smallCrop);
    expect(decodeReading(read!, model.info, state.catalog, context, { enrollment: misread }).best?.tileId).toBe('BASE_C');
    const carried = await fuse(misread);
    expect(carried.modelBest).toBeNull();
    expect(carried.conf).toBe(0);
    // And the type it reads has not been answered: it does not lead either.
    const other = new Enrollment();
    await answer(other, 'BASE_U', smallCrop);
    expect(decodeReading(read!, model.info, state.catalog, context, { enrollment: other }).best?.tileId).toBe(TILE);
    expect((await fuse(other)).conf).toBe(0);
  }, 60_000);

  it('where it leads, does not let the exemplars of one twin decide against a legal twin the table has not shown', async () => {
    // The table answered a BASE_T earlier, and its picture, enrolled, looks like this BASE_S (a
    // pennant of a few pixels apart: at 21–25 px per cell it is this close). BASE_S has no exemplars.
    // The drawings' best is BASE_T, which has: only the twin rule sets the exemplars aside.
    const shown = await exemplarsFromCrop(model, { pixels: crop.data, width: crop.width, height: crop.height, channels: 3 }, 'BASE_T', ROTATIONS[spot.q]!);
    if (!shown.ok) throw new Error(shown.reason);
    const enrollment = new Enrollment();
    enrollment.add(...shown.value);
    const prepared = await model.prepare({ pixels: crop.data, width: crop.width, height: crop.height, channels: 3 });
    if (!prepared.ok) throw new Error(prepared.reason);
    const [read] = await model.readPrepared([prepared.value]);
    // What the rule stands on: with the exemplars the decoder reads the twin the table has shown.
    expect(decodeReading(read!, model.info, state.catalog, { state, at: [spot.x, spot.y] }, { enrollment }).best?.tileId).toBe('BASE_T');
    const readings = legalReadings(state, 'BASE_T');
    expect(readings.some((r) => r.tile === 'BASE_S')).toBe(true);
    const out = await reader(PRINT_ART_FIT, enrollment).fuse(state, LARGE, readings, { readings: 1, fit: 0, stricterGate: false }, crop, spot.x, spot.y);
    expect(out.leads).toBe(true);
    expect(out.modelBest).toMatchObject({ tile: TILE, q: spot.q });
    expect(out.conf).toBeGreaterThan(0.9);
    // Where the drawings are trusted (their best is BASE_T), the exemplars stand with them: no disagreement.
    const trusted = await reader(Infinity, enrollment).fuse(state, LARGE, readings, { readings: 1, fit: 0.5, stricterGate: false }, crop, spot.x, spot.y);
    expect(trusted.modelBest).toBeNull();
    expect(trusted.conf).toBeGreaterThan(0.5);
  }, 60_000);

  it('on a table its drawings describe, agreement still adds up', async () => {
    const r = reader(Infinity);
    const out = await r.fuse(state, LARGE, legalReadings(state, TILE), { readings: 1, fit: 0.5, stricterGate: false }, crop, spot.x, spot.y);
    const { constrained } = await modelReads(state);
    expect(out.conf).toBeCloseTo(1 - 0.5 * (1 - constrained.confidence), 10);
  }, 60_000);
  it('from 30 px, where its type head reads another set\'s tile, the edges commit its reading where they name it alone (a second-edition crossroads, no T junction left)', async () => {
    // A second-edition BASE_X at 55 px beside the start tile: the model reads it, before the rules, as
    // the Tower's crossroads, so its constrained reading is not its own and its type head commits nothing.
    const at = { x: 1, y: 0 };
    const face = (await realFacesByTile(['BASE_X'])).get('BASE_X')!;
    const data = await sharp(cellPicture(face, 0, 256), { raw: { width: 256, height: 256, channels: 3 } }).resize(model.size, model.size).raw().toBuffer();
    const x: Frame = { width: model.size, height: model.size, channels: 3, data: new Uint8Array(data) };
    const prepared = await model.prepare({ pixels: x.data, width: x.width, height: x.height, channels: 3 });
    if (!prepared.ok) throw new Error(prepared.reason);
    const [read] = await model.readPrepared([prepared.value]);
    expect(decodeReading(read!, model.info, state.catalog).best?.tileId, 'the type head alone').not.toBe('BASE_X');
    const legalAt = (s: GameState) => {
      const out: Reading[] = [];
      for (const [id, n] of s.supply) for (let q = 0; q < 4 && n > 0; q++) if (!placementProblem(s, s.catalog.view(id, q), at.x, at.y)) out.push({ tile: id, q, d: 0.05, match: { d: 0.05, sx: 0, sy: 0, gain: [1, 1, 1] } });
      return out;
    };
    const r = reader(PRINT_ART_FIT);
    // The T junction (BASE_W, one road's end from the crossroads) still in the supply: the edges do not
    // tell the two apart surely enough, and nothing is committed.
    const withT = await r.fuse(state, LARGE, legalAt(state), { readings: 1, fit: 0, stricterGate: false }, x, at.x, at.y);
    expect(withT.modelBest?.tile).toBe('BASE_X');
    expect(withT.conf).toBeLessThan(0.9);
    // None left: the crossroads is the one legal move with four roads, and the edges commit it.
    const supply = new TileSupply();
    for (const [id, n] of state.supply) supply.set(id, id === 'BASE_W' ? 0 : n);
    const noT: GameState = { ...state, supply };
    const out = await r.fuse(noT, LARGE, legalAt(noT), { readings: 1, fit: 0, stricterGate: false }, x, at.x, at.y);
    expect(out.leads).toBe(true);
    expect(out.modelBest?.tile).toBe('BASE_X');
    expect(out.conf).toBeGreaterThan(0.9);
  }, 60_000);
});
