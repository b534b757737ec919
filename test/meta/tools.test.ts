// `:tools last`: the last call the model made, its arguments and its whole result (the turn view
// folds a result to one line), through the renderer's redaction and sanitizing.

import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/context/turns.js';
import { toolsCommands, type ToolsPort } from '../../src/meta/tools.js';
import { Renderer } from '../../src/render/renderer.js';
import { createStyle } from '../../src/render/style.js';
import { captureIo } from '../support/capture-io.js';

const SECRET = 'sk-live-0123456789abcdef';

function run(args: string, turns: Turn[]) {
  const cap = captureIo();
  const render = new Renderer(cap.io, createStyle(0), (text) => text.replaceAll(SECRET, '[redacted]'));
  const port = { render, core: { context: { turns } } } as unknown as ToolsPort;
  const tools = toolsCommands.find((c) => c.name === 'tools')!;
  return { cap, done: (async () => tools.run(args, port, new AbortController().signal))() };
}

describe(':tools last', () => {
  it('shows the last call: its name, its arguments as indented JSON, and the whole result, redacted and sanitized', async () => {
    const result = `{\n  "token": "${SECRET}",\n  "a": 1,\n  "b": 2,\n  "c": 3,\n  "d": "\x1b]0;pwned\x07",\n  "e": 5\n}`;
    const turns: Turn[] = [
      { role: 'user', content: 'look it up' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'fs__read', arguments: '{"path":"old"}' }] },
      { role: 'tool', tool_call_id: 'c1', name: 'fs__read', content: 'old result' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c2', name: 'ev__echo', arguments: `{"message":"hi","key":"${SECRET}"}` }] },
      { role: 'tool', tool_call_id: 'c2', name: 'ev__echo', content: result },
      { role: 'assistant', content: 'Done.' },
    ];
    const { cap, done } = run('last', turns);
    await done;
    expect(cap.stdout).toBe(
      [
        'ev__echo (call c2)',
        'arguments:',
        '{',
        '  "message": "hi",',
        '  "key": "[redacted]"',
        '}',
        'result:',
        '{',
        '  "token": "[redacted]",',
        '  "a": 1,',
        '  "b": 2,',
        '  "c": 3,',
        '  "d": "^[]0;pwned^G",',
        '  "e": 5',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('arguments that are not JSON are shown as sent; a call without its result says so', async () => {
    const { cap, done } = run('last', [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c9', name: 'a__b', arguments: '{"path":' }] },
    ]);
    await done;
    expect(cap.stdout).toBe('a__b (call c9)\narguments:\n{"path":\nresult: none (the call has no result in the conversation)\n');
  });

  it('says so when no call is in the conversation', async () => {
    const { done } = run('last', [{ role: 'user', content: 'hi' }]);
    await expect(done).rejects.toThrow('no tool call in the conversation yet');
  });
});
