// Leaked tool calls as real model families write them into text (seeds 003/004), judged whole and
// streamed: in one chunk, split at every position, and one character at a time. While a reply
// streams, nothing of a call may be passed on as text; what is text must all come out.

import { describe, expect, it } from 'vitest';
import { HeldText } from '../../src/turn/held-text.js';
import { HoldScan, heldFrom, readLeakedCalls, type LeakVerdict } from '../../src/turn/leaked-calls.js';

const OFFERED = new Set(['files__read_file', 'files__list_dir', 'aish__current_date']);
const read = (path: string) => ({ name: 'files__read_file', arguments: JSON.stringify({ path }) });
const list = (path: string) => ({ name: 'files__list_dir', arguments: JSON.stringify({ path }) });

type Case = [label: string, text: string, expected: LeakVerdict];

const CALLS: Case[] = [
  ['seed 004 name[ARGS]{json}', 'files__read_file[ARGS]{"path":"a.txt"}', { type: 'calls', before: '', calls: [read('a.txt')] }],
  ['Mistral [TOOL_CALLS] + JSON array', '[TOOL_CALLS][{"name": "files__read_file", "arguments": {"path": "a.txt"}}]', { type: 'calls', before: '', calls: [read('a.txt')] }],
  ['Mistral [TOOL_CALLS] + name[ARGS]', '[TOOL_CALLS]files__read_file[ARGS]{"path": "a.txt"}', { type: 'calls', before: '', calls: [read('a.txt')] }],
  [
    'Mistral, two calls',
    '[TOOL_CALLS]files__list_dir[ARGS]{"path": "."}[TOOL_CALLS]files__read_file[ARGS]{"path": "b.md"}</s>',
    { type: 'calls', before: '', calls: [list('.'), read('b.md')] },
  ],
  ['Hermes / Qwen <tool_call>', '<tool_call>\n{"name": "files__read_file", "arguments": {"path": "a.txt"}}\n</tool_call>', { type: 'calls', before: '', calls: [read('a.txt')] }],
  [
    'Qwen: prose, then two <tool_call> blocks',
    'I will list the folder first.\n\n<tool_call>\n{"name": "files__list_dir", "arguments": {"path": "src"}}\n</tool_call>\n<tool_call>\n{"name": "files__read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>',
    { type: 'calls', before: 'I will list the folder first.', calls: [list('src'), read('src/a.ts')] },
  ],
  ['Llama 3.x <|python_tag|> with parameters', '<|python_tag|>{"name": "files__read_file", "parameters": {"path": "a.txt"}}<|eom_id|>', { type: 'calls', before: '', calls: [read('a.txt')] }],
  [
    'Llama 3.x: two calls separated by ;',
    '<|python_tag|>{"name": "files__list_dir", "parameters": {"path": "."}}; {"name": "files__read_file", "parameters": {"path": "x"}}',
    { type: 'calls', before: '', calls: [list('.'), read('x')] },
  ],
  ['<function=name>{json}</function>', '<function=files__read_file>{"path": "a.txt"}</function>', { type: 'calls', before: '', calls: [read('a.txt')] }],
  ['a reply that is only a JSON call', '{"name": "files__read_file", "arguments": {"path": "a.txt"}}', { type: 'calls', before: '', calls: [read('a.txt')] }],
  ['only JSON, with parameters and spaces around', '\n  {"name": "files__read_file", "parameters": {"path": "a.txt"}}\n', { type: 'calls', before: '', calls: [read('a.txt')] }],
  ['a fenced JSON call', '```json\n{"name": "files__read_file", "arguments": {"path": "a.txt"}}\n```', { type: 'calls', before: '', calls: [read('a.txt')] }],
  ['arguments as a JSON string', '{"name":"files__read_file","arguments":"{\\"path\\":\\"a.txt\\"}"}', { type: 'calls', before: '', calls: [read('a.txt')] }],
  ['the OpenAI wire shape as text', '{"type":"function","function":{"name":"aish__current_date","arguments":{}}}', { type: 'calls', before: '', calls: [{ name: 'aish__current_date', arguments: '{}' }] }],
  ['a JSON array of calls', '[{"name": "files__list_dir", "arguments": {"path": "."}}, {"name": "files__read_file", "arguments": {"path": "y"}}]', { type: 'calls', before: '', calls: [list('.'), read('y')] }],
  ['braces and quotes inside string arguments', 'files__read_file[ARGS]{"path":"we\\"ird}{.txt"}', { type: 'calls', before: '', calls: [read('we"ird}{.txt')] }],
];

const TEXT: Case[] = [
  ['a mention of a tool name', 'Use files__read_file to read a.txt, or files__list_dir for a folder.', { type: 'text' }],
  ['a quoted call format', 'Small models write `files__read_file[ARGS]{"path":"a"}` or `<tool_call>` by mistake.', { type: 'text' }],
  ['JSON calling a tool that was not offered', '{"name": "weather__now", "arguments": {"city": "Oslo"}}', { type: 'text' }],
  ['JSON that is not a call', '{"a": 1, "b": [1, 2]}', { type: 'text' }],
  ['a list in brackets', '[1, 2, 3] are the numbers.', { type: 'text' }],
  ['a fenced shell block', '```sh\nls -la\n```', { type: 'text' }],
  ['a fence without a language holding code', '```\nfiles__read_file a.txt\n```', { type: 'text' }],
  ['prose ending in a name', 'The tool you want is files__read_file', { type: 'text' }],
  ['prose with a JSON call after it', 'Here it is: {"name": "files__read_file", "arguments": {"path": "a"}}', { type: 'text' }],
  ['broken JSON that names no offered tool', '{"name": "other", "arguments": {', { type: 'text' }],
];

const MALFORMED: Case[] = [
  ['name[ARGS] with unterminated JSON', 'files__read_file[ARGS]{"path": "a.txt"', { type: 'malformed', before: '', reason: 'the JSON is not complete' }],
  ['<tool_call> with invalid JSON', '<tool_call>{"name": "files__read_file", "arguments": {path: a.txt}}</tool_call>', { type: 'malformed', before: '', reason: expect.stringMatching(/^not valid JSON/) as unknown as string }],
  ['a marker naming a tool not offered', 'Let me look.\n[TOOL_CALLS]nope[ARGS]{}', { type: 'malformed', before: 'Let me look.', reason: 'no tool named "nope" was offered' }],
  ['<function=> with no JSON', '<function=files__read_file>path=a.txt</function>', { type: 'malformed', before: '', reason: 'expected a JSON object' }],
  ['only broken JSON naming an offered tool', '{"name": "files__read_file", "arguments": {"path": "a.txt"}', { type: 'malformed', before: '', reason: expect.stringMatching(/^not valid JSON/) as unknown as string }],
  ['[ARGS] with arguments that are not an object', 'files__read_file[ARGS]["a.txt"]', { type: 'malformed', before: '', reason: 'the arguments of files__read_file must be a JSON object' }],
  ['a marker with nothing after it', 'Reading it now. <tool_call>', { type: 'malformed', before: 'Reading it now.', reason: 'expected a JSON object' }],
];

const ALL = [...CALLS, ...TEXT, ...MALFORMED];

/** Streams `chunks` through HeldText and releases what the finished reply allows, as the loop does. */
function stream(chunks: string[], offered: ReadonlySet<string> = OFFERED): { shown: string; verdict: LeakVerdict } {
  let shown = '';
  const held = new HeldText(offered, (t) => (shown += t));
  for (const c of chunks) held.push(c);
  const verdict = readLeakedCalls(chunks.join(''), offered);
  held.release(verdict.type === 'text' ? undefined : verdict.before.length);
  return { shown, verdict };
}

const expectedShown = (text: string, v: LeakVerdict) => (v.type === 'text' ? text : v.before);

describe('readLeakedCalls', () => {
  it.each(ALL)('%s', (_label, text, expected) => {
    expect(readLeakedCalls(text, OFFERED)).toEqual(expected);
  });

  it('with no tools offered everything is text, and nothing is held', () => {
    expect(readLeakedCalls('files__read_file[ARGS]{"path":"a"}', new Set())).toEqual({ type: 'text' });
    const pieces: string[] = [];
    const held = new HeldText(new Set(), (t) => pieces.push(t));
    held.push('{"name": "files__read_file", ');
    expect(pieces).toEqual(['{"name": "files__read_file", ']);
  });
});

describe('streaming: a call never shows, text all shows', () => {
  it.each(ALL)('%s: in one chunk', (_label, text, expected) => {
    const { shown, verdict } = stream([text]);
    expect(verdict).toEqual(expected);
    expect(shown).toBe(expectedShown(text, expected));
  });

  it.each(ALL)('%s: split at every position', (_label, text, expected) => {
    for (let k = 0; k <= text.length; k++) {
      const { shown } = stream([text.slice(0, k), text.slice(k)]);
      expect(shown, `split at ${k}`).toBe(expectedShown(text, expected));
    }
  });

  it.each(ALL)('%s: one character at a time, never showing what is later held', (_label, text, expected) => {
    const pieces: string[] = [];
    const held = new HeldText(OFFERED, (t) => pieces.push(t));
    for (const ch of text) held.push(ch);
    // Before the reply is judged, only text that is text has been passed on.
    expect(pieces.join('')).toBe(expectedShown(text, expected).slice(0, pieces.join('').length));
    if (expected.type !== 'text') expect(pieces.join('').length).toBeLessThanOrEqual(expected.before.length);
  });

  it('passes plain prose on as it streams, holding back only trailing spaces and a word that may name a tool', () => {
    const pieces: string[] = [];
    const held = new HeldText(OFFERED, (t) => pieces.push(t));
    held.push('The answer is ');
    held.push('forty-two. Done');
    expect(pieces.join('')).toBe('The answer is forty-two. Done');
    held.push(' and now files__re');
    expect(pieces.join('')).toBe('The answer is forty-two. Done and now');
    held.push('ad_file does it.');
    expect(pieces.join('')).toBe('The answer is forty-two. Done and now files__read_file does it.');
  });
});

describe('HoldScan: the incremental hold keeps the answer of the whole-text one', () => {
  it.each(ALL)('%s: at every prefix, grown a character at a time', (_label, text) => {
    const scan = new HoldScan(OFFERED);
    for (let k = 0; k <= text.length; k++) expect(scan.end(text.slice(0, k)), `prefix ${k}`).toBe(heldFrom(text.slice(0, k), OFFERED));
  });

  it('on a long reply shows all its text as it grows, and still finds a marker that comes late', () => {
    const scan = new HoldScan(OFFERED);
    let text = '';
    const seen: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      text += 'word ab ';
      seen.push(scan.end(text));
    }
    expect(seen.at(-1)).toBe(text.trimEnd().length);
    text += 'then <tool_call>{"name"';
    expect(scan.end(text)).toBe(text.indexOf(' <tool_call>'));
  });
});

describe('HeldText on a reply longer than its window', () => {
  it('shows every word of a long reply and holds a call that comes after 100 KB of text', () => {
    let shown = '';
    const held = new HeldText(OFFERED, (t) => (shown += t));
    let prose = '';
    for (let i = 0; i < 20_000; i++) {
      const words = `part ${i}, `;
      prose += words;
      held.push(words);
    }
    expect(shown).toBe(prose.trimEnd());
    held.push('now <tool_call>{"name": "files__read_file", "arguments": {"path": "a.txt"}}</tool_call>');
    expect(shown).toBe(`${prose}now`);
    for (let i = 0; i < 3000; i++) held.push(' more held text');
    expect(shown).toBe(`${prose}now`);
    held.release();
    expect(shown).toBe(`${prose}now <tool_call>{"name": "files__read_file", "arguments": {"path": "a.txt"}}</tool_call>${' more held text'.repeat(3000)}`);
  });
});

