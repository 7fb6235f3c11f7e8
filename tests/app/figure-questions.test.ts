/**
 * Figure readings the table must confirm however sure they are (`tableConfirms`), and their words.
 * A big follower the camera reads where a follower may stand is the table's to confirm, however sure
 * the reading (model-figure.ts `followerInstead`: both figure readers learnt sizes from drawings
 * smaller than real figures). Also where the reading comes out of table input (a Jousts & Crests
 * figure that waited for a nomination, decided in camera-readings.ts `tableReadings` at the table's
 * bar), and the question says why in the table's words. Likewise a figure the table's picture of the
 * tile does not show but the model's figure heads see (tracker.ts `figureByModelAlone`). Real parts: a real SQLite store, the session,
 * the proposal desk.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../engine/game/commands.js';
import { legalMeepleSpots } from '../../engine/game/legal.js';
import { placementProblem } from '../../engine/game/placement.js';
import { makeSetup } from '../../engine/game/setup.js';
import { CameraReadings } from '../../electron/services/camera/camera-readings.js';
import { questionWords } from '../../electron/services/camera/camera-view.js';
import { ProposalDesk } from '../../electron/services/camera/proposals.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { BIG_BY_SIZE, FIGURE_BY_MODEL_ALONE } from '../../models/track/model-figure.js';
import type { TrackEvent } from '../../models/track/tracker.js';

/** A base + Inns & Cathedrals game where Ada has just laid BASE_D: a follower or a big one may go on its road. */
function laid() {
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-big-')), 'c.sqlite'));
  const session = new GameSession(store);
  expect(session.newGame(makeSetup({ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }], expansions: ['base', 'inns-cathedrals'] })).ok).toBe(true);
  const game = session.currentGame!;
  const draw = game.state.turn.drawn === null ? session.play({ type: 'drawTile', player: 0, tile: 'BASE_D' }) : null;
  if (draw) expect(draw.ok).toBe(true);
  const s = session.currentGame!.state;
  const spot = [[0, -1], [1, 0], [0, 1], [-1, 0]].flatMap(([x, y]) => [0, 1, 2, 3].map((q) => ({ x: x!, y: y!, q }))).find(({ x, y, q }) => !placementProblem(s, s.catalog.view('BASE_D', q), x, y))!;
  expect(session.play({ type: 'placeTile', player: 0, tile: 'BASE_D', at: [spot.x, spot.y], rot: ([0, 90, 180, 270] as const)[spot.q]! }).ok).toBe(true);
  const spots = legalMeepleSpots(session.currentGame!.state);
  const on = spots.find((p) => p.kind === 'big' && spots.some((o) => o.kind === 'normal' && o.on === p.on))!.on;
  const big: Command = { type: 'placeMeeple', player: 0, kind: 'big', on };
  const desk = new ProposalDesk(store, session);
  const readings = new CameraReadings({
    desk, session, commitAt: () => 0.9, generation: () => 0, restartedAt: () => 0, trackerOfThisGame: () => null,
    switchedOff: () => false, level: async () => undefined, notice: () => undefined, cannotCalibrate: () => undefined,
  });
  return { session, desk, readings, big, follower: { ...big, kind: 'normal' } as Command };
}

const reading = (command: Command, alternatives: Command[], tableConfirms: boolean): TrackEvent => ({
  kind: 'proposal', frame: 3, command, confidence: 0.999, alternatives, committed: false, why: tableConfirms ? BIG_BY_SIZE : 'not sure about the figure: the table picks', ...(tableConfirms ? { tableConfirms } : {}),
});

describe('a big follower read by its size', () => {
  it('released by table input, is asked however sure, the follower offered; without the word, as sure, it is committed', async () => {
    const asked = laid();
    const at = asked.session.currentGame!.history.length;
    await asked.readings.tableReadings(at, [reading(asked.big, [asked.follower], true)]);
    expect(asked.session.currentGame!.history.length, 'nothing played').toBe(at);
    const open = asked.desk.open();
    expect(open.map((p) => [p.payload.command, p.payload.alternatives[0]])).toEqual([[asked.big, asked.follower]]);
    expect([asked.readings.asked, asked.readings.committed]).toEqual([1, 0]);

    const sure = laid();
    await sure.readings.tableReadings(at, [reading(sure.big, [sure.follower], false)]);
    expect(sure.session.currentGame!.commands.at(-1)).toEqual(sure.big);
    expect([sure.readings.asked, sure.readings.committed]).toEqual([0, 1]);
  });

  it('is asked in the table\'s words: a big follower, told from a follower only by its size', () => {
    const { session, big } = laid();
    const words = questionWords(session.currentGame!, { why: BIG_BY_SIZE, confidence: 0.999, command: big }, false);
    expect(words).toBe('The camera takes the figure on the new tile for a big follower, but it tells one from a follower only by its size: which is it?');
    expect(words).not.toMatch(/not sure|%/);
  });
});

describe('a figure the table\'s picture of the tile does not show, seen by the model alone', () => {
  it('is asked however sure, in the table\'s words', async () => {
    const { session, desk, readings, follower } = laid();
    const at = session.currentGame!.history.length;
    await readings.tableReadings(at, [{ kind: 'proposal', frame: 3, command: follower, confidence: 1, alternatives: [], committed: false, tableConfirms: true, why: FIGURE_BY_MODEL_ALONE }]);
    expect(session.currentGame!.history.length).toBe(at);
    expect(desk.open().map((p) => p.payload.command)).toEqual([follower]);
    expect(questionWords(session.currentGame!, { why: FIGURE_BY_MODEL_ALONE, confidence: 1, command: follower }, false)).toBe('The camera sees a figure on the new tile where its picture of the tile shows none it knows: which is it?');
  });
});
