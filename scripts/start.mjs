// `npm start`: the Electron app where Electron's binary is installed; elsewhere (build machines, where
// ELECTRON_SKIP_BINARY_DOWNLOAD=1) browser mode, printing its address. Builds first when the build is
// missing or older than the sources. Plain JavaScript so that starting costs no TypeScript compiling.
// Flags (browser mode): --lan, --port N, --data FILE; --browser forces browser mode.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ALLOCATOR_ENV, hasAllocatorEnv } from './allocator-env.mjs';

const ROOT = join(import.meta.dirname, '..');
const OUTPUTS = ['out/main/index.js', 'out/main/browser.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((p) => join(ROOT, p));
const SOURCES = ['electron', 'engine', 'renderer'].map((d) => join(ROOT, d));

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron'); // throws when the binary was not downloaded
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const args = process.argv.slice(2);
const stale = OUTPUTS.some((f) => !existsSync(f)) || Math.min(...OUTPUTS.map((f) => statSync(f).mtimeMs)) < Math.max(...SOURCES.map(newest));
if (stale) {
  console.log('Building the app (first start, or the sources changed)…');
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const electron = args.includes('--browser') ? null : electronBinary();
/** Runs `command` as the app's process, with the allocator setting (allocator-env.mjs), passing on its exit and the signals that stop it. */
function run(command, argv) {
  const child = spawn(command, argv, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...ALLOCATOR_ENV } });
  for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
  child.on('exit', (c, signal) => process.exit(c ?? (signal ? 1 : 0)));
}
if (electron) run(electron, [ROOT]);
else if (hasAllocatorEnv()) await import('../out/main/browser.js');
else run(process.execPath, [join(ROOT, 'out/main/browser.js'), ...args]);
