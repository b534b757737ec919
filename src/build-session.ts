// One way to build a session, for the REPL (app.ts) and `-p` (one-shot.ts): the shell's state and
// the kept OAuth tokens first (the redactor looks up secrets in both: `sessionSecrets`), then the
// renderer and the turn view, the models, the session log, the shell and its previews (the
// REPL's), the approval gate, the answers to servers, the MCP registry, the session's tools,
// checkpoints, the turn core and Norris. Each part is given the parts it uses when it is made; none
// is patched in later. The REPL and `-p` differ only in what they pass: who answers questions, how
// turn events are shown, whether a shell runs commands, whether the session is logged from the
// start, whether memory is sent.

import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { enabledBuiltins } from './config/defaults.js';
import type { Config } from './config/schema.js';
import { BlockStore } from './blocks/block-store.js';
import { PendingOutput } from './context/pending-output.js';
import { SessionStore } from './history/session.js';
import type { Io } from './io.js';
import { OAuthStore } from './mcp/oauth-store.js';
import { openUrl } from './mcp/open-url.js';
import type { ProcessGroups } from './mcp/process-groups.js';
import type { McpRegistry } from './mcp/registry.js';
import { createRegistry } from './mcp/startup.js';
import { MemoryStore } from './memory/store.js';
import { NorrisBox } from './norris/box.js';
import { NorrisMode } from './norris/mode.js';
import { Previewer } from './preview/previewer.js';
import { SessionPreview } from './preview/session-preview.js';
import { ProjectContext } from './project/context.js';
import { previewView } from './render/preview-view.js';
import { formatArguments } from './render/question.js';
import { Renderer } from './render/renderer.js';
import { TerminalMarks } from './render/terminal-marks.js';
import { BackgroundLines } from './repl/background-lines.js';
import { colorLevel, createStyle } from './render/style.js';
import type { AskFn, AskKeyFn, KeyQuestion } from './safety/confirm.js';
import { ApprovalGate } from './safety/gate.js';
import { policyFromConfig } from './safety/policy.js';
import { Redactor } from './safety/redact.js';
import { secretShapeScan } from './secret-rules.js';
import { shellState, type ShellState } from './shell/builtins.js';
import { ShellSession, sessionShellOf } from './shell/session.js';
import { ShellRunner } from './shell/shell-runner.js';
import { serverRequests } from './tools/server-requests.js';
import { SessionTools } from './tools/session-tools.js';
import { TurnCore } from './turn/core.js';
import { presetModels } from './turn/model-client.js';
import type { TurnObserver } from './turn/types.js';
import { Checkpoints } from './undo/checkpoints.js';

/** How long a server's sampling request may keep the model busy. */
const SAMPLING_TIMEOUT_MS = 120_000;

/** Who answers a question in the middle of a line (the REPL's input on a terminal). */
export interface Questions {
  ask: AskFn;
  askKey: AskKeyFn;
}

/** What the REPL's shell is given of the keyboard and the loop. */
export interface ShellHooks {
  /** The keyboard, handed to a running command until the returned function is called. */
  keys: (onKeys: (data: string) => void) => () => void;
  /** Runs `work` (a command Norris decided on) with the terminal given back to it. */
  hold: <T>(work: () => Promise<T>) => Promise<T>;
  /** `exit` ended the shell: aish ends too, with its code. */
  onExit: (code: number) => void;
  /** Lines typed while a command ran that it did not read. */
  onTypeahead: (lines: string[]) => void;
}

/**
 * Where secrets are looked up, and the one redactor over them: the shell's state (its live
 * environment: an `export` inside aish counts), the config's tokens and the kept OAuth tokens.
 * Made before the session: the renderer and a script's output redact with it.
 */
export interface Secrets {
  /** The directory and environment lines run in, as they change. */
  place: ShellState;
  oauth: OAuthStore;
  redact: (text: string) => string;
}

export function sessionSecrets(opts: { config: Config; env: Record<string, string | undefined>; cwd: string; stateDir: string | undefined }): Secrets {
  const place = shellState(opts.cwd, opts.env);
  const oauth = new OAuthStore(opts.stateDir);
  const { redact } = Redactor.forEnv({
    env: () => place.env,
    config: opts.config,
    extra: () => oauth.secrets().map((value) => ({ name: 'mcp-oauth', value })),
    shapes: secretShapeScan(),
  });
  return { place, oauth, redact };
}

export interface SessionOptions {
  /** `sessionSecrets` of the same config, environment, directory and state dir. */
  secrets: Secrets;
  io: Io;
  config: Config;
  env: Record<string, string | undefined>;
  cwd: string;
  version: string;
  /** aish's state dir (OAuth tokens, checkpoints, previews); undefined keeps no state. */
  stateDir: string | undefined;
  /** Where sessions and memory live; undefined keeps none. */
  historyDir: string | undefined;
  /** The preset lines go to at start. */
  model: string;
  /** Who answers questions; null where nobody can (a pipe, `-p`). */
  questions: Questions | null;
  /** How turn events are shown, drawn by `render`. */
  view: (render: Renderer) => TurnObserver;
  /** Server log lines are held while the person types (the REPL on a terminal); else shown at once. */
  holdLogs: boolean;
  /** The REPL's shell; without it (`-p`) nothing runs: `CMD:` lines are printed, tools run only when auto-approved. */
  shell?: ShellHooks;
  /** A session log is kept (the REPL; `-p` only with `--resume`). */
  record: boolean;
  /** A URL a server wants the person to open (a login, an elicitation) is opened or shown (not in `-p`). */
  browser: boolean;
  /** Long-term memory is sent with each request (`memory.enabled`). */
  memory: boolean;
  startedAt?: Date;
  /** Where the stdio MCP servers' process groups are listed, for the exit to end what is left. */
  groups?: ProcessGroups;
}

/** The preset the person's lines go to (`:model` changes it); a server's sampling uses it too. */
export interface ActiveModel {
  name: string;
}

/** The parts of a session the REPL or `-p` go on with. */
export interface Session {
  active: ActiveModel;
  render: Renderer;
  status: (message: string) => void;
  mcp: McpRegistry;
  gate: ApprovalGate;
  tools: SessionTools;
  core: TurnCore;
  /** The session log (null: `-p` without `--resume`). */
  sessions: SessionStore | null;
  memory: MemoryStore;
  project: ProjectContext;
  /** Server log lines held at the prompt (`holdLogs`). */
  background: BackgroundLines | null;
  /** Every command's output, numbered (`@out`, `:out`). */
  blocks: BlockStore;
  /** The REPL's parts: null in `-p`. */
  shell: ShellRunner | null;
  undo: Checkpoints | null;
  norris: NorrisMode | null;
}

/** The REPL's parts, present when a shell is given. */
export interface ReplSession extends Session {
  sessions: SessionStore;
  shell: ShellRunner;
  undo: Checkpoints;
  norris: NorrisMode;
}

export function buildSession(opts: SessionOptions & { shell: ShellHooks; record: true }): ReplSession;
export function buildSession(opts: SessionOptions): Session;
export function buildSession(opts: SessionOptions): Session {
  const { io, config, env } = opts;
  const { place, oauth, redact } = opts.secrets;
  // The terminal learns the prompt and the blocks of an interactive session only.
  const marks = opts.shell && config.terminal.integration ? new TerminalMarks({ title: config.terminal.title, host: os.hostname(), home: env.HOME }) : null;
  const render = new Renderer(io, createStyle(colorLevel(env, io.isTTY)), redact, { frame: config.shell.frame, marks });
  const status = (message: string) => render.status(message);
  const view = opts.view(render);
  const models = presetModels(config, env, redact, status);
  const active: ActiveModel = { name: opts.model };
  const pending = new PendingOutput();
  const blocks = new BlockStore({ privateCommands: config.privacy.private_commands, redact });
  const memory = MemoryStore.open(opts.historyDir, { redact });
  const sessions = opts.record
    ? new SessionStore({ historyDir: opts.historyDir, enabled: true, startedAt: opts.startedAt ?? new Date(), model: opts.model, version: opts.version, onStatus: status, redact })
    : null;

  // Questions stop the spinner first, so they stand on their own line.
  const { questions } = opts;
  const ask = questions && ((question: string, prefill?: string) => (view({ type: 'hold' }), questions.ask(question, prefill)));
  const askKey = questions && ((question: KeyQuestion) => (view({ type: 'hold' }), questions.askKey(question)));
  const shell = opts.shell ? shellRunner(opts, opts.shell, { place, render, pending, blocks, status }) : null;
  // `p` at `execute …?` and norris.preview: the command in a throwaway copy (src/preview/).
  const preview =
    shell &&
    new SessionPreview({
      previewer: new Previewer({ env, scratchDir: opts.stateDir ? path.join(opts.stateDir, 'preview') : null, hiddenPaths: config.norris.hidden_paths, captureMaxChars: config.shell.capture_max_chars }),
      shell,
      program: config.shell.program ?? env.SHELL ?? '/bin/sh',
      timeoutMs: config.undo.preview_timeout_ms,
      env,
      view: previewView(render, config.undo.preview_timeout_ms),
    });
  // A call's arguments are shown as a question shows its subject: whole, runs counted, cut to the screen.
  const show = (text: string, kind?: 'arguments') => {
    const shown = kind === 'arguments' ? formatArguments(text, { columns: io.columns(), rows: io.rows?.() ?? 24 }) : text;
    render.info(shown, (s) => render.style.dim(s));
  };
  const fileExists = (file: string) => existsSync(path.resolve(place.cwd, file));
  const gate = new ApprovalGate({
    policy: policyFromConfig(config, fileExists, env.HOME),
    ask,
    askKey,
    show,
    ...(preview ? { preview: async (command: string, signal: AbortSignal) => void (await preview.run(command, signal)) } : {}),
  });
  const requests = serverRequests({
    elicitation: config.mcp.elicitation,
    sampling: config.mcp.sampling,
    ask,
    askKey,
    status: (message) => view({ type: 'notice', message }),
    gate: { sampling: (...args) => (view({ type: 'hold' }), gate.sampling(...args)) },
    // Stored logins and the client-credentials grant work without a terminal; nobody is sent to a browser.
    openUrl: async (url) => {
      if (!opts.browser) return;
      if ((await openUrl(url, { env, isTTY: io.isTTY })) === 'none') status(`open this URL: ${url}`);
    },
    complete: async (messages, maxTokens, signal) => {
      const name = active.name;
      const text = await models.askOnce(name, messages, { maxTokens, timeoutMs: SAMPLING_TIMEOUT_MS, signal, purpose: 'sampling' });
      return { text, model: config.models[name]?.model ?? name };
    },
    cwd: () => place.cwd,
    roots: config.mcp.roots,
    home: env.HOME,
  });
  // Server log lines are drawn by the turn view (around its spinner and reply).
  const background = opts.holdLogs ? new BackgroundLines((line) => view({ type: 'notice', message: line })) : null;
  const onLog = (line: string) => (background ? background.push(line) : view({ type: 'notice', message: line }));
  const mcp = createRegistry(config, env, opts.version, render, {
    store: oauth,
    isTTY: opts.browser && io.isTTY,
    onLog,
    requests,
    place: () => ({ env: place.env, cwd: place.cwd }),
    ...(opts.groups ? { groups: opts.groups } : {}),
  });
  // Each cd tells the servers offered roots, which ask again (those following the directory get new ones).
  shell?.onCwdChange(() => mcp.rootsChanged());
  const project = new ProjectContext(config.context.project.max_chars, () => place.env);
  const tools = new SessionTools({
    mcp,
    builtins: enabledBuiltins(config.tools.builtin),
    cwd: () => place.cwd,
    maxChars: config.mcp.max_result_chars,
    maxTools: config.mcp.max_tools,
    groups: config.mcp.groups,
    // Said as the request is built: the turn view draws it around its spinner.
    onTrimmed: (message) => view({ type: 'notice', message }),
  });
  // Every approved CMD: line and Norris step runs between two snapshots of its tree (`:undo`).
  const undo = shell && new Checkpoints({ config: config.undo, stateDir: opts.stateDir, env, status, redact });
  const core = new TurnCore({
    ...(shell ? {} : { unattended: true }),
    config,
    models,
    pending,
    tools: tools.host,
    gate,
    commands: shell && undo ? { run: (command, signal) => undo.around({ command, origin: 'cmd' }, shell.cwd, () => shell.run(command, signal)) } : null,
    recorder: sessions,
    background: () => (opts.memory && config.memory.enabled ? memory.inject(config.memory.max_inject_chars) || null : null),
    project: () => project.block(place.cwd),
    observer: view,
  });
  const norris = shell && undo && preview && opts.shell ? norrisMode(opts, opts.shell, { core, shell, undo, preview, gate, status, pending }) : null;
  return { active, render, status, background, mcp, gate, tools, core, sessions, memory, project, blocks, shell, undo, norris };
}

/** Where the session's shell gets its private rc folder: TMPDIR (which may name a folder that is
 * gone), then /tmp, then aish's own state dir. */
function shellTmpDirs(env: Record<string, string | undefined>, stateDir: string | undefined): string[] {
  const dirs = [env.TMPDIR || os.tmpdir(), '/tmp', ...(stateDir ? [path.join(stateDir, 'tmp')] : [])];
  return [...new Set(dirs)];
}

/** The REPL's shell: its session shell (bash, zsh or fish with `shell.session` on), the keyboard handed to it. */
function shellRunner(
  opts: SessionOptions,
  hooks: ShellHooks,
  parts: { place: ShellState; render: Renderer; pending: PendingOutput; blocks: BlockStore; status: (message: string) => void },
): ShellRunner {
  const { io, config, env, cwd } = opts;
  const size = () => ({ cols: io.columns(), rows: io.rows?.() ?? 24 });
  const program = config.shell.program ?? env.SHELL ?? '/bin/sh';
  const kind = sessionShellOf(program);
  const session =
    config.shell.session && kind
      ? new ShellSession({ program, kind, cwd, env, size, status: parts.status, startTimeoutMs: config.shell.start_timeout_ms, tmpDir: shellTmpDirs(env, opts.stateDir) })
      : null;
  return new ShellRunner({
    shell: config.shell,
    cwd,
    env,
    state: parts.place,
    isTTY: io.isTTY,
    view: parts.render,
    pending: parts.pending,
    blocks: (run) => {
      const block = parts.blocks.add(run);
      return { n: block.n, private: block.private !== null };
    },
    session,
    keys: hooks.keys,
    size,
    ...(io.onResize ? { onResize: (listener: () => void) => io.onResize!(listener) } : {}),
    onShellExit: hooks.onExit,
    onTypeahead: hooks.onTypeahead,
    redact: opts.secrets.redact,
  });
}

/** Norris for the REPL: its commands get the terminal back, its steps are checkpointed and may be previewed. */
function norrisMode(
  opts: SessionOptions,
  hooks: ShellHooks,
  parts: { core: TurnCore; shell: ShellRunner; undo: Checkpoints; preview: SessionPreview; gate: ApprovalGate; status: (message: string) => void; pending: PendingOutput },
): NorrisMode {
  const { config, env } = opts;
  const { shell, preview } = parts;
  const box = new NorrisBox({ config, env, shell, note: (text) => parts.pending.note(text), status: parts.status });
  return new NorrisMode({
    config,
    core: parts.core,
    commands: { run: (command, signal) => hooks.hold(() => shell.run(command, signal)) },
    box: { availability: () => box.availability(), run: (command, tree, signal) => hooks.hold(() => box.run(command, tree, signal)) },
    checkpoint: parts.undo.around,
    cwd: () => shell.cwd,
    gate: parts.gate,
    status: parts.status,
    preview: { availability: () => preview.availability(), step: (command, signal, tree) => preview.step(command, signal, tree) },
  });
}

