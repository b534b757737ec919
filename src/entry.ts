#!/usr/bin/env node
// The start-up file, dist/aish.js, built as CommonJS (scripts/build.mjs): an ES module entry makes
// Node set up its ESM loader first, about 10 ms, which is most of what `aish --version` cost over
// `node -e 0` (docs/performance.md). `--help`, `--version` and a bad flag are answered here, with
// nothing else loaded. Anything else goes on in start.ts (dist/start.js): the front (the config,
// and on a terminal the first prompt), then the program. Every bundle after this file is loaded
// with V8's code cache (code-cache.ts).

import path from 'node:path';
import { HELP, parseCli, type CliOptions } from './cli.js';
import { errorMessage, lostStreamCode } from './errors.js';
import { writeAllSync } from './fd-write.js';

declare const AISH_VERSION: string;
const VERSION = typeof AISH_VERSION === 'string' ? AISH_VERSION : '0.0.0-dev';

/**
 * Writes `text` to a standard stream's file descriptor, not through Node's stream for it
 * (fd-write.ts). A reader that went away (`aish --help | head -1`) is no failure; a
 * terminal that hung up ends aish as SIGHUP would (as in shutdown.ts).
 */
function say(fd: 1 | 2, text: string): void {
  const err = writeAllSync(fd, text);
  if (err) process.exitCode = lostStreamCode(err) ?? 1;
}

/** Answers `--help`, `--version` and a bad flag; otherwise returns the options, for the rest. */
function answer(): CliOptions | undefined {
  let cli;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (err) {
    process.exitCode = 2;
    say(2, `aish: ${errorMessage(err)}\n(aish --help lists the options)\n`);
    return undefined;
  }
  if (!cli.help && !cli.version) return cli;
  say(1, cli.help ? HELP : `aish ${VERSION}\n`);
  return undefined;
}

const cli = answer();
// dist/start.js, a bundle of its own, with its code cache. The loader is part of this file, set up
// only now (esbuild makes this import() a call in the same file: no ES module loader starts).
if (cli) {
  import('./code-cache.js')
    .then(({ requireBundle }) => (requireBundle(path.join(__dirname, 'start.js')) as typeof import('./start.js')).start(cli))
    .catch((err: unknown) => {
      process.exitCode = 1;
      say(2, `aish: cannot start: ${errorMessage(err)}\n`);
    });
}
