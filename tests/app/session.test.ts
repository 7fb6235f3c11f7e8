import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Game } from '../../engine/game/game.js';
import { replayRecord } from '../../engine/record/replay.js';
import { parseRecord } from '../../engine/record/schema.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { loadRecord, recordCommands, setupFromRecord } from './helpers/records.js';

const stores: Store[] = [];
function freshStore(): { store: Store; file: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'companion-session-')), 'c.sqlite');
  const store = Store.open(file);
  stores.push(store);
  return { store, file };
}
function reopen(file: string): Store {
  const s = Store.open(file);
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const record = loadRecord('g003-base-4p.json');
const commands = recordCommands(record);

describe('game session', () => {
  it('makes the snapshot once per change: asked again it is the same, after a move, an undo or a new game it is new', () => {
    const { store } = freshStore();
    const s = new GameSession(store);
    const none = s.snapshot();
    expect(none.game).toBeNull();
    expect(s.snapshot()).toBe(none);
    s.newGame(setupFromRecord(record));
    const started = s.snapshot();
    expect(started).not.toBe(none);
    expect(s.snapshot()).toBe(started);
    expect(s.play(commands[0]!).ok).toBe(true);
    const moved = s.snapshot();
    expect(moved.version).toBeGreaterThan(started.version);
    expect(moved.game!.log).toHaveLength(1);
    expect(s.snapshot()).toBe(moved);
    expect(s.undo().ok).toBe(true);
    expect(s.snapshot().game!.log).toHaveLength(0);
    // A move refused changes nothing, so the snapshot stays.
    const before = s.snapshot();
    expect(s.play({ type: 'endTurn' } as never).ok).toBe(false);
    expect(s.snapshot()).toBe(before);
  });

  it('plays a whole record, persists every command, and a new session resumes into the same game', () => {
    const { store, file } = freshStore();
    const s = new GameSession(store);
    s.newGame(setupFromRecord(record));
    for (const c of commands) expect(s.play(c).ok).toBe(true);
    const final = s.snapshot().game!.players.map((p) => p.score);
    expect(final).toEqual(record.expect!.final);
    store.close();
    const again = GameSession.resume(reopen(file));
    expect(again.snapshot().game!.players.map((p) => p.score)).toEqual(final);
    expect(again.currentGame!.commands).toEqual(commands);
    expect(again.snapshot().game!.finished).toBe(true);
  });

  it('an illegal command is refused with the engine reason and is not written', () => {
    const { store } = freshStore();
    const s = new GameSession(store);
    const id = s.newGame(setupFromRecord(record));
    if (!id.ok) throw new Error(id.reason);
    const r = s.play({ type: 'placeTile', player: 1, tile: 'BASE_A', at: [5, 5], rot: 0 });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/player 0's turn/);
    expect(store.log(id.value)).toEqual([]);
  });

  it('undo, redo and a correction five turns back survive a restart', () => {
    const { store, file } = freshStore();
    const s = new GameSession(store);
    s.newGame(setupFromRecord(record));
    for (const c of commands.slice(0, 40)) s.play(c);
    expect(s.undo().ok).toBe(true);
    expect(s.undo().ok).toBe(true);
    expect(s.redo().ok).toBe(true);
    // Remove the meeple of an earlier turn: the later turns still hold.
    const meeple = commands.slice(0, 25).findLastIndex((c) => c.type === 'placeMeeple');
    expect(meeple).toBeGreaterThan(0);
    const r = s.correct(meeple, null);
    expect(r.ok).toBe(true);
    const view = s.snapshot().game!;
    store.close();
    const again = GameSession.resume(reopen(file)).snapshot().game!;
    expect(again.log.map((l) => l.command)).toEqual(view.log.map((l) => l.command));
    expect(again.players).toEqual(view.players);
    expect(again.log).toHaveLength(38);
  });

  it('inserts a figure the camera missed, and the game scores as the record says', () => {
    const { store, file } = freshStore();
    const s = new GameSession(store);
    s.newGame(setupFromRecord(record));
    // A figure whose absence changes the score (found with the engine alone).
    const missed = commands.findIndex((c, i) => {
      if (i < 20 || c.type !== 'placeMeeple') return false;
      const without = Game.replay(setupFromRecord(record), commands.filter((_, j) => j !== i));
      return without.ok && without.value.state.players.some((p, k) => p.score !== record.expect!.final![k]);
    });
    expect(missed).toBeGreaterThan(0);
    for (const [i, c] of commands.entries()) if (i !== missed) expect(s.play(c).ok).toBe(true);
    expect(s.snapshot().game!.players.map((p) => p.score)).not.toEqual(record.expect!.final);
    expect(s.insert(missed, commands[missed]!).ok).toBe(true);
    expect(s.snapshot().game!.players.map((p) => p.score)).toEqual(record.expect!.final);
    store.close();
    expect(GameSession.resume(reopen(file)).snapshot().game!.players.map((p) => p.score)).toEqual(record.expect!.final);
  });

  it('a game whose log no longer replays does not stop the app: it starts without it and says why', () => {
    const { store, file } = freshStore();
    const s = new GameSession(store);
    const id = s.newGame(setupFromRecord(record));
    if (!id.ok) throw new Error(id.reason);
    for (const c of commands.slice(0, 5)) s.play(c);
    // As if the rules had changed since: an entry the engine now refuses.
    store.append(id.value, [{ op: { op: 'play', command: { type: 'placeTile', player: 0, tile: 'BASE_A', at: [50, 50], rot: 0 } }, events: [] }]);
    store.close();
    const again = GameSession.resume(reopen(file));
    expect(again.currentGameId).toBeNull();
    expect(again.resumeProblem).toMatch(/^the last game could not be resumed: game 1, log entry 6: /);
    expect(again.snapshot().game).toBeNull();
    expect(again.snapshot().notice).toBe(again.resumeProblem);
  });

  it('a correction that breaks a later turn is refused and changes nothing', () => {
    const { store } = freshStore();
    const s = new GameSession(store);
    s.newGame(setupFromRecord(record));
    for (const c of commands.slice(0, 30)) s.play(c);
    const before = s.snapshot().game!;
    const first = commands[0]!;
    if (first.type !== 'placeTile') throw new Error('record starts with a tile');
    const r = s.correct(0, { ...first, at: [40, 40] });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/correction makes the game illegal/);
    expect(s.snapshot().game!.log).toEqual(before.log);
  });

  it('exports the game as a record@1 file that replays to the same scores', () => {
    const { store } = freshStore();
    const s = new GameSession(store);
    s.newGame(setupFromRecord(record));
    for (const c of commands) s.play(c);
    const out = s.exportRecord();
    if (!out.ok) throw new Error(out.reason);
    const parsed = parseRecord(JSON.parse(JSON.stringify(out.value)));
    expect(parsed.ok).toBe(true);
    const report = replayRecord(out.value);
    expect(report.ok).toBe(true);
    expect(report.final).toEqual(record.expect!.final);
    expect(out.value.turns).toHaveLength(record.turns.length);
  });

  it('imports a record as a new game; a malformed or illegal one is refused with where and why', () => {
    const { store } = freshStore();
    const s = new GameSession(store);
    const text = JSON.stringify(record);
    const r = s.importRecord(text);
    expect(r.ok && r.value.final).toEqual(record.expect!.final);
    expect(store.games()).toHaveLength(1);

    const notJson = s.importRecord('{"format": "record@1", ');
    expect(!notJson.ok && notJson.reason).toMatch(/not valid record@1: not valid JSON/);
    const badRot = structuredClone(record) as { turns: { rot?: number }[] };
    badRot.turns[4]!.rot = 45;
    const bad = s.importRecord(JSON.stringify(badRot));
    expect(!bad.ok && bad.reason).toMatch(/turn 5 \(turns\[4\]\.rot\)/);
    const illegal = structuredClone(record) as { turns: { at?: [number, number] }[] };
    illegal.turns[2]!.at = [30, 30];
    const il = s.importRecord(JSON.stringify(illegal));
    expect(!il.ok && il.reason).toMatch(/cannot be replayed \(turn 3\)/);
    expect(store.games()).toHaveLength(1);
    expect(s.snapshot().game!.gameId).toBe(r.ok && r.value.gameId);
  });

  it('snapshots carry the scores explained and where each scored feature lies', () => {
    const { store } = freshStore();
    const s = new GameSession(store);
    s.importRecord(JSON.stringify(record));
    const g = s.snapshot().game!;
    const total = g.players.map((_, i) => g.scores.filter((x) => x.players.includes(i)).reduce((n, x) => n + x.points, 0));
    expect(total).toEqual(record.expect!.final);
    const city = g.scores.find((x) => x.kind === 'city' && x.points > 4)!;
    expect(city.text).toMatch(/^city: \d+ tiles × 2/);
    expect(city.feature!.tiles.length).toBeGreaterThanOrEqual(2);
    expect(g.reminders[0]).toMatch(/game is over/);
  });
});
