import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A HOME and XDG directories of each file's own: never the developer's config or state.
    setupFiles: ['test/support/setup-home.ts'],
    // bash and git, which most files drive, are checked once before anything runs.
    globalSetup: ['test/support/prerequisites.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the real program and servers; two cores do not like many at once.
    maxWorkers: 2,
    // The last line names the tests skipped for a program this machine lacks (test/support/needs.ts).
    reporters: ['default', './test/support/needs-reporter.ts'],
  },
});
