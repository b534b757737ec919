// :memory summarize — asks the summarizer preset for `(fact|pref|context): <content>` lines about
// the current session, then confirms each candidate with the person by one key (y / N / e: edit,
// the edit itself a line).

import type { ChatMessage } from '../broker/types.js';
import type { Config } from '../config/schema.js';
import type { Turn } from '../context/turns.js';
import { UsageError } from '../errors.js';
import { loadSession } from '../history/load.js';
import { plainQuestion, type AskFn, type AskKeyFn } from '../safety/confirm.js';
import { parseMemoryCandidates } from './parse.js';
import type { MemoryStore } from './store.js';

export const MEMORY_PROMPT =
  'From the conversation below, extract what is worth remembering about the user across sessions: facts about them, their machines and projects (fact), how they like answers (pref), and what they are working on (context). Answer with one item per line, each exactly `(fact|pref|context): <content>`. No other text. If nothing is worth keeping, answer nothing.';

export interface SummarizeMemoryOptions {
  config: Config;
  /** One short question to the summarizer preset (counted in the session's ledger). */
  complete: (name: string, messages: ChatMessage[], limits: { maxTokens: number; timeoutMs: number; signal: AbortSignal }) => Promise<string>;
  store: MemoryStore;
  sessionFile: string | null;
  /** Used when the session log is off. */
  turns: readonly Turn[];
  /** A line of free text (the edited item); null without a terminal. */
  ask: AskFn | null;
  /** The one-key question about each item; null without a terminal. */
  askKey: AskKeyFn | null;
  /** Status lines for the person (`nothing proposed`, how many were kept). */
  status: (message: string) => void;
  signal: AbortSignal;
}

export async function summarizeMemory(o: SummarizeMemoryOptions): Promise<void> {
  if (!o.ask || !o.askKey) throw new UsageError(':memory summarize needs a terminal to confirm each item');
  const turns = o.sessionFile ? (await loadSession(o.sessionFile)).turns : o.turns;
  const text = turns
    .filter((t) => t.role !== 'tool')
    .map((t) => `${t.role}: ${t.content}`)
    .join('\n');
  if (text.trim() === '') throw new UsageError('nothing to summarize yet');
  const name = o.config.memory.summarizer_model ?? o.config.context.summarizer_model ?? o.config.default_model;
  const answer = await o.complete(
    name,
    [
      { role: 'system', content: MEMORY_PROMPT },
      { role: 'user', content: text.slice(-12_000) },
    ],
    { signal: o.signal, maxTokens: 400, timeoutMs: 60_000 },
  );
  const candidates = parseMemoryCandidates(answer);
  if (candidates.length === 0) {
    o.status('nothing proposed');
    return;
  }
  let kept = 0;
  for (const c of candidates) {
    if (o.signal.aborted) return;
    const answer = await o.askKey(plainQuestion(`remember (${c.kind}) ${c.content}? [y/N/e] `, 'yne', 'n'));
    let content = c.content;
    if (answer === 'e') {
      const edited = await o.ask(`(${c.kind}) `, c.content);
      if (!edited?.trim()) continue;
      content = edited.trim();
    } else if (answer !== 'y') {
      continue;
    }
    o.store.add(c.kind, content);
    kept++;
  }
  o.status(`remembered ${kept} of ${candidates.length} proposed item(s)`);
}
