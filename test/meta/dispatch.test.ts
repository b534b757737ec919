import { describe, expect, it } from 'vitest';
import { closestCommand, completeMeta, findCommand } from '../../src/meta/dispatch.js';
import { coreCommands } from '../../src/meta/core.js';

describe('meta table', () => {
  it.each([
    ['modle', 'model'],
    ['hlep', 'help'],
    ['mod', 'model'],
    ['rest', 'reset'],
    ['xyzzy', undefined],
  ])('closest to %j is %j', (typed, expected) => {
    expect(closestCommand(coreCommands, typed)).toBe(expected);
  });

  it('finds commands by alias', () => {
    expect(findCommand(coreCommands, 'q')?.name).toBe('quit');
  });

  it('completes command names and preset names from the one table', async () => {
    const ctx = { commands: coreCommands, config: { models: { fast: {}, deep: {} } } } as any;
    expect((await completeMeta(':mo', ctx))[0]).toEqual([':model ', ':models ']);
    expect(await completeMeta(':model d', ctx)).toEqual([['deep'], 'd']);
  });
});
