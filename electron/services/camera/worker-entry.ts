/**
 * Where a worker thread's entry is: built beside the main bundle (`out/main/<name>.js`, named in
 * electron.vite.config.ts), or, run from the TypeScript sources (tests, benches, browser mode under
 * tsx), its `<name>-tsx.mjs` beside the caller, which registers tsx in the worker first (a worker does
 * not inherit the loader its parent was started with).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function workerEntry(name: string, callerUrl: string): string {
  if (callerUrl.endsWith('.ts')) return fileURLToPath(new URL(`./${name}-tsx.mjs`, callerUrl));
  for (const rel of [`./${name}.js`, `../${name}.js`]) {
    const p = fileURLToPath(new URL(rel, callerUrl));
    if (existsSync(p)) return p;
  }
  throw new Error(`the worker ${name}.js is not beside ${fileURLToPath(callerUrl)}: rebuild the app`);
}
