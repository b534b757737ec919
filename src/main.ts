#!/usr/bin/env node
// The entry point and the only module that touches `process`: argv, env, stdio, signals, exit.
// Everything else receives what it needs from here, so every part can be driven by tests.

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.js';
import { HELP, parseCli } from './cli.js';
import { loadConfig } from './config/load.js';
import type { Config } from './config/schema.js';
import { runOneShot } from './one-shot.js';
import type { CliOptions } from './cli.js';
import { ConfigError, FatalError, UsageError, describeError, errorMessage } from './errors.js';
import type { Io } from './io.js';
import { xdgState } from 'xdg-basedir';

declare const AISH_VERSION: string;
const VERSION = typeof AISH_VERSION === 'string' ? AISH_VERSION : '0.0.0-dev';

async function main(): Promise<number> {
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

  const home = env.HOME || os.homedir();
  const cwd = process.cwd();
  let loaded;
  try {
    loaded = await loadConfig({
      cwd,
      env,
      configPath: cli.config,
      stopDir: home,
      definePath: fileURLToPath(new URL('./config.js', import.meta.url)),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`aish: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  if (cli.prompt !== undefined) return oneShot(cli, loaded.config, env);

  // Prompts, line editing and colour need a terminal on both ends.
  const io = createIo(Boolean(process.stdin.isTTY && process.stdout.isTTY));

  let app: ReturnType<typeof createApp>;
  try {
    app = createApp({
      io,
      config: loaded.config,
      configFile: loaded.file,
      env,
      cwd,
      stateDir: xdgState ? path.join(xdgState, 'aish') : undefined,
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

  // Ctrl-C while a line is processed cancels that line; aish itself keeps running.
  process.on('SIGINT', () => app.interrupt());
  process.on('SIGTERM', () => app.quit());
  process.on('SIGHUP', () => app.quit());
  // The REPL must never fall back to the user's shell: report and go on.
  process.on('uncaughtException', (err) => app.render.error(describeError(err, env)));
  process.on('unhandledRejection', (err) => app.render.error(describeError(err, env)));
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });

  return app.run();
}

async function oneShot(cli: CliOptions, config: Config, env: Record<string, string | undefined>): Promise<number> {
  const stdinText = process.stdin.isTTY ? undefined : await readAll(process.stdin);
  const controller = new AbortController();
  process.on('SIGINT', () => controller.abort());
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  // stdin may be a pipe here; the reply is decorated when both output streams are a terminal.
  const io = createIo(Boolean(process.stdout.isTTY && process.stderr.isTTY));
  try {
    return await runOneShot({ io, config, env, version: VERSION, prompt: cli.prompt!, stdinText, model: cli.model, cwd: process.cwd(), signal: controller.signal });
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`aish: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
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

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

main().then(
  // Exit once stdout and stderr are drained (a slow pipe reader may still be behind); a
  // keep-alive socket or a stray timer must not hold aish open.
  (code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code))),
  (err) => {
    const code = err instanceof FatalError ? err.exitCode : 1;
    process.stderr.write(`aish: ${describeError(err, process.env)}\n`);
    process.exit(code);
  },
);
