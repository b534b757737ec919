// A headless terminal (@xterm/headless) to draw into, and Node's own keypress decoding of raw
// terminal input: the line editor's tests type bytes as a terminal sends them and read the screen
// as a person would see it.

import { emitKeypressEvents } from 'node:readline';
import { PassThrough } from 'node:stream';
import { Terminal } from '@xterm/headless';
import type { KeyInput } from '../../src/line/editor.js';

export class HeadlessTerm {
  readonly term: Terminal;

  constructor(cols = 40, rows = 10) {
    this.term = new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  }

  write(data: string): Promise<void> {
    return new Promise((resolve) => this.term.write(data, resolve));
  }

  /** The rows of the screen (scrollback included), trailing blanks and empty last rows dropped. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i++) out.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (out.length > 0 && out.at(-1) === '') out.pop();
    return out;
  }

  /** Where the cursor is on the screen: its row (from the top of the scrollback) and column. */
  cursor(): { row: number; column: number } {
    const buffer = this.term.buffer.active;
    return { row: buffer.baseY + buffer.cursorY, column: buffer.cursorX };
  }
}

/** The keys in `data` as Node's keypress decoding names them, in order. */
export function keysOf(data: string): KeyInput[] {
  const stream = new PassThrough();
  emitKeypressEvents(stream);
  const keys: KeyInput[] = [];
  stream.on('keypress', (s: string | undefined, key: KeyInput['key'] | undefined) => keys.push({ s, key: key ?? {} }));
  stream.write(data);
  // A lone Escape at the end comes after Node's escape timeout (500 ms): here, at once.
  if (data.endsWith('\x1b') && !data.endsWith('\x1b\x1b')) keys.push({ s: undefined, key: { name: 'escape', sequence: '\x1b', meta: false } });
  return keys;
}
