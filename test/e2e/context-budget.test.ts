// The conversation's token budget end to end: the built program from a pipe against the loopback
// model server. Long command output is cut to a share of the budget, so it never evicts the
// conversation, and the model's server is asked once how much context it holds.

import { describe, expect, it } from 'vitest';
import { loopbackHome } from '../support/loopback-home.js';
import { llamaProps, textReply } from '../support/model-server.js';
import { runAish } from '../support/run-aish.js';

const lb = loopbackHome();
const run = (stdin: string) => runAish({ stdin, cwd: lb.home.cwd, env: lb.home.env });

const LINES = 'first question\nseq 1 200000\nseq 1 200000\nwhat did they print?\n:history\n';

describe('the token budget', () => {
  it('seq 1 200000 twice, then a question: no turn is evicted (the default budget)', async () => {
    lb.server.enqueue(textReply(['first answer']), textReply(['two long lists']));
    const r = await run(LINES);
    expect(r.stderr).not.toMatch(/evicted/);
    expect(r.stdout).toContain('two long lists');
    // The second question still carries the first exchange, and both outputs.
    const messages = lb.server.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages.slice(1, 3)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
    ]);
    expect(messages[3]!.content.match(/\$ seq 1 200000\n1\n2\n/g)).toHaveLength(2);
    expect(r.stdout).toMatch(/budget: 4\/40 turns, ~\d+\/16384 tokens \(from aish's default/);
  });

  it("the server's context is asked once, beside the questions, and output is cut to fit it", async () => {
    lb.server.context = { props: llamaProps(8192) };
    lb.server.enqueue(textReply(['first answer']), textReply(['two long lists']));
    const r = await run(LINES);
    expect(r.stderr).not.toMatch(/evicted/);
    expect(lb.server.requests.map((q) => q.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(lb.server.contextQuestions.map((q) => q.path).sort()).toEqual(['/api/show', '/props', '/v1/models']);
    const messages = lb.server.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages[1]).toEqual({ role: 'user', content: 'first question' });
    // However far the server's answer came, the pending output stays within a share of the budget.
    expect(messages[3]!.content.length).toBeLessThan(16_384 * 2 + 1000);
  });
});
