import { describe, expect, it } from 'vitest';
import { accumulateToolCalls, ToolCallAccumulator } from '../../src/broker/accumulator.js';

/** One streamed tool-call fragment, as the wire carries it. */
const tc = (f: { index?: number; id?: string; name?: string | null; args?: string; type?: boolean }) => ({
  ...(f.index !== undefined ? { index: f.index } : {}),
  ...(f.id !== undefined ? { id: f.id } : {}),
  ...(f.type ? { type: 'function' } : {}),
  function: {
    ...(f.name !== undefined ? { name: f.name } : {}),
    ...(f.args !== undefined ? { arguments: f.args } : {}),
  },
});

describe('accumulateToolCalls', () => {
  it.each([
    {
      case: 'OpenAI: opening delta with empty arguments, then fragments',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: '' })], [tc({ index: 0, args: '{"x"' })], [tc({ index: 0, args: ':1}' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{"x":1}' }],
    },
    {
      case: 'arguments on the opening delta are kept',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: '{"x":' })], [tc({ index: 0, args: '2}' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{"x":2}' }],
    },
    {
      case: 'parallel calls keyed by index, interleaved',
      deltas: [
        [tc({ index: 0, id: 'a', name: 'f', args: '' })],
        [tc({ index: 1, id: 'b', name: 'g', args: '{"y"' })],
        [tc({ index: 0, args: '{"x":1}' })],
        [tc({ index: 1, args: ':2}' })],
      ],
      calls: [
        { id: 'a', name: 'f', arguments: '{"x":1}' },
        { id: 'b', name: 'g', arguments: '{"y":2}' },
      ],
    },
    {
      case: 'two calls in one delta array',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: '{}' }), tc({ index: 1, id: 'b', name: 'g', args: '{"z":3}' })]],
      calls: [
        { id: 'a', name: 'f', arguments: '{}' },
        { id: 'b', name: 'g', arguments: '{"z":3}' },
      ],
    },
    {
      case: 'missing index: position in the array',
      deltas: [[tc({ id: 'a', name: 'f', args: '{"p":1}' }), tc({ id: 'b', name: 'g', args: '{"q":2}' })]],
      calls: [
        { id: 'a', name: 'f', arguments: '{"p":1}' },
        { id: 'b', name: 'g', arguments: '{"q":2}' },
      ],
    },
    {
      case: 'missing index on a single streamed call: slot 0 throughout',
      deltas: [[tc({ id: 'a', name: 'f', args: '{"p"' })], [tc({ args: ':1}' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{"p":1}' }],
    },
    {
      case: 'Ollama: index 0 reused for two calls told apart by id',
      deltas: [[tc({ index: 0, id: 'a', name: 'w', args: '{"c":"P"}' })], [tc({ index: 0, id: 'b', name: 'w', args: '{"c":"B"}' })]],
      calls: [
        { id: 'a', name: 'w', arguments: '{"c":"P"}' },
        { id: 'b', name: 'w', arguments: '{"c":"B"}' },
      ],
    },
    {
      case: 'no ids: a different name at an occupied index starts a new call',
      deltas: [[tc({ name: 'f', args: '{"a":1}' })], [tc({ name: 'g', args: '{"b":2}' })]],
      calls: [
        { id: 'call_0', name: 'f', arguments: '{"a":1}' },
        { id: 'call_1', name: 'g', arguments: '{"b":2}' },
      ],
    },
    {
      case: 'no ids: the same name with a new object after complete arguments starts a new call',
      deltas: [[tc({ name: 'w', args: '{"c":"P"}' })], [tc({ name: 'w', args: '{"c":"B"}' })]],
      calls: [
        { id: 'call_0', name: 'w', arguments: '{"c":"P"}' },
        { id: 'call_1', name: 'w', arguments: '{"c":"B"}' },
      ],
    },
    {
      case: 'older llama.cpp: the name repeated on every delta is the same call',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: '{"n"' })], [tc({ index: 0, name: 'f', args: ':{"m"' })], [tc({ index: 0, name: 'f', args: ':1}}' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{"n":{"m":1}}' }],
    },
    {
      case: 'a nested object fragment with the repeated name does not split an incomplete call',
      deltas: [[tc({ index: 0, name: 'f', args: '{"n":' })], [tc({ index: 0, name: 'f', args: '{"m":1}}' })]],
      calls: [{ id: 'call_0', name: 'f', arguments: '{"n":{"m":1}}' }],
    },
    {
      case: 'LiteLLM: id repeated on every chunk, name null, index starting at 1',
      deltas: [
        [tc({ index: 1, id: 't1', name: 's', args: '' })],
        [tc({ index: 1, id: 't1', name: null, args: '{"q":' })],
        [tc({ index: 1, id: 't1', name: null, args: '"x"}' })],
      ],
      calls: [{ id: 't1', name: 's', arguments: '{"q":"x"}' }],
    },
    {
      case: 'LM Studio: name "" and id "" on follow-ups never clobber',
      deltas: [[tc({ index: 0, id: '36', name: 'w', args: '' })], [tc({ index: 0, id: '', name: '', args: '{"a"' })], [tc({ index: 0, name: '', args: ':1}' })]],
      calls: [{ id: '36', name: 'w', arguments: '{"a":1}' }],
    },
    {
      case: 'an id arriving after the name joins the call',
      deltas: [[tc({ index: 0, name: 'f', args: '' })], [tc({ index: 0, id: 'late', args: '{}' })]],
      calls: [{ id: 'late', name: 'f', arguments: '{}' }],
    },
    {
      case: 'a repeated id at another index is still the same call',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: '{"x"' })], [tc({ index: 3, id: 'a', args: ':1}' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{"x":1}' }],
    },
    {
      case: 'a proxy re-sending the finished call whole does not double it',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: '{"x":1}' })], [tc({ index: 0, id: 'a', name: 'f', args: '{"x":1}' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{"x":1}' }],
    },
    {
      case: 'empty arguments mean {}',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: '' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{}' }],
    },
    {
      case: 'arguments that never stream mean {}',
      deltas: [[tc({ index: 0, id: 'a', name: 'f' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{}' }],
    },
    {
      case: 'whitespace-only arguments mean {}',
      deltas: [[tc({ index: 0, id: 'a', name: 'f', args: ' \n' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{}' }],
    },
    {
      case: 'arguments sent as an object are serialised',
      deltas: [[{ index: 0, id: 'a', function: { name: 'f', arguments: { k: [1, 2] } } }]],
      calls: [{ id: 'a', name: 'f', arguments: '{"k":[1,2]}' }],
    },
    {
      case: 'a call that never gets a name is left out',
      deltas: [[tc({ index: 0, id: 'a', args: '{}' })], [tc({ index: 1, id: 'b', name: 'g', args: '{}' })]],
      calls: [{ id: 'b', name: 'g', arguments: '{}' }],
    },
    {
      case: 'junk entries and non-arrays are ignored',
      deltas: [null, 'x', [null, 5, 'y'], { index: 0 }, [{ index: 0, id: 'a', function: 'nope' }], [tc({ index: 0, name: 'f', args: '{}' })]],
      calls: [{ id: 'a', name: 'f', arguments: '{}' }],
    },
    {
      case: 'a numeric string index is read as a number',
      deltas: [[{ index: '0', id: 'a', function: { name: 'f', arguments: '{"a"' } }], [{ index: 0, function: { arguments: ':1}' } }]],
      calls: [{ id: 'a', name: 'f', arguments: '{"a":1}' }],
    },
  ])('$case', ({ deltas, calls }) => {
    expect(accumulateToolCalls(deltas)).toEqual(calls);
  });
});

describe('ToolCallAccumulator.add', () => {
  it('reports each new call once, with its position and name', () => {
    const acc = new ToolCallAccumulator();
    expect(acc.add([tc({ index: 1, id: 'a', name: 'f', args: '' })])).toEqual([{ index: 0, name: 'f' }]);
    expect(acc.add([tc({ index: 1, args: '{}' })])).toEqual([]);
    expect(acc.add([tc({ index: 1, id: 'b', name: 'g', args: '{}' }), tc({ index: 2 })])).toEqual([{ index: 1, name: 'g' }, { index: 2 }]);
    expect(acc.size).toBe(3);
    expect(acc.calls().unnamed).toBe(1);
  });
});
