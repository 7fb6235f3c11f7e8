/**
 * A child process for the crash test: plays a record's commands through a real GameSession on a real
 * SQLite file and prints `ack N` after each one is acknowledged, until it is killed.
 */
import { Store } from '../../../electron/services/store/store.js';
import { GameSession } from '../../../electron/services/session/session.js';
import { loadRecord, recordCommands, setupFromRecord } from './records.js';

const [file, recordName] = process.argv.slice(2);
const record = loadRecord(recordName!);
const commands = recordCommands(record);
const store = Store.open(file!);
const session = GameSession.resume(store);
if (session.currentGameId === null) session.newGame(setupFromRecord(record));
const done = session.currentGame!.commands.length;
for (let i = done; i < commands.length; i++) {
  const r = session.play(commands[i]!);
  if (!r.ok) {
    console.error(`command ${i + 1}: ${r.reason}`);
    process.exit(2);
  }
  process.stdout.write(`ack ${i + 1}\n`);
}
process.stdout.write('done\n');
// Wait to be killed, as an app would stay open.
setInterval(() => {}, 1000);
