/** Replays a record through the engine and compares it with the record's expectations. */
import type { TileCatalog } from '../catalog/registry.js';
import { defaultCatalog } from '../game/engine.js';
import type { GameEvent, Scored } from '../game/events.js';
import { Game } from '../game/game.js';
import { compareScores, compareTournament } from './compare.js';
import { commandsForTurn, setupFromRecord } from './convert.js';
import type { GameRecord } from './schema.js';

export interface TurnReport {
  /** 1-based index of the record's turn entry. */
  readonly turn: number;
  readonly player: number;
  readonly events: readonly GameEvent[];
  readonly scores: readonly Scored[];
}

export interface ReplayReport {
  /** Every move legal and every expectation met. */
  readonly ok: boolean;
  /** The first illegal move or unusable entry. */
  readonly error?: { readonly turn: number; readonly reason: string };
  /** The first difference from the record's expectations; `turn` 0 means final scoring. */
  readonly mismatch?: { readonly turn: number | 'final'; readonly reason: string };
  readonly turns: readonly TurnReport[];
  readonly finalEvents: readonly Scored[];
  readonly final: readonly number[];
  readonly game: Game | null;
}

export interface ReplayOptions {
  /** Stop comparing after the first difference (the CLI wants only the first). */
  readonly stopAtMismatch?: boolean;
  readonly catalog?: TileCatalog;
}

const scoresOf = (events: readonly GameEvent[]) => events.filter((e): e is Scored => e.type === 'scored');

export function replayRecord(record: GameRecord, options: ReplayOptions = {}): ReplayReport {
  const setup = setupFromRecord(record);
  const started = Game.start(setup, options.catalog ?? defaultCatalog());
  if (!started.ok) {
    return { ok: false, error: { turn: 0, reason: `setup: ${started.reason}` }, turns: [], finalEvents: [], final: [], game: null };
  }
  const game = started.value;
  const turns: TurnReport[] = [];
  let mismatch: ReplayReport['mismatch'];
  for (let i = 0; i < record.turns.length; i++) {
    const t = record.turns[i]!;
    const events: GameEvent[] = [];
    if (t.player !== game.state.turn.player) {
      return { ok: false, error: { turn: i + 1, reason: `the record says player ${t.player}, but it is player ${game.state.turn.player}'s turn` }, turns, finalEvents: [], final: [], game };
    }
    for (const c of commandsForTurn(t, game.state)) {
      const r = game.play(c);
      if (!r.ok) return { ok: false, error: { turn: i + 1, reason: r.reason }, turns, finalEvents: [], final: [], game };
      events.push(...r.value);
    }
    const scores = scoresOf(events);
    turns.push({ turn: i + 1, player: t.player, events, scores });
    const expected = t.expect?.events;
    if (expected && !mismatch) {
      const diff = compareScores(expected, scores, game.state.board);
      if (diff) mismatch = { turn: i + 1, reason: diff };
    }
    const tournament = t.expect?.tournament;
    if (tournament && !mismatch) {
      const diff = compareTournament(tournament, events);
      if (diff) mismatch = { turn: i + 1, reason: diff };
    }
  }
  const fin = game.play({ type: 'finishGame' });
  if (!fin.ok) return { ok: false, error: { turn: record.turns.length, reason: fin.reason }, turns, finalEvents: [], final: [], game };
  const finalEvents = scoresOf(fin.value);
  const final = game.state.players.map((p) => p.score);
  if (!mismatch && record.expect?.finalEvents) {
    const diff = compareScores(record.expect.finalEvents, finalEvents, game.state.board);
    if (diff) mismatch = { turn: 'final', reason: diff };
  }
  if (!mismatch && record.expect?.final) {
    const want = record.expect.final;
    if (want.length !== final.length || want.some((v, i) => v !== final[i])) {
      mismatch = { turn: 'final', reason: `final totals ${final.join(', ')}; the record expects ${want.join(', ')}` };
    }
  }
  return { ok: !mismatch, ...(mismatch ? { mismatch } : {}), turns, finalEvents, final, game };
}
