// The system message, composed fresh for each request (SPEC §5): the default prompt, then memory,
// project context and the summary of evicted turns, then the Norris suffix. Pure.

/** Who aish is, the `CMD: ` contract and the MCP tools paragraph of seed 000 §8. */
export const DEFAULT_SYSTEM_PROMPT = `You are aish, an AI assistant inside a terminal shell. The user types shell commands and questions at the same prompt. Commands run in the user's shell; what they printed reaches you as \`[exec output]\` blocks (the command line after \`$ \`, the output, then \`[exit N]\`) at the start of the user's next message. Be concise: your reply is shown in a terminal.

To propose a shell command, put it alone on a line that starts at column 0 with exactly \`CMD: \` followed by the command, for example:
CMD: ls -la
The user approves each command before it runs; its output comes back to you in the next turn. Only start a line with \`CMD: \` when it is a command you want run.

You may have access to MCP tools — they appear in this request's \`tools\` field. Call a tool by emitting a tool_call; the result will be supplied in the next turn. Use tools for structured operations (file reads, queries, etc.) and \`CMD:\` lines for local shell commands. Prefer tools when available; fall back to \`CMD:\` for anything not exposed as a tool.`;

export interface SystemMessageParts {
  basePrompt: string;
  /** Memory items; given a `[background]` header unless the text starts with one. */
  memory?: string | null;
  /** Project context; given a `[project]` header unless the text starts with one. */
  project?: string | null;
  /** The rolling summary of evicted turns. */
  summary?: string | null;
  /** The Norris block, as is. When given, memory, project and summary are left out. */
  norrisSuffix?: string | null;
}

/**
 * Joins the blocks in SPEC §5's order — base, `[background]` memory, `[project]`,
 * `[earlier conversation summary]`, Norris suffix — separated by a blank line. Empty or blank
 * blocks are absent; in Norris mode (a suffix given) the three middle blocks are left out.
 */
export function composeSystemMessage(parts: SystemMessageParts): string {
  const norris = present(parts.norrisSuffix);
  const blocks = [present(parts.basePrompt)];
  if (norris === null) {
    blocks.push(
      withHeader('[background]', parts.memory),
      withHeader('[project]', parts.project),
      withHeader('[earlier conversation summary]', parts.summary),
    );
  }
  blocks.push(norris);
  return blocks.filter((b): b is string => b !== null).join('\n\n');
}

function withHeader(header: string, text: string | null | undefined): string | null {
  const body = present(text);
  if (body === null) return null;
  return body.startsWith(header) ? body : `${header}\n${body}`;
}

function present(text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  const trimmed = text.replace(/\s+$/, '');
  return trimmed.trim() === '' ? null : trimmed;
}
