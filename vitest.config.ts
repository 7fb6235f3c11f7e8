import { configDefaults, defineConfig } from 'vitest/config';

// The camera in the browser plays a recording in real time: beside another browser game on a 2-core
// machine its page sends a third of the frames, still scenes are missed, and the camera (rightly)
// asks instead of reading. It runs by itself once the rest is done (about a minute more): even two
// tracker tests beside it (OpenCV in WebAssembly) left it 5 of 20 moves.
const REAL_TIME = ['tests/app/e2e-camera.test.ts'];

export default defineConfig({
  test: {
    pool: 'threads',
    // Vitest's default is one worker per core less one: a single worker on the 2-core build machines,
    // where the browser games and the tracker replays then run one after another (vitest ~650–810 s).
    // Two workers measured 519 and 602 s for the same tests, every one passing.
    maxWorkers: 2,
    testTimeout: 60_000,
    // Set-up hooks render tile faces or start a browser; on a shared 2-core machine that can take long.
    hookTimeout: 120_000,
    reporters: ['default', './tests/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'tests', include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, ...REAL_TIME], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'real-time', include: [...REAL_TIME], sequence: { groupOrder: 1 } } },
    ],
  },
});
