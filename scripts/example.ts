/**
 * `npm run example`: replays the bundled example game and prints its score table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecordText } from '../engine/record/schema.js';
import { replayRecord } from '../engine/record/replay.js';
import { formatScoreTable } from './format.js';

const file = join(import.meta.dirname, '../docs/examples/example-game.json');
const parsed = parseRecordText(readFileSync(file, 'utf8'));
if (!parsed.ok) {
  console.error(`example game: ${parsed.reason}`);
  process.exit(1);
}
const report = replayRecord(parsed.record);
if (report.error) {
  console.error(`example game, turn ${report.error.turn}: ${report.error.reason}`);
  process.exit(1);
}
console.log(`Example game: ${parsed.record.players.map((p) => p.name).join(', ')} with ${parsed.record.expansions.join(', ')}`);
console.log(`${report.turns.length} turns replayed.\n`);
console.log(formatScoreTable(parsed.record, report));
