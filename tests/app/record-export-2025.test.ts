/** The app's record export keeps the 2025 expansions' steps: an exported random game replays to the same totals. */
import { describe, expect, it } from 'vitest';
import { recordFromGame } from '../../electron/services/record-export.js';
import { commandSchema } from '../../electron/contract/commands.js';
import type { ExpansionId } from '../../engine/catalog/types.js';
import { makeSetup } from '../../engine/game/setup.js';
import { replayRecord } from '../../engine/record/replay.js';
import { randomGame } from '../../engine/sim/random-game.js';

const ALL: ExpansionId[] = ['base', 'river', 'abbot', 'inns-cathedrals', 'tower', 'jousts-crests', 'siege-defense'];

describe('record export with Jousts & Crests and Siege & Defense', () => {
  it.each([1, 2, 3, 4])('random game %i: every command passes the IPC schema and the export replays to the same totals', (seed) => {
    const setup = makeSetup({ expansions: ALL, players: ['red', 'blue', 'green'].slice(0, 2 + (seed % 2)).map((color, i) => ({ name: `P${i}`, color })) });
    const game = randomGame(setup, seed);
    for (const c of game.commands) expect(commandSchema.safeParse(c).success, JSON.stringify(c)).toBe(true);
    const exported = recordFromGame(setup, game.commands, game.state.players.map((p) => p.score));
    expect(exported.ok, exported.ok ? '' : exported.reason).toBe(true);
    if (!exported.ok) return;
    expect(exported.value.turns.some((t) => t.tournament) && exported.value.turns.some((t) => t.siege)).toBe(true);
    const report = replayRecord(exported.value);
    expect(report.error).toBeUndefined();
    expect(report.final).toEqual(game.state.players.map((p) => p.score));
  });
});
