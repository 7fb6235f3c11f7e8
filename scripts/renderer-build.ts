/** Builds the renderer when its output is missing or older than its sources (for `npm start` and the browser tests). */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { lock } from './dir-lock.js';

const ROOT = join(import.meta.dirname, '..');
export const RENDERER_OUT = join(ROOT, 'out/renderer');
// The renderer also bundles the engine's tile checks and the tile renderer (models/render).
const SOURCES = ['renderer', 'electron/contract', 'engine/catalog', 'engine/geometry', 'models/render'].map((d) => join(ROOT, d));

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export async function ensureRendererBuilt(): Promise<string> {
  const index = join(RENDERER_OUT, 'index.html');
  const stale = () => !existsSync(index) || statSync(index).mtimeMs < Math.max(...SOURCES.map(newest));
  if (!stale()) return RENDERER_OUT;
  // The test workers start their browser files together: one builds while the others wait for it (two
  // builds into one folder at once fail: one empties it under the other).
  const release = await lock(join(ROOT, 'out/.renderer-build.lock'));
  try {
    if (stale()) {
      // The build the app ships: Svelte compiles in development mode unless NODE_ENV says production,
      // and vitest sets it to "test" (a development build behaves differently: docs/app.md, Tests).
      const { build } = await import('vite');
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      try {
        await build({ configFile: join(ROOT, 'renderer/vite.config.ts'), logLevel: 'warn', mode: 'production' });
      } finally {
        if (nodeEnv === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = nodeEnv;
      }
    }
  } finally {
    release();
  }
  return RENDERER_OUT;
}
