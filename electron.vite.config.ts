import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'electron/main/index.ts'), browser: resolve(import.meta.dirname, 'electron/server/cli.ts'), 'tracker-worker': resolve(import.meta.dirname, 'electron/services/camera/tracker-worker.ts'), 'frame-look-worker': resolve(import.meta.dirname, 'electron/services/camera/frame-look-worker.ts'), 'frame-socket-worker': resolve(import.meta.dirname, 'electron/services/camera/frame-socket-worker.ts') }, external: ['better-sqlite3'] },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads must be CommonJS.
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'electron/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [svelte()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
  },
});
