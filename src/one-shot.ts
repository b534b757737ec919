// `aish -p "<text>"`: one question, the reply streamed to stdout, CMD: lines printed and never
// run, tools only when auto-approved. Piped stdin is prepended as a fenced block. Exit codes:
// 0 answered, 1 model or broker error, 130 interrupted (2 for usage is decided before this).

import type { Config } from './config/schema.js';
import { PendingOutput } from './context/pending-output.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import { connectConfiguredServers, createRegistry } from './mcp/startup.js';
import { Renderer } from './render/renderer.js';
import { colorLevel, createStyle } from './render/style.js';
import { createTurnView } from './render/turn-view.js';
import { ApprovalGate } from './safety/gate.js';
import { policyFromConfig } from './safety/policy.js';
import { Redactor } from './safety/redact.js';
import { enabledBuiltins } from './config/defaults.js';
import { SessionTools } from './tools/session-tools.js';
import { TurnCore } from './turn/core.js';
import { presetModels, startingModel } from './turn/model-client.js';

export interface OneShotOptions {
  io: Io;
  config: Config;
  env: Record<string, string | undefined>;
  version: string;
  prompt: string;
  /** What was piped to stdin, if anything. */
  stdinText?: string | undefined;
  model?: string | undefined;
  /** Where the file built-ins look (aish's working directory). */
  cwd: string;
  signal: AbortSignal;
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
  const { config, env, io } = opts;
  const model = startingModel(config, opts.model);
  const { redact } = Redactor.forEnv(() => env, config);
  const render = new Renderer(io, createStyle(colorLevel(env, io.isTTY)), redact);
  const registry = createRegistry(config, env, opts.version, render);
  // Nobody is asked: tools run only when auto-approved, CMD: lines are printed and never run.
  const core = new TurnCore({
    config,
    models: presetModels(config, env, redact),
    pending: new PendingOutput(),
    tools: new SessionTools({ mcp: registry, builtins: enabledBuiltins(config.tools.builtin), cwd: () => opts.cwd, maxChars: config.mcp.max_result_chars, maxTools: config.mcp.max_tools, groups: config.mcp.groups }).host,
    gate: new ApprovalGate({ policy: policyFromConfig(config), ask: null, show: () => {} }),
    commands: null,
    recorder: null,
    background: () => null,
    observer: createTurnView(render, { showStats: config.ui.show_stats }),
  });
  await connectConfiguredServers(registry, config, render);
  const result = await core.ask(oneShotPrompt(opts.prompt, opts.stdinText), model, opts.signal);
  render.endLine();
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
