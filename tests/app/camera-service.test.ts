/**
 * The camera service with the real tracker, a real SQLite store and the bundled short recording: sure
 * readings go through the rules into the game, unsure ones wait for the table's answer, a rejected
 * one is never committed, and the game reaches the recording's ground truth. The camera stopping
 * mid-game loses nothing and commits nothing; when it comes back, reading goes on.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { parseRecord } from '../../engine/record/schema.js';
import { setupFromRecord } from '../../engine/record/convert.js';
import { splitMjpeg } from '../../models/scene/recording.js';
import { CameraService } from '../../electron/services/camera/camera-service.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { agreed, enterUntilCamera, isCameraMove, manifestWithoutDraws, nextStep, type TableStep } from './helpers/camera-table.js';
import { placements } from '../../electron/services/session/entry.js';
import sharp from 'sharp';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { sameUpToSymmetry } from '../../models/classes.js';
import { decodeReading } from '../../models/decode.js';
import { TileRecognizer } from '../../models/runner.js';
import { TileTemplates } from '../../models/track/templates.js';
import { BOARD_PICTURE_SOURCE, enrollmentFromStore, picturesFromStore } from '../../electron/services/tiles/enrolled.js';
import { ASK_EVERYTHING_SETTING, START_PIECE_CORNERS_SETTING } from '../../electron/services/camera/camera-settings.js';
import { LEARN_PER_TILE } from '../../electron/services/camera/table-art.js';
import { sameMove } from '../../models/track/replay.js';
import { clickedStartPiece } from '../track/helpers/clicked-corners.js';

const DIR = join(import.meta.dirname, '../fixtures/recordings/short-s5');
// The table never types a draw: each tile laid is its draw (helpers/camera-table.ts).
const manifest = manifestWithoutDraws(JSON.parse(readFileSync(join(DIR, 'manifest.json'), 'utf8')) as { commands: Command[]; frames: number; visits: { stillFrom: number; camera: number[] }[] });
const truth = manifest.commands;
const parsed = parseRecord(JSON.parse(readFileSync(join(DIR, 'game.json'), 'utf8')));
if (!parsed.ok) throw new Error(parsed.reason);
const setup = setupFromRecord(parsed.record);
const frames = [...splitMjpeg(new Uint8Array(readFileSync(join(DIR, 'video.mjpeg'))))];

function open(o: { commitAt?: number; file?: string } = {}) {
  const store = Store.open(o.file ?? join(mkdtempSync(join(tmpdir(), 'companion-camera-')), 'c.sqlite'));
  const session = new GameSession(store);
  const camera = new CameraService({ session, store, recording: DIR, ...(o.commitAt !== undefined ? { commitAt: o.commitAt } : {}) });
  return { store, session, camera };
}

/** The first visit's tile: committed, or asked about with the right reading first. */
function firstTileRead(s: ReturnType<typeof open>): boolean {
  const first = truth.find(isCameraMove)!;
  const asked = s.camera.view().proposals[0]?.readings[0]?.command;
  return s.session.currentGame!.commands.some((c) => sameMove(c, first)) || (asked !== undefined && sameMove(asked, first));
}

/** Plays the table until it has nothing to do or must wait for frames; returns what it did. */
async function table(
  s: ReturnType<typeof open>,
  cameraMayRead: () => boolean,
  log: { missed: number; answered: number; rejected: number; wrong: number },
  answer: (step: Extract<TableStep, { do: 'answer' }>) => ReturnType<CameraService['answer']> | Promise<ReturnType<CameraService['answer']>> = (step) => s.camera.answer(step.id, step.answer),
): Promise<'done' | 'wait'> {
  for (;;) {
    await s.camera.settled();
    const game = s.session.currentGame!;
    const view = s.camera.view();
    const step = nextStep(truth, { history: game.commands, open: view.proposals.map((p) => ({ id: p.id, readings: p.readings.map((r) => r.command) })), cameraMayRead: cameraMayRead() });
    switch (step.do) {
      case 'done':
      case 'wait':
        return step.do;
      case 'undo':
        log.wrong++;
        expect(s.session.undo().ok).toBe(true);
        break;
      case 'reject': {
        const before = game.commands.length;
        expect(s.camera.answer(step.id, 'reject').ok).toBe(true);
        // A rejected reading is never committed.
        expect(s.session.currentGame!.commands.length).toBe(before);
        log.rejected++;
        break;
      }
      case 'answer': {
        const r = await answer(step);
        if (!r.ok) throw new Error(r.reason);
        log.answered++;
        break;
      }
      case 'enter': {
        const r = s.session.play(step.command);
        if (!r.ok) throw new Error(`${step.command.type}: ${r.reason}`);
        if (step.missed) log.missed++;
        break;
      }
    }
  }
}

describe('the camera service (tracker → proposals → rules)', () => {
  it('follows short-s5 to its ground truth: sure readings committed through the rules, unsure ones answered by the table', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    // Every history length at which the view said the camera waits for the table.
    const waitedAt = new Set<number>();
    const off = s.camera.onChange(() => {
      if (!s.camera.view().reading) waitedAt.add(s.session.currentGame!.commands.length);
    });
    for (const f of frames) expect(s.camera.frame(f).ok).toBe(true);
    const log = { missed: 0, answered: 0, rejected: 0, wrong: 0 };
    // Every frame is held from the start: when the camera has nothing left to read, what it has not read is missed.
    expect(await table(s, () => s.camera.view().reading && s.camera.view().frames.queued > 0, log)).toBe('done');
    off();
    const game = s.session.currentGame!;
    // A figure read from the frame its tile was read from (or answered from) is the camera's to come:
    // between the tile and it, the table was never told the camera waits for it (it would enter it).
    const figures = (s.store.db.prepare("SELECT payload_json FROM proposals WHERE game_id = ? AND source = 'camera' AND status = 'accepted'").all(s.session.currentGameId!) as { payload_json: string }[])
      .map((r) => JSON.parse(r.payload_json) as { command: Command; at: number })
      .filter((p) => p.command.type === 'placeMeeple');
    expect(figures.length).toBeGreaterThanOrEqual(6);
    expect(figures.filter((p) => waitedAt.has(p.at)).map((p) => p.at)).toEqual([]);
    expect(agreed(truth, game.commands)).toBe(truth.length);
    const replay = Game.replay(setup, truth);
    if (!replay.ok) throw new Error(replay.reason);
    expect(game.state.players.map((p) => p.score)).toEqual(replay.value.state.players.map((p) => p.score));
    const view = s.camera.view();
    const cameraMoves = truth.filter(isCameraMove).length;
    // The headless replay reads 20 of 20 by itself (docs/tracking.md, "Measured"); nothing it commits may be wrong.
    expect(log.wrong).toBe(0);
    expect(view.counts.committed).toBeGreaterThanOrEqual(18);
    expect(view.counts.committed + log.answered + log.missed).toBeGreaterThanOrEqual(cameraMoves);
    expect(view.calibrated).toBe(true);
    expect(view.grid.filter((c) => c.laid)).toHaveLength(game.state.board.tiles.length);
    // Every proposal is kept in the store apart from the log, decided.
    expect(s.camera.desk.open()).toEqual([]);
    await s.camera.close();
    s.store.close();
  }, 120_000);

  it('a camera unplugged mid-game: a clear message, nothing committed, nothing lost; reading goes on when it is back', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    s.camera.use('browser');
    const log = { missed: 0, answered: 0, rejected: 0, wrong: 0 };
    const half = manifest.visits[6]!.stillFrom + 2;
    for (const f of frames.slice(0, half)) s.camera.frame(f);
    const visitEnd = (i: number) => manifest.visits.find((v) => v.camera.includes(i))?.stillFrom ?? Infinity;
    const lastIndex = () => s.camera.view().frames.received - 1;
    const mayRead = () => {
      const v = s.camera.view();
      return v.reading && (v.frames.queued > 0 || lastIndex() < visitEnd(agreed(truth, s.session.currentGame!.commands)) + 1);
    };
    expect(await table(s, mayRead, log)).toBe('wait');
    const before = s.session.currentGame!.commands.length;
    const logBefore = s.store.log(s.session.currentGameId!).length;

    expect(s.camera.report({ state: 'unplugged', reason: 'the video track ended' }).ok).toBe(true);
    const down = s.camera.view();
    expect(down.status).toBe('unplugged');
    expect(down.message).toMatch(/camera stopped \(the video track ended\).*manual entry/);
    expect(s.session.currentGame!.commands.length).toBe(before);
    expect(s.store.log(s.session.currentGameId!).length).toBe(logBefore);
    // A frame taken before the track ended may arrive after the report: it does not bring the camera back.
    s.camera.frame(frames[half - 1]!);
    expect(s.camera.view().status).toBe('unplugged');
    expect(s.camera.view().message).toMatch(/camera stopped/);

    // Back: the frames go on where they stopped; the game ends at the ground truth.
    s.camera.report({ state: 'live' });
    for (const f of frames.slice(half)) s.camera.frame(f);
    expect(s.camera.view().status).toBe('live');
    expect(s.camera.view().message).toBeNull();
    expect(await table(s, () => s.camera.view().reading && s.camera.view().frames.queued > 0, log)).toBe('done');
    expect(agreed(truth, s.session.currentGame!.commands)).toBe(truth.length);
    expect(log.wrong).toBe(0);
    await s.camera.close();
    s.store.close();
  }, 120_000);

  it.each([2, 9])('a still frame of visit %i missed: nothing committed wrongly, at most that visit by hand, the game reaches the ground truth', async (visit) => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    s.camera.use('browser');
    // The visit loses its first still frame: the camera never sees that scene still, and next sees two new tiles at once.
    const gap = manifest.visits[visit]!.stillFrom;
    for (const [i, f] of frames.entries()) if (i !== gap) s.camera.frame(f);
    const log = { missed: 0, answered: 0, rejected: 0, wrong: 0 };
    expect(await table(s, () => s.camera.view().reading && s.camera.view().frames.queued > 0, log)).toBe('done');
    const game = s.session.currentGame!;
    expect(agreed(truth, game.commands)).toBe(truth.length);
    expect(log.wrong).toBe(0);
    // By hand: what the unseen visit showed (a tile, a figure) and the one figure the camera misses anyway.
    expect(log.missed).toBeLessThanOrEqual(3);
    expect(s.camera.view().counts.committed + log.answered).toBeGreaterThanOrEqual(truth.filter(isCameraMove).length - 3);
    await s.camera.close();
    s.store.close();
  }, 120_000);

  it('the table\'s answers teach the camera its art: every picked tile\'s picture is enrolled, kept in the store for later games', async () => {
    // A first game on a new table: the table confirms every reading.
    const file = join(mkdtempSync(join(tmpdir(), 'companion-camera-learn-')), 'c.sqlite');
    const s = open({ commitAt: 1.01, file });
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    for (const f of frames) expect(s.camera.frame(f).ok).toBe(true);
    const log = { missed: 0, answered: 0, rejected: 0, wrong: 0 };
    expect(await table(s, () => s.camera.view().reading && s.camera.view().frames.queued > 0, log)).toBe('done');
    expect(agreed(truth, s.session.currentGame!.commands)).toBe(truth.length);
    expect(s.camera.view().counts.committed).toBe(0);
    const tilesPicked = truth.filter((c): c is Extract<Command, { type: 'placeTile' }> => c.type === 'placeTile' && isCameraMove(c));
    const stored = s.store.exemplars();
    const perTile = new Map<string, number>();
    for (const e of stored) {
      perTile.set(e.tileId, (perTile.get(e.tileId) ?? 0) + 1);
      // Each picture is of a tile the table placed, at the rotation it has in the game, and a real image.
      expect(tilesPicked.some((c) => c.tile === e.tileId && c.rot === e.rot), `${e.tileId} at ${e.rot}°`).toBe(true);
      const meta = await sharp(e.image).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 64]);
    }
    for (const [tile, n] of perTile) expect(n, tile).toBeLessThanOrEqual(LEARN_PER_TILE);
    // Every tile type the table picked is enrolled (up to the limit), none missed.
    const types = new Set(tilesPicked.map((c) => c.tile));
    expect(types.size).toBeGreaterThan(5);
    expect([...perTile.keys()].sort()).toEqual([...types].sort());
    expect(stored.length).toBe([...types].reduce((n, t) => n + Math.min(LEARN_PER_TILE, tilesPicked.filter((c) => c.tile === t).length), 0));
    await s.camera.close();
    s.store.close();

    // Another session on the same file: the pictures are read back into exemplars, and a picture
    // decoded with them (no rules) reads as its own tile.
    const again = Store.open(file);
    const recognizer = await TileRecognizer.load(undefined, 1);
    const { enrollment, problems } = await enrollmentFromStore(again, recognizer);
    expect(problems).toEqual([]);
    expect(enrollment.size).toBe(4 * stored.length);
    const catalog = TileCatalog.classic();
    for (const e of again.exemplars().slice(0, 4)) {
      const reading = await recognizer.readOne(new Uint8Array(e.image));
      const best = decodeReading(reading, recognizer.info, catalog, null, { enrollment }).best!;
      expect(best.tileId, e.tileId).toBe(e.tileId);
      expect(sameUpToSymmetry(catalog.get(e.tileId)!, best.rot / 90, e.rot / 90), `${e.tileId} read at ${best.rot}°`).toBe(true);
    }
    again.close();
  }, 180_000);

  it('a tile the table names itself (read from a photo) answers a tile reading: laid at the reading\'s cell as the table turned it, its picture enrolled; a turn that does not fit, an unknown tile or a figure reading are refused and the reading stays open', async () => {
    const s = open({ commitAt: 1.01 });
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    for (const f of frames) expect(s.camera.frame(f).ok).toBe(true);
    const log = { missed: 0, answered: 0, rejected: 0, wrong: 0 };
    let named: Command | null = null;
    const name = async (step: Extract<TableStep, { do: 'answer' }>) => {
      const right = step.command;
      if (named || right.type !== 'placeTile') return s.camera.answer(step.id, step.answer);
      const game = s.session.currentGame!;
      const before = game.commands.length;
      const fits = (tile: string, rot: number) => placements(game, tile, 'land').cells.some((c) => c.x === right.at[0] && c.y === right.at[1] && c.turns.some((t) => t.rot === rot));
      const turns = [...game.state.supply].filter(([, n]) => n > 0).flatMap(([tile]) => [0, 90, 180, 270].map((rot) => ({ tile, rot: rot as 0 | 90 | 180 | 270 })));
      // The camera's readings made wrong (a tile question none of whose three readings is right: what
      // a photo is for), at the same cell.
      const wrong = turns.filter((t) => t.tile !== right.tile && fits(t.tile, t.rot)).slice(0, 3).map((t) => ({ ...right, tile: t.tile, rot: t.rot }));
      expect(wrong).toHaveLength(3);
      expect(s.camera.answer(step.id, 'reject').ok).toBe(true);
      const id = s.store.addProposal(s.session.currentGameId!, 'camera', { command: wrong[0], confidence: 0.4, alternatives: wrong.slice(1), why: 'not sure', at: before });
      const stillOpen = () => s.camera.view().proposals.some((p) => p.id === id);
      expect(s.camera.view().proposals.find((p) => p.id === id)?.readings.map((r) => r.command)).toEqual(wrong);
      // A tile and turn the rules do not allow at the cell: refused, in the engine's words.
      // A photo answering it is read among the types that fit the cell in some turn.
      const fitting = s.camera.typesFittingQuestion(id);
      expect(fitting.ok && [...fitting.value].sort()).toEqual([...new Set(turns.filter((t) => fits(t.tile, t.rot)).map((t) => t.tile))].sort());
      expect(fitting.ok && fitting.value.has(right.tile)).toBe(true);
      expect(fitting.ok && fitting.value.size).toBeLessThan(new Set(turns.map((t) => t.tile)).size);
      const misfit = turns.find((t) => !fits(t.tile, t.rot))!;
      expect(misfit).toBeDefined();
      const refused = s.camera.answer(id, misfit);
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.reason).toMatch(new RegExp(`^the rules refuse proposal ${id}: `));
      const spot = s.camera.answer(id, { figure: 'normal', on: 'N1' });
      expect(spot.ok ? null : spot.reason).toBe(`camera reading ${id} is about a tile, not a figure: only a figure reading is answered with a figure`);
      const unknown = s.camera.answer(id, { tile: 'NO_SUCH_TILE', rot: 0 });
      expect(unknown.ok ? null : unknown.reason).toBe('NO_SUCH_TILE is not a tile of this game');
      expect(game.commands.length).toBe(before);
      expect(s.session.currentGame!.commands.length).toBe(before);
      expect(stillOpen()).toBe(true);
      // The camera's picture of the cell puts the tile laid there first among the types ("Another
      // tile…"), and its turn as laid first (its edges: the segment head).
      const types = await s.camera.typesSeen(id);
      if (!types.ok) throw new Error(types.reason);
      expect(types.value[0]).toBe(right.tile);
      expect(new Set(types.value).size).toBe(types.value.length);
      const seen = await s.camera.turnsSeen(id, right.tile);
      if (!seen.ok) throw new Error(seen.reason);
      const edges = (rot: number) => game.state.catalog.view(right.tile, rot / 90).terrain.join();
      expect(edges(seen.value[0]!.rot)).toBe(edges(right.rot));
      expect(seen.value.filter((t) => edges(t.rot) === edges(right.rot)).reduce((sum, t) => sum + t.p, 0)).toBeGreaterThan(0.9);
      expect(seen.value.map((t) => t.rot).sort()).toEqual(placements(game, right.tile, 'land').cells.find((c) => c.x === right.at[0] && c.y === right.at[1])!.turns.map((t) => t.rot).sort());
      const nowhere = [...new Set(turns.map((t) => t.tile))].find((tile) => ![0, 90, 180, 270].some((rot) => fits(tile, rot)))!;
      expect(await s.camera.turnsSeen(id, nowhere)).toEqual({ ok: false, reason: `${nowhere} cannot lie at the cell of camera reading ${id}` });
      // The table's tile and turn, at the reading's cell, for the player whose turn it is.
      const r = s.camera.answer(id, { tile: right.tile, rot: right.rot });
      expect(r.ok).toBe(true);
      expect(s.session.currentGame!.commands.at(-1)).toEqual(right);
      expect(stillOpen()).toBe(false);
      expect(s.camera.typesFittingQuestion(id)).toEqual({ ok: false, reason: `camera reading ${id} is not open (answered already, or withdrawn when the game moved on)` });
      named = right;
      return r;
    };
    expect(await table(s, () => s.camera.view().reading && s.camera.view().frames.queued > 0, log, name)).toBe('done');
    expect(named).not.toBeNull();
    expect(agreed(truth, s.session.currentGame!.commands)).toBe(truth.length);
    // The camera's picture of the named tile is enrolled as that tile, turned as the table laid it
    // (the game lays no other tile of that type so turned: the picture is this answer's).
    const t = named as unknown as Extract<Command, { type: 'placeTile' }>;
    expect(truth.filter((c) => c.type === 'placeTile' && c.tile === t.tile && c.rot === t.rot)).toHaveLength(1);
    expect(s.store.exemplars().some((e) => e.tileId === t.tile && e.rot === t.rot)).toBe(true);

    // A figure reading is not answered with a tile.
    const figure = s.store.addProposal(s.session.currentGameId!, 'camera', { command: { type: 'placeMeeple', player: 0, kind: 'meeple', on: 'N1' }, confidence: 0.5, alternatives: [] });
    const r = s.camera.answer(figure, { tile: t.tile, rot: 0 });
    expect(r.ok ? null : r.reason).toBe(`camera reading ${figure} is about a figure, not a tile: only a tile reading is answered with a tile`);
    expect(s.camera.view().proposals.some((p) => p.id === figure)).toBe(true);
    expect(s.camera.typesFittingQuestion(figure)).toEqual({ ok: false, reason: `camera reading ${figure} is not about a tile` });
    expect(await s.camera.typesSeen(figure)).toEqual({ ok: false, reason: `camera reading ${figure} is not about a tile` });
    expect(s.camera.answer(figure, 'reject').ok).toBe(true);
    await s.camera.close();
    s.store.close();
  }, 180_000);

  it('the final board teaches the camera the table\'s art: a copy of each type is pictured (figures left out), and the next game\'s templates are those pictures', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-camera-board-')), 'c.sqlite');
    const s = open({ file });
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.use('browser').ok).toBe(true);
    for (const f of frames) expect(s.camera.frame(f).ok).toBe(true);
    const log = { missed: 0, answered: 0, rejected: 0, wrong: 0 };
    expect(await table(s, () => s.camera.view().reading && s.camera.view().frames.queued > 0, log)).toBe('done');
    expect(s.store.exemplars().filter((e) => e.source === BOARD_PICTURE_SOURCE)).toEqual([]);
    // What a finished game does by itself (the sync after its last command): the board is pictured.
    const n = await s.camera.pictureBoard();
    const game = s.session.currentGame!;
    const board = s.store.exemplars().filter((e) => e.source === BOARD_PICTURE_SOURCE);
    const floored = (t: { x: number; y: number }) => [...game.state.towers.values()].some((w) => w.x === t.x && w.y === t.y && w.height > 0);
    const figuresOn = (t: { x: number; y: number }) => game.state.meeples.filter((m) => m.x === t.x && m.y === t.y).length;
    const candidates = game.state.board.tiles.filter((t) => !floored(t));
    expect(board.map((e) => e.tileId).sort()).toEqual([...new Set(candidates.map((t) => t.view.tile.id))].sort());
    expect(n).toBe(board.length);
    expect(n).toBeGreaterThan(5);
    let withFigure = 0;
    for (const e of board) {
      // At the rotation of a copy in the game with the fewest figures on it; a real cell picture whose
      // transparent pixels are where figures stood.
      const fewest = Math.min(...candidates.filter((t) => t.view.tile.id === e.tileId).map(figuresOn));
      expect(candidates.some((t) => t.view.tile.id === e.tileId && t.view.rot === e.rot && figuresOn(t) === fewest), `${e.tileId} at ${e.rot}°`).toBe(true);
      const { data, info } = await sharp(e.image).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([64, 64, 4]);
      let hidden = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] === 0) hidden++;
      if (fewest === 0) expect(hidden, `${e.tileId}: a bare copy`).toBe(0);
      else {
        withFigure++;
        // A figure's place: a disc of a quarter tile radius, inside the picture.
        expect(hidden, e.tileId).toBeGreaterThan(200);
        expect(hidden, e.tileId).toBeLessThan(fewest * 700);
      }
    }
    expect(withFigure).toBeGreaterThan(0);
    // Once per type: asked again, nothing new.
    expect(await s.camera.pictureBoard()).toBe(0);
    await s.camera.close();
    s.store.close();

    // The next session reads them back as templates; a stored board picture that is not a square
    // cell picture is named and left out, and pictures the table picked mid-game are no templates.
    const again = Store.open(file);
    again.addExemplar({ tileId: 'BASE_D', rot: 0, source: BOARD_PICTURE_SOURCE, image: await sharp({ create: { width: 64, height: 60, channels: 3, background: '#808080' } }).png().toBuffer(), mime: 'image/png' });
    again.addExemplar({ tileId: 'BASE_E', rot: 0, source: 'camera: the table picked it', image: board[0]!.image, mime: 'image/png' });
    const { pictures, problems } = await picturesFromStore(again);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/BASE_D.*64×60 px is not a square cell picture/);
    expect(pictures.map((p) => [p.tileId, p.rot, p.width, p.height, p.data.length])).toEqual(board.map((e) => [e.tileId, e.rot, 64, 64, 64 * 64 * 3]));
    expect(pictures.filter((p) => p.alpha!.some((a) => a === 0)).length).toBe(withFigure);
    const templates = await TileTemplates.enroll(defaultCatalog(), 'c3');
    for (const p of pictures) expect(templates.usePicture(p)).toBe(true);
    for (const e of board) expect(templates.fromPicture(e.tileId), e.tileId).toBe(true);
    if (!board.some((e) => e.tileId === 'BASE_E')) expect(templates.fromPicture('BASE_E')).toBe(false);
    again.close();
  }, 180_000);

  it('the table can have the board pictured between turns: the view counts the pictured types, the rest of the game reads by them, and the final board adds only the new ones', async () => {
    const s = open();
    expect(s.camera.pictureBoardNow()).toEqual({ ok: false, reason: 'the board cannot be pictured now: no game is being played' });
    expect(s.session.newGame(setup).ok).toBe(true);
    expect(s.camera.pictureBoardNow().ok).toBe(false);
    expect(s.camera.view().art.pictureNow).toBe('the camera is not reading this game yet');
    expect(s.camera.use('browser').ok).toBe(true);
    const log = { missed: 0, answered: 0, rejected: 0, wrong: 0 };
    // Seven visits in: the table waits for the next tile's frames, between turns.
    const half = manifest.visits[7]!.stillFrom;
    for (const f of frames.slice(0, half)) expect(s.camera.frame(f).ok).toBe(true);
    // (The camera may read the next tile once its frames come.)
    const seenYet = () => (s.camera.view().reading && s.camera.view().frames.queued > 0) || s.session.currentGame!.commands.length >= manifest.visits[7]!.camera[0]!;
    expect(await table(s, seenYet, log)).toBe('wait');
    const game = s.session.currentGame!;
    expect(game.commands).toEqual(truth.slice(0, manifest.visits[7]!.camera[0]!));
    expect(game.state.turn.step).toBe('tile');
    const onBoard = new Set(game.state.board.tiles.map((t) => t.view.tile.id));
    let v = s.camera.view();
    expect(v.art.pictured).toBe(0);
    expect(v.art.types).toBeGreaterThan(onBoard.size);
    expect(v.art.pictureNow).toBeNull();

    expect(s.camera.pictureBoardNow().ok).toBe(true);
    // One at a time: a second ask while the first is stored is refused, not doubled.
    expect(s.camera.pictureBoardNow()).toEqual({ ok: false, reason: 'the board cannot be pictured now: the board is being pictured' });
    await s.camera.settled();
    const stored = s.store.exemplars().filter((e) => e.source === BOARD_PICTURE_SOURCE);
    expect(new Set(stored.map((e) => e.tileId))).toEqual(onBoard);
    v = s.camera.view();
    expect(v.art.pictured).toBe(onBoard.size);
    expect(v.notices[0]!.text).toBe(`pictured ${onBoard.size} tile types from the board: the camera reads them by this table's art from now on`);
    expect(v.art.pictureNow).toBe('every tile type on the board is pictured already');
    expect(s.camera.pictureBoardNow().ok).toBe(false);
    // Mid-turn (the table laid the next tile itself; its figure is not placed yet), never.
    expect(s.session.play(truth[game.commands.length]!).ok).toBe(true);
    await s.camera.settled();
    expect(s.camera.view().art.pictureNow).toBe('wait until this turn is over (its figure placed or passed, its points scored)');
    // The table ends that turn by hand too. The camera's last still frame is older than that tile, so
    // the tile (a type not on the board before) is not pictured: its cell there is the bare table.
    const laid = truth[game.commands.length - 1]!;
    expect(laid).toMatchObject({ type: 'placeTile', tile: 'TOWER_RRG' });
    expect(onBoard.has('TOWER_RRG')).toBe(false);
    while (game.state.turn.step !== 'tile') expect(s.session.play(truth[game.commands.length]!).ok).toBe(true);
    await s.camera.settled();
    expect(s.camera.view().art.pictureNow).toBeNull();
    expect(s.camera.pictureBoardNow().ok).toBe(true);
    await s.camera.settled();
    expect(s.store.exemplars().filter((e) => e.source === BOARD_PICTURE_SOURCE).map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(s.camera.view().notices[0]).toMatchObject({ error: true, text: 'no tile on the board could be pictured: the camera has no still picture of it yet' });

    // The rest of the game: the camera still reads it to the ground truth; at its end only the
    // types first laid after the picture are added (a copy under a tower floor is not pictured).
    for (const f of frames.slice(half)) expect(s.camera.frame(f).ok).toBe(true);
    expect(await table(s, () => s.camera.view().reading && s.camera.view().frames.queued > 0, log)).toBe('done');
    expect(s.session.currentGame!.commands).toEqual(truth);
    expect(log.wrong).toBe(0);
    await s.camera.settled();
    // (The recording stops before the tiles run out; a finished game would do this by itself.)
    const end = s.session.currentGame!.state;
    const floored = (t: { x: number; y: number }) => [...end.towers.values()].some((w) => w.x === t.x && w.y === t.y && w.height > 0);
    const final = end.board.tiles.filter((t) => !floored(t) || onBoard.has(t.view.tile.id)).map((t) => t.view.tile.id);
    expect(await s.camera.pictureBoard()).toBe(new Set(final).size - onBoard.size);
    const after = s.store.exemplars().filter((e) => e.source === BOARD_PICTURE_SOURCE);
    expect(after.map((e) => e.tileId).sort()).toEqual([...new Set(final)].sort());
    expect(after.slice(0, stored.length).map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(s.camera.view().art.pictured).toBe(new Set(final).size);
    await s.camera.close();
    s.store.close();
  }, 180_000);

  it("the start piece's clicked corners are kept in the store: the next session reads the table on them, without markers, until the table goes back to the sheet", async () => {
    // The tournament tile's corners in this recording's picture (measured under the marker plane, each
    // a pixel or less off, as a click is).
    const corners: [number, number][] = [[231.7, 194.9], [362.2, 195.1], [363.7, 283.3], [230.8, 284.3]];
    const file = join(mkdtempSync(join(tmpdir(), 'companion-camera-corners-')), 'c.sqlite');
    const first = open({ file });
    expect(first.camera.view().startPieceCorners).toBe(null);
    const set = first.camera.startPieceCorners(corners);
    expect(set.ok && set.value.startPieceCorners).toEqual(corners);
    await first.camera.close();
    first.store.close();

    const second = open({ file });
    expect(second.camera.view().startPieceCorners).toEqual(corners);
    expect(second.session.newGame(setup).ok).toBe(true);
    second.camera.use('browser');
    for (const f of frames.slice(0, manifest.visits[0]!.stillFrom + 2)) second.camera.frame(f);
    await second.camera.settled();
    expect(second.camera.view().calibratedFrom).toBe('start piece corners');
    // The first visit read on the clicked grid and committed by the camera (the tile laid is its
    // draw), as the ground truth has it.
    const played = second.session.currentGame!.commands;
    expect(second.camera.view().counts.committed).toBe(played.length);
    expect(played.length).toBeGreaterThanOrEqual(1);
    played.forEach((c, i) => expect(sameMove(c, truth[i]!), `command ${i}`).toBe(true));
    // Back to the marker sheet: kept too.
    const back = second.camera.startPieceCorners(null);
    expect(back.ok && back.value.startPieceCorners).toBe(null);
    await second.camera.close();
    second.store.close();
    const third = open({ file });
    expect(third.camera.view().startPieceCorners).toBe(null);
    // A stored value that makes no quadrilateral is not used, and the camera says so.
    third.store.saveSetting(START_PIECE_CORNERS_SETTING, [[0, 0], [10, 0], [20, 0], [30, 0]]);
    await third.camera.close();
    third.store.close();
    const fourth = open({ file });
    expect(fourth.camera.view().startPieceCorners).toBe(null);
    expect(fourth.camera.view().notices[0]).toMatchObject({ error: true, text: expect.stringMatching(/stored start piece's corners are not usable \(.*convex quadrilateral/) });
    await fourth.camera.close();
    fourth.store.close();
  }, 60_000);

  it('"ask about every tile" is kept in the store: a later session on the same file starts with the table\'s choice, and acts on it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'companion-camera-ask-')), 'c.sqlite');
    const first = open({ file });
    expect(first.camera.view().askEverything).toBe(false);
    expect(first.camera.askEverything(true).askEverything).toBe(true);
    await first.camera.close();
    first.store.close();

    // The next session: ticked from the start, so the camera asks about its first reading, sure as it is.
    const second = open({ file });
    expect(second.camera.view().askEverything).toBe(true);
    expect(second.session.newGame(setup).ok).toBe(true);
    second.camera.use('browser');
    for (const f of frames.slice(0, manifest.visits[0]!.stillFrom + 2)) second.camera.frame(f);
    await second.camera.settled();
    const v = second.camera.view();
    expect(v.proposals.map((p) => p.readings[0]!.command)).toEqual([truth[0]]);
    expect(v.proposals[0]!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(v.counts).toEqual({ committed: 0, asked: 1 });
    expect(v.art.pictureNow).toBe('answer the camera’s question first');
    // Unticked again: the session after that starts unticked.
    expect(second.camera.askEverything(false).askEverything).toBe(false);
    await second.camera.close();
    second.store.close();
    const third = open({ file });
    expect(third.camera.view().askEverything).toBe(false);
    // A stored value that is not yes or no is not guessed at: unticked, and the camera says so.
    third.store.saveSetting(ASK_EVERYTHING_SETTING, 'yes');
    await third.camera.close();
    third.store.close();
    const fourth = open({ file });
    expect(fourth.camera.view().askEverything).toBe(false);
    expect(fourth.camera.view().notices[0]).toMatchObject({ error: true, text: expect.stringMatching(/ask about every tile.*not yes or no \("yes"\)/) });
    await fourth.camera.close();
    fourth.store.close();
  }, 60_000);

  it('finds the start piece when asked: on a held frame when the newest shows a hand, offered until the table takes it; not found, says why', async () => {
    const s = open();
    const noGame = s.camera.findStartPiece();
    expect(!noGame.ok && noGame.reason).toMatch(/set up a game first/);
    expect(s.session.newGame(setup).ok).toBe(true);
    s.camera.use('browser');
    const noPicture = s.camera.findStartPiece();
    expect(!noPicture.ok && noPicture.reason).toMatch(/no picture from the camera yet/);
    const hand = frames[(manifest as unknown as { visits: { handFrom: number }[] }).visits[0]!.handFrom + 1]!;
    // A hand over the start piece in the only picture: not found, and why.
    s.camera.frame(hand);
    expect(s.camera.findStartPiece().ok).toBe(true);
    await s.camera.settled();
    expect(s.camera.view().startPieceFound).toBe(null);
    expect(s.camera.view().notices[0]!.text).toMatch(/the start piece was not found on the camera's pictures \(no start piece \(137×91 mm\) found in .*\): click its corners/);
    // The table as set up among the held frames, a hand in the newest.
    s.camera.frame(frames[0]!);
    s.camera.frame(hand);
    expect(s.camera.findStartPiece().ok).toBe(true);
    await s.camera.settled();
    const found = s.camera.view().startPieceFound;
    if (!found || found === 'looking') throw new Error('not found');
    expect(found.sure).toBe(true);
    expect(s.camera.view().startPieceCorners).toBe(null);
    expect(s.camera.startPieceCorners(found.corners).ok).toBe(true);
    expect(s.camera.view().startPieceFound).toBe(null);
    expect(s.camera.view().startPieceCorners).toEqual(found.corners);
    await s.camera.close();
    s.store.close();
  }, 60_000);

  it('with no marker sheet in view: says so, offers the start piece it found by itself, and reads on its corners once the table takes them', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    s.camera.use('browser');
    // The picture cut to the board's middle: none of the sheet's four markers is in it.
    const [left, top] = [140, 100];
    const cut = async (b: Uint8Array) => new Uint8Array(await sharp(b).extract({ left, top, width: 360, height: 276 }).jpeg({ quality: 90 }).toBuffer());
    const shown = await Promise.all(frames.slice(0, manifest.visits[0]!.stillFrom + 2).map(cut));
    enterUntilCamera(truth, (c) => s.session.play(c));
    for (const f of shown.slice(0, 3)) s.camera.frame(f);
    await s.camera.settled();
    const v = s.camera.view();
    expect(v.notices.map((n) => n.text).join('\n')).toMatch(/cannot calibrate/);
    const found = v.startPieceFound;
    if (!found || found === 'looking') throw new Error(`nothing offered: ${v.notices.map((n) => n.text).join('; ')}`);
    const clicks = await clickedStartPiece(DIR);
    found.corners.forEach(([x, y], i) => expect(Math.hypot(x + left - clicks[i]![0], y + top - clicks[i]![1]), `corner ${i}`).toBeLessThan(5));
    // Offered, not used: nothing is read before the table takes it.
    expect(v.calibrated).toBe(false);
    expect(s.session.currentGame!.commands.filter(isCameraMove)).toEqual([]);
    expect(s.camera.startPieceCorners(found.corners).ok).toBe(true);
    for (const f of shown) s.camera.frame(f);
    await s.camera.settled();
    const after = s.camera.view();
    expect(after.calibratedFrom).toBe('start piece corners');
    expect(firstTileRead(s)).toBe(true);
    await s.camera.close();
    s.store.close();
  }, 60_000);

  it('corners given while the tracker loads: it is made again for them, and reads the frames already held', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    s.camera.use('browser');
    enterUntilCamera(truth, (c) => s.session.play(c));
    // The first visit's frames, and nothing after them (a recording that has ended, a camera that
    // sends no more): the first frame starts the tracker loading, and the corners come meanwhile.
    for (const f of frames.slice(0, manifest.visits[0]!.stillFrom + 2)) s.camera.frame(f);
    expect(s.camera.startPieceCorners(await clickedStartPiece(DIR)).ok).toBe(true);
    await s.camera.settled();
    const v = s.camera.view();
    expect(v.calibratedFrom).toBe('start piece corners');
    expect(firstTileRead(s)).toBe(true);
    await s.camera.close();
    s.store.close();
  }, 60_000);

  it('an outline offered unasked goes once the marker sheet is seen after all', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    s.camera.use('browser');
    // The first still scene with the sheet's four markers covered (hands, a stray sheet of paper).
    const cover = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480" fill="#7a5230">
      <rect x="25" y="0" width="130" height="115"/><rect x="495" y="0" width="115" height="115"/>
      <rect x="30" y="365" width="125" height="115"/><rect x="490" y="360" width="115" height="120"/></svg>`);
    const covered = await Promise.all(frames.slice(0, 3).map(async (b) => new Uint8Array(await sharp(b).composite([{ input: cover }]).jpeg({ quality: 90 }).toBuffer())));
    enterUntilCamera(truth, (c) => s.session.play(c));
    for (const f of covered) s.camera.frame(f);
    await s.camera.settled();
    const offered = s.camera.view().startPieceFound;
    expect(offered !== null && offered !== 'looking' && offered.corners.length).toBe(4);
    // Uncovered: the markers give the grid, and the outline on offer is gone.
    for (const f of frames.slice(0, manifest.visits[0]!.stillFrom + 2)) s.camera.frame(f);
    await s.camera.settled();
    expect(s.camera.view().calibratedFrom).toBe('markers');
    expect(s.camera.view().startPieceFound).toBe(null);
    await s.camera.close();
    s.store.close();
  }, 60_000);

  it('frames that are no image are named and change nothing; frames from a source that is not chosen are refused', async () => {
    const s = open();
    expect(s.session.newGame(setup).ok).toBe(true);
    const refused = s.camera.frame(frames[0]!);
    expect(!refused.ok && refused.reason).toMatch(/source is none/);
    s.camera.use('browser');
    for (const f of frames.slice(0, 3)) s.camera.frame(f);
    s.camera.frame(new Uint8Array([0xff, 0xd8, 1, 2, 3]));
    await s.camera.settled();
    const v = s.camera.view();
    expect(v.notices[0]).toMatchObject({ error: true, frame: 3 });
    expect(v.notices[0]!.text).toMatch(/frame 3/);
    // The first three frames show the table as set up: nothing to read, nothing committed.
    expect(s.session.currentGame!.commands).toHaveLength(0);
    await s.camera.close();
    s.store.close();
  }, 60_000);

  it('the bundled recording is played by the services as the default source, only into a game set up as it was recorded', async () => {
    const s = open();
    const other = { ...setup, expansions: ['base' as const] };
    expect(s.session.newGame(other).ok).toBe(true);
    const r = s.camera.use('recording');
    expect(r.ok && r.value.message).toMatch(/set up differently \(expansions base, jousts-crests, tower\)/);
    expect(s.session.newGame(setup).ok).toBe(true);
    await new Promise((res) => setTimeout(res, 50));
    expect(s.camera.view().status).toBe('live');
    expect(s.camera.view().label).toMatch(/short-s5/);
    await s.camera.close();
    s.store.close();
  });
});
