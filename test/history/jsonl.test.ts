import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CappedWarnings, jsonlLines, jsonlStream } from '../../src/history/jsonl.js';

const text = '{"a":1}\n\n  \nnot json\n{"b":2}\n{"torn":';

describe('the one JSONL reader', () => {
  const expected = [
    { lineNo: 1, record: { a: 1 } },
    { lineNo: 4, invalid: true },
    { lineNo: 5, record: { b: 2 } },
    { lineNo: 6, invalid: true },
  ];

  it('numbers the lines from 1, leaves blank ones out and marks what is not JSON', () => {
    expect([...jsonlLines(text)]).toEqual(expected);
  });

  it('reads the same from a stream of lines', async () => {
    const got = [];
    for await (const entry of jsonlStream(Readable.from(text.split('\n')))) got.push(entry);
    expect(got).toEqual(expected);
  });
});

describe('CappedWarnings', () => {
  it('names at most max problems and counts the rest in one line', () => {
    const w = new CappedWarnings(2);
    for (let i = 1; i <= 5; i++) w.add(`line ${i}: bad`);
    expect(w.list).toEqual(['line 1: bad', 'line 2: bad', '3 more problem lines skipped']);
  });

  it('says nothing more when all were named', () => {
    const w = new CappedWarnings(2);
    w.add('one');
    expect(w.list).toEqual(['one']);
  });
});
