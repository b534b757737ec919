// Wiring only: an interactive session from what main.ts read (config, env, streams, paths). The
// REPL's input exists first (every part that asks is given its questions), then the session's parts
// (build-session.ts, as `-p` builds them), then the person's conversation, the meta commands each
// bound to its port, and the loop. No behaviour lives here; docs/architecture.md draws the result.

import path from 'node:path';
import { buildSession, sessionSecrets } from './build-session.js';
import type { Config } from './config/schema.js';
import { trustFileOf } from './config/trust-store.js';
import { describeError } from './errors.js';
import { historyDirOf } from './history/format.js';
import { SavedPrompts } from './history/saved-prompts.js';
import type { Io } from './io.js';
import type { ProcessGroups } from './mcp/process-groups.js';
import { summarizeMemory } from './memory/summarize.js';
import { copyCommands } from './meta/copy.js';
import { coreCommands } from './meta/core.js';
import { editCommands } from './meta/edit.js';
import { mcpCommands } from './meta/mcp.js';
import { memoryCommands } from './meta/memory.js';
import { norrisCommands } from './meta/norris.js';
import { outCommands } from './meta/out.js';
import { permsCommands } from './meta/perms.js';
import { projectCommands } from './meta/project.js';
import { promptCommands } from './meta/prompt.js';
import { routeCommands } from './meta/route.js';
import { sessionCommands } from './meta/session.js';
import { toolsCommands } from './meta/tools.js';
import { trustCommands } from './meta/trust.js';
import { bind, type BoundCommand } from './meta/types.js';
import { undoCommands } from './meta/undo.js';
import { createTurnView } from './render/turn-view.js';
import { bannerText } from './repl/banner.js';
import { Conversation } from './repl/conversation.js';
import { shellEditor } from './repl/editor.js';
import { loadInputrc, ReplInput } from './repl/input.js';
import { echoComposed } from './repl/line-reader.js';
import { lineCompleter } from './repl/line-completion.js';
import { modelSuggester } from './repl/model-suggest.js';
import { runNorrisLine } from './repl/norris-line.js';
import { promptOf } from './repl/prompt.js';
import { Repl } from './repl/repl.js';
import { UsageError } from './errors.js';
import { startingModel } from './turn/model-client.js';

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
  const { io, config, env } = opts;
  const model = startingModel(config, opts.model);
  const historyDir = historyDirOf(config.history.dir, { stateDir: opts.stateDir, home: env.HOME, cwd: opts.cwd });
  // The keyboard comes first: the parts that ask are given its questions (answered once the loop runs).
  const input = new ReplInput(io);
  const secrets = sessionSecrets({ config, env, cwd: opts.cwd, stateDir: opts.stateDir });
  const session = buildSession({
    secrets,
    io,
    config,
    env,
    cwd: opts.cwd,
    version: opts.version,
    stateDir: opts.stateDir,
    historyDir,
    model,
    questions: io.isTTY ? { ask: (question, prefill) => input.ask(question, prefill), askKey: (question) => input.askKey(question) } : null,
    view: (render) => createTurnView(render, { showStats: config.ui.show_stats }),
    holdLogs: io.isTTY,
    shell: {
      keys: (onKeys) => input.passKeys(onKeys),
      hold: (work) => input.hold(work),
      onExit: (code) => input.quit(code),
      onTypeahead: (lines) => input.typedAhead(lines),
    },
    record: true,
    browser: true,
    memory: true,
    ...(opts.startedAt ? { startedAt: opts.startedAt } : {}),
    ...(opts.groups ? { groups: opts.groups } : {}),
  });
  const { render, core, mcp, status, shell, undo, norris, sessions, blocks } = session;
  const { redact } = secrets;
  const { marks } = render;
  const suggestModel = config.suggest.model;
  const conversation = new Conversation({ config, core, blocks, shell, resources: mcp, prepare: (cwd) => undo.prepare(cwd), status, active: session.active });
  const prompt = promptOf({ template: config.shell.prompt, fromShell: config.shell.prompt_from_shell, conversation, core, norris, shell, blocks, bold: (s) => render.style.bold(s) });
  const edit = shellEditor(shell, render, (err) => describeError(err, env));
  const askKey = io.isTTY ? (question: Parameters<ReplInput['askKey']>[0]) => input.askKey(question) : null;
  const say = { render };

  // Each family of meta commands is given the few parts it uses (src/meta/types.ts).
  const commands: BoundCommand[] = [];
  commands.push(
    ...bind(coreCommands, {
      render,
      commands,
      config,
      conversation,
      core,
      shell,
      quit: () => input.quit(),
      clearScreen: () => void (io.isTTY && io.output.write('\x1b[H\x1b[2J')),
    }),
    ...bind(sessionCommands, { ...say, core, sessions, tools: session.tools }),
    ...bind(mcpCommands, { ...say, mcp }),
    ...bind(toolsCommands, { ...say, core, tools: session.tools, sessions }),
    ...bind(routeCommands, { ...say, config, core, conversation }),
    ...bind(norrisCommands, {
      ...say,
      norris,
      runNorris: (goal, signal) =>
        runNorrisLine(
          goal,
          { norris, listen: (onLine) => input.listen(onLine), note: (text) => core.pending.note(text), prepare: () => undo.prepare(shell.cwd), model: () => conversation.activeModel, status },
          signal,
        ),
    }),
    ...bind(memoryCommands, {
      ...say,
      config,
      memory: session.memory,
      summarize: (signal) =>
        summarizeMemory({
          config,
          complete: (name, messages, limits) => core.askOnce(name, messages, { ...limits, purpose: 'memory' }),
          store: session.memory,
          sessionFile: sessions.file,
          turns: core.context.turns,
          ask: io.isTTY ? (question, prefill) => input.ask(question, prefill) : null,
          askKey,
          status,
          signal,
        }),
    }),
    ...bind(permsCommands, { ...say, config, gate: session.gate }),
    ...bind(projectCommands, { ...say, config, core, shell, project: session.project }),
    ...bind(promptCommands, { render, mcp, askLine: (question, complete) => input.askLine(question, complete), conversation, prompts: new SavedPrompts(opts.dataDir, redact) }),
    ...bind(undoCommands, { ...say, shell, undo, core }),
    ...bind(editCommands, {
      composeLine: async (initial) => {
        if (!io.isTTY) throw new UsageError(':edit needs a terminal');
        const text = await edit(initial);
        if (text === null) return null;
        render.write(echoComposed(prompt(), text));
        input.remember(text);
        return text;
      },
      runNext: (line) => input.runNext(line),
    }),
    ...bind(copyCommands, { render, core, shell }),
    ...bind(outCommands, { render, blocks, shell, conversation }),
    ...bind(trustCommands({ storeFile: trustFileOf(opts.stateDir), askKey }), { ...say, shell }),
  );

  // readline's init file: the editing mode before the shell says, the bell, completion's case.
  const inputrc = loadInputrc(env);

  return new Repl({
    io,
    config,
    env,
    render,
    input,
    reader: {
      historyFile: historyDir ? path.join(historyDir, 'input_history') : undefined,
      historySize: config.history.input_history_size,
      redact,
      secretsCurrent: () => shell.syncEnv(),
      status,
      ...(session.background ? { background: session.background } : {}),
      completer: lineCompleter({ config, commands, mcp, shell, blocks, ignoreCase: inputrc.completionIgnoreCase ?? false }),
      edit,
      inputrc,
      color: render.style.level > 0,
      marks: marks ? { atPrompt: () => marks.atPrompt(shell.cwd), start: marks.promptStart, end: marks.promptEnd } : undefined,
      ...(io.isTTY && suggestModel !== false
        ? {
            suggestModel: {
              idleMs: config.suggest.idle_ms,
              ask: modelSuggester({
                model: () => (suggestModel === true ? conversation.activeModel : suggestModel),
                askOnce: (name, messages, limits) => core.askOnce(name, messages, limits),
                redact,
                place: () => ({ cwd: shell.cwd, shell: shell.routeContext().shell }),
                // Held while the person types, like a server's log line: nothing lands in the line.
                notice: (message) => (session.background ? session.background.push(message) : status(message)),
              }),
            },
          }
        : {}),
    },
    commands,
    conversation,
    core,
    sessions,
    shell,
    mcp,
    undo,
    prompt,
    resume: opts.resume,
    banner: bannerText(opts.version, model, config.models[model]!, opts.configFile),
    promptShown: opts.promptShown ?? false,
  });
}
