/**
 * Jousts & Crests: a figure may go on the new tile only after the turn's nomination, which the camera
 * cannot see. The tracker holds a figure it saw until the table has nominated or moved on, and reads
 * it then (`Tracker.tableInput`); the camera service must take that reading the way it takes a fed
 * frame's: commit it through the rules when sure, else ask the table; never twice, never lost.
 *
 * Real parts: a short recording rendered here by the scene generator (seed 31: on the third tile the
 * player's figure waits, one meeple of theirs being nominable), the real tracker with the committed
 * ONNX model, and a real SQLite store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Command, Nominate, PlaceMeeple } from '../../engine/game/commands.js';
import { Game } from '../../engine/game/game.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { nominationCandidates } from '../../engine/expansions/jousts-crests.js';
import type { SheetLayout } from '../../calibration/sheet/layout.js';
import { generateRecording } from '../../models/scene/generate.js';
import { sameMove } from '../../models/track/replay.js';
import { CameraService } from '../../electron/services/camera/camera-service.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import type { GameSetup } from '../../engine/game/setup.js';
import { agreed, nextStep, withoutImpliedDraws } from './helpers/camera-table.js';

const SEED = 31;

let setup: GameSetup;
let truth: Command[];
let frames: Uint8Array[];
let profile: { style: string; markers: SheetLayout };
/** Index in `truth` of the figure that waits for a nomination, and a nomination the table may make then. */
let figureAt: number;
let figure: PlaceMeeple;
let nomination: Nominate;

beforeAll(async () => {
  const rec = await generateRecording({ seed: SEED, maxTurns: 4 });
  setup = rec.setup;
  truth = withoutImpliedDraws(rec.manifest.commands as unknown as Command[]);
  frames = rec.frames;
  const src = rec.manifest.source as { style: string; markers: SheetLayout };
  profile = { style: src.style, markers: src.markers };
  const started = Game.start(setup, defaultCatalog());
  if (!started.ok) throw new Error(started.reason);
  const game = started.value;
  figureAt = truth.findIndex((c, i) => {
    const waits = c.type === 'placeMeeple' && truth[i - 1]?.type === 'placeTile' && nominationCandidates(game.state).length > 0;
    if (!waits) expect(game.play(c).ok).toBe(true);
    return waits;
  });
  // The scene must hold such a figure, or the tests below test nothing.
  expect(figureAt).toBeGreaterThan(0);
  figure = truth[figureAt] as PlaceMeeple;
  const m = nominationCandidates(game.state)[0]!;
  nomination = { type: 'nominate', player: figure.player, at: [m.x, m.y], on: m.on };
  expect(game.play(nomination).ok).toBe(true);
  expect(game.play(figure).ok).toBe(true);
}, 120_000);

function open(o: { commitAt?: number } = {}) {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-nominate-')), 'c.sqlite'));
  const session = new GameSession(store);
  const camera = new CameraService({ session, store, profile, ...o });
  expect(session.newGame(setup).ok).toBe(true);
  expect(camera.use('browser').ok).toBe(true);
  for (const f of frames) expect(camera.frame(f).ok).toBe(true);
  return { store, session, camera };
}
type Open = ReturnType<typeof open>;

interface Log {
  /** What the table entered by hand, by history index. */
  readonly entered: Map<number, Command>;
  answered: number;
  wrong: number;
}

/**
 * The table of camera-table.ts following `plan`, until it is done; `at` is called once when the
 * figure at `figureAt` is next and the game does not hold it (the case under test acts there).
 */
async function table(s: Open, plan: readonly Command[], log: Log, at?: () => Promise<void>): Promise<void> {
  let acted = false;
  for (let guard = 0; guard < 200; guard++) {
    await s.camera.settled();
    const game = s.session.currentGame!;
    if (at && !acted && agreed(plan, game.commands) === game.commands.length && game.commands.length === figureAt) {
      acted = true;
      await at();
      continue;
    }
    const view = s.camera.view();
    const step = nextStep(plan, {
      history: game.commands,
      open: view.proposals.map((p) => ({ id: p.id, readings: p.readings.map((r) => r.command) })),
      cameraMayRead: view.reading && view.frames.queued > 0,
      figureWaits: view.figureWaits,
    });
    switch (step.do) {
      case 'done':
        return;
      case 'wait':
        throw new Error(`the table waits for the camera, which has nothing left to read (${view.waiting})`);
      case 'undo':
        log.wrong++;
        expect(s.session.undo().ok).toBe(true);
        break;
      case 'reject':
        s.camera.answer(step.id, 'reject');
        break;
      case 'answer': {
        const r = s.camera.answer(step.id, step.answer);
        if (!r.ok) throw new Error(r.reason);
        log.answered++;
        break;
      }
      case 'enter': {
        log.entered.set(game.commands.length, step.command);
        const r = s.session.play(step.command);
        if (!r.ok) throw new Error(`${step.command.type}: ${r.reason}`);
        break;
      }
    }
  }
  throw new Error('the table never finished');
}

const newLog = (): Log => ({ entered: new Map(), answered: 0, wrong: 0 });

/** The store's camera proposals of this game whose reading is the waiting figure. */
function figureProposals(s: Open) {
  const rows = s.store.db.prepare("SELECT payload_json, status FROM proposals WHERE game_id = ? AND source = 'camera' ORDER BY id").all(s.session.currentGameId!) as { payload_json: string; status: string }[];
  return rows
    .map((r) => ({ ...(JSON.parse(r.payload_json) as { command: Command; before?: number; confidence: number }), status: r.status }))
    .filter((p) => p.command.type === 'placeMeeple' && sameMove(p.command, figure));
}

/** The turn of the waiting figure in the game now: its commands from the tile to the end of the turn. */
function turnOfFigure(game: Game): Command[] {
  const end = game.commands.findIndex((c, i) => i >= figureAt && c.type === 'endTurn');
  return game.commands.slice(figureAt - 1, end + 1);
}

async function close(s: Open) {
  await s.camera.close();
  s.store.close();
}

/** The game ends as `plan` does, the tracker never broke, and nothing the camera said was an error. */
function endsWell(s: Open, plan: readonly Command[], log: Log) {
  const game = s.session.currentGame!;
  expect(agreed(plan, game.commands)).toBe(plan.length);
  expect(game.commands).toHaveLength(plan.length);
  expect(log.wrong).toBe(0);
  const view = s.camera.view();
  expect(view.message).toBeNull();
  expect(view.notices.filter((n) => n.error)).toEqual([]);
  expect(s.camera.desk.open()).toEqual([]);
  const replay = Game.replay(setup, [...plan]);
  if (!replay.ok) throw new Error(replay.reason);
  expect(game.state.players.map((p) => p.score)).toEqual(replay.value.state.players.map((p) => p.score));
}

describe('a figure that waits for a nomination (Jousts & Crests)', () => {
  it('the table nominates after the camera saw the figure: the figure is read then and committed by the camera', async () => {
    const plan = [...truth.slice(0, figureAt), nomination, ...truth.slice(figureAt)];
    const s = open();
    const log = newLog();
    await table(s, plan, log);
    endsWell(s, plan, log);
    // The figure came from the camera, through the rules: the table entered the nomination, not the figure.
    expect([...log.entered.values()].filter((c) => sameMove(c, figure))).toEqual([]);
    expect(figureProposals(s).map((p) => p.status)).toEqual(['accepted']);
    expect(s.session.currentGame!.commands[figureAt + 1]).toEqual(figure);
    await close(s);
  }, 120_000);

  it('asked about every reading, the table is asked about the figure after its nomination, and its answer places it', async () => {
    const plan = [...truth.slice(0, figureAt), nomination, ...truth.slice(figureAt)];
    const s = open({ commitAt: 2 });
    const log = newLog();
    await table(s, plan, log);
    endsWell(s, plan, log);
    expect(s.camera.view().counts.committed).toBe(0);
    expect([...log.entered.values()].filter((c) => sameMove(c, figure))).toEqual([]);
    expect(figureProposals(s).map((p) => p.status)).toEqual(['accepted']);
    await close(s);
  }, 120_000);

  it('the table enters the nomination and the figure itself before the camera catches up: one figure, no error, the camera reads on', async () => {
    const plan = [...truth.slice(0, figureAt), nomination, ...truth.slice(figureAt)];
    const s = open();
    const log = newLog();
    await table(s, plan, log, async () => {
      // Both in one go: the camera is levelled with the two together.
      expect(s.session.play(nomination).ok).toBe(true);
      expect(s.session.play(figure).ok).toBe(true);
      await s.camera.settled();
    });
    endsWell(s, plan, log);
    const turn = turnOfFigure(s.session.currentGame!);
    expect(turn.filter((c) => c.type === 'placeMeeple')).toEqual([figure]);
    // The camera read the figure (it was released by the nomination) and withdrew its reading: the table's stands.
    expect(figureProposals(s).map((p) => p.status)).toEqual(['rejected']);
    expect(s.camera.view().notices.some((n) => /table entered the figure .* itself/.test(n.text))).toBe(true);
    // The camera goes on reading: the next turn's tile is its own.
    const next = plan.findIndex((c, i) => i > figureAt + 1 && c.type === 'placeTile');
    expect(log.entered.has(next)).toBe(false);
    await close(s);
  }, 120_000);

  it('the view tells the table the camera reads the figure once it nominates or ends the turn: the table ends it, and the figure is the camera’s', async () => {
    const s = open();
    const log = newLog();
    await table(s, truth, log, async () => {
      const view = s.camera.view();
      expect(view.reading).toBe(false);
      expect(view.figureWaits).toBe(true);
      expect(view.waiting).toMatch(/may slide an emblem under one of: .*; the camera reads the figure on the new tile once the table nominates or ends the turn$/);
    });
    endsWell(s, truth, log);
    // The table did as the view said (it ended the turn) and entered no figure: the camera's went in before the end.
    expect([...log.entered.values()].filter((c) => sameMove(c, figure))).toEqual([]);
    expect(log.entered.get(figureAt)).toEqual(truth[figureAt + 1]);
    expect(figureProposals(s).map((p) => [p.status, p.before])).toEqual([['accepted', figureAt]]);
    expect(s.camera.view().figureWaits).toBe(false);
    await close(s);
  }, 120_000);

  it('the table moves on without a nomination: the figure the camera saw goes in before the end of the turn', async () => {
    const s = open();
    const log = newLog();
    const end = truth[figureAt + 1]!;
    expect(end.type).toBe('endTurn');
    await table(s, truth, log, async () => {
      // The table ends the turn; the camera saw the figure waiting for a nomination that did not come.
      expect(s.session.play(end).ok).toBe(true);
      await s.camera.settled();
    });
    endsWell(s, truth, log);
    expect([...log.entered.values()].filter((c) => sameMove(c, figure))).toEqual([]);
    const read = figureProposals(s);
    expect(read.map((p) => [p.status, p.before])).toEqual([['accepted', figureAt]]);
    // The rules took it in where it stood: inserted before the end of the turn, the log says so.
    const ops = s.store.log(s.session.currentGameId!).map((e) => e.op as { op: string; index?: number; command?: Command });
    expect(ops.filter((o) => o.op === 'insert')).toEqual([{ op: 'insert', index: figureAt, command: figure }]);
    await close(s);
  }, 120_000);

  it('asked about every reading, the table moves on without a nomination: it is asked about the figure, and its answer puts it before the end of the turn', async () => {
    const s = open({ commitAt: 2 });
    const log = newLog();
    const end = truth[figureAt + 1]!;
    await table(s, truth, log, async () => {
      expect(s.session.play(end).ok).toBe(true);
      await s.camera.settled();
      const q = s.camera.view().proposals;
      expect(q).toHaveLength(1);
      expect(q[0]!.readings[0]!.command).toEqual(figure);
      // The question shows the tile the figure stands on, not the next turn's.
      expect(q[0]!.cell).toEqual((truth[figureAt - 1] as Extract<Command, { type: 'placeTile' }>).at);
      expect(s.camera.answer(q[0]!.id, 'best').ok).toBe(true);
      log.answered++;
    });
    endsWell(s, truth, log);
    expect(figureProposals(s).map((p) => [p.status, p.before])).toEqual([['accepted', figureAt]]);
    await close(s);
  }, 120_000);

  it('a question about an earlier moment follows the table: kept when it undoes back to that moment, withdrawn when it undoes past it', async () => {
    const s = open({ commitAt: 2 });
    const log = newLog();
    const end = truth[figureAt + 1]!;
    await table(s, truth, log, async () => {
      expect(s.session.play(end).ok).toBe(true);
      await s.camera.settled();
      const [q] = s.camera.view().proposals;
      expect(q!.readings[0]!.command).toEqual(figure);
      // Undone back to the moment: the question is about now.
      expect(s.session.undo().ok).toBe(true);
      await s.camera.settled();
      expect(s.camera.view().proposals.map((p) => p.id)).toEqual([q!.id]);
      // Undone past it (the tile taken back): withdrawn, nothing committed. (The camera may ask about
      // the tile again: it still lies there.)
      expect(s.session.undo().ok).toBe(true);
      await s.camera.settled();
      expect(s.camera.view().proposals.filter((p) => p.readings[0]!.command.type === 'placeMeeple')).toEqual([]);
      expect(s.session.currentGame!.commands).toHaveLength(figureAt - 1);
      expect(figureProposals(s).map((p) => p.status)).toEqual(['rejected']);
      // The table puts the tile back and places the figure itself; the game goes on.
      expect(s.session.play(truth[figureAt - 1]!).ok).toBe(true);
      log.entered.set(figureAt, figure);
      expect(s.session.play(figure).ok).toBe(true);
    });
    endsWell(s, truth, log);
    await close(s);
  }, 120_000);

  it('a question about an earlier moment, answered after the table undid back to it, places the figure at the end', async () => {
    const s = open({ commitAt: 2 });
    const log = newLog();
    await table(s, truth, log, async () => {
      expect(s.session.play(truth[figureAt + 1]!).ok).toBe(true);
      await s.camera.settled();
      expect(s.session.undo().ok).toBe(true);
      await s.camera.settled();
      const [q] = s.camera.view().proposals;
      expect(s.camera.answer(q!.id, 'best').ok).toBe(true);
      log.answered++;
      expect(s.session.currentGame!.commands[figureAt]).toEqual(figure);
      // At the end of the history it is a plain move, not an insertion.
      expect(s.store.log(s.session.currentGameId!).at(-1)!.op).toEqual({ op: 'play', command: figure });
    });
    endsWell(s, truth, log);
    expect(figureProposals(s).map((p) => [p.status, p.before])).toEqual([['accepted', figureAt]]);
    await close(s);
  }, 120_000);
});
