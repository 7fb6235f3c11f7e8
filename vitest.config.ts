import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
    // Hooks load models and browsers; on a shared 2-core machine with a browser test beside them, 10 s is too tight.
    hookTimeout: 60_000,
    reporters: ['default', './tests/summary-reporter.ts'],
  },
});
