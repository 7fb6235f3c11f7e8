/** Bundled records as command lists, for driving the app's services the way a table would. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '../../../engine/game/commands.js';
import { commandsForTurn, setupFromRecord } from '../../../engine/record/convert.js';
import { replayRecord } from '../../../engine/record/replay.js';
import { parseRecordText, type GameRecord } from '../../../engine/record/schema.js';

export const ORACLE = join(import.meta.dirname, '../../fixtures/oracle');

export function loadRecord(name: string): GameRecord {
  const parsed = parseRecordText(readFileSync(join(ORACLE, name), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.record;
}

/** Every command of the record, in order, ending with final scoring (as the engine accepts them). */
export function recordCommands(record: GameRecord): Command[] {
  const report = replayRecord(record);
  if (!report.game) throw new Error('record does not replay');
  return report.game.commands;
}

export { commandsForTurn, setupFromRecord };
