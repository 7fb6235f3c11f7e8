/**
 * A child process for the fuzz test: browser mode with LAN access on a real SQLite file, OpenCV loaded
 * (its Node glue used to register abort-on-rejection handlers), the process's last-resort handler as
 * the app installs it, writing to stderr. Prints `ready URL TOKEN CODE` and serves until killed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCv } from '../../../calibration/cv.js';
import { startBrowserMode } from '../../../electron/server/browser-mode.js';
import { keepRunningOnStrayErrors } from '../../../electron/server/last-resort.js';

keepRunningOnStrayErrors((line) => process.stderr.write(`STRAY ${line}\n`));
const dir = mkdtempSync(join(tmpdir(), 'companion-fuzz-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
await loadCv();
const app = await startBrowserMode({ dataFile: join(dir, 'f.sqlite'), rendererDir: dir, lan: true, recording: null });
process.stdout.write(`ready ${app.server.url} ${app.server.mainToken} ${app.server.pairingCode}\n`);
