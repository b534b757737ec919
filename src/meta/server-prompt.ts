// `:prompt <alias>:<name> [key=value ...]` (issue 27): a server's prompt (`prompts/get`) becomes the
// user turn and goes to the model. A missing required argument is asked for on a terminal, with
// the server's completion (`completion/complete`) on Tab; without one it is an error naming it.
// The prompt's text is the server's, not the person's: it is shown (neutralized, like all server
// text), sent as it is (no `@` mention reaches the person's files), and what the model proposes
// from it goes through the same approval as any reply.

import { UsageError } from '../errors.js';
import { splitCommandLine } from '../mcp/command-line.js';
import { capText } from '../mcp/outcome.js';
import { missingArguments, promptArguments, promptTurnText } from '../mcp/server-content.js';
import type { McpSession } from '../mcp/session.js';
import { isClean } from '../render/sanitize.js';
import type { McpRegistry } from '../mcp/registry.js';
import type { Renderer } from '../render/renderer.js';
import type { AskLine, ConversationPort } from './types.js';

/** What a server's prompt needs: the servers, a question for a missing argument, the model. */
export interface ServerPromptPort {
  readonly render: Pick<Renderer, 'info' | 'status' | 'style'>;
  readonly mcp: Pick<McpRegistry, 'connected' | 'connectedSession' | 'knows'>;
  readonly askLine: AskLine;
  readonly conversation: Pick<ConversationPort, 'ask'>;
}

/** How much of a server prompt's text is shown before it is sent (all of it goes to the model). */
const SHOWN_CHARS = 2000;

/** Whether `word` names a server prompt (`<alias>:<name>` of a server of the session). */
export function isServerPrompt(word: string, ctx: ServerPromptPort): boolean {
  const colon = word.indexOf(':');
  return colon > 0 && ctx.mcp.knows(word.slice(0, colon));
}

/** The session and prompt `<alias>:<name>` names; a UsageError says why there is none. */
async function findPrompt(ctx: ServerPromptPort, target: string): Promise<{ session: McpSession; name: string; label: string }> {
  const colon = target.indexOf(':');
  const alias = target.slice(0, colon);
  const name = target.slice(colon + 1);
  const session = ctx.mcp.connectedSession(alias);
  if (!session.lists.offersPrompts) throw new UsageError(`mcp ${alias} offers no prompts`);
  await session.lists.ready();
  return { session, name, label: `${alias}:${name}` };
}

/** Runs `:prompt <alias>:<name> [key=value ...]`; `argText` is everything after the name. */
export async function runServerPrompt(ctx: ServerPromptPort, target: string, argText: string, signal: AbortSignal): Promise<void> {
  const { session, name, label } = await findPrompt(ctx, target);
  const prompt = session.lists.prompts.find((p) => p.name === name);
  if (!prompt) throw new UsageError(`mcp ${session.alias} has no prompt named ${name} (:mcp prompts ${session.alias} lists them)`);
  let args: Record<string, string>;
  try {
    args = promptArguments(prompt, splitCommandLine(argText), label);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  for (const missing of missingArguments(prompt, args)) {
    const complete = async (line: string) => (await session.completeArgument(name, missing, line, args, signal)).filter(isClean);
    const answer = await ctx.askLine(`[aish] ${label} needs ${missing}: `, complete);
    signal.throwIfAborted();
    if (answer === null || answer.trim() === '') throw new UsageError(`${label} needs ${missing} (give it as ${missing}=<value>)`);
    args[missing] = answer.trim();
  }
  const got = await session.getPrompt(name, args, signal);
  if (!got.ok) {
    signal.throwIfAborted();
    throw new UsageError(`${label}: ${got.reason}`);
  }
  const { text, summarised } = promptTurnText(got.value);
  if (text.trim() === '') throw new UsageError(`${label}: the server sent an empty prompt (nothing was sent)`);
  for (const kind of summarised) ctx.render.status(`${kind} blocks of the prompt reach the model as one-line summaries`);
  const count = got.value.messages.length;
  ctx.render.status(`${label}: ${count} message${count === 1 ? '' : 's'} (${text.length} chars) sent as your turn:`);
  ctx.render.info(capText(text, SHOWN_CHARS), (s) => ctx.render.style.dim(s));
  await ctx.conversation.ask(text, signal, { mentions: false });
}

/**
 * Tab for `:prompt`: `<alias>:` for servers with prompts and `<alias>:<name>` once an alias is
 * typed; after the name, its arguments as `key=`, and `key=<value>` from the server's completion.
 */
export async function completeServerPrompt(ctx: ServerPromptPort, prefix: string, args: string): Promise<string[]> {
  const words = args.split(/\s+/);
  const sessions = ctx.mcp.connected().filter((s) => s.lists.offersPrompts);
  if (words.length <= 1) {
    const colon = prefix.indexOf(':');
    if (colon === -1) return sessions.map((s) => `${s.alias}:`).filter((a) => a.startsWith(prefix));
    const session = sessions.find((s) => s.alias === prefix.slice(0, colon));
    if (!session) return [];
    await session.lists.ready();
    return session.lists.prompts.map((p) => `${session.alias}:${p.name}`).filter((n) => n.startsWith(prefix) && isClean(n) && !/\s/.test(n));
  }
  const target = words[0]!;
  if (!isServerPrompt(target, ctx)) return [];
  const colon = target.indexOf(':');
  const session = sessions.find((s) => s.alias === target.slice(0, colon));
  const prompt = session?.lists.prompts.find((p) => p.name === target.slice(colon + 1));
  if (!session || !prompt) return [];
  const given = Object.fromEntries(
    words
      .slice(1, -1)
      .map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)] as const)
      .filter(([k]) => k !== ''),
  );
  const eq = prefix.indexOf('=');
  if (eq === -1) return prompt.arguments.map((a) => `${a.name}=`).filter((k) => k.startsWith(prefix) && !(k.slice(0, -1) in given));
  const key = prefix.slice(0, eq);
  const values = await session.completeArgument(prompt.name, key, prefix.slice(eq + 1), given);
  return values.filter((v) => isClean(v) && !/\s/.test(v)).map((v) => `${key}=${v}`);
}
