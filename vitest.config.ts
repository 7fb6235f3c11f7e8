import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'threads',
    // Vitest's default is one worker per core less one: a single worker on the 2-core build machines,
    // where the browser games and the tracker replays then run one after another (vitest ~650–810 s).
    // Two workers measured 519 and 602 s for the same tests, every one passing.
    maxWorkers: 2,
    testTimeout: 60_000,
    // Set-up hooks render tile faces or start a browser; on a shared 2-core machine that can take long.
    hookTimeout: 120_000,
    reporters: ['default', './tests/summary-reporter.ts'],
  },
});
