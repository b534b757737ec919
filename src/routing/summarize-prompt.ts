// The summarizer request of seed 002 §6: "Summarize the following conversation in 2-3 sentences"
// over the evicted turns rendered compactly; an earlier summary comes first so the new one
// carries it forward. Pure.

import type { ChatMessage } from '../broker/types.js';

export const SUMMARY_PROMPT = 'Summarize the following conversation in 2-3 sentences.';

interface EvictedTurn {
  role: string;
  content: string;
  name?: string;
  tool_calls?: ReadonlyArray<{ name: string; arguments: string }>;
}

/** One line per turn: `user: ...`, `assistant: ... [calls x]`, `tool x: ...`. */
export function renderTurnsCompact(turns: readonly EvictedTurn[], maxPerTurn = 2000): string {
  return turns
    .map((t) => {
      const body = t.content.length > maxPerTurn ? `${t.content.slice(0, maxPerTurn)}…` : t.content;
      if (t.role === 'tool') return `tool ${t.name ?? ''}: ${body}`.replace(/ {2}/, ' ');
      const calls = t.tool_calls?.length ? ` [calls ${t.tool_calls.map((c) => c.name).join(', ')}]` : '';
      return `${t.role}: ${body}${calls}`;
    })
    .join('\n');
}

/** Messages for the summary call; with no evicted turns it asks to shorten `prior`. */
export function buildSummaryRequest(prior: string | null, evicted: readonly EvictedTurn[]): ChatMessage[] {
  const parts: string[] = [];
  if (prior) parts.push(`Earlier summary:\n${prior}`);
  if (evicted.length) parts.push(`Conversation:\n${renderTurnsCompact(evicted)}`);
  return [
    { role: 'system', content: SUMMARY_PROMPT },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
