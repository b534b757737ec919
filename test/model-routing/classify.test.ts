import { describe, expect, it } from 'vitest';
import { ROUTING_RULES, classifyModel, classifyText, type RouteClass } from '../../src/model-routing/classify.js';

const long = (s: string, n = 101) => s.padEnd(n, ' and more of the same words');

// [text, expected class, the rule that decides it (null: none, default)]. Written from seed 002 §4.
const corpus: Array<[string, RouteClass, string | null]> = [
  // --- code: fences
  ['```js\nconsole.log(1)\n```', 'code', 'fence'],
  ['what is wrong here ```x = 1```', 'code', 'fence'],
  ['````\nnested ``` fence\n````\n\nwhy did this fail?', 'code', 'fence'],
  // --- code: stack traces (fence beats everything, trace beats "explain")
  ['explain this Python traceback: Traceback (most recent call last): File "a.py", line 3', 'code', 'trace'],
  ['I get a stacktrace when I start it', 'code', 'trace'],
  ['there is a Stack Trace in the log', 'code', 'trace'],
  ['the stack-traces are huge', 'code', 'trace'],
  // --- code: error:/exception: near the beginning
  ['error: cannot find module foo', 'code', 'error-head'],
  ['TypeError: Cannot read properties of undefined', 'code', 'error-head'],
  ['  java.lang.NullPointerException: at Main.run', 'code', 'error-head'],
  ['error[E0382]: borrow of moved value: `v`', 'code', 'error-head'],
  ['gcc says main.c:3:5: error: expected semicolon, why', 'code', 'error-head'],
  // --- code: source paths
  ['why does ./src/main.py crash?', 'code', 'source-path'],
  ['look at ~/work/app/index.js please', 'code', 'source-path'],
  ['is /usr/lib/python3/foo.py safe to delete', 'code', 'source-path'],
  ['compare ../a.rs and ../b.rs.', 'code', 'source-path'],
  // --- code: a pasted snippet (more than 4 lines, one indented)
  ['def f():\n    return 1\n\nx = f()\nprint(x)', 'code', 'paste'],
  ['fix this\nfor i in xs:\n\tif i:\n\t\tprint(i)\ndone\n', 'code', 'paste'],
  // --- reasoning
  ['explain the difference between TCP and UDP', 'reasoning', 'keyword'],
  ['why is the sky blue', 'reasoning', 'keyword'],
  ['How  does a hash map grow', 'reasoning', 'keyword'],
  ['compare rsync and scp', 'reasoning', 'keyword'],
  ['Why?', 'reasoning', 'keyword'],
  ['Can you tell me what the best approach to organising a large monorepo with many teams would be in practice?', 'reasoning', 'long-question'],
  // --- default
  ['hello', 'default', null],
  ['', 'default', null],
  ['list the files here', 'default', null],
  ['what time is it?', 'default', null],
  ['ls /tmp', 'default', null],
  ['thanks!', 'default', null],
  // --- traps: everyday words that look technical, technical words outside the rules
  ['what is the function of the liver', 'default', null],
  ['my class starts at nine, remind me to leave at eight', 'default', null],
  ['I made an error in my email, can you reword it', 'default', null],
  ['error handling: what are good patterns', 'default', null],
  ['Terror: a novel. Is it any good', 'default', null],
  ['the explanation was fine', 'default', null],
  ['whyever not', 'default', null],
  ['compared to last year we grew', 'default', null],
  ['how do I show hidden files with ls?', 'default', null],
  ['what does the -r flag of rm do?', 'default', null],
  ['open notes.py for me', 'default', null],
  ['copy ./data.json to ./backup.jsonl', 'default', null],
  ['one\ntwo\nthree\nfour\nfive', 'default', null],
  ['shopping:\n  eggs\n  milk\n', 'default', null],
  [long('please write a polite note to my landlord saying the heating works again, thank you so much'), 'default', null],
  ['a short question?', 'default', null],
];

describe('classifyText (seed 002 §4, first hit wins)', () => {
  it('has a corpus of at least 30 cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
  });

  it.each(corpus)('%j → %s (%s)', (text, cls, rule) => {
    const got = classifyText(text);
    expect(got.cls).toBe(cls);
    const fired = ROUTING_RULES.find((r) => r.match(text) !== null);
    expect(fired?.name ?? null).toBe(rule);
    expect(got.reason).not.toBe('');
  });

  it('explains itself in words for :route check', () => {
    expect(classifyText('```x```')).toEqual({ cls: 'code', reason: 'contains a code fence (```)' });
    expect(classifyText('Traceback (most recent call last)').reason).toBe('mentions "traceback"');
    expect(classifyText('TypeError: x is undefined').reason).toBe('"TypeError:" near the beginning');
    expect(classifyText('see ./a/b.go now').reason).toBe('names a .go source path (./a/b.go)');
    expect(classifyText('a\n  b\nc\nd\ne').reason).toBe('5 lines with indentation (looks like a paste)');
    expect(classifyText('Please EXPLAIN it').reason).toBe('contains "explain"');
    expect(classifyText(`${'x'.repeat(120)}?`).reason).toBe('a question of 121 characters (over 100)');
    expect(classifyText('hi')).toEqual({ cls: 'default', reason: 'no code or reasoning markers' });
  });

  it('counts "near the beginning" as the first 80 characters', () => {
    expect(classifyText(`${'a'.repeat(70)} error: x`).cls).toBe('code');
    expect(classifyText(`${'a'.repeat(80)} error: x`).cls).toBe('default');
  });

  it('counts a long question in characters, not bytes or UTF-16 units', () => {
    expect(classifyText(`${'🙂'.repeat(99)}?`).cls).toBe('default');
    expect(classifyText(`${'🙂'.repeat(100)}?`).cls).toBe('reasoning');
  });
});

describe('classifyModel', () => {
  const classes = { code: 'deep', reasoning: 'cloud' };

  it('maps the class to its preset when routing is on', () => {
    expect(classifyModel('explain this', { routing: { auto: true, classes } })).toEqual({ cls: 'reasoning', preset: 'cloud', reason: 'contains "explain"' });
    expect(classifyModel('```x```', { routing: { auto: true, classes } }).preset).toBe('deep');
    expect(classifyModel('hello', { routing: { auto: true, classes: { ...classes, default: 'fast' } } }).preset).toBe('fast');
  });

  it('keeps the active model (null) when routing is off or the class has no preset', () => {
    expect(classifyModel('explain this', { routing: { auto: false, classes } })).toEqual({ cls: 'reasoning', preset: null, reason: 'contains "explain"' });
    expect(classifyModel('hello', { routing: { auto: true, classes } }).preset).toBeNull();
    expect(classifyModel('```x```', { routing: { auto: true, classes: {} } }).preset).toBeNull();
  });
});
