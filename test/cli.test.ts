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
  ])('%j', (argv, expected) => {
    expect(parseCli(argv)).toMatchObject(expected);
  });

  it.each([[['--nope']], [['stray']], [['--config']]])('%j is a usage error', (argv) => {
    expect(() => parseCli(argv)).toThrow(UsageError);
  });
});
