#!/usr/bin/env node
// The entry point and the only module that touches `process`: argv, env, stdio, signals, exit.
// Everything else receives what it needs from here, so every part can be driven by tests.

import { closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tty from 'node:tty';
import { fileURLToPath } from 'node:url';
// Only what `--help`, `--version` and a bad flag need is imported up front: the rest of the program
// is loaded after argv is read (dynamic imports, each its own chunk; docs/performance.md).
import { HELP, parseCli } from './cli.js';
import type { Config } from './config/schema.js';
import type { CliOptions } from './cli.js';
import { ConfigError, FatalError, UsageError, describeError, errorMessage } from './errors.js';
import type { Io } from './io.js';
import { xdgData, xdgState } from 'xdg-basedir';

declare const AISH_VERSION: string;
const VERSION = typeof AISH_VERSION === 'string' ? AISH_VERSION : '0.0.0-dev';
/** Where input history and sessions live unless `history.dir` says otherwise. */
const STATE_DIR = xdgState ? path.join(xdgState, 'aish') : undefined;

async function main(shutdown: Shutdown): Promise<number> {
  const env = { ...process.env };
  let cli;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`aish: ${errorMessage(err)}\n(aish --help lists the options)\n`);
    return 2;
  }
  if (cli.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (cli.version) {
    process.stdout.write(`aish ${VERSION}\n`);
    return 0;
  }

  await tuneV8();
  const home = env.HOME || os.homedir();
  const cwd = process.cwd();
  const { loadConfig } = await import('./config/load.js');
  let loaded;
  try {
    loaded = await loadConfig({
      cwd,
      env,
      configPath: cli.config,
      stopDir: home,
      definePath: fileURLToPath(new URL('./config.mjs', import.meta.url)),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`aish: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  if (cli.prompt !== undefined) return oneShot(cli, loaded.config, env, shutdown);

  // Prompts, line editing and colour need a terminal on both ends.
  const io = createIo(Boolean(process.stdin.isTTY && process.stdout.isTTY));

  const { createApp } = await import('./app.js');
  let app: ReturnType<typeof createApp>;
  try {
    app = createApp({
      io,
      config: loaded.config,
      configFile: loaded.file,
      env,
      cwd,
      stateDir: STATE_DIR,
      dataDir: xdgData ? path.join(xdgData, 'aish') : undefined,
      version: VERSION,
      model: cli.model,
      resume: cli.resume,
    });
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`aish: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  shutdown.stopWith((code) => app.shutdown(code));
  if (io.isTTY) guardRawMode(process.stdin, shutdown);
  // Ctrl-C while a line is processed cancels that line; aish itself keeps running.
  process.on('SIGINT', () => {
    if (!shutdown.started) app.interrupt();
  });
  // The REPL must never fall back to the user's shell: report and go on.
  const report = reportUncaught(shutdown, (err) => app.render.error(describeError(err, env)));
  process.on('uncaughtException', report);
  process.on('unhandledRejection', report);

  return app.run();
}

async function oneShot(cli: CliOptions, config: Config, env: Record<string, string | undefined>, shutdown: Shutdown): Promise<number> {
  // Piped input is capped like command output while it is read: a 50 MB pipe costs no 50 MB.
  const [{ readPiped, runOneShot }, { historyDirOf }] = await Promise.all([import('./one-shot.js'), import('./history/format.js')]);
  const piped = process.stdin.isTTY ? undefined : await readPiped(process.stdin, config.shell.capture_max_chars);
  const controller = new AbortController();
  process.on('SIGINT', () => controller.abort());
  shutdown.stopWith(() => controller.abort());
  // stdin may be a pipe here; the reply is decorated when both output streams are a terminal.
  const io = createIo(Boolean(process.stdout.isTTY && process.stderr.isTTY));
  try {
    return await runOneShot({
      io,
      config,
      env,
      version: VERSION,
      prompt: cli.prompt!,
      piped,
      model: cli.model,
      resume: cli.resume,
      cwd: process.cwd(),
      historyDir: historyDirOf(config.history.dir, { stateDir: STATE_DIR, home: env.HOME, cwd: process.cwd() }),
      stateDir: STATE_DIR,
      signal: controller.signal,
    });
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`aish: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

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
 * Done after `--help` and `--version`, which need neither; loading node:v8 takes about 1 ms.
 */
async function tuneV8(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--wasm-tiering-budget=1000000000');
}

/** The process's streams as every part receives them. */
function createIo(isTTY: boolean): Io {
  return {
    input: process.stdin,
    output: process.stdout,
    errors: process.stderr,
    isTTY,
    columns: () => process.stdout.columns || 80,
  };
}

/**
 * How aish ends early: SIGHUP or SIGTERM, or its terminal or the reader of its output gone. The
 * first cause sets the exit code; from then on aish writes nothing, ends the work in progress and
 * exits, a second later at the latest. Every exit goes through `exit`.
 */
class Shutdown {
  #code: number | undefined;
  #stopWork: ((code: number) => void) | undefined;
  /** The standard streams that were a terminal at start. */
  readonly #terminals = [0, 1, 2].filter((fd) => tty.isatty(fd));

  get started(): boolean {
    return this.#code !== undefined;
  }

  /** How to end the work in progress (the REPL, the one-shot question); until then, exit at once. */
  stopWith(stop: (code: number) => void): void {
    this.#stopWork = stop;
  }

  begin(code: number): void {
    if (this.#code !== undefined) return;
    this.#code = code;
    if (!this.#stopWork) this.exit(code);
    // The backstop: a child deaf to every signal or a close that hangs does not keep aish alive.
    setTimeout(() => this.exit(code), 1000);
    try {
      this.#stopWork(code);
    } catch {
      // The backstop ends aish all the same.
    }
  }

  /** Exits with the shutdown's code if there is one, else with `code`. */
  exit(code: number): never {
    // At exit Node restores the mode of each terminal it started with and, before Node 24, aborts
    // when that fails (nodejs/node#51519), as it does on a terminal that has hung up (isatty is
    // then false): let go of such a terminal first, and Node skips it.
    for (const fd of this.#terminals) {
      if (tty.isatty(fd)) continue;
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
    }
    process.exit(this.#code ?? code);
  }
}

/** SIGHUP and SIGTERM end aish and what it runs; so does any error of a standard stream. */
function watchProcess(shutdown: Shutdown): void {
  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    process.on(signal, () => shutdown.begin(128 + os.constants.signals[signal]));
  }
  // Never a write here: telling about a failed write fails again (and used to loop).
  for (const stream of [process.stdin, process.stdout, process.stderr]) {
    stream.on('error', (err) => shutdown.begin(lostStreamCode(err) ?? 1));
  }
}

/** The exit code when `err` says the terminal or the reader of a stream has gone away. */
function lostStreamCode(err: unknown): number | undefined {
  switch ((err as NodeJS.ErrnoException | null | undefined)?.code) {
    case 'EIO':
      // The terminal hung up: as if by SIGHUP.
      return 128 + os.constants.signals.SIGHUP;
    case 'EPIPE':
      // The reader has what it wanted (`aish … | head`).
      return 0;
    default:
      return undefined;
  }
}

/**
 * On a terminal that has hung up, changing its mode fails (EIO), and readline's close would throw
 * half-way without ever reporting the end of input. Such a failure ends aish instead, once the
 * close is done.
 */
function guardRawMode(stdin: NodeJS.ReadStream, shutdown: Shutdown): void {
  const setRawMode = stdin.setRawMode.bind(stdin);
  stdin.setRawMode = (mode: boolean) => {
    try {
      return setRawMode(mode);
    } catch (err) {
      process.nextTick(() => shutdown.begin(lostStreamCode(err) ?? 1));
      return stdin;
    }
  };
}

/**
 * The uncaught-error handler of the REPL: reports and lets aish go on, but never writes once aish
 * is shutting down. An error of a lost terminal or reader ends aish, and so does a failure to
 * report; errors following a report in the same turn of the event loop are its own echo (a failed
 * write fails on the next tick) and are dropped, so reporting never feeds itself.
 */
function reportUncaught(shutdown: Shutdown, report: (err: unknown) => void): (err: unknown) => void {
  let reporting = false;
  return (err) => {
    const lost = lostStreamCode(err);
    if (lost !== undefined) return shutdown.begin(lost);
    if (shutdown.started || reporting) return;
    reporting = true;
    setImmediate(() => (reporting = false));
    try {
      report(err);
    } catch {
      shutdown.begin(1);
    }
  };
}

const shutdown = new Shutdown();
watchProcess(shutdown);
main(shutdown).then(
  // Exit once stdout and stderr are drained (a slow pipe reader may still be behind); a
  // keep-alive socket or a stray timer must not hold aish open.
  (code) => process.stdout.write('', () => process.stderr.write('', () => shutdown.exit(code))),
  (err) => {
    if (!shutdown.started) process.stderr.write(`aish: ${describeError(err, process.env)}\n`);
    shutdown.exit(err instanceof FatalError ? err.exitCode : 1);
  },
);
