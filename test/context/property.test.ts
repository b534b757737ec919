// Random conversations against the Context store: after every step the request messages must be
// well formed in both tool modes, and the budget must hold. Seeded, so a failure reproduces:
// AISH_PROPERTY_SEED=<seed printed in the failure> npx vitest run test/context/property.test.ts

import { describe, expect, it } from 'vitest';
import { Context } from '../../src/context/context.js';
import { toChatMessages, type ChatMessage } from '../../src/context/messages.js';
import type { ToolCall, Turn } from '../../src/context/turns.js';

const BASE_SEED = Number(process.env.AISH_PROPERTY_SEED ?? 20260512);
const RUNS = Number(process.env.AISH_PROPERTY_RUNS ?? 1200);

/** mulberry32: small, fast, good enough to drive tests. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Problems with a messages array, empty when well formed. */
function problems(messages: ChatMessage[], useToolRole: boolean): string[] {
  const out: string[] = [];
  if (messages[0]?.role !== 'system') out.push('system message is not first');
  if (messages.slice(1).some((m) => m.role === 'system')) out.push('a second system message');
  if (messages[1] && messages[1].role !== 'user') out.push(`first message after system is ${messages[1].role}`);
  for (let i = 2; i < messages.length; i++) {
    const [a, b] = [messages[i - 1]!.role, messages[i]!.role];
    if (a === b && (a === 'user' || a === 'assistant')) out.push(`two ${a} messages in a row at ${i}`);
  }
  if (!useToolRole) {
    if (messages.some((m) => m.role === 'tool')) out.push('tool message with the tool role off');
    if (messages.some((m) => m.role === 'assistant' && m.tool_calls)) out.push('tool_calls with the tool role off');
    return out;
  }
  for (let i = 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      let j = i - 1;
      while (j > 0 && messages[j]!.role === 'tool') j--;
      const owner = messages[j]!;
      const ids = owner.role === 'assistant' ? (owner.tool_calls ?? []).map((c) => c.id) : [];
      if (!ids.includes(m.tool_call_id)) out.push(`orphan tool message ${m.tool_call_id} at ${i}`);
    }
    if (m.role === 'assistant' && m.tool_calls) {
      const answers: string[] = [];
      let j = i + 1;
      for (; j < messages.length && messages[j]!.role === 'tool'; j++) {
        answers.push((messages[j] as { tool_call_id: string }).tool_call_id);
      }
      const ids = m.tool_calls.map((c) => c.id);
      if (new Set(answers).size !== answers.length) out.push(`a call answered twice at ${i}`);
      const complete = ids.every((id) => answers.includes(id));
      // Only the last assistant message may still wait for results (mid tool loop).
      if (!complete && j < messages.length) out.push(`calls of the assistant message at ${i} unanswered`);
    }
  }
  return out;
}

function text(rand: () => number, label: string): string {
  const r = rand();
  const size = r < 0.1 ? 0 : r < 0.9 ? Math.floor(rand() * 300) : 1000 + Math.floor(rand() * 3000);
  return `${label} ${'x'.repeat(size)}`;
}

interface RunResult {
  steps: number;
}

/** Drives one random conversation; throws with the seed on the first ill-formed state. */
function run(seed: number): RunResult {
  const rand = prng(seed);
  const maxTurns = 2 + Math.floor(rand() * 30);
  const tokenBudget = 20 + Math.floor(rand() * 2000);
  let evictedReported = 0;
  const ctx = new Context({
    maxTurns,
    tokenBudget,
    onStatus: (kind, message) => {
      const m = /^oldest (\d+) turns? evicted$/.exec(message);
      if (kind === 'context' && m) evictedReported += Number(m[1]);
    },
  });
  let appended = 0;
  let popped = 0;
  let steps = 0;
  let callNo = 0;

  const check = (after: string) => {
    steps++;
    const fail = (what: string) => {
      throw new Error(`seed ${seed} (maxTurns ${maxTurns}, tokenBudget ${tokenBudget}) after ${after}: ${what}`);
    };
    const turns = ctx.turns;
    for (const useToolRole of [true, false]) {
      const found = problems(toChatMessages('sys', turns, { useToolRole }), useToolRole);
      if (found.length) fail(`useToolRole ${useToolRole}: ${found.join('; ')}`);
    }
    if (turns.length && turns[0]!.role !== 'user') fail('context does not start with a user turn');
    const exchanges = turns.filter((t) => t.role === 'user').length;
    if (exchanges > 1 && (turns.length > maxTurns || ctx.estimateTokens() > tokenBudget)) fail('over budget with exchanges to evict');
    if (evictedReported !== appended - popped - turns.length) fail(`reported ${evictedReported} evicted, dropped ${appended - popped - turns.length}`);
  };
  const append = (turn: Turn, what: string) => {
    ctx.append(turn);
    appended++;
    check(what);
  };

  const exchangeCount = 1 + Math.floor(rand() * 10);
  for (let e = 0; e < exchangeCount; e++) {
    append({ role: 'user', content: text(rand, 'user') }, `user turn of exchange ${e}`);
    if (rand() < 0.1) {
      // The request failed: the app takes the user turn back.
      if (ctx.popLastUserTurn()) popped++;
      check('pop of a failed user turn');
      continue;
    }
    const rounds = Math.floor(rand() * 4);
    let midLoop = false;
    for (let r = 0; r < rounds; r++) {
      const calls: ToolCall[] = [];
      const n = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < n; k++) calls.push({ id: `call_${callNo++}`, name: `srv__tool${k}`, arguments: `{"q":"${'a'.repeat(Math.floor(rand() * 80))}"}` });
      const content = rand() < 0.5 ? '' : text(rand, 'before calls');
      append({ role: 'assistant', content, tool_calls: calls }, `assistant with ${n} calls`);
      expect(ctx.openToolCalls().map((c) => c.id)).toEqual(calls.map((c) => c.id));
      // Answer in a shuffled order; sometimes the session stops mid loop.
      const order = calls.slice().sort(() => rand() - 0.5);
      for (const call of order) {
        if (e === exchangeCount - 1 && rand() < 0.05) {
          midLoop = true;
          break;
        }
        append({ role: 'tool', tool_call_id: call.id, content: text(rand, 'result') }, `tool result ${call.id}`);
      }
      if (midLoop) break;
    }
    if (midLoop) break;
    // The depth limit may leave the tool results without a final reply.
    if (rounds > 0 && rand() < 0.1) continue;
    append({ role: 'assistant', content: text(rand, 'answer') }, 'final assistant text');
  }
  return { steps };
}

describe('Context property', () => {
  it(`keeps ${RUNS} random conversations well formed at every step (seeds ${BASE_SEED}..)`, () => {
    let steps = 0;
    for (let i = 0; i < RUNS; i++) steps += run(BASE_SEED + i).steps;
    expect(steps).toBeGreaterThan(RUNS * 3);
  });

  it('the checker itself catches broken arrays', () => {
    const call = { id: 'a', type: 'function' as const, function: { name: 'x', arguments: '{}' } };
    expect(problems([{ role: 'user', content: 'u' }], true)).toContain('system message is not first');
    expect(problems([{ role: 'system', content: '' }, { role: 'user', content: 'a' }, { role: 'user', content: 'b' }], true)).toHaveLength(1);
    expect(
      problems([{ role: 'system', content: '' }, { role: 'user', content: 'u' }, { role: 'tool', tool_call_id: 'a', content: '' }], true),
    ).toEqual(['orphan tool message a at 2']);
    expect(
      problems(
        [
          { role: 'system', content: '' },
          { role: 'user', content: 'u' },
          { role: 'assistant', content: '', tool_calls: [call] },
          { role: 'user', content: 'v' },
        ],
        true,
      ),
    ).toEqual(['calls of the assistant message at 2 unanswered']);
  });
});
