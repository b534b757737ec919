// norris.second_opinion: the `deep` preset is asked whether a command is destructive before Norris
// runs it without asking. Anything but a clear NO counts as yes (HALT); answers are cached per
// session so the same command is asked about once.

import type { ChatMessage } from '../broker/types.js';

export const SECOND_OPINION_PROMPT =
  'You check shell commands before an autonomous agent runs them. Answer with exactly one word: YES if the command could destroy or overwrite data, change system state irreversibly, or hide what it runs; NO otherwise.';

/**
 * A cached second opinion, asked through `ask` (a short question to the model, counted in the
 * session's ledger); resolves true when the command should HALT.
 */
export function createSecondOpinion(
  ask: (messages: ChatMessage[], signal: AbortSignal) => Promise<string>,
): (command: string, signal: AbortSignal) => Promise<boolean> {
  const cache = new Map<string, boolean>();
  return async (command, signal) => {
    const known = cache.get(command);
    if (known !== undefined) return known;
    let halt: boolean;
    try {
      const answer = await ask(
        [
          { role: 'system', content: SECOND_OPINION_PROMPT },
          { role: 'user', content: command },
        ],
        signal,
      );
      halt = !/^no\b/i.test(answer);
    } catch {
      // Cancelled: no answer to remember. Any other failure: HALT, and ask again next time.
      return true;
    }
    cache.set(command, halt);
    return halt;
  };
}
