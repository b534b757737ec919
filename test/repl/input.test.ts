// The REPL's input from a pipe: logical lines (a trailing `\` continues one), a line to run next
// before anything read, lines typed ahead (one for the model is kept for the input line, not run),
// the end of input, and questions that nobody can answer.

import type { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { ReplInput } from '../../src/repl/input.js';
import { plainQuestion } from '../../src/safety/confirm.js';
import { captureIo } from '../support/capture-io.js';

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
