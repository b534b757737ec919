// The second start-up file, dist/start.js (CommonJS, as dist/aish.js): loaded by entry.ts once argv
// asks for more than --help or --version. It sets V8 up, takes charge of signals and lost streams,
// runs the front (front.ts: the config, and on a terminal the first prompt) and then imports the
// program, main.ts (dist/main.mjs, an ES module), whose `start` owns the process from then on.

import { homedir } from 'node:os';
import tty from 'node:tty';
import type { CliOptions } from './cli.js';
import { errorMessage } from './errors.js';
import { writeAllSync } from './fd-write.js';
import { runFront } from './front.js';
import { Shutdown, watchSignals, watchStreams } from './shutdown.js';

declare const AISH_VERSION: string;
const VERSION = typeof AISH_VERSION === 'string' ? AISH_VERSION : '0.0.0-dev';
/** Through a variable, so neither TypeScript nor esbuild looks for the built file. */
const PROGRAM = './main.mjs';

/**
 * Two V8 settings, found by profiling `aish -p` (docs/performance.md); both are read by V8 when it
 * acts, so setting them here, before the program is loaded, takes effect:
 * - The young generation stays at its start size (1 MB per semi-space). V8 doubles it, up to 16 MB,
 *   each time about its size has survived since the last growth, and the pages stay resident: a
 *   100 000-delta reply cost 16 MB of RSS that way. The maximum size cannot be changed once the
 *   heap is set up; the growth factor can. Measured: no CPU cost.
 * - WebAssembly stays on the baseline compiler unless a function runs very hot. undici parses HTTP
 *   with llhttp, compiled to WebAssembly; after the first reply V8 recompiled its parser with
 *   TurboFan in the background, about 200 ms of CPU and 27 MB, and the exit waited for it (300 ms
 *   after the answer on a busy machine). The baseline code streams the reply no slower.
 * Done after the front (`--help`, `--version`, the first prompt and an empty piped input need neither);
 * loading node:v8 takes about 1 ms.
 */
function tuneV8(): void {
  // require, not import(): this file is CommonJS, and import() would start the ESM loader here.
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--wasm-tiering-budget=1000000000');
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
      output: { write: (text: string) => writeOrThrow(1, text) },
      errors: { write: (text: string) => writeOrThrow(2, text) },
      isTTY: tty.isatty(0) && tty.isatty(1),
    },
    env,
    cwd: process.cwd(),
    home: env.HOME || homedir(),
    version: VERSION,
  });
  if (typeof front === 'number') return shutdown.exit(front);
  watchStreams(shutdown);
  tuneV8();
  const program = (await import(PROGRAM)) as typeof import('./main.js');
  program.start(front, shutdown);
}

function writeOrThrow(fd: 1 | 2, text: string): void {
  const err = writeAllSync(fd, text);
  if (err) throw err;
}

/** Runs aish past the flags entry.ts answers itself. */
export function start(cli: CliOptions): void {
  run(cli).catch((err: unknown) => {
    process.stderr.write(`aish: cannot load ${PROGRAM}: ${errorMessage(err)}\n`);
    process.exit(1);
  });
}
