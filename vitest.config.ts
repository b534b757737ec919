import { defineConfig } from 'vitest/config';

/**
 * Files that start the built program, a shell on a pseudo-terminal or MCP servers: each runs in a
 * process of its own (vitest's isolation), since what they leave behind (a pty, a server, a
 * changed environment) must not reach the next file.
 */
const SPAWNING = ['test/e2e/**/*.test.ts', 'test/shell/**/*.test.ts', 'test/mcp/**/*.test.ts'];
/** Files that check what a fresh process has loaded (highlight.js only at the first fence that
 * names a language): another file sharing the worker may have loaded it first. */
const FRESH_PROCESS = ['test/render/markdown.test.ts'];

export default defineConfig({
  test: {
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
    projects: [
      {
        extends: true,
        // The other files share their workers' processes (no isolation): a fresh process and a
        // fresh import of vitest and of src/ for each of ~130 files cost more than their tests
        // (docs/performance.md, "The test suite"). setup-home.ts still gives each file its HOME.
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...SPAWNING, ...FRESH_PROCESS], isolate: false },
      },
      { extends: true, test: { name: 'e2e', include: [...SPAWNING, ...FRESH_PROCESS] } },
    ],
  },
});
