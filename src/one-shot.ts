// `aish -p "<text>"`: one question, the reply streamed to stdout, CMD: lines printed and never
// run, tools only when auto-approved. Piped stdin is prepended as a fenced block, capped head and
// tail like command output; binary input is refused. With `--resume` the question goes on in that
// session and the exchange is appended to its file. Exit codes: 0 answered, 1 model or broker
// error, 2 usage (no question, binary input, no such session), 130 interrupted.

import { StringDecoder } from 'node:string_decoder';
import type { Config } from './config/schema.js';
import { PendingOutput } from './context/pending-output.js';
import { UsageError, errorMessage } from './errors.js';
import { SessionStore } from './history/session.js';
import type { Io } from './io.js';
import { connectConfiguredServers, createRegistry } from './mcp/startup.js';
import { Renderer } from './render/renderer.js';
import { colorLevel, createStyle } from './render/style.js';
import { createTurnView } from './render/turn-view.js';
import { ApprovalGate } from './safety/gate.js';
import { policyFromConfig } from './safety/policy.js';
import { Redactor } from './safety/redact.js';
import { secretShapeScan } from './secret-rules.js';
import { ProjectContext } from './project/context.js';
import { OutputCapture, type CapturedOutput } from './shell/capture.js';
import { enabledBuiltins } from './config/defaults.js';
import { serverRequests } from './tools/server-requests.js';
import { SessionTools } from './tools/session-tools.js';
import { TurnCore } from './turn/core.js';
import { presetModels, startingModel } from './turn/model-client.js';

export interface OneShotOptions {
  io: Io;
  config: Config;
  env: Record<string, string | undefined>;
  version: string;
  prompt: string;
  /** What was piped to stdin (read with `readPiped`), if anything. */
  piped?: CapturedOutput | undefined;
  model?: string | undefined;
  /** `--resume NAME|last`: continue that session, appending to its file. */
  resume?: string | undefined;
  /** The directory aish runs in (its git work tree gives the `[project]` block). */
  cwd: string;
  /** Where sessions live (needed with `resume`). */
  historyDir?: string | undefined;
  /** aish's state dir, where OAuth tokens are kept (undefined: none). */
  stateDir?: string | undefined;
  signal: AbortSignal;
}

/** Reads a pipe to its end, keeping at most `maxChars` (head and tail) as command output is kept. */
export async function readPiped(stream: NodeJS.ReadableStream, maxChars: number): Promise<CapturedOutput> {
  const capture = new OutputCapture(maxChars);
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) capture.push(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
  capture.push(decoder.end());
  return capture.finish();
}

/** The user turn: piped input as a fenced block, then the question. */
export function oneShotPrompt(prompt: string, stdinText: string | undefined): string {
  if (stdinText === undefined || stdinText.trim() === '') return prompt;
  const body = stdinText.replace(/\n+$/, '');
  // A fence longer than any backtick run inside keeps the block closed.
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${body}\n${fence}\n\n${prompt}`;
}

export async function runOneShot(opts: OneShotOptions): Promise<number> {
  if (opts.prompt.trim() === '') throw new UsageError('-p needs a question');
  const { config, env, io, piped } = opts;
  if (piped?.binary) throw new UsageError(`-p: standard input looks binary (${piped.rawChars} chars with NUL bytes); pipe text (e.g. through strings or xxd)`);
  const model = startingModel(config, opts.model);
  let registry: ReturnType<typeof createRegistry> | undefined;
  const { redact } = Redactor.forEnv({ env: () => env, config, extra: () => registry?.oauthSecrets() ?? [], shapes: secretShapeScan() });
  const render = new Renderer(io, createStyle(colorLevel(env, io.isTTY)), redact);
  // Stored logins and the client-credentials grant work here; nobody is sent to a browser.
  const view = createTurnView(render, { showStats: config.ui.show_stats });
  const models = presetModels(config, env, redact);
  const gate = new ApprovalGate({ policy: policyFromConfig(config), ask: null, show: () => {} });
  // Nobody can answer a server here: mcp.elicitation and mcp.sampling decide.
  const requests = serverRequests({
    elicitation: config.mcp.elicitation,
    sampling: config.mcp.sampling,
    ask: null,
    status: (message) => view({ type: 'notice', message }),
    gate,
    openUrl: async () => {},
    complete: async (messages, maxTokens, signal) => ({ text: await models.askOnce(model, messages, { maxTokens, timeoutMs: 120_000, signal }), model: config.models[model]?.model ?? model }),
    cwd: () => opts.cwd,
    roots: config.mcp.roots,
    home: env.HOME,
  });
  registry = createRegistry(config, env, opts.version, render, { stateDir: opts.stateDir, isTTY: false, onLog: (line) => view({ type: 'notice', message: line }), requests });
  const status = (message: string) => render.status(message);
  const project = new ProjectContext(config.context.project.max_chars, () => env);
  const sessions = opts.resume === undefined ? null : new SessionStore({ historyDir: opts.historyDir, enabled: true, startedAt: new Date(), model, version: opts.version, onStatus: status, redact });
  // Nobody is asked: tools run only when auto-approved, CMD: lines are printed and never run.
  const core = new TurnCore({
    config,
    models,
    pending: new PendingOutput(),
    tools: new SessionTools({ mcp: registry, builtins: enabledBuiltins(config.tools.builtin), cwd: () => opts.cwd, maxChars: config.mcp.max_result_chars, maxTools: config.mcp.max_tools, groups: config.mcp.groups }).host,
    gate,
    commands: null,
    recorder: sessions,
    background: () => null,
    project: () => project.block(opts.cwd),
    observer: view,
  });
  if (sessions && opts.resume !== undefined) {
    try {
      const resumed = await sessions.continueIn(core.context, opts.resume);
      for (const warning of resumed.warnings) status(`resume: ${warning}`);
    } catch (err) {
      throw new UsageError(`--resume: ${errorMessage(err)}`);
    }
  }
  if (piped?.truncated) status(`piped input capped at ${config.shell.capture_max_chars} chars (head and tail kept; shell.capture_max_chars)`);
  await connectConfiguredServers(registry, config, render);
  const result = await core.ask(oneShotPrompt(opts.prompt, piped?.text), model, opts.signal);
  render.endLine();
  sessions?.close();
  await registry.closeAll();
  switch (result.outcome) {
    case 'failed':
      return 1;
    case 'cancelled':
      return 130;
    default:
      return 0;
  }
}
