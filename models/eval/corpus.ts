/**
 * The golden corpus (tests/fixtures/oracle) as the benchmarks use it: its first games, and every tile
 * placement in its real game state. One place, so that every bench counts placements the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCatalog } from '../../engine/game/engine.js';
import { Game } from '../../engine/game/game.js';
import type { GameState } from '../../engine/game/state.js';
import { commandsForTurn, setupFromRecord } from '../../engine/record/convert.js';
import { parseRecordText, type GameRecord, type RecordTurn } from '../../engine/record/schema.js';

const ORACLE_DIR = fileURLToPath(new URL('../../tests/fixtures/oracle/', import.meta.url));

/** The corpus's first `n` games, by file name. */
export function corpusRecords(n: number): GameRecord[] {
  return readdirSync(ORACLE_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .slice(0, n)
    .map((f) => {
      const p = parseRecordText(readFileSync(join(ORACLE_DIR, f), 'utf8'));
      if (!p.ok) throw new Error(`${f}: ${p.reason}`);
      return p.record;
    });
}

/** A turn that lays a tile: its tile, cell and rotation. */
const placing = (t: RecordTurn): t is RecordTurn & { tile: string; at: [number, number]; rot: number } => !!t.tile && !!t.at && t.rot !== undefined;

/** Every tile placement of the records, in order: the tile and its quarter turns. */
export function corpusPlacements(records: readonly GameRecord[]): { tile: string; q: number }[] {
  return records.flatMap((r) => r.turns.filter(placing).map((t) => ({ tile: t.tile, q: t.rot / 90 })));
}

export interface Placement {
  /** Index into `corpusPlacements`. */
  readonly index: number;
  /** The game before the tile is laid. */
  readonly state: GameState;
  readonly tile: string;
  readonly at: readonly [number, number];
  readonly q: number;
}

/** Replays the records and visits every tile placement in its real game state, in `corpusPlacements`' order. */
export async function forEachPlacement(records: readonly GameRecord[], visit: (p: Placement) => void | Promise<void>): Promise<void> {
  let index = 0;
  for (const record of records) {
    const started = Game.start(setupFromRecord(record), defaultCatalog());
    if (!started.ok) throw new Error(started.reason);
    const game = started.value;
    for (const t of record.turns) {
      if (placing(t)) await visit({ index: index++, state: game.state, tile: t.tile, at: [t.at[0], t.at[1]], q: t.rot / 90 });
      for (const c of commandsForTurn(t, game.state)) {
        const r = game.play(c);
        if (!r.ok) throw new Error(`corpus replay failed: ${r.reason}`);
      }
    }
  }
}
