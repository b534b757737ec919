import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A HOME and XDG directories of each file's own: never the developer's config or state.
    setupFiles: ['test/support/setup-home.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the real program and servers; two cores do not like many at once.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
