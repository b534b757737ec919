// Reads memory candidates out of a model's answer for `:memory summarize`: lines of the form
// `(fact|pref|context): <content>`, tolerating list markers, numbering, missing parentheses and
// any case. Every other line is ignored. Pure.

import { oneLine, type MemoryKind } from './store.js';

export interface MemoryCandidate {
  kind: MemoryKind;
  content: string;
}

// Optional `- `, `* `, `• `, `1. `, `2) `; then the kind, with or without parentheses; then `:`.
const CANDIDATE = /^\s*(?:[-*•]\s+|\d+[.)]\s+)?\(?\s*(fact|pref|preference|context)\s*\)?\s*:\s*(.*)$/i;

/** The candidates in order; lines that are not candidates, or have no content, are skipped. */
export function parseMemoryCandidates(text: string): MemoryCandidate[] {
  const out: MemoryCandidate[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = CANDIDATE.exec(line);
    if (!match) continue;
    const word = match[1]!.toLowerCase();
    const kind: MemoryKind = word === 'preference' ? 'pref' : (word as MemoryKind);
    const content = oneLine(match[2]!);
    if (content !== '') out.push({ kind, content });
  }
  return out;
}
