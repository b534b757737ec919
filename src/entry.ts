#!/usr/bin/env node
// The start-up file, dist/aish.js, built as CommonJS (scripts/build.mjs): an ES module entry makes
// Node set up its ESM loader first, about 10 ms, which is most of what `aish --version` cost over
// `node -e 0` (docs/performance.md). `--help`, `--version` and a bad flag are answered here, with
// the texts and exit codes of main.ts; anything else loads the program, main.ts (dist/main.mjs),
// which reads argv again and owns the process from then on.

import { HELP, parseCli } from './cli.js';
import { errorMessage } from './errors.js';

declare const AISH_VERSION: string;
const VERSION = typeof AISH_VERSION === 'string' ? AISH_VERSION : '0.0.0-dev';
/** Through a variable, so neither TypeScript nor esbuild looks for the built file. */
const PROGRAM = './main.mjs';

function answer(): boolean {
  let cli;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`aish: ${errorMessage(err)}\n(aish --help lists the options)\n`);
    process.exitCode = 2;
    return true;
  }
  if (!cli.help && !cli.version) return false;
  // As in main.ts: a reader that went away (`aish --help | head -1`) is no failure; a terminal that
  // hung up ends aish as SIGHUP would.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? 0 : err.code === 'EIO' ? 129 : 1));
  process.stdout.write(cli.help ? HELP : `aish ${VERSION}\n`);
  return true;
}

if (!answer()) {
  import(PROGRAM).catch((err: unknown) => {
    process.stderr.write(`aish: cannot load ${PROGRAM}: ${errorMessage(err)}\n`);
    process.exit(1);
  });
}
