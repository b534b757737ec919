// Suggestions from a model for the line being typed (`suggest.model`): the line reader asks after a
// pause and shows what comes back after the line. A line that looks secret is never sent. The
// model is asked for the whole line completed, not only the rest: the broker trims replies, so a
// rest would lose the space it starts with ("git" + "status"), and the whole line shows whether
// the reply really continues what was typed. Nothing from the reply reaches the terminal raw.

import type { ChatMessage } from '../broker/types.js';
import { errorMessage } from '../errors.js';
import { isClean } from '../render/sanitize.js';
import type { AskOnceLimits } from '../turn/model-client.js';

/** A suggestion longer than this is cut: it is a line's rest, not a script. */
export const MAX_SUGGESTION_CHARS = 200;
/** Past this a suggestion would come too late to help while typing. */
const SUGGEST_TIMEOUT_MS = 5000;
/** Longer lines are not sent: they are pastes, not typing. */
const MAX_LINE_CHARS = 1000;

export interface ModelSuggestParts {
  /** The preset to ask, read at each request (`suggest.model: true` follows `:model`). */
  model: () => string;
  /** One short question outside the conversation, counted in `:cost` under its purpose (core.askOnce). */
  askOnce: (name: string, messages: ChatMessage[], limits: AskOnceLimits) => Promise<string>;
  /** The session's redactor: a line it would change looks secret. */
  redact: (text: string) => string;
  /** Where the line would run: the shell's directory and which shell it is. */
  place: () => { cwd: string; shell?: string | undefined };
  /** Said once a session, the first time a request fails (the rest fail silently). */
  notice: (message: string) => void;
}

/**
 * The line reader's `suggestModel.ask`: the rest of `line` the model suggests, or null (a line
 * that looks secret or is a meta command, nothing usable in the reply, a failure). Never rejects;
 * `signal` (the next key) cancels the request.
 */
export function modelSuggester(parts: ModelSuggestParts): (line: string, signal: AbortSignal) => Promise<string | null> {
  let warned = false;
  return async (line, signal) => {
    if (!worthAsking(line)) return null;
    const name = parts.model();
    try {
      // A redactor that cannot load its rules throws: then nothing is sent either.
      if (looksSecret(line, parts.redact)) return null;
      const reply = await parts.askOnce(name, suggestMessages(line, parts.place()), {
        maxTokens: Math.min(512, Math.ceil(line.length / 2) + 64),
        timeoutMs: SUGGEST_TIMEOUT_MS,
        signal,
        purpose: 'suggest',
      });
      return signal.aborted ? null : suggestionFrom(reply, line);
    } catch (err) {
      // Cancelled by a key: not a failure.
      if (!signal.aborted && !warned) {
        warned = true;
        parts.notice(`suggestions from ${name} failed (${errorMessage(err)}); not said again this session`);
      }
      return null;
    }
  };
}

/** A line the person typed with a leading space (kept out of history too), or one the redactor would change. */
export function looksSecret(line: string, redact: (text: string) => string): boolean {
  return line.startsWith(' ') || redact(line) !== line;
}

/** Meta commands complete with Tab; a blank or pasted line is not being typed. */
function worthAsking(line: string): boolean {
  return line.trim() !== '' && !line.startsWith(':') && !line.includes('\n') && line.length <= MAX_LINE_CHARS;
}

/** The request: what to do with the line, where it would run, then the line itself. */
export function suggestMessages(line: string, place: { cwd: string; shell?: string | undefined }): ChatMessage[] {
  const shell = place.shell ? `${place.shell} ` : '';
  return [
    {
      role: 'system',
      content:
        `You complete a line as the person types it at a prompt that takes both ${shell}shell commands and questions for an AI assistant. ` +
        'Reply with the whole line completed: exactly what they typed, unchanged, then the most likely rest of it. ' +
        'One line only: no explanation, no quotes, no code block. If nothing useful can be added, reply with the line as typed.\n' +
        `Current directory: ${place.cwd}`,
    },
    { role: 'user', content: line },
  ];
}

/**
 * What the reply adds to `line`: its first line must start with what was typed (a leading `$ `,
 * backticks, a code fence and a closed `<think>` block are passed over); the rest, without
 * control characters, cut at MAX_SUGGESTION_CHARS. null when it adds nothing or is not a
 * continuation of the line.
 */
export function suggestionFrom(reply: string, line: string): string | null {
  const first = reply
    .replace(/^\s*<think>[\s\S]*?<\/think>/, '')
    .split(/\r?\n/)
    .find((l) => l.trim() !== '' && !l.trim().startsWith('```'));
  if (first === undefined) return null;
  let text = first.trim().replace(/^`([^`]*)`$/, '$1');
  if (text.startsWith('$ ') && !line.startsWith('$')) text = text.slice(2);
  if (!text.startsWith(line)) return null;
  const rest = [...text.slice(line.length).replace(/\t/g, ' ')].slice(0, MAX_SUGGESTION_CHARS).join('');
  // Accepted, the rest becomes part of the line that runs: a control character has no place in it.
  if (rest.trim() === '' || !isClean(rest)) return null;
  return rest;
}
