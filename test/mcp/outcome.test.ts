// Tables for result flattening (SPEC §6 "Results"), the size cap, argument error formatting and
// the one-line connect failure reasons.

import { describe, expect, it } from 'vitest';
import { describeMcpFailure } from '../../src/mcp/errors.js';
import { capText, formatBytes, outcomeFromResult } from '../../src/mcp/outcome.js';
import { ArgumentValidator } from '../../src/mcp/validate.js';

describe('outcomeFromResult', () => {
  it('joins text blocks with newlines', () => {
    expect(outcomeFromResult({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b\nc' }] })).toEqual({
      status: 'ok',
      content: 'a\nb\nc',
      display: 'a (+2 more lines)',
      isError: false,
      notices: [],
    });
  });

  it.each([
    [{ type: 'image', data: 'A'.repeat(8), mimeType: 'image/png' }, '[image image/png, 6 B]'],
    [{ type: 'image', data: 'AAAAAA==', mimeType: 'image/jpeg' }, '[image image/jpeg, 4 B]'],
    [{ type: 'audio', data: 'A'.repeat(4 * 1024 * 1024), mimeType: 'audio/wav' }, '[audio audio/wav, 3.0 MB]'],
    [{ type: 'resource', resource: { uri: 'demo://x', blob: 'AAAA', mimeType: 'application/zip' } }, '[resource demo://x (application/zip), 3 B]'],
  ] as const)('summarises %j', (block, line) => {
    const outcome = outcomeFromResult({ content: [block as never] });
    expect(outcome.content).toBe(line);
    expect(outcome.notices).toEqual([`${block.type} blocks in tool results reach the model as one-line summaries`]);
  });

  it.each([
    [{ type: 'resource', resource: { uri: 'demo://x', text: 'the text' } }, '[resource demo://x]\nthe text'],
    [{ type: 'resource', resource: { uri: 'demo://x', mimeType: 'text/csv', text: 'a,b' } }, '[resource demo://x (text/csv)]\na,b'],
    [{ type: 'resource_link', uri: 'demo://x', name: 'x' }, '[resource_link demo://x] x'],
    [{ type: 'resource_link', uri: 'demo://x', name: 'notes.md', description: 'Meeting\nnotes' }, '[resource_link demo://x] notes.md: Meeting notes'],
    [{ type: 'resource_link', uri: 'demo://x', name: ' ' }, '[resource_link demo://x]'],
  ] as const)('flattens %j with its text and no notice', (block, text) => {
    expect(outcomeFromResult({ content: [block as never] })).toMatchObject({ content: text, notices: [] });
  });

  it.each([
    ['a different text', [{ type: 'text', text: 'Sunny.' }], '{"c":1}', 'Sunny.\n[structured content] {"c":1}'],
    ['the same JSON as text', [{ type: 'text', text: '{ "c": 1 }' }], '{"c":1}', '{ "c": 1 }'],
    ['no content', [], '{"c":1}', '{"c":1}'],
  ] as const)('gives structuredContent with %s', (_name, content, structured, out) => {
    expect(outcomeFromResult({ content: content as never, structuredContent: JSON.parse(structured) }).content).toBe(out);
  });

  // Servers built on the SDK must give an object as structuredContent, so they wrap what their
  // text says: server-filesystem as {content: <the text>}, server-memory an array beside
  // {entities: [...]}. Sending both halved the result budget.
  it.each([
    ['{content: <the text>} (server-filesystem)', [{ type: 'text', text: 'line one\nline two' }], { content: 'line one\nline two' }, 'line one\nline two'],
    ['the text as JSON of one top-level value (server-memory)', [{ type: 'text', text: '[\n  {"name": "Ada"}\n]' }], { entities: [{ name: 'Ada' }] }, '[\n  {"name": "Ada"}\n]'],
    ['the same JSON with keys in another order', [{ type: 'text', text: '{"b": 2, "a": 1}' }], { a: 1, b: 2 }, '{"b": 2, "a": 1}'],
    ['the content blocks themselves (read_media_file)', [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, '[image image/png, 3 B]'],
    ['one value in the text and one not', [{ type: 'text', text: 'Entities deleted' }], { message: 'Entities deleted', success: true }, 'Entities deleted\n[structured content] {"success":true}'],
    ['a text that only contains the value', [{ type: 'text', text: 'Deleted: a' }], { content: 'a' }, 'Deleted: a\n[structured content] {"content":"a"}'],
  ] as const)('does not repeat structuredContent given as %s', (_name, content, structured, out) => {
    expect(outcomeFromResult({ content: content as never, structuredContent: structured as never }).content).toBe(out);
  });

  it('cuts a long file read once, with no escaped copy of it', () => {
    const file = Array.from({ length: 800 }, (_, i) => `line ${i} "quoted" \\ text`).join('\n');
    const outcome = outcomeFromResult({ content: [{ type: 'text', text: file }], structuredContent: { content: file } });
    expect(outcome.content).not.toContain('[structured content]');
    expect(outcome.content.match(/chars cut by aish/g)).toHaveLength(outcome.content.length < file.length ? 1 : 0);
    expect(outcome.content.startsWith(file.slice(0, 1000))).toBe(true);
    expect(outcome.content.endsWith(file.slice(-1000))).toBe(true);
  });

  it('passes isError through with status ok', () => {
    const outcome = outcomeFromResult({ content: [{ type: 'text', text: 'Error: nope' }], isError: true });
    expect(outcome).toMatchObject({ status: 'ok', isError: true, content: 'Error: nope', display: 'tool reported an error: Error: nope' });
  });

  it('uses structuredContent when there is no content, and survives an empty result', () => {
    expect(outcomeFromResult({ content: [], structuredContent: { a: [1] } }).content).toBe('{"a":[1]}');
    expect(outcomeFromResult({ content: [] })).toMatchObject({ content: '', display: '(empty result)' });
  });

  it('caps content and says so once', () => {
    const outcome = outcomeFromResult({ content: [{ type: 'text', text: 'x'.repeat(50_000) }] });
    expect(outcome.content.length).toBeLessThan(16_100);
    expect(outcome.content).toContain('[... 34000 chars cut by aish ...]');
    expect(outcome.notices).toEqual(['a tool result over 16000 characters was cut (mcp.max_result_chars)']);
  });
});

describe('capText', () => {
  it.each([
    ['short', 10, 'short'],
    ['0123456789', 10, '0123456789'],
    ['0123456789abcdefghij', 10, '0123456\n[... 10 chars cut by aish ...]\nhij'],
  ])('%j at %i', (text, max, out) => {
    expect(capText(text, max)).toBe(out);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(20);
    const capped = capText(text, 11);
    expect(capped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [5 * 1024, '5 KB'],
    [1536 * 1024, '1.5 MB'],
  ])('%i → %s', (n, s) => {
    expect(formatBytes(n)).toBe(s);
  });
});

describe('ArgumentValidator', () => {
  const v = new ArgumentValidator();
  const schema = {
    type: 'object',
    properties: { a: { type: 'number' }, colour: { enum: ['red', 'green'] }, nested: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
    required: ['a'],
    additionalProperties: false,
  };

  it.each([
    [{ a: 1 }, []],
    [{ a: 'x' }, ['/a: must be number']],
    [{}, ['/a: is required']],
    [{ a: 1, extra: true }, ['/extra: is not an allowed property']],
    [{ a: 1, colour: 'blue' }, ['/colour: must be one of "red", "green"']],
    [{ a: 1, nested: {} }, ['/nested/n: is required']],
    [{ a: 1, nested: { n: 1.5 } }, ['/nested/n: must be integer']],
    ['text', ['/: must be object']],
    [{ b: 'x', a: [] }, ['/b: is not an allowed property', '/a: must be number']],
  ])('%j → %j', (args, errors) => {
    expect(v.check(schema, args)).toEqual({ errors });
  });

  it('follows a 2020-12 $schema and ignores unknown formats', () => {
    const s2020 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string', format: 'x-unknown' }],
    };
    expect(v.check(s2020, [1])).toEqual({ errors: ['/0: must be string'] });
    expect(v.check(s2020, ['ok'])).toEqual({ errors: [] });
  });

  it('reports a schema it cannot compile instead of throwing', () => {
    const bad = { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } };
    expect(v.check(bad, { a: 1 })).toEqual({ unusable: expect.stringContaining('missing') });
  });
});

describe('describeMcpFailure', () => {
  const cause = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
  const url = new URL('http://boltzmann.fritz.box:8080/mcp');
  it.each([
    [cause('ECONNREFUSED'), 'connection refused (boltzmann.fritz.box:8080)'],
    [cause('ENOTFOUND'), 'host not found (boltzmann.fritz.box)'],
    [cause('ECONNRESET'), 'the server closed the connection'],
    [cause('UND_ERR_CONNECT_TIMEOUT'), 'connection timed out (boltzmann.fritz.box:8080)'],
    [Object.assign(new Error('Streamable HTTP error: Error POSTing to endpoint: {"error":"unauthorized"}'), { code: 401 }), 'authentication failed (HTTP 401)'],
    [Object.assign(new Error('SSE error: Non-200 status code (403)'), { code: 403 }), 'access denied (HTTP 403)'],
    [new Error('Error POSTing to endpoint (HTTP 503): busy'), 'server error (HTTP 503)'],
    [Object.assign(new Error('Streamable HTTP error: Unexpected content type: text/html'), { code: -1 }), 'protocol error: not an MCP endpoint (content type text/html)'],
    [new Error("Server's protocol version is not supported: 1999-01-01"), 'protocol error: unsupported protocol version 1999-01-01'],
    [Object.assign(new Error('MCP error -32601: Method not found'), { name: 'McpError', code: -32601 }), 'protocol error: Method not found (JSON-RPC -32601)'],
  ])('%s', (err, reason) => {
    expect(describeMcpFailure(err, { url })).toBe(reason);
  });
});
