/**
 * Browser mode from the command line (what `npm start` runs where Electron is not installed):
 * prints the address, and the pairing code when LAN access is on. Flags: --lan, --port N, --data FILE,
 * --recording DIR (the recording played when no camera is connected; default the bundled demo game).
 * Bundled to out/main/browser.js by `npm run build`, so that start-up pays for no TypeScript compiling.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { StoreError } from '../services/store/open.js';
import { startBrowserMode } from './browser-mode.js';
import { keepRunningOnStrayErrors } from './last-resort.js';

keepRunningOnStrayErrors();

// Two folders down both as source (electron/server) and as bundle (out/main).
const RENDERER_DIR = join(import.meta.dirname, '../../out/renderer');
const DEFAULT_PORT = 7373;

const { values } = parseArgs({
  options: { lan: { type: 'boolean', default: false }, port: { type: 'string' }, data: { type: 'string' }, browser: { type: 'boolean', default: false }, recording: { type: 'string' } },
});

try {
  const options = { rendererDir: RENDERER_DIR, lan: values.lan ?? false, ...(values.data ? { dataFile: values.data } : {}), ...(values.recording ? { recording: values.recording } : {}) };
  // A steady port lets a second screen keep its bookmark; when it is taken, any free one does.
  const app = await startBrowserMode({ ...options, port: Number(values.port ?? DEFAULT_PORT) }).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EADDRINUSE' || values.port) throw e;
    return startBrowserMode({ ...options, port: 0 });
  });
  console.log(`Carcassonne Companion (browser mode): ${app.server.url}`);
  console.log(`  database: ${app.store.file}`);
  if (app.session.resumeProblem) console.warn(`  ${app.session.resumeProblem}`);
  const resumed = app.session.resumeNote();
  console.log(`  ${resumed ?? 'no game to resume: start one under New game'}`);
  if (app.server.pairingCode) console.log(`  LAN access on; pairing code for a second screen: ${app.server.pairingCode}`);
  // Once: a terminal's Ctrl+C reaches this process both from the terminal and from `npm start`, which passes it on.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void app.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(e instanceof StoreError ? `Cannot start: ${e.message}` : e);
  process.exit(1);
}
