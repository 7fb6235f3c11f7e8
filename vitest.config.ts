import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
    // Set-up hooks render tile faces or start a browser; on a shared 2-core machine that can take long.
    hookTimeout: 120_000,
    reporters: ['default', './tests/summary-reporter.ts'],
  },
});
