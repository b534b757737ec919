// The terminal line reader against a headless terminal: keys go in as a terminal sends them (a
// burst in one write, a bracketed paste), and what the screen shows is the line read.

import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/io.js';
import { TerminalLineReader, type RouteSign, type TerminalReaderOptions } from '../../src/repl/terminal-reader.js';
import { HeadlessTerm } from '../support/headless-term.js';

const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;

interface Harness {
  reader: TerminalLineReader;
  term: HeadlessTerm;
  type(data: string): Promise<void>;
  history: string[];
  saved: string[][];
  raw: boolean[];
  interrupts: number;
}

function harness(opts: Partial<TerminalReaderOptions> = {}, cols = 60): Harness {
  const term = new HeadlessTerm(cols, 12);
  let pending: Promise<void> = Promise.resolve();
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      pending = pending.then(() => term.write(chunk.toString('utf8')));
      done();
    },
  });
  const raw: boolean[] = [];
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: (on: boolean) => raw.push(on) });
  const io: Io = { input, output, errors: output, isTTY: true, columns: () => cols, rows: () => 12 };
  const history = opts.history ?? [];
  const saved: string[][] = [];
  const h: Harness = {
    reader: undefined as unknown as TerminalLineReader,
    term,
    history,
    saved,
    raw,
    interrupts: 0,
    async type(data: string) {
      input.write(data);
      // Keys are read, applied and drawn, then the screen has taken the drawing.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      await pending;
    },
  };
  h.reader = new TerminalLineReader(io, {
    historySize: 100,
    completer: (line) => [[], line],
    onHistory: (h) => saved.push([...h]),
    onInterrupt: () => h.interrupts++,
    bell: 'none',
    ...opts,
    history,
  });
  return h;
}

const signOf = (line: string): RouteSign => (line.trim() === '' ? '>' : line.startsWith(':') ? ':' : /^(ls|echo|git|for|cat)\b/.test(line) ? '$' : '?');

describe('what the screen shows is what is read', () => {
  it('a paste in the middle of the line', async () => {
    const h = harness();
    const line = h.reader.read('[aish:fast]> ');
    await h.type('echo A B\x1b[D\x1b[D');
    await h.type(PASTE('pasted '));
    expect(h.term.lines()).toEqual(['[aish:fast]> echo Apasted  B']);
    await h.type('\r');
    expect(await line).toBe('echo Apasted  B');
  });

  it('keys of one burst in the middle of the line, in order', async () => {
    const h = harness();
    const line = h.reader.read('> ');
    await h.type(':why abcdef\x1b[D\x1b[D\x1b[DXY');
    expect(h.term.lines()).toEqual(['> :why abcXYdef']);
    await h.type('\r');
    expect(await line).toBe(':why abcXYdef');
  });

  it('a pasted block of several lines is read whole, as one input', async () => {
    const h = harness();
    const line = h.reader.read('> ');
    await h.type(PASTE('echo one\necho two\n'));
    await h.type('\r');
    expect(await line).toBe('echo one\necho two\n');
  });
});

describe('the route sign', () => {
  it('the prompt says where the line as it stands goes, as it is typed', async () => {
    const h = harness({ sign: signOf });
    const line = h.reader.read('[aish:fast]> ');
    expect(h.term.lines()).toEqual([]);
    await h.type('');
    expect(h.term.lines()).toEqual(['[aish:fast]> ']);
    await h.type('ls -la');
    expect(h.term.lines()).toEqual(['[aish:fast]$ ls -la']);
    await h.type('\x15why is the sky blue');
    expect(h.term.lines()).toEqual(['[aish:fast]? why is the sky blue']);
    await h.type('\x15:help');
    expect(h.term.lines()).toEqual(['[aish:fast]: :help']);
    await h.type('\x15');
    expect(h.term.lines()).toEqual(['[aish:fast]> ']);
    await h.type('ls\r');
    expect(await line).toBe('ls');
    expect(h.reader.flipped).toBe(false);
  });

  it('Alt-Enter enters the line flipped', async () => {
    const h = harness({ sign: signOf });
    const line = h.reader.read('[aish:fast]> ');
    await h.type('ls -la\x1b\r');
    expect(await line).toBe('ls -la');
    expect(h.reader.flipped).toBe(true);
  });

  it('refresh draws the sign again when an answer comes', async () => {
    let known = false;
    const h = harness({ sign: (line) => (line === '' ? '>' : known ? '$' : '?') });
    void h.reader.read('[aish:fast]> ');
    await h.type('myfunc');
    expect(h.term.lines()).toEqual(['[aish:fast]? myfunc']);
    known = true;
    h.reader.refresh();
    await h.type('');
    expect(h.term.lines()).toEqual(['[aish:fast]$ myfunc']);
  });
});

describe('lines the shell finds incomplete', () => {
  it('get a continuation prompt and are read as one', async () => {
    const h = harness({ sign: signOf, incomplete: async (text) => /\bdo$/.test(text) || /\$i$/.test(text) });
    const line = h.reader.read('[aish:fast]> ');
    await h.type('for i in 1 2; do\r');
    await h.type('echo $i\r');
    await h.type('done');
    expect(h.term.lines()).toEqual(['[aish:fast]$ for i in 1 2; do', '... echo $i', '... done']);
    await h.type('\r');
    expect(await line).toBe('for i in 1 2; do\necho $i\ndone');
    expect(h.saved.at(-1)?.[0]).toBe('for i in 1 2; do\necho $i\ndone');
  });

  it('Ctrl-C cancels the whole of it', async () => {
    const h = harness({ incomplete: async (text) => text.endsWith('do') });
    const line = h.reader.read('> ');
    await h.type('for i in 1; do\r');
    await h.type('echo x\x03');
    await h.type('pwd\r');
    expect(await line).toBe('pwd');
  });
});

describe('keys', () => {
  it('Ctrl-C at the prompt clears the line and shows ^C; the next line is read', async () => {
    const h = harness();
    const line = h.reader.read('> ');
    await h.type('never run\x03');
    await h.type('echo ok\r');
    expect(await line).toBe('echo ok');
    expect(h.term.lines()).toEqual(['> never run^C', '> echo ok']);
    expect(h.interrupts).toBe(0);
  });

  it('Ctrl-Z at the prompt does nothing', async () => {
    const h = harness();
    const line = h.reader.read('> ');
    await h.type('abc\x1a');
    await h.type('d\r');
    expect(await line).toBe('abcd');
  });

  it('Ctrl-D on an empty line ends input', async () => {
    const h = harness();
    const line = h.reader.read('> ');
    await h.type('\x04');
    expect(await line).toBe(null);
  });

  it('Tab inserts the one candidate, lists several', async () => {
    const h = harness({ completer: (line) => (line.endsWith('gi') ? [['git '], 'gi'] : line.endsWith('s') ? [['status', 'stash', 'show'], 's'] : [['status', 'stash'], 'st']) });
    const line = h.reader.read('> ');
    await h.type('gi\t');
    expect(h.term.lines()).toEqual(['> git ']);
    await h.type('s\t');
    expect(h.term.lines()).toEqual(['> git s', 'status  stash   show', '> git s']);
    await h.type('t\t');
    expect(h.term.lines().at(-1)).toBe('> git sta');
    await h.type('tus\r');
    expect(await line).toBe('git status');
  });

  it('Tab lists candidates with their descriptions one a row, cut to the terminal\'s width', async () => {
    const listed = ['--all    -- stage all modified and deleted paths', `--amend  -- ${'x'.repeat(90)}`];
    const h = harness({ completer: () => [['--all', '--amend'], '--a', listed] });
    const line = h.reader.read('> ');
    await h.type('git commit --a\t');
    expect(h.term.lines()).toEqual(['> git commit --a', listed[0], `--amend  -- ${'x'.repeat(46)}…`, '> git commit --a']);
    await h.type('\r');
    expect(await line).toBe('git commit --a');
  });

  it('keys typed while Tab waits for its answer come after it, in order', async () => {
    let answer: (v: [string[], string]) => void = () => {};
    const h = harness({ completer: () => new Promise((r) => (answer = r)) });
    const line = h.reader.read('> ');
    await h.type('ec\tX');
    answer([['echo '], 'ec']);
    await h.type('\r');
    expect(await line).toBe('echo X');
  });

  it('Ctrl-R finds an older line; Enter runs it', async () => {
    const h = harness({ history: ['git status', 'echo hello', 'ls'] });
    const line = h.reader.read('> ');
    await h.type('\x12hel');
    expect(h.term.lines()).toEqual(["(reverse-i-search)`hel': echo hello"]);
    await h.type('\r');
    expect(await line).toBe('echo hello');
  });

  it('Up shows the history; a suggestion shows dimmed and Right takes it', async () => {
    const h = harness({ history: ['git status --short'], color: true });
    const line = h.reader.read('> ');
    await h.type('git s');
    expect(h.term.lines()).toEqual(['> git status --short']);
    expect(h.term.cursor().column).toBe(7);
    await h.type('\x1b[C\r');
    expect(await line).toBe('git status --short');
  });

  it('no suggestion without colour: the screen shows only what runs', async () => {
    const h = harness({ history: ['git status --short'], color: false });
    void h.reader.read('> ');
    await h.type('git s');
    expect(h.term.lines()).toEqual(['> git s']);
  });

  it('vi mode when the shell says so', async () => {
    const h = harness({ mode: () => 'vi' });
    const line = h.reader.read('> ');
    await h.type('echo one two');
    // Escape and a key in one read: Escape, then the key (no wait for Node's escape timeout).
    await h.type('\x1bbdw');
    await h.type('\r');
    expect(await line).toBe('echo one ');
  });
});

describe("the model's suggestions", () => {
  it('come after the idle time, in their own style, and Right takes them', async () => {
    const asked: string[] = [];
    let answered!: () => void;
    const answer = new Promise<void>((resolve) => (answered = resolve));
    const ask = async (line: string) => (asked.push(line), setImmediate(answered), line === 'git lo' ? 'g --oneline' : null);
    const h = harness({ color: true, suggestModel: { idleMs: 30, ask } });
    const line = h.reader.read('> ');
    await h.type('git lo');
    expect(h.term.lines()).toEqual(['> git lo']);
    await answer;
    await h.type('');
    expect(asked).toEqual(['git lo']);
    expect(h.term.lines()).toEqual(['> git log --oneline']);
    expect(h.term.term.buffer.active.getLine(0)!.getCell(9)!.isItalic()).toBeTruthy();
    await h.type('\x1b[C\r');
    expect(await line).toBe('git log --oneline');
  });

  it('the next key cancels the request in flight, and a key before the idle time asks nothing', async () => {
    const signals: AbortSignal[] = [];
    const lines: string[] = [];
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const h = harness({ color: true, suggestModel: { idleMs: 30, ask: (line, signal) => (lines.push(line), signals.push(signal), asked(), new Promise(() => {})) } });
    void h.reader.read('> ');
    // The two writes reach the reader in one tick: the key comes before the idle time for sure.
    await Promise.all([h.type('ab'), h.type('c')]);
    await askedOnce;
    expect(lines).toEqual(['abc']);
    expect(signals).toHaveLength(1);
    await h.type('d');
    expect(signals[0]!.aborted).toBe(true);
  });

  it('none while history has one, nor without colour', async () => {
    const asked: string[] = [];
    const ask = async (line: string) => (asked.push(line), 'x');
    const h = harness({ color: true, history: ['git status'], suggestModel: { idleMs: 10, ask } });
    void h.reader.read('> ');
    await h.type('git st');
    const plain = harness({ color: false, suggestModel: { idleMs: 10, ask } });
    void plain.reader.read('> ');
    await plain.type('zzz');
    await new Promise((r) => setTimeout(r, 40));
    expect(asked).toEqual([]);
  });
});

describe('history', () => {
  it('a line is kept, newest first, once; a leading space keeps it out', async () => {
    const h = harness({ history: ['ls'] });
    let line = h.reader.read('> ');
    await h.type('pwd\r');
    await line;
    line = h.reader.read('> ');
    await h.type(' secret-ish\r');
    expect(await line).toBe(' secret-ish');
    line = h.reader.read('> ');
    await h.type('ls\r');
    await line;
    expect(h.history).toEqual(['ls', 'pwd']);
    expect(h.saved.map((s) => s[0])).toEqual(['pwd', 'ls']);
  });
});

describe('typed ahead', () => {
  it('lines entered in the same read as the Enter before them are the next lines read', async () => {
    const h = harness();
    const first = h.reader.read('> ');
    await h.type('one\rtwo\rthr');
    expect(await first).toBe('one');
    h.reader.suspend();
    expect(await h.reader.read('> ')).toBe('two');
    const third = h.reader.read('> ');
    await h.type('ee\r');
    expect(await third).toBe('three');
  });
});

describe('one-key questions', () => {
  it('one key answers; a word asks again', async () => {
    const h = harness();
    const answer = h.reader.askKey('run it? [y/N] ', 'yn', 'n');
    await h.type('yes\r');
    await h.type('y');
    expect(await answer).toBe('y');
    expect(h.term.lines()).toEqual(['run it? [y/N] ', '(one key: y or n; Enter: n)', 'run it? [y/N] y']);
  });
});
