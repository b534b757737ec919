// The stdio line framing with its cap on one message: lines at any chunk boundary, and a message
// over the cap skipped with its JSON-RPC id found at its head or its tail.

import { describe, expect, it } from 'vitest';
import { StdioLines, messageId } from '../../src/mcp/stdio-lines.js';

/** Feeds `text` in slices of `size` bytes and collects what comes out. */
function feed(text: string, size: number, max = 64) {
  const lines = new StdioLines(max);
  const bytes = Buffer.from(text);
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...lines.push(bytes.subarray(i, i + size)));
  return out;
}

describe('StdioLines', () => {
  it.each([1, 3, 7, 1000])('splits lines at any chunk boundary (slices of %i), dropping \\r and blank lines', (size) => {
    expect(feed('{"a":1}\r\n\n{"b":2}\n{"c"', size)).toEqual([
      { type: 'line', line: '{"a":1}' },
      { type: 'line', line: '{"b":2}' },
    ]);
  });

  it.each([1, 5, 1000])('skips a message over the cap, finds its id at the end, and goes on (slices of %i)', (size) => {
    const big = `{"result":{"content":[{"type":"text","text":"${'x'.repeat(200)}"}]},"jsonrpc":"2.0","id":7}`;
    expect(feed(`{"a":1}\n${big}\n{"b":2}\n`, size)).toEqual([
      { type: 'line', line: '{"a":1}' },
      { type: 'too-large', bytes: big.length, id: 7 },
      { type: 'line', line: '{"b":2}' },
    ]);
  });

  it('finds an id written first, and says when there is none', () => {
    const first = `{"jsonrpc":"2.0","id":"r-1","result":{"t":"${'y'.repeat(100)}"}}`;
    expect(feed(`${first}\n`, 10)).toEqual([{ type: 'too-large', bytes: first.length, id: 'r-1' }]);
    expect(feed(`{"method":"notifications/message","params":{"data":"${'z'.repeat(100)}"}}\n`, 10)[0]).toMatchObject({ type: 'too-large', id: undefined });
  });

  it.each<[string, string, string | number | undefined]>([
    ['{"result":{"x":{"id":5}}}', '', undefined],
    ['', '"data":{"id":9}},"id":3}', 3],
    ['', '"x":{"id":9}}', undefined],
    ['{ "id" : "a\\"b" , "result"', '', 'a"b'],
  ])('messageId(%j, %j) is %j', (head, tail, id) => {
    // The line ends with the outer object's brace: an id one level down is not the message's.
    expect(messageId(head, tail)).toBe(id);
  });
});
