#!/usr/bin/env node
// The program's entry point, `start`, called by the start-up file (entry.ts) once its front has
// run; with entry.ts the only module that touches `process`: argv, env, stdio, signals, exit.
// Everything else receives what it needs from here, so every part can be driven by tests.

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// The rest of the program is imported as each path needs it (dynamic imports): they are all in
// dist/program.js, but a module there is evaluated only when first imported (docs/performance.md).
import type { ConfigFile, LoadConfigOptions, RefusedConfig, TrustAnswer } from './config/load.js';
import type { Config } from './config/schema.js';
import type { CliOptions } from './cli.js';
import { ConfigError, FatalError, UsageError, describeError, lostStreamCode } from './errors.js';
import { neutralize } from './render/sanitize.js';
import type { FrontState } from './front.js';
import type { Io } from './io.js';
import { ProcessGroups } from './mcp/process-groups.js';
import type { Shutdown } from './shutdown.js';
import { xdgData, xdgState } from 'xdg-basedir';

declare const AISH_VERSION: string;
const VERSION = typeof AISH_VERSION === 'string' ? AISH_VERSION : '0.0.0-dev';
/** Where input history and sessions live unless `history.dir` says otherwise. */
const STATE_DIR = xdgState ? path.join(xdgState, 'aish') : undefined;

async function main(shutdown: Shutdown, front: FrontState): Promise<number> {
  const env = { ...process.env };
  const { cli } = front;
  const home = env.HOME || os.homedir();
  const cwd = process.cwd();
  // Prompts, line editing and colour need a terminal on both ends.
  const isTTY = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  let loaded = front.loaded;
  if (!loaded) {
    const { loadConfig } = await import('./config/load.js');
    loaded = await loadConfig({
      cwd,
      env,
      configPath: cli.config,
      stopDir: home,
      definePath: fileURLToPath(new URL('./config.mjs', import.meta.url)),
      ...projectTrust(env, isTTY && cli.prompt === undefined),
    });
  }

  if (cli.prompt !== undefined) return oneShot(cli, loaded.config, env, shutdown);

  const io = createIo(isTTY);

  const { createApp } = await import('./app.js');
  const app = createApp({
    groups: exitGroups(shutdown),
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
    promptShown: front.prompted,
  });

  shutdown.stopWith((code) => app.shutdown(code));
  if (io.isTTY) guardRawMode(process.stdin, shutdown);
  // Ctrl-C while a line is processed cancels that line; aish itself keeps running.
  process.on('SIGINT', () => {
    if (shutdown.started) return;
    // A terminal sends SIGINT only out of raw mode (a Norris step or a program holding it), and
    // then it has echoed `^C` at the cursor itself: what aish writes next starts a new line.
    if (io.isTTY) app.render.terminalEchoed();
    app.interrupt();
  });
  // Stopped from outside (kill -TSTP) and continued with `fg`: the terminal is taken back.
  if (io.isTTY) process.on('SIGCONT', () => app.continued());
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
  return runOneShot({
    groups: exitGroups(shutdown),
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
    output: cli.output,
    signal: controller.signal,
  });
}

/**
 * The decision on each project config the search finds (docs/security.md "Project trust"): trusted
 * with these bytes, used; else asked about when `ask` (a terminal, no `-p`), or passed over with a
 * status line; one refused unread is passed over with a status line saying why. Loaded only when
 * a project config is found.
 */
function projectTrust(env: Record<string, string | undefined>, ask: boolean): Pick<LoadConfigOptions, 'trust' | 'refused'> {
  let parts: Promise<{ decide: (file: ConfigFile) => Promise<TrustAnswer>; refuse: (file: RefusedConfig) => void }> | undefined;
  const load = () =>
    (parts ??= Promise.all([
      import('./trust/at-start.js'),
      import('./trust/question.js'),
      import('./render/renderer.js'),
      import('./render/style.js'),
      import('./config/trust-store.js'),
    ]).then(([{ trustAtStart }, { refusedLine }, { Renderer }, { colorLevel, createStyle }, { trustFileOf }]) => {
      const io = createIo(ask);
      const render = new Renderer(io, createStyle(colorLevel(env, Boolean(process.stderr.isTTY))));
      return {
        decide: trustAtStart({ render, storeFile: trustFileOf(STATE_DIR), terminal: ask ? process.stdin : undefined }),
        refuse: (file: RefusedConfig) => render.status(refusedLine(file)),
      };
    }));
  return {
    trust: async (file) => (await load()).decide(file),
    refused: async (file) => (await load()).refuse(file),
  };
}

/** The process's streams as every part receives them. */
function createIo(isTTY: boolean): Io {
  return {
    input: process.stdin,
    output: process.stdout,
    errors: process.stderr,
    isTTY,
    outputIsTTY: Boolean(process.stdout.isTTY),
    columns: () => process.stdout.columns || 80,
    rows: () => process.stdout.rows || 24,
    onResize: (listener) => {
      process.stdout.on('resize', listener);
      return () => process.stdout.off('resize', listener);
    },
  };
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

/** Runs aish once the front (entry.ts) has done its part; owns the process from then on. */
export function start(front: FrontState, shutdown: Shutdown): void {
  // Exit once stdout and stderr are drained (a slow pipe reader may still be behind); a
  // keep-alive socket or a stray timer must not hold aish open.
  const exit = (code: number) => process.stdout.write('', () => process.stderr.write('', () => shutdown.exit(code)));
  main(shutdown, front).then(exit, async (err: unknown) => {
    if (!shutdown.started) await reportFailure(err, front.cli, process.env);
    exit(exitCodeOf(err));
  });
}

/**
 * The one mapping of what ended aish to its exit status (docs/usage.md): a bad config or a bad
 * use of aish is 2, a FatalError its own code, anything else 1.
 */
export function exitCodeOf(err: unknown): number {
  if (err instanceof ConfigError || err instanceof UsageError) return 2;
  if (err instanceof FatalError) return err.exitCode;
  return 1;
}

/**
 * `text` with the secrets of the environment (by name) and of any shape replaced: for an error that
 * ended aish before it had a config, and so a redactor, of its own. Loaded only then.
 */
async function redactedOnError(text: string, env: Record<string, string | undefined>): Promise<string> {
  try {
    const [{ Redactor }, { secretShapeScan }] = await Promise.all([import('./safety/redact.js'), import('./secret-rules.js')]);
    return Redactor.forEnv({ env: () => env, config: { models: {}, mcp: { servers: {} } } as never, shapes: secretShapeScan() }).redact(text);
  } catch {
    return text;
  }
}

/** What aish says about the error that ended it, on stderr (and as JSON for a script reading it). */
async function reportFailure(err: unknown, cli: CliOptions, env: Record<string, string | undefined>): Promise<void> {
  if (err instanceof ConfigError) {
    // A config quotes its own keys and values: they pass the redactor (a token pasted as a key) and
    // the sanitizer (an escape in a key must not set the title or clear the screen); ConfigError
    // caps how much it quotes.
    const message = await redactedOnError(err.message, env);
    process.stderr.write(`aish: ${neutralize(message)}\n`);
    // A script reading JSON gets its error as JSON too (docs/usage.md "Scripting with -p").
    if (cli.output) {
      const { scriptErrorLine } = await import('./render/script-output.js');
      process.stdout.write(scriptErrorLine(cli.output, { kind: 'config', message }));
    }
    return;
  }
  process.stderr.write(`aish: ${err instanceof UsageError ? err.message : describeError(err, env)}\n`);
}

/**
 * The stdio MCP servers' process groups, each ended at exit if still there: when the one-second
 * backstop exits before the servers' close got to SIGKILL, a server that ignores SIGTERM (or a
 * child of its launcher) would otherwise outlive aish.
 */
function exitGroups(shutdown: Shutdown): ProcessGroups {
  const groups = new ProcessGroups();
  shutdown.atExit(() => groups.endNow());
  return groups;
}
