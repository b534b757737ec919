import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the real program and servers; two cores do not like many at once.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
