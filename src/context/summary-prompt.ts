// The summarizer request of seed 002 §6: the seed's system prompt over the evicted turns rendered
// one line each; an earlier summary goes first so the new one carries it forward, and with no
// evicted turns the request asks to shorten that summary. Pure; the caller sends it (300 tokens, 30 s).

/** The system prompt of the summary call, verbatim from seed 002 §6. */
export const SUMMARY_PROMPT = 'Summarize the following conversation in 2-3 sentences.';

/** Characters kept of a user or assistant turn; the summary has 300 tokens, it needs the gist. */
export const MAX_TURN_CHARS = 2000;
/** Characters kept of a tool result and of a call's arguments: what was looked at, not all of it. */
export const MAX_TOOL_CHARS = 400;

/** A turn as the context evicts it; tool calls are optional so plain `{role, content}` works too. */
export interface EvictedTurn {
  role: string;
  content: string;
  name?: string;
  tool_calls?: ReadonlyArray<{ name: string; arguments: string }>;
}

/** A message of the summary call. */
export interface SummaryMessage {
  role: 'system' | 'user';
  content: string;
}

/** Whitespace runs become one space and the text is cut at `max` characters, marked `…`. */
function squeeze(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * One line per turn: `user: ...`, `assistant: ... [called fs__read {"path":"a"}]`,
 * `tool fs__read: ...`. Whitespace is flattened and long turns are cut (tool results shortest).
 */
export function renderTurnsCompact(turns: readonly EvictedTurn[]): string {
  return turns
    .map((t) => {
      if (t.role === 'tool') return `tool${t.name ? ` ${t.name}` : ''}: ${squeeze(t.content, MAX_TOOL_CHARS)}`;
      const parts = [`${t.role}:`];
      const body = squeeze(t.content, MAX_TURN_CHARS);
      if (body) parts.push(body);
      for (const call of t.tool_calls ?? []) {
        const args = squeeze(call.arguments, MAX_TOOL_CHARS);
        parts.push(`[called ${call.name}${args && args !== '{}' ? ` ${args}` : ''}]`);
      }
      return parts.join(' ');
    })
    .join('\n');
}

/**
 * The messages of the non-streaming summary call: `SUMMARY_PROMPT` as the system message, then one
 * user message with the prior summary (whole — it is what gets shortened) and the evicted turns.
 * With `evicted` empty it asks for `prior` in shorter form (the re-summarize past
 * `context.max_summary_chars`).
 */
export function buildSummaryRequest(prior: string | null, evicted: readonly EvictedTurn[]): SummaryMessage[] {
  const parts: string[] = [];
  const earlier = prior?.trim();
  if (earlier) parts.push(`Summary of the conversation so far:\n${earlier}`);
  if (evicted.length > 0) parts.push(`${earlier ? 'Conversation since then' : 'Conversation'}:\n${renderTurnsCompact(evicted)}`);
  else if (earlier) parts.push('Shorten this summary, keeping the facts, names and decisions that matter.');
  return [
    { role: 'system', content: SUMMARY_PROMPT },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
