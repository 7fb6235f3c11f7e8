/**
 * `npm start`: opens the Electron app where Electron's binary is installed; elsewhere (as on build
 * machines, where ELECTRON_SKIP_BINARY_DOWNLOAD=1) starts browser mode and prints its address.
 * Flags for browser mode: --lan (let a second screen pair), --port N, --data FILE.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBrowserMode } from '../electron/server/browser-mode.js';
import { StoreError } from '../electron/services/store/open.js';
import { ensureRendererBuilt } from './renderer-build.js';

const ROOT = join(import.meta.dirname, '..');
const DEFAULT_PORT = 7373;

function electronBinary(): string | null {
  try {
    // The electron package exports the binary's path, and throws when the binary was not downloaded.
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const { values } = parseArgs({
  options: { lan: { type: 'boolean', default: false }, port: { type: 'string' }, data: { type: 'string' }, browser: { type: 'boolean', default: false } },
});

const electron = values.browser ? null : electronBinary();
if (electron) {
  const build = spawn(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'inherit' });
  build.on('exit', (code) => {
    if (code !== 0) process.exit(code ?? 1);
    spawn(electron, [ROOT], { cwd: ROOT, stdio: 'inherit' }).on('exit', (c) => process.exit(c ?? 0));
  });
} else {
  try {
    const rendererDir = await ensureRendererBuilt();
    const options = { rendererDir, lan: values.lan, ...(values.data ? { dataFile: values.data } : {}) };
    // A steady port lets a second screen keep its bookmark; when it is taken, any free one does.
    const app = await startBrowserMode({ ...options, port: Number(values.port ?? DEFAULT_PORT) }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EADDRINUSE' || values.port) throw e;
      return startBrowserMode({ ...options, port: 0 });
    });
    console.log(`Carcassonne Companion (browser mode): ${app.server.url}`);
    console.log(`  database: ${app.store.file}`);
    if (app.server.pairingCode) console.log(`  LAN access on; pairing code for a second screen: ${app.server.pairingCode}`);
    const stop = () => void app.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (e) {
    console.error(e instanceof StoreError ? `Cannot start: ${e.message}` : e);
    process.exit(1);
  }
}
