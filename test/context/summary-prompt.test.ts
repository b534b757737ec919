import { describe, expect, it } from 'vitest';
import { MAX_TOOL_CHARS, SUMMARY_PROMPT, buildSummaryRequest, renderTurnsCompact } from '../../src/context/summary-prompt.js';

describe('buildSummaryRequest (seed 002 §6)', () => {
  it('uses the seed prompt verbatim as the system message', () => {
    expect(SUMMARY_PROMPT).toBe('Summarize the following conversation in 2-3 sentences.');
    expect(buildSummaryRequest(null, [{ role: 'user', content: 'q1' }])).toEqual([
      { role: 'system', content: 'Summarize the following conversation in 2-3 sentences.' },
      { role: 'user', content: 'Conversation:\nuser: q1' },
    ]);
  });

  it('carries the prior summary forward and renders tool turns compactly', () => {
    const msgs = buildSummaryRequest('they talked about X', [
      { role: 'user', content: 'read a.txt\nplease' },
      { role: 'assistant', content: '', tool_calls: [{ name: 'fs__read', arguments: '{"path": "a.txt"}' }] },
      { role: 'tool', content: 'file\n\ntext', name: 'fs__read' },
      { role: 'assistant', content: 'It says "file text".' },
    ]);
    expect(msgs).toHaveLength(2);
    expect(msgs[1]).toEqual({
      role: 'user',
      content: [
        'Summary of the conversation so far:\nthey talked about X',
        '',
        'Conversation since then:',
        'user: read a.txt please',
        'assistant: [called fs__read {"path": "a.txt"}]',
        'tool fs__read: file text',
        'assistant: It says "file text".',
      ].join('\n'),
    });
  });

  it('asks to shorten the prior summary, whole, when nothing new was evicted', () => {
    const prior = 'x'.repeat(3000);
    const [, user] = buildSummaryRequest(prior, []);
    expect(user!.content).toContain(prior);
    expect(user!.content).toMatch(/Shorten this summary/);
  });

  it('cuts long tool results and arguments, and omits empty arguments', () => {
    const line = renderTurnsCompact([
      { role: 'assistant', content: 'looking', tool_calls: [{ name: 'a__b', arguments: '{}' }] },
      { role: 'tool', content: 'y'.repeat(5000) },
    ]);
    const [first, second] = line.split('\n');
    expect(first).toBe('assistant: looking [called a__b]');
    expect(second).toBe(`tool: ${'y'.repeat(MAX_TOOL_CHARS)}…`);
  });
});
