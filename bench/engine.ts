/**
 * Engine figures: corpus replay speed (all corpus games, scoring and comparison included, one core)
 * and the time to list every legal placement of a tile on a 100-tile board.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSetup } from '../engine/game/setup.js';
import { legalPlacements } from '../engine/game/placement.js';
import { parseRecordText, type GameRecord } from '../engine/record/schema.js';
import { replayRecord } from '../engine/record/replay.js';
import { randomGame } from '../engine/sim/random-game.js';
import { line, median, time } from './stats.js';

function corpus(): GameRecord[] {
  const dir = join(import.meta.dirname, '../tests/fixtures/oracle');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const p = parseRecordText(readFileSync(join(dir, f), 'utf8'));
      if (!p.ok) throw new Error(`${f}: ${p.reason}`);
      return p.record;
    });
}

export function corpusReplay(rounds = 9): string {
  const records = corpus();
  for (const r of records) if (!replayRecord(r).ok) throw new Error('corpus game failed to replay; run the tests');
  // Steady state: a few untimed rounds first, so the figure is not the JIT compiler's warm-up.
  for (let i = 0; i < 3; i++) for (const r of records) replayRecord(r);
  const ms = median(time(rounds, () => {
    for (const r of records) replayRecord(r);
  }));
  return line('corpus replay', (records.length / ms) * 1000, 'games/s');
}

export function legalPlacementsOn100(rounds = 9): string {
  const setup = makeSetup({
    expansions: ['base', 'abbot', 'inns-cathedrals', 'tower'],
    players: [{ name: 'A', color: 'red' }, { name: 'B', color: 'blue' }, { name: 'C', color: 'green' }],
  });
  const game = randomGame(setup, 7, { maxTurns: 99, finish: false });
  const state = game.state;
  if (state.board.size !== 100) throw new Error(`expected 100 tiles, got ${state.board.size}`);
  const tiles = ['BASE_D', 'BASE_V', 'BASE_X', 'BASE_C', 'IC_K', 'TOWER_RRR', 'BASE_A', 'BASE_L'].filter((t) => (state.supply.get(t) ?? 0) > 0);
  const reps = 200;
  const per = time(rounds, () => {
    for (let i = 0; i < reps; i++) for (const t of tiles) legalPlacements(state, t);
  }).map((ms) => ms / (reps * tiles.length));
  return line('legal placements', median(per), 'ms', 4);
}
