// `aish -p "<text>"`: one question, the reply streamed to stdout, CMD: lines printed and never
// run, tools only when auto-approved. Piped stdin is prepended as a fenced block. Exit codes:
// 0 answered, 1 model or broker error, 130 interrupted (2 for usage is decided before this).

import type { Config } from './config/schema.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import { Renderer } from './render/renderer.js';
import { colorLevel, createStyle } from './render/style.js';
import { Conversation } from './repl/conversation.js';
import { connectConfiguredServers, createRegistry } from './app.js';
import { mcpToolHost } from './tools/mcp-host.js';

export interface OneShotOptions {
  io: Io;
  config: Config;
  env: Record<string, string | undefined>;
  version: string;
  prompt: string;
  /** What was piped to stdin, if anything. */
  stdinText?: string | undefined;
  model?: string | undefined;
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
  const model = opts.model ?? opts.config.default_model;
  if (!opts.config.models[model]) {
    throw new UsageError(`--model: no preset named "${model}" (presets: ${Object.keys(opts.config.models).join(', ')})`);
  }
  const render = new Renderer(opts.io, createStyle(colorLevel(opts.env, opts.io.isTTY)));
  const conversation = new Conversation({
    config: opts.config,
    env: opts.env,
    io: opts.io,
    render,
    historyDir: undefined,
    version: opts.version,
    startedAt: new Date(),
    ask: null,
    runShellLine: async () => {},
    runCommands: false,
    logSessions: false,
  });
  const registry = createRegistry(opts.config, opts.env, opts.version, render);
  conversation.tools = mcpToolHost(registry);
  await connectConfiguredServers(registry, opts.config, opts.io, render);
  const result = await conversation.ask(oneShotPrompt(opts.prompt, opts.stdinText), model, opts.signal);
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
