import { describe, expect, it } from 'vitest';
import { classifyModel, classifyText } from '../../src/routing/classify.js';
import { buildSummaryRequest } from '../../src/routing/summarize-prompt.js';

describe('classifyText (seed 002 §4, first hit wins)', () => {
  it.each([
    // code
    ['```js\nconsole.log(1)\n```', 'code'],
    ['what is wrong here ```x = 1```', 'code'],
    ['Traceback (most recent call last): File "a.py"', 'code'],
    ['I get a stacktrace when I start it', 'code'],
    ['there is a Stack Trace in the log', 'code'],
    ['error: cannot find module foo', 'code'],
    ['TypeError: Exception: boom at start', 'code'],
    ['why does ./src/main.py crash?', 'code'],
    ['look at ~/work/app/index.js please', 'code'],
    ['is /usr/lib/python3/foo.py safe to delete', 'code'],
    ['def f():\n    return 1\n\nx = f()\nprint(x)', 'code'],
    // reasoning
    ['explain the difference between TCP and UDP', 'reasoning'],
    ['why is the sky blue', 'reasoning'],
    ['how does a hash map grow', 'reasoning'],
    ['compare rsync and scp', 'reasoning'],
    ['Can you tell me what the best approach to organising a large monorepo with many teams would be in practice?', 'reasoning'],
    // default
    ['hello', 'default'],
    ['list the files here', 'default'],
    ['what time is it?', 'default'],
    ['ls /tmp', 'default'],
    ['thanks!', 'default'],
    // traps: everyday words that look technical, or technical words that are not the rules
    ['what is the function of the liver', 'default'],
    ['my class starts at nine', 'default'],
    ['I made an error in my email, can you reword it', 'default'],
    ['the explanation was fine', 'default'],
    ['whyever not', 'default'],
    ['compared to last year we grew', 'default'],
    ['a short question?', 'default'],
    ['open notes.py for me', 'default'],
    ['one\ntwo\nthree\nfour\nfive', 'default'],
    ['error handling: what are good patterns', 'default'],
  ])('%j → %s', (text, cls) => {
    expect(classifyText(text).cls).toBe(cls);
  });
});

describe('classifyModel', () => {
  const classes = { code: 'deep', reasoning: 'cloud' };
  it('maps the class to a preset when routing is on', () => {
    expect(classifyModel('explain this', { routing: { auto: true, classes } }).preset).toBe('cloud');
    expect(classifyModel('```x```', { routing: { auto: true, classes } }).preset).toBe('deep');
  });
  it('never routes when routing is off, or when the class has no preset', () => {
    expect(classifyModel('explain this', { routing: { auto: false, classes } }).preset).toBeNull();
    expect(classifyModel('hello', { routing: { auto: true, classes } }).preset).toBeNull();
  });
});

describe('buildSummaryRequest', () => {
  it('carries the prior summary and the evicted turns compactly', () => {
    const msgs = buildSummaryRequest('they talked about X', [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: '', tool_calls: [{ name: 'fs__read', arguments: '{}' }] },
      { role: 'tool', content: 'file text', name: 'fs__read' },
    ]);
    expect(msgs[0]).toEqual({ role: 'system', content: 'Summarize the following conversation in 2-3 sentences.' });
    expect(msgs[1]!.content).toBe('Earlier summary:\nthey talked about X\n\nConversation:\nuser: q1\nassistant:  [calls fs__read]\ntool fs__read: file text');
  });
});
