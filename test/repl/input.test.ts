// The REPL's input (src/repl/input.ts) from a pipe: a line composed with `:edit` runs before lines
// typed ahead, which run before the pipe's next line; a typed-ahead line for the model is not run
// (it waits on the input line) and drops the rest; quit ends the lines and sets the exit code.

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ReplInput } from '../../src/repl/input.js';
import { captureIo } from '../support/capture-io.js';

async function opened(lines: string) {
  const { io } = captureIo();
  const statuses: string[] = [];
  const input = new ReplInput(io);
  await input.open({ historyFile: undefined, historySize: 10, redact: (t) => t, status: (m) => statuses.push(m), completer: () => [[], ''], onInterrupt: () => {}, edit: async () => null });
  (io.input as PassThrough).end(lines);
  return { input, statuses };
}

const prompt = () => '> ';
const forModel = async (line: string) => line.startsWith('why');

describe('ReplInput.nextLine', () => {
  it('runs a composed line first, then typed-ahead lines in order, then the pipe', async () => {
    const { input } = await opened('from-the-pipe\n');
    input.typedAhead(['ls', 'pwd']);
    input.runNext('composed');
    const got: Array<string | null> = [];
    for (let i = 0; i < 5; i++) got.push(await input.nextLine(prompt, forModel));
    expect(got).toEqual(['composed', 'ls', 'pwd', 'from-the-pipe', null]);
  });

  it('a typed-ahead line for the model is not run, and the lines after it are dropped', async () => {
    const { input, statuses } = await opened('next\n');
    input.typedAhead(['ls', 'why is it slow', 'rm -rf build']);
    expect(await input.nextLine(prompt, forModel)).toBe('ls');
    expect(await input.nextLine(prompt, forModel)).toBe('next');
    expect(statuses).toEqual(['typed while the command ran: kept on the line, sent to the model only with Enter']);
    expect(await input.nextLine(prompt, forModel)).toBeNull();
  });

  it('after quit no line is given, queued ones neither; the exit code is kept', async () => {
    const { input } = await opened('more\n');
    input.runNext('composed');
    input.typedAhead(['ls']);
    input.quit(3);
    expect(await input.nextLine(prompt, forModel)).toBeNull();
    expect(input.exitCode).toBe(3);
    expect(input.ended).toBe(true);
  });
});
