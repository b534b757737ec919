import { describe, expect, it } from 'vitest';
import { closestCommand, completeMeta, dispatchMeta, findCommand } from '../../src/meta/dispatch.js';
import { coreCommands, type CorePort } from '../../src/meta/core.js';
import { bind, type BoundCommand } from '../../src/meta/types.js';

/** The core family bound to a port that records what the commands do with it. */
function coreTable() {
  const said: string[] = [];
  const conversation = { activeModel: 'fast', lastQuestion: null, ask: async () => {}, reset: () => said.push('reset') };
  const commands: BoundCommand[] = [];
  const port = {
    render: { info: (t: string) => said.push(t), status: (t: string) => said.push(t), io: { columns: () => 80 } },
    commands,
    config: { models: { fast: { model: 'f', endpoint: 'e' }, deep: { model: 'd', endpoint: 'e' } } },
    conversation,
    quit: () => said.push('quit'),
    clearScreen: () => {},
  } as unknown as CorePort;
  commands.push(...bind(coreCommands, port));
  return { commands, said, conversation };
}

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
    const { commands } = coreTable();
    expect((await completeMeta(':mo', commands))[0]).toEqual([':model ', ':models ']);
    expect(await completeMeta(':model d', commands)).toEqual([['deep'], 'd']);
  });

  it('runs a bound command on its own port', async () => {
    const { commands, said, conversation } = coreTable();
    const signal = new AbortController().signal;
    await dispatchMeta('model deep', commands, signal);
    expect(conversation.activeModel).toBe('deep');
    await dispatchMeta('reset', commands, signal);
    await dispatchMeta('q', commands, signal);
    expect(said).toEqual(['model set to deep', 'reset', 'conversation reset', 'quit']);
    await expect(dispatchMeta('modle x', commands, signal)).rejects.toThrow('unknown command :modle (did you mean :model?)');
  });
});
