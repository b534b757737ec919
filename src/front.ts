// What aish does before the program is loaded, inside the CommonJS start-up file (entry.ts): the
// config (when it is a JSON file or none), then on a terminal the banner and the first prompt, at
// once; from a pipe, the first input. Loading the program (the REPL, the turn core, MCP, the
// renderer: dist/program.js, and dist/vendor.js with the first MCP server) takes longer than Node's own start, and a person should
// not watch it (docs/performance.md "The prompt first").
//
// On a terminal the front draws what the REPL would draw first and puts the terminal in raw mode,
// so keys typed meanwhile wait in the terminal, unechoed and unprocessed (Ctrl-C, Ctrl-R, Ctrl-Z
// are bytes for the line editor, as at the REPL's prompt). The REPL then draws its prompt over
// this one and reads them. powerlevel10k's "instant prompt" does the same for zsh.
//
// From a pipe, an input that ends before its first byte, with no MCP server to connect and no
// session to resume, leaves the program nothing to do: aish exits without loading it.

import { DEFAULT_TOKEN_BUDGET } from './config/defaults.js';
import { loadQuickConfig, type ConfigFile, type LoadedConfig, type TrustAnswer } from './config/load.js';
import { sha256Hex, stateDirOf, trustFileOf, TrustStore } from './config/trust-store.js';
import type { CliOptions } from './cli.js';
import { lostStreamCode } from './errors.js';
import type { Io } from './io.js';
import { neutralize } from './render/sanitize.js';
import { colorLevel, frontStyle } from './render/sgr.js';
import { bannerText } from './repl/banner.js';
import { BRACKETED_PASTE_ON } from './repl/paste-mode.js';
import { formatPrompt } from './repl/prompt.js';
import { Redactor } from './safety/redact.js';

/** What the front hands the program (main.ts `start`). */
export interface FrontState {
  cli: CliOptions;
  /** The config, when the front could load it; else the program loads it (and reports errors). */
  loaded?: LoadedConfig | undefined;
  /** The banner and the first prompt are on the screen and the terminal is in raw mode. */
  prompted: boolean;
}

/**
 * The standard streams as the front uses them. Node sets a stream up when it is first asked for,
 * and that costs: on a terminal the front writes to the descriptors (start.ts); standard input is
 * asked for only for raw mode or to read it.
 */
export interface FrontIo {
  input: () => Io['input'];
  /** What a piped input holds now, read without setting its stream up (pipe-peek.ts); undefined when it cannot tell. */
  peekInput?: () => Buffer | null | undefined;
  /** The prompt goes here; a write throws when the stream is lost (EPIPE, EIO). */
  output: { write(text: string): unknown };
  /** The banner goes here, as the REPL's status lines do. */
  errors: { write(text: string): unknown };
  /** Input and output are a terminal. */
  isTTY: boolean;
}

export interface FrontOptions {
  cli: CliOptions;
  io: FrontIo;
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
  version: string;
}

/**
 * Runs the front. Resolves to what the program needs, or to the exit code when nothing is left
 * to do.
 * Never reports an error itself: a config that does not load (or needs cosmiconfig) is loaded
 * again by the program, which says what is wrong.
 */
export async function runFront(opts: FrontOptions): Promise<FrontState | number> {
  const { cli, io, env } = opts;
  let loaded: LoadedConfig | undefined;
  try {
    loaded = await loadQuickConfig({ cwd: opts.cwd, env, configPath: cli.config, stopDir: opts.home, trust: trustedOnly(env, opts.home), refused: () => 'defer' });
  } catch {
    return { cli, prompted: false };
  }
  const state: FrontState = { cli, loaded, prompted: false };
  if (!loaded || cli.prompt !== undefined || cli.resume !== undefined) return state;
  const { config } = loaded;
  const model = cli.model ?? config.default_model;
  const preset = config.models[model];
  // An unknown --model is the program's usage error.
  if (!preset) return state;

  if (io.isTTY) {
    // A dumb terminal has no cursor movement to draw the REPL's prompt over this one.
    if (env.TERM === 'dumb') return state;
    // What Renderer.status and the REPL draw, in the same bytes, without chalk or the renderer
    // (test/front.test.ts compares them).
    // Secrets by name only: the shape rules would cost ~10 ms of every start (bench: `redact`),
    // and the banner is aish's own line, built from the config, that shows no URL's password.
    const { redact } = Redactor.forEnv({ env: () => env, config, shapes: () => [] });
    const style = frontStyle(colorLevel(env, true));
    const prompt = formatPrompt(
      config.shell.prompt,
      { model, routing: config.routing.auto, norris: false, cwd: opts.cwd, home: env.HOME, ctxUsed: 0, ctxMax: config.context.token_budget ?? DEFAULT_TOKEN_BUDGET, turn: 0, lastStatus: 0 },
      (s) => style.bold(s),
    );
    // Raw mode before the prompt shows: a key typed the moment it shows (Ctrl-C too) must wait in
    // the terminal for the REPL, unechoed and unprocessed.
    const input = io.input();
    input.setRawMode?.(true);
    try {
      io.errors.write(`${style.dim(`[aish] ${neutralize(redact(bannerText(opts.version, model, preset, loaded.file)))}`)}\n`);
      // As the line reader reads a line: a paste made now is marked as one.
      io.output.write(BRACKETED_PASTE_ON + prompt);
    } catch (err) {
      return lostStreamCode(err) ?? 1;
    }
    return { ...state, prompted: true };
  }

  // A script's lines run once its servers are connected: the program must start them.
  if (Object.keys(config.mcp.servers).length > 0) return state;
  // A script's input that has already ended (or is there) is seen without standard input's stream.
  const peeked = io.peekInput?.();
  if (peeked === null) return 0;
  const input = io.input();
  const first = peeked ?? (await firstChunk(input));
  if (first === null) return 0;
  // As in main.ts: a stdin that fails ends aish, as SIGHUP would when it was a terminal.
  if (first instanceof Error) return lostStreamCode(first) ?? 1;
  input.unshift(first);
  return state;
}

/**
 * A project config is used here only when the store trusts it (one refused is the program's to report) with these bytes; anything else
 * (not trusted, a store that cannot be read) is the program's to decide, ask about and report.
 * The store is read only when a project config is found.
 */
function trustedOnly(env: Record<string, string | undefined>, home: string): (file: ConfigFile) => Promise<TrustAnswer> {
  let store: TrustStore | undefined;
  return async (file) => {
    store ??= new TrustStore(trustFileOf(stateDirOf(env, home)));
    return !store.problem && store.trusts(file.path, await sha256Hex(file.bytes)) ? 'use' : 'defer';
  };
}

/** The first chunk of `input`, which is left paused; null when it ends first, or its error. */
function firstChunk(input: NodeJS.ReadableStream): Promise<Buffer | string | Error | null> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer | string) => {
      input.pause();
      done(chunk);
    };
    const onEnd = () => done(null);
    const onError = (err: Error) => done(err);
    const done = (result: Buffer | string | Error | null) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onError);
      resolve(result);
    };
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
  });
}

/**
 * For the build (scripts/build.mjs): the front once on a terminal and once on a pipe that ends at
 * once, in `dir`, which holds a config, with nothing shown. V8 compiles a function when it first
 * runs, so the code cache the build makes afterwards holds what every start runs: the config's
 * search and schema, the banner and the prompt.
 */
export async function warmUp(dir: string): Promise<void> {
  const { PassThrough } = await import('node:stream');
  const sink = { write: () => true };
  for (const isTTY of [true, false]) {
    const stream = new PassThrough();
    if (!isTTY) stream.end();
    const input = Object.assign(stream, { setRawMode: () => undefined });
    const env = { HOME: dir, TERM: 'xterm-256color' };
    const state = await runFront({ cli: { help: false, version: false }, io: { input: () => input, output: sink, errors: sink, isTTY }, env, cwd: dir, home: dir, version: '0' });
    if (isTTY && (typeof state !== 'object' || !state.prompted)) throw new Error(`the front drew no prompt with the config in ${dir}`);
  }
}
