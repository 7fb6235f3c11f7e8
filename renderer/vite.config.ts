/** The renderer alone (browser mode and tests); electron.vite.config.ts builds it the same way for Electron. */
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export const rendererRoot = import.meta.dirname;
export const rendererOut = resolve(import.meta.dirname, '../out/renderer');

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [svelte()],
  logLevel: 'warn',
  build: { outDir: rendererOut, emptyOutDir: true },
});
