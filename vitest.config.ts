import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
    reporters: ['default', './tests/summary-reporter.ts'],
  },
});
