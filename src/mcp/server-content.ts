// What a server's resources and prompts become in aish (issue 27), pure: the parts of a
// `resources/read` answer (text kept, a blob summarised in one line), and a `prompts/get` answer as
// the text of one user turn (text as is, embedded resources as tool results flatten them, images
// summarised). Also the `key=value` arguments of `:prompt <alias>:<name>` checked against the prompt.

import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { base64Bytes, flattenBlock, formatBytes } from './outcome.js';
import type { McpPrompt } from './server-lists.js';

/** One item of a read resource: its text, or a one-line summary of its blob (`[blob image/png, 12 KB]`). */
export type ResourcePart = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; summary: string };

/** `[blob image/png, 12 KB]`. */
export function blobSummary(mimeType: string | undefined, bytes: number): string {
  return `[blob ${mimeType || 'unknown type'}, ${formatBytes(bytes)}]`;
}

/** The parts of a `resources/read` answer, in order. */
export function resourceParts(result: ReadResourceResult): ResourcePart[] {
  return result.contents.map((c) => {
    const mime = c.mimeType ? { mimeType: c.mimeType } : {};
    if ('text' in c && typeof c.text === 'string') return { uri: c.uri, ...mime, text: c.text };
    const blob = 'blob' in c && typeof c.blob === 'string' ? c.blob : '';
    return { uri: c.uri, ...mime, summary: blobSummary(c.mimeType, base64Bytes(blob)) };
  });
}

/** A prompt's messages as one user turn, with notices for the blocks that reach the model as summaries. */
export function promptTurnText(result: GetPromptResult): { text: string; summarised: string[] } {
  const kinds = new Set<string>();
  const parts = result.messages.map((m) => {
    const { text, summary } = flattenBlock(m.content);
    if (summary) kinds.add(m.content.type);
    // The turn is the person's: a message the prompt gives the assistant is marked as such.
    return m.role === 'assistant' ? `[assistant]\n${text}` : text;
  });
  return { text: parts.join('\n\n'), summarised: [...kinds] };
}

/**
 * `key=value` words as a prompt's arguments. Throws an Error whose message names the problem: a word
 * without `=`, a key given twice, or a key the prompt does not declare (when it declares any).
 */
export function promptArguments(prompt: McpPrompt, words: readonly string[], label: string): Record<string, string> {
  const args: Record<string, string> = {};
  const known = new Set(prompt.arguments.map((a) => a.name));
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new Error(`${label}: give arguments as key=value (not "${word}")`);
    const key = word.slice(0, eq);
    if (key in args) throw new Error(`${label}: ${key} given twice`);
    if (!known.has(key)) {
      const names = prompt.arguments.map((a) => a.name);
      throw new Error(`${label} has no argument ${key}${names.length ? ` (its arguments: ${names.join(', ')})` : ' (it takes none)'}`);
    }
    args[key] = word.slice(eq + 1);
  }
  return args;
}

/** The required arguments not given, in the prompt's order. */
export function missingArguments(prompt: McpPrompt, args: Record<string, string>): string[] {
  return prompt.arguments.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
}
