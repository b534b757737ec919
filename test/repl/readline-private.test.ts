// The parts of node:readline the line reader uses beyond its documented API
// (src/repl/readline-private.ts), checked on the running Node: CI runs this on every maintained
// Node line, so a Node that changes one of them fails here.
import { PassThrough } from 'node:stream';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createWithOwnKeys, historyOf, leaveLine, setLine } from '../../src/repl/readline-private.js';

function terminal() {
  const input = new PassThrough() as PassThrough & { isTTY?: boolean; setRawMode?: (mode: boolean) => void };
  input.isTTY = true;
  input.setRawMode = () => {};
  const output = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  output.isTTY = true;
  output.columns = 80;
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString()));
  const { rl, readlineKeys } = createWithOwnKeys(input, () => readline.createInterface({ input, output, terminal: true, historySize: 10 }));
  const key = (s: string | undefined, k: readline.Key) => {
    for (const l of readlineKeys) l.call(input, s, k);
  };
  const type = (text: string) => {
    for (const ch of text) key(ch, { name: ch, sequence: ch });
  };
  const enter = () => key('\r', { name: 'return', sequence: '\r' });
  return { input, rl, readlineKeys, key, type, enter, shown: () => shown };
}

describe('readline beyond its documented API, on Node ' + process.version, () => {
  it('reads keys through a keypress listener on its input, which the reader can take off', async () => {
    const t = terminal();
    expect(t.readlineKeys.length).toBeGreaterThan(0);
    // Taken off: bytes on the input no longer reach readline...
    t.input.write('zz');
    await new Promise((r) => setImmediate(r));
    expect(t.rl.line).toBe('');
    // ...but the listeners, called by the reader, edit the line.
    t.type('ab');
    expect(t.rl.line).toBe('ab');
    t.rl.close();
  });

  it('edits the line and cursor set through setLine', () => {
    const t = terminal();
    setLine(t.rl, 'hello', 2);
    expect([t.rl.line, t.rl.cursor]).toEqual(['hello', 2]);
    t.type('X');
    expect([t.rl.line, t.rl.cursor]).toEqual(['heXllo', 3]);
    t.rl.close();
  });

  it('keeps its history newest first in the array historyOf returns, which the reader may change', () => {
    const t = terminal();
    const lines: string[] = [];
    t.rl.on('line', (l) => lines.push(l));
    t.type('one');
    t.enter();
    t.type('two');
    t.enter();
    expect(lines).toEqual(['one', 'two']);
    const history = historyOf(t.rl);
    expect(history).toEqual(['two', 'one']);
    history.shift();
    // Up arrow recalls from the changed array.
    t.key(undefined, { name: 'up', sequence: '\x1b[A' });
    expect(t.rl.line).toBe('one');
    t.rl.close();
  });

  it('leaveLine moves below the line and empties it, leaving it on screen', () => {
    const t = terminal();
    t.type('keep me');
    const before = t.shown();
    leaveLine(t.rl);
    expect(t.rl.line).toBe('');
    expect(t.rl.cursor).toBe(0);
    const after = t.shown().slice(before.length);
    expect(after).toContain('\n');
    expect(after).not.toMatch(/\x1b\[[0-9]*[JK]/);
    t.rl.close();
  });
});
