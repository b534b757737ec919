// Turns to the OpenAI chat-completions `messages` array (SPEC §7). Pure. With the tool role off
// (`context.use_tool_role = false`, for strict chat templates) tool results travel in user
// messages instead, and the result still alternates user / assistant after the system message.

import type { AssistantToolCall, ChatMessage } from '../broker/types.js';
import type { Turn } from './turns.js';
import { isRecord } from '../is-record.js';

// One wire shape for the whole program: the broker's (a type-only import; no code is shared).
export type { ChatMessage };
/** A tool call as the chat-completions API carries it. */
export type WireToolCall = AssistantToolCall;

export interface ToMessagesOptions {
  /** Send tool results as `role: "tool"` messages (default) or as `[tool: <name>]` user text. */
  useToolRole: boolean;
}

/**
 * The request messages: `system` first, then the turns.
 *
 * An assistant turn with calls and no text is sent with `content: ""`, not `null`: OpenAI, vLLM
 * and Ollama accept both, but llama.cpp's server (ggml-org/llama.cpp#13471), LM Studio
 * (lmstudio-bug-tracker#261) and llama-cpp-python have rejected `null`, and aish is local-first.
 *
 * Without the tool role, the assistant turn goes as text only and the results of its calls become
 * `[tool: <name>]\n<result>` blocks (joined by a blank line) in one user message at the place the
 * tool turns hold: merged in front of the next user turn when one follows directly, a synthetic
 * user message otherwise (mid tool loop, or when the model answered after the results). Keeping
 * them in place, rather than moving them to the next typed turn, means the model never sees
 * results after its own answer to them, and the prompt prefix stays the same from one request to
 * the next (servers reuse their cache). Adjacent messages of the same role are merged.
 */
export function toChatMessages(system: string, turns: readonly Turn[], options: ToMessagesOptions): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  if (options.useToolRole) {
    for (const turn of turns) messages.push(toWire(turn));
    return messages;
  }
  let results: string[] = [];
  const flushResults = () => {
    if (results.length > 0) pushMerged(messages, { role: 'user', content: results.join('\n\n') });
    results = [];
  };
  for (const turn of turns) {
    if (turn.role === 'tool') {
      results.push(`[tool: ${turn.name ?? turn.tool_call_id}]\n${turn.content}`);
      continue;
    }
    flushResults();
    pushMerged(messages, { role: turn.role, content: turn.content });
  }
  flushResults();
  return messages;
}

function toWire(turn: Turn): ChatMessage {
  switch (turn.role) {
    case 'user':
      return { role: 'user', content: turn.content };
    case 'tool':
      return { role: 'tool', tool_call_id: turn.tool_call_id, content: turn.content };
    case 'assistant':
      if (!turn.tool_calls?.length) return { role: 'assistant', content: turn.content };
      return {
        role: 'assistant',
        content: turn.content,
        tool_calls: turn.tool_calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: wireArguments(c.arguments) },
        })),
      };
  }
}

/**
 * Arguments as every backend accepts them: a JSON object's text. Arguments the model sent broken
 * (`{"path":` cut short, a bare string) go out wrapped as `{"unparsed_arguments": "<as sent>"}`,
 * so the model still sees what it wrote; the turn itself, and the session log, keep the original.
 */
export function wireArguments(args: string): string {
  if (args.trim() === '') return '{}';
  try {
    const parsed: unknown = JSON.parse(args);
    if (isRecord(parsed)) return args;
  } catch {
    // Broken JSON: wrapped below.
  }
  return JSON.stringify({ unparsed_arguments: args });
}

/** Appends a user or assistant text message, joining it to the previous one of the same role. */
function pushMerged(messages: ChatMessage[], message: { role: 'user' | 'assistant'; content: string }): void {
  const last = messages[messages.length - 1];
  if (last && last.role === message.role) {
    last.content = [last.content, message.content].filter((s) => s !== '').join('\n\n');
    return;
  }
  messages.push({ ...message });
}
