// Tool switches as tables: entries and patterns, the last matching rule deciding, groups, targets
// that name nothing, and a switched-off tool that the model calls anyway.

import { describe, expect, it } from 'vitest';
import { matchesEntry, switchedTools, ToolSwitches } from '../../src/tools/switches.js';
import type { ToolHost } from '../../src/turn/types.js';

const ALL = ['aish__current_date', 'fs__read_file', 'fs__write_file', 'web__fetch', 'webhooks__post'];

describe('matchesEntry', () => {
  it.each([
    ['fs__read_file', 'fs__read_file', true],
    ['fs__read_file', 'fs__read_files', false],
    ['fs__*', 'fs__write_file', true],
    ['web__*', 'webhooks__post', false],
    ['*_file', 'fs__read_file', true],
    ['f.__*', 'fs__x', false],
  ])('%s ~ %s → %s', (entry, name, expected) => {
    expect(matchesEntry(entry, name)).toBe(expected);
  });
});

describe('ToolSwitches', () => {
  const groups = { files: ['fs__*'], web: ['web__fetch', 'webhooks__*'] };

  it('everything is on until switched; the last matching rule decides', () => {
    const s = new ToolSwitches(groups);
    expect(ALL.every((t) => s.isEnabled(t))).toBe(true);
    expect(s.apply({ op: 'disable', target: 'files' }, ALL)).toEqual({ touched: ['fs__read_file', 'fs__write_file'] });
    expect(s.apply({ op: 'enable', target: 'fs__read_file' }, ALL)).toEqual({ touched: ['fs__read_file'] });
    expect(ALL.filter((t) => s.isEnabled(t))).toEqual(['aish__current_date', 'fs__read_file', 'web__fetch', 'webhooks__post']);
    // Switching a target again replaces its rule and moves it last.
    s.apply({ op: 'disable', target: 'files' }, ALL);
    expect(s.isEnabled('fs__read_file')).toBe(false);
    expect(s.rules).toEqual([{ op: 'enable', target: 'fs__read_file' }, { op: 'disable', target: 'files' }]);
  });

  it('a pattern also covers tools that appear later; a name that matches nothing is refused', () => {
    const s = new ToolSwitches(groups);
    expect(s.apply({ op: 'disable', target: 'git__*' }, ALL)).toEqual({ touched: [] });
    expect(s.isEnabled('git__log')).toBe(false);
    expect(s.apply({ op: 'disable', target: 'nosuch' }, ALL)).toEqual({ problem: 'no group or tool named nosuch (:tools lists them)' });
    expect(s.rules).toEqual([{ op: 'disable', target: 'git__*' }]);
  });

  it('groupOf names the first group listing a tool', () => {
    const s = new ToolSwitches(groups);
    expect([s.groupOf('fs__x'), s.groupOf('webhooks__post'), s.groupOf('aish__current_date')]).toEqual(['files', 'web', undefined]);
  });

  it('a switched-off tool is not offered, and a call to it gets a tool turn saying so', async () => {
    const s = new ToolSwitches({});
    const inner: ToolHost = {
      definitions: () => ALL.map((name) => ({ type: 'function', function: { name, parameters: {} } })),
      has: (name) => ALL.includes(name),
      validate: () => [],
      annotations: () => undefined,
      call: async (name) => ({ status: 'ok', content: `ran ${name}` }),
    };
    const host = switchedTools(inner, s);
    s.apply({ op: 'disable', target: 'fs__*' }, ALL);
    expect(host.definitions().map((d) => d.function.name)).toEqual(['aish__current_date', 'web__fetch', 'webhooks__post']);
    expect(await host.call('fs__read_file', {}, { signal: new AbortController().signal })).toEqual({ status: 'error', content: '[aish] tool fs__read_file is switched off in this session (:tools enable fs__read_file)' });
    expect(await host.call('web__fetch', {}, { signal: new AbortController().signal })).toMatchObject({ content: 'ran web__fetch' });
  });
});
