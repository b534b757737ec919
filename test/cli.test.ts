import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli.js';
import { UsageError } from '../src/errors.js';

describe('parseCli', () => {
  it.each([
    [[], {}],
    [['-p', 'why?'], { prompt: 'why?' }],
    [['--config', 'x.json', '--model', 'deep'], { config: 'x.json', model: 'deep' }],
    [['--resume'], { resume: 'last' }],
    [['--resume', '--model', 'deep'], { resume: 'last', model: 'deep' }],
    [['--resume', 'work'], { resume: 'work' }],
    [['--help'], { help: true }],
    [['-v'], { version: true }],
    [['-p', 'q', '--output', 'json'], { prompt: 'q', output: 'json' }],
    [['-o', 'jsonl', '-p', 'q'], { prompt: 'q', output: 'jsonl' }],
    [['-p', 'q', '--output', 'text'], { prompt: 'q', output: undefined }],
    // -p before another option: the question is the argument left over, else stdin.
    [['-p', '--output', 'json', 'hi'], { prompt: 'hi', output: 'json' }],
    [['-p', '-o', 'json', '-m', 'deep', 'why so?'], { prompt: 'why so?', output: 'json', model: 'deep' }],
    [['-p', '--output=jsonl'], { prompt: '', output: 'jsonl' }],
    [['-p'], { prompt: '' }],
    [['-p', '-x is a flag?'], { prompt: '-x is a flag?' }],
  ])('%j', (argv, expected) => {
    expect(parseCli(argv)).toMatchObject(expected);
  });

  it.each([
    [['-p', 'q', '--output', 'xml'], '--output: "xml" is not a format (text, json or jsonl)'],
    [['--output', 'json'], '--output goes with -p'],
    [['-p', 'q', '--output'], "Option '-o, --output <value>' argument missing"],
    [['-p', '-o', 'json', 'one', 'two'], 'unexpected argument "two" (the question goes in quotes)'],
  ])('%j: %s', (argv, message) => {
    expect(() => parseCli(argv)).toThrow(message);
  });

  it.each([[['--nope']], [['stray']], [['--config']]])('%j is a usage error', (argv) => {
    expect(() => parseCli(argv)).toThrow(UsageError);
  });
});
