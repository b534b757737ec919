// A one-key answer typed on the terminal before the line editor exists (the start-up question):
// the terminal goes to raw mode for the question, a key of `keys` alone (or with Enter) answers,
// Enter alone is the fallback, and anything else (`yes`, an arrow key, a paste) asks again with
// the keys that answer, as the REPL's questions do (render/answer-keys.ts). The terminal's mode is
// put back and the input left paused for the REPL.

import { answerOf, keysHint, keysOfChunk } from '../render/answer-keys.js';

/** A terminal's input: raw mode when it can (a pipe cannot). */
type TerminalInput = NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isRaw?: boolean };

/**
 * Writes `question` and reads one key from `input`: resolves the key (lower case), or null on
 * Ctrl-C, Ctrl-D or the end of input.
 */
export function readKey(input: TerminalInput, output: { write(text: string): unknown }, question: string, keys: string, fallback: string): Promise<string | null> {
  const wasRaw = input.isRaw ?? false;
  input.setRawMode?.(true);
  output.write(question);
  return new Promise((resolve) => {
    const onData = (chunk: Buffer | string) => {
      const pressed = keysOfChunk(String(chunk));
      const control = pressed.find((k) => k.key?.ctrl && (k.key.name === 'c' || k.key.name === 'd'));
      if (control) {
        output.write(control.key?.name === 'c' ? '^C\n' : '\n');
        done(null);
        return;
      }
      const answer = answerOf(pressed, keys, fallback);
      if (answer === null) {
        // Not an answer: ask again, on a new line, with the keys that answer.
        output.write(`\n${keysHint(keys, fallback)}\n${question.slice(question.lastIndexOf('\n') + 1)}`);
        return;
      }
      output.write(`${answer}\n`);
      done(answer);
    };
    const onEnd = () => done(null);
    const done = (answer: string | null) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.pause();
      input.setRawMode?.(wasRaw);
      resolve(answer);
    };
    input.on('data', onData);
    input.once('end', onEnd);
    input.resume();
  });
}
