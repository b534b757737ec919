// Wiring only: builds the parts of an interactive session from what main.ts read (config, env,
// streams, paths) and hands them to each other. No behaviour lives here; docs/architecture.md
// draws the result.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config/schema.js';
import { trustFileOf } from './config/trust-store.js';
import { PendingOutput } from './context/pending-output.js';
import { historyDirOf } from './history/format.js';
import { SavedPrompts } from './history/saved-prompts.js';
import { SessionStore } from './history/session.js';
import type { Io } from './io.js';
import { openUrl } from './mcp/open-url.js';
import type { ProcessGroups } from './mcp/process-groups.js';
import { createRegistry } from './mcp/startup.js';
import { MemoryStore } from './memory/store.js';
import { copyCommands } from './meta/copy.js';
import { coreCommands } from './meta/core.js';
import { editCommands } from './meta/edit.js';
import { mcpCommands } from './meta/mcp.js';
import { toolsCommands } from './meta/tools.js';
import { memoryCommands } from './meta/memory.js';
import { norrisCommands } from './meta/norris.js';
import { permsCommands } from './meta/perms.js';
import { projectCommands } from './meta/project.js';
import { promptCommands } from './meta/prompt.js';
import { routeCommands } from './meta/route.js';
import { sessionCommands } from './meta/session.js';
import { trustCommands } from './meta/trust.js';
import { undoCommands } from './meta/undo.js';
import { NorrisBox } from './norris/box.js';
import { NorrisMode } from './norris/mode.js';
import { Previewer } from './preview/previewer.js';
import { SessionPreview } from './preview/session-preview.js';
import { previewView } from './render/preview-view.js';
import { formatArguments } from './render/question.js';
import { Renderer } from './render/renderer.js';
import { colorLevel, createStyle } from './render/style.js';
import { createTurnView } from './render/turn-view.js';
import { BackgroundLines } from './repl/background-lines.js';
import { bannerText } from './repl/banner.js';
import { Repl } from './repl/repl.js';
import type { AskFn, AskKeyFn, KeyQuestion } from './safety/confirm.js';
import { ApprovalGate } from './safety/gate.js';
import { policyFromConfig } from './safety/policy.js';
import { Redactor } from './safety/redact.js';
import { secretShapeScan } from './secret-rules.js';
import { ProjectContext } from './project/context.js';
import { ShellRunner } from './shell/shell-runner.js';
import { ShellSession, sessionShellOf } from './shell/session.js';
import os from 'node:os';
import { enabledBuiltins } from './config/defaults.js';
import { serverRequests } from './tools/server-requests.js';
import { SessionTools } from './tools/session-tools.js';
import { TurnCore } from './turn/core.js';
import { Checkpoints } from './undo/checkpoints.js';
import { presetModels, startingModel } from './turn/model-client.js';

/** How long a server's sampling request may keep the model busy. */
const SAMPLING_TIMEOUT_MS = 120_000;

export interface AppOptions {
  io: Io;
  config: Config;
  /** The config file in use, if any (shown at start-up). */
  configFile?: string | undefined;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Where input history and sessions live; undefined turns persistence off. */
  stateDir: string | undefined;
  /** Where saved prompts live (aish's XDG data dir); undefined keeps none. */
  dataDir?: string | undefined;
  version: string;
  /** `--model NAME`. */
  model?: string | undefined;
  /** `--resume [NAME|last]`. */
  resume?: string | undefined;
  /** The start-up file drew the banner and the first prompt (front.ts). */
  promptShown?: boolean;
  startedAt?: Date;
  /** Where the stdio MCP servers' process groups are listed, for the exit to end what is left. */
  groups?: ProcessGroups;
}

/** Builds an interactive session; `run()` on the result starts it. */
export function createApp(opts: AppOptions): Repl {
  const { io, config, env, version } = opts;
  const model = startingModel(config, opts.model);
  // Secrets are looked up in the shell's live environment (an `export` inside aish counts).
  let liveEnv = (): Record<string, string | undefined> => env;
  let mcp: ReturnType<typeof createRegistry> | undefined;
  const { redact } = Redactor.forEnv({ env: () => liveEnv(), config, extra: () => mcp?.oauthSecrets() ?? [], shapes: secretShapeScan() });
  const render = new Renderer(io, createStyle(colorLevel(env, io.isTTY)), redact);
  const historyDir = historyDirOf(config.history.dir, { stateDir: opts.stateDir, home: env.HOME, cwd: opts.cwd });
  const status = (message: string) => render.status(message);

  // Questions go to the REPL's line reader, which exists once the REPL runs.
  let repl: Repl | undefined;
  const ask: AskFn | null = io.isTTY ? (question, prefill) => repl?.ask(question, prefill) ?? Promise.resolve(null) : null;
  const askKey: AskKeyFn | null = io.isTTY ? (question) => repl?.askKey(question) ?? Promise.resolve(null) : null;

  const pending = new PendingOutput();
  const sessions = new SessionStore({ historyDir, enabled: true, startedAt: opts.startedAt ?? new Date(), model, version, onStatus: status, redact });
  const memory = MemoryStore.open(historyDir, { redact });
  // Server log lines are drawn by the turn view (around its spinner and reply), held at the prompt.
  const view = createTurnView(render, { showStats: config.ui.show_stats });
  const background = new BackgroundLines((line) => view({ type: 'notice', message: line }));
  const onLog = (line: string) => (io.isTTY ? background.push(line) : view({ type: 'notice', message: line }));
  const models = presetModels(config, env, redact);
  // A server's questions stop the spinner first, so they stand on their own line.
  const askPerson = ask && ((question: string) => (view({ type: 'hold' }), ask(question)));
  const askKeyPerson = askKey && ((question: KeyQuestion) => (view({ type: 'hold' }), askKey(question)));
  const requests = serverRequests({
    elicitation: config.mcp.elicitation,
    sampling: config.mcp.sampling,
    ask: askPerson,
    askKey: askKeyPerson,
    status: (message) => view({ type: 'notice', message }),
    gate: { sampling: (...args) => (view({ type: 'hold' }), gate.sampling(...args)) },
    openUrl: async (url) => {
      if ((await openUrl(url, { env, isTTY: io.isTTY })) === 'none') status(`open this URL: ${url}`);
    },
    complete: async (messages, maxTokens, signal) => {
      const name = repl?.activeModel ?? model;
      const text = await models.askOnce(name, messages, { maxTokens, timeoutMs: SAMPLING_TIMEOUT_MS, signal, purpose: 'sampling' });
      return { text, model: config.models[name]?.model ?? name };
    },
    cwd: () => shell.cwd,
    roots: config.mcp.roots,
    home: env.HOME,
  });
  mcp = createRegistry(config, env, version, render, { stateDir: opts.stateDir, isTTY: io.isTTY, onLog, requests, place: () => ({ env: shell.env, cwd: shell.cwd }), ...(opts.groups ? { groups: opts.groups } : {}) });
  const size = () => ({ cols: io.columns(), rows: io.rows?.() ?? 24 });
  const shell = new ShellRunner({
    shell: config.shell,
    cwd: opts.cwd,
    env,
    isTTY: io.isTTY,
    view: render,
    pending,
    onCwdChange: () => mcp?.rootsChanged(),
    session: createSession(config, env, opts.cwd, size, status),
    keys: (onKeys) => repl?.passKeys(onKeys) ?? (() => {}),
    size,
    ...(io.onResize ? { onResize: (listener: () => void) => io.onResize!(listener) } : {}),
    onShellExit: (code) => repl?.quit(code),
    onTypeahead: (lines) => repl?.typedAhead(lines),
  });
  liveEnv = () => shell.env;
  const project = new ProjectContext(config.context.project.max_chars, () => shell.env);
  const fileExists = (file: string) => existsSync(path.resolve(shell.cwd, file));
  // A call's arguments are shown as a question shows its subject: whole, runs counted, cut to the screen.
  const show = (text: string, kind?: 'arguments') => {
    const shown = kind === 'arguments' ? formatArguments(text, { columns: io.columns(), rows: io.rows?.() ?? 24 }) : text;
    render.info(shown, (s) => render.style.dim(s));
  };
  // `p` at `execute …?` and norris.preview: the command in a throwaway copy (src/preview/).
  const preview = new SessionPreview({
    previewer: new Previewer({ env, scratchDir: opts.stateDir ? path.join(opts.stateDir, 'preview') : null, hiddenPaths: config.norris.hidden_paths, captureMaxChars: config.shell.capture_max_chars }),
    shell,
    program: config.shell.program ?? env.SHELL ?? '/bin/sh',
    timeoutMs: config.undo.preview_timeout_ms,
    env,
    view: previewView(render, config.undo.preview_timeout_ms),
  });
  const gate = new ApprovalGate({ policy: policyFromConfig(config, fileExists, env.HOME), ask, askKey, show, preview: async (command, signal) => void (await preview.run(command, signal)) });
  const tools = new SessionTools({
    mcp,
    builtins: enabledBuiltins(config.tools.builtin),
    cwd: () => shell.cwd,
    maxChars: config.mcp.max_result_chars,
    maxTools: config.mcp.max_tools,
    groups: config.mcp.groups,
  });
  // Every approved CMD: line and Norris step runs between two snapshots of its tree (`:undo`).
  const undo = new Checkpoints({ config: config.undo, stateDir: opts.stateDir, env, status, redact });
  const core = new TurnCore({
    config,
    models,
    pending,
    tools: tools.host,
    gate,
    commands: { run: (command, signal) => undo.around({ command, origin: 'cmd' }, shell.cwd, () => shell.run(command, signal)) },
    recorder: sessions,
    background: () => (config.memory.enabled ? memory.inject(config.memory.max_inject_chars) || null : null),
    project: () => project.block(shell.cwd),
    observer: view,
  });
  // Norris's commands get the terminal back from the REPL, which listens for `:halt` meanwhile.
  const hold = <T>(work: () => Promise<T>) => (repl ? repl.holdTerminal(work) : work());
  const box = new NorrisBox({ config, env, shell, note: (text) => pending.note(text) });
  const norris = new NorrisMode({
    config,
    core,
    commands: { run: (command, signal) => hold(() => shell.run(command, signal)) },
    box: { availability: () => box.availability(), run: (command, start, signal) => hold(() => box.run(command, start, signal)) },
    checkpoint: undo.around,
    cwd: () => shell.cwd,
    gate,
    status,
    preview: { availability: () => preview.availability(), step: (command, signal, start) => preview.step(command, signal, start) },
  });

  repl = new Repl({
    io,
    config,
    env,
    render,
    commands: [...coreCommands, ...sessionCommands, ...mcpCommands, ...toolsCommands, ...routeCommands, ...norrisCommands, ...memoryCommands, ...permsCommands, ...projectCommands, ...promptCommands, ...undoCommands, ...editCommands, ...copyCommands, ...trustCommands({ storeFile: trustFileOf(opts.stateDir), askKey })],
    core,
    sessions,
    shell,
    mcp,
    tools,
    memory,
    norris,
    undo,
    gate,
    project,
    prompts: new SavedPrompts(opts.dataDir, redact),
    redact,
    model,
    inputHistoryFile: historyDir ? path.join(historyDir, 'input_history') : undefined,
    resume: opts.resume,
    background,
    banner: bannerText(version, model, config.models[model]!, opts.configFile),
    promptShown: opts.promptShown ?? false,
  });
  return repl;
}

/** The session's shell: bash or zsh with `shell.session` on; null runs each line on its own. */
function createSession(
  config: Config,
  env: Record<string, string | undefined>,
  cwd: string,
  size: () => { cols: number; rows: number },
  status: (message: string) => void,
): ShellSession | null {
  const program = config.shell.program ?? env.SHELL ?? '/bin/sh';
  const kind = sessionShellOf(program);
  if (!config.shell.session || !kind) return null;
  return new ShellSession({ program, kind, cwd, env, size, status, startTimeoutMs: config.shell.start_timeout_ms, tmpDir: env.TMPDIR || os.tmpdir() });
}
