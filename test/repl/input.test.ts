// The REPL's input from a pipe: logical lines (a trailing `\` continues one), a line to run next
// before anything read, lines typed ahead (one for the model is kept for the input line, not run),
// the end of input, and questions that nobody can answer. On a terminal: the history Up reaches,
// the shell's own joined to aish's.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/io.js';
import { ReplInput } from '../../src/repl/input.js';
import { plainQuestion } from '../../src/safety/confirm.js';
import { captureIo } from '../support/capture-io.js';
import { tempDir } from '../support/temp-dir.js';

async function piped(text: string) {
  const { io } = captureIo();
  (io.input as PassThrough).end(text);
  const input = new ReplInput(io);
  const said: string[] = [];
  await input.open({ historyFile: undefined, historySize: 10, redact: (t) => t, status: (m) => said.push(m), completer: (l) => [[], l], onInterrupt: () => {}, edit: async () => null });
  return { input, said };
}

const prompt = () => '> ';
const forModel = async (line: string) => line.startsWith('?');

it('reads logical lines, a trailing backslash continuing one (an even run is literal), then null at the end', async () => {
  const { input } = await piped('echo a \\\nb\necho c\\\\\n');
  expect(await input.nextLine(prompt, forModel)).toBe('echo a \\\nb');
  expect(await input.nextLine(prompt, forModel)).toBe('echo c\\\\');
  expect(await input.nextLine(prompt, forModel)).toBeNull();
});

it('runs a line given to run next before what was typed ahead, and both before the pipe', async () => {
  const { input } = await piped('from-pipe\n');
  input.typedAhead(['typed-1', 'typed-2']);
  input.runNext(':composed');
  expect(await input.nextLine(prompt, forModel)).toBe(':composed');
  expect(await input.nextLine(prompt, forModel)).toBe('typed-1');
  expect(await input.nextLine(prompt, forModel)).toBe('typed-2');
  expect(await input.nextLine(prompt, forModel)).toBe('from-pipe');
});

it('keeps a typed-ahead line for the model off the machine: it is not run, and what follows it is dropped', async () => {
  const { input, said } = await piped('from-pipe\n');
  input.typedAhead(['ls', '? what is this', 'rm -rf x']);
  expect(await input.nextLine(prompt, forModel)).toBe('ls');
  expect(await input.nextLine(prompt, forModel)).toBe('from-pipe');
  expect(said).toEqual(['typed while the command ran: kept on the line, sent to the model only with Enter']);
});

it('ends at quit, with its exit code, whatever is still queued; nobody answers a question from a pipe', async () => {
  const { input } = await piped('never-read\n');
  expect(await input.ask('name? ')).toBeNull();
  expect(await input.askKey(plainQuestion('ok? [y/N] ', 'yn', 'n'))).toBeNull();
  input.runNext('queued');
  input.quit(3);
  expect(input.ended).toBe(true);
  expect(input.exitCode).toBe(3);
  expect(await input.nextLine(prompt, forModel)).toBeNull();
});

describe('on a terminal', () => {
  async function terminal(aishHistory: string[]) {
    const output = new Writable({ write: (_chunk, _enc, done) => done() });
    const keys = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
    const io: Io = { input: keys, output, errors: output, isTTY: true, columns: () => 80, rows: () => 24 };
    const file = path.join(tempDir('aish-input-'), 'input_history');
    writeFileSync(file, aishHistory.map((line) => `${line}\n`).join(''));
    const input = new ReplInput(io);
    await input.open({ historyFile: file, historySize: 10, redact: (t) => t.replace(/hunter2/g, '[redacted]'), status: () => {}, completer: (l) => [[], l], onInterrupt: () => {}, edit: async () => null });
    /** The line read after pressing `keys`. */
    const read = async (typed: string) => {
      const line = input.nextLine(prompt, forModel);
      await new Promise((r) => setImmediate(r));
      keys.write(typed);
      return line;
    };
    return { input, read, file };
  }

  it('reaches the shell\'s own history with Up and Ctrl-R, older than aish\'s own lines, each line once', async () => {
    const { input, read } = await terminal(['ls', 'what is this?']);
    input.addShellHistory(['git log', 'ls', 'make']);
    // Newest first: what is this?, ls (aish's), then git log, make (the shell's; ls is aish's already).
    expect(await read('\x1b[A\x1b[A\x1b[A\r')).toBe('git log');
    expect(await read('\x1b[A\x1b[A\x1b[A\x1b[A\r')).toBe('make');
    // Four lines in all (make, git log, what is this?, ls): a fifth Up stays at the oldest.
    expect(await read('\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A\r')).toBe('ls');
    // Ctrl-R searches the same history.
    input.addShellHistory(['git rebase -i main']);
    expect(await read('\x12rebase\r')).toBe('git rebase -i main');
  });

  it('keeps a line holding a secret whole for Up, and writes it to its file only redacted', async () => {
    const { input, read, file } = await terminal([]);
    expect(await read('mysql -phunter2 shop\r')).toBe('mysql -phunter2 shop');
    expect(await read('\x1b[A\r')).toBe('mysql -phunter2 shop');
    await input.saved();
    expect(readFileSync(file, 'utf8').split('\n')).toEqual(['mysql -p[redacted] shop', 'mysql -p[redacted] shop', '']);
  });
});
