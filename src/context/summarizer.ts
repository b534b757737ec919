// The summarizer behind `context.summarize_on_evict` (seed 002 §6): the evicted turns, rendered by
// summary-prompt.ts, go to a short non-streaming question (300 tokens, 30 s). The question itself is
// given, so this folder does no I/O of its own. A failure (thrown, or an empty answer) is what the
// context store turns into silent eviction and one status line naming the reason.

import type { Summarizer } from './context.js';
import { buildSummaryRequest, type SummaryMessage } from './summary-prompt.js';

/** Most tokens a summary may take. */
export const SUMMARY_MAX_TOKENS = 300;
/** How long a summary may take. */
export const SUMMARY_TIMEOUT_MS = 30_000;

/** Asks the summarizer preset once; resolves its text (empty when it said nothing). */
export type AskSummary = (messages: SummaryMessage[], limits: { maxTokens: number; timeoutMs: number; signal?: AbortSignal }) => Promise<string>;

/** A Summarizer over `ask`: null for an empty answer; a failed question rejects with its error. */
export function createSummarizer(ask: AskSummary): Summarizer {
  return async (prior, evicted, signal) => {
    const limits = { maxTokens: SUMMARY_MAX_TOKENS, timeoutMs: SUMMARY_TIMEOUT_MS, ...(signal ? { signal } : {}) };
    const text = (await ask(buildSummaryRequest(prior, evicted), limits)).trim();
    return text === '' ? null : text;
  };
}
