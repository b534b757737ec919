import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT, composeSystemMessage } from '../../src/context/system-prompt.js';

describe('composeSystemMessage', () => {
  it.each<[string, Parameters<typeof composeSystemMessage>[0], string]>([
    ['base only', { basePrompt: 'BASE' }, 'BASE'],
    [
      'all blocks in order',
      { basePrompt: 'BASE', memory: '- (fact) m', project: 'p', summary: 's', norrisSuffix: undefined },
      'BASE\n\n[background]\n- (fact) m\n\n[project]\np\n\n[earlier conversation summary]\ns',
    ],
    [
      'a block that carries its header keeps it',
      { basePrompt: 'BASE', memory: '[background] (memory.jsonl; manage via :memory)\n- (pref) x' },
      'BASE\n\n[background] (memory.jsonl; manage via :memory)\n- (pref) x',
    ],
    ['empty and blank blocks are absent', { basePrompt: 'BASE', memory: '', project: '  \n', summary: null }, 'BASE'],
    [
      'Norris leaves out memory, project and summary',
      { basePrompt: 'BASE', memory: 'm', project: 'p', summary: 's', norrisSuffix: '[NORRIS MODE]\ngoal: x' },
      'BASE\n\n[NORRIS MODE]\ngoal: x',
    ],
    ['trailing whitespace is trimmed', { basePrompt: 'BASE\n\n', summary: 's\n' }, 'BASE\n\n[earlier conversation summary]\ns'],
  ])('%s', (_name, parts, expected) => {
    expect(composeSystemMessage(parts)).toBe(expected);
  });
});

describe('DEFAULT_SYSTEM_PROMPT', () => {
  it('states the CMD: contract, exec output and the MCP tools paragraph', () => {
    expect(DEFAULT_SYSTEM_PROMPT).toContain('`[exec output]`');
    expect(DEFAULT_SYSTEM_PROMPT).toContain('column 0 with exactly `CMD: `');
    expect(DEFAULT_SYSTEM_PROMPT).toContain(
      "You may have access to MCP tools — they appear in this request's `tools` field. Call a tool by emitting a tool_call; the result will be supplied in the next turn.",
    );
    expect(DEFAULT_SYSTEM_PROMPT).toContain('fall back to `CMD:` for anything not exposed as a tool.');
  });
});
