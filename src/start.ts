// The second start-up file, dist/start.js (CommonJS, as dist/aish.js): loaded by entry.ts once argv
// asks for more than --help or --version. It takes charge of signals, runs the front (front.ts:
// the config, and on a terminal the first prompt), then watches the standard streams, sets V8 up
// and loads the program, main.ts (dist/program.js, with its code cache: code-cache.ts), whose
// `start` owns the process from then on.

import { homedir } from 'node:os';
import path from 'node:path';
import type { CliOptions } from './cli.js';
import { requireBundle } from './code-cache.js';
import { errorMessage, lostStreamCode } from './errors.js';
import { isTerminal } from './is-terminal.js';
import { writeAllSync } from './fd-write.js';
import { runFront } from './front.js';
import { peekPipe } from './pipe-peek.js';
import { Shutdown, watchSignals, watchStreams } from './shutdown.js';
import { V8_FLAGS } from './v8-flags.js';

declare const AISH_VERSION: string;
const VERSION = typeof AISH_VERSION === 'string' ? AISH_VERSION : '0.0.0-dev';

/** The V8 settings of v8-flags.ts; node:v8 takes about 1 ms to load, so not before the front. */
function tuneV8(): void {
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}

async function run(cli: CliOptions): Promise<void> {
  // From here on a signal or a lost terminal ends aish the one way, before the program is loaded too.
  const shutdown = new Shutdown();
  watchSignals(shutdown);
  const env = process.env;
  const front = await runFront({
    cli,
    io: {
      // Asked for when the front needs it: setting up a standard stream costs a millisecond or more.
      input: () => process.stdin,
      peekInput: () => peekPipe(0, process.platform),
      output: { write: (text: string) => writeOrThrow(1, text) },
      errors: { write: (text: string) => writeOrThrow(2, text) },
      isTTY: isTerminal(0) && isTerminal(1),
    },
    env,
    cwd: process.cwd(),
    home: env.HOME || homedir(),
    version: VERSION,
  });
  if (typeof front === 'number') return shutdown.exit(front);
  watchStreams(shutdown);
  // Before the program is compiled: its code cache was made with these flags (scripts/build.mjs).
  tuneV8();
  const program = requireBundle(path.join(__dirname, 'program.js')) as typeof import('./main.js');
  program.start(front, shutdown);
}

function writeOrThrow(fd: 1 | 2, text: string): void {
  const err = writeAllSync(fd, text);
  if (err) throw err;
}

/** Runs aish past the flags entry.ts answers itself. */
export function start(cli: CliOptions): void {
  run(cli).catch((err: unknown) => {
    // The terminal hung up (EIO) or the reader left (EPIPE) under a write that escaped the REPL's
    // guards: the exit says so (129, 0) as everywhere else, and nothing is written to it.
    const lost = lostStreamCode(err);
    if (lost !== undefined) process.exit(lost);
    process.stderr.write(`aish: cannot start: ${errorMessage(err)}\n`);
    process.exit(1);
  });
}

// The build runs the front once before it makes this file's code cache (front.ts).
export { warmUp } from './front.js';
