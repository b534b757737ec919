// What the line reader needs of node:readline beyond its documented API, all of it here. Node
// documents `rl.line` and `rl.cursor` as read-only and says nothing of `rl.history`, `clearLine()`
// or that a terminal interface reads keys through a `keypress` listener on its input; aish sets
// the line for Ctrl-R search, Ctrl-C and the editor hand-over, drops a question's answer from the
// history, and hands readline only the keys it should see. test/repl/readline-private.test.ts
// checks each of these on the running Node, and CI runs it on every maintained Node line, so a Node
// that changes them fails a test rather than a person's prompt.

import readline from 'node:readline';

/** An interface with the fields below; a cast in one place only. */
interface Internals {
  line: string;
  cursor: number;
  history: string[];
  clearLine(): void;
}

const internals = (rl: readline.Interface) => rl as unknown as Internals;

export type KeyListener = (s: string | undefined, key: readline.Key | undefined) => void;

/**
 * Creates a terminal interface on `input` and takes readline's own keypress listeners off it: the
 * caller calls them with the keys readline should see.
 */
export function createWithOwnKeys(
  input: NodeJS.ReadableStream,
  create: () => readline.Interface,
): { rl: readline.Interface; readlineKeys: KeyListener[] } {
  const before = new Set(input.listeners('keypress'));
  const rl = create();
  const readlineKeys = input.listeners('keypress').filter((l) => !before.has(l)) as KeyListener[];
  for (const l of readlineKeys) input.removeListener('keypress', l);
  return { rl, readlineKeys };
}

/** Sets the line being edited and the cursor in it (not redrawn: `rl.prompt(true)` does that). */
export function setLine(rl: readline.Interface, line: string, cursor: number): void {
  internals(rl).line = line;
  internals(rl).cursor = cursor;
}

/** The interface's history, newest first; the array itself, so a caller may drop an entry. */
export function historyOf(rl: readline.Interface): string[] {
  return internals(rl).history;
}

/** Leaves the line on screen as it is, moves below it and empties the line being edited. */
export function leaveLine(rl: readline.Interface): void {
  internals(rl).clearLine();
}
