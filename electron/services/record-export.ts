/**
 * A game written as a record@1 file by the engine's writer, checked with the engine's own record
 * schema before it leaves the app.
 */
import type { Game } from '../../engine/game/game.js';
import { fail, ok, type Result } from '../../engine/result.js';
import { parseRecord, type GameRecord } from '../../engine/record/schema.js';
import { recordFromGame } from '../../engine/record/write.js';

export function exportRecord(game: Game): Result<GameRecord> {
  const checked = parseRecord(JSON.parse(JSON.stringify(recordFromGame(game))));
  return checked.ok ? ok(checked.record) : fail(`the exported record does not pass the record schema: ${checked.reason}`);
}
