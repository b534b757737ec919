// A conversation that heals (issue 25): after a failed turn, a torn session log or an oversized
// reply the next question is answered and saved. The built program, piped, against the loopback
// model server; what the model was sent and what the session log holds are the evidence.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelE2e } from '../support/model-e2e.js';
import { textReply, toolCallReply } from '../support/model-server.js';
import { runAish, startAish } from '../support/run-aish.js';
import { fixtureStdio } from '../support/mcp-servers.js';
import { SMALL_DISK, fillDisk, mountSmallDisk, unmountSmallDisk } from '../support/small-disk.js';

const e2e = modelE2e();

const sessionsDir = () => path.join(e2e.h.stateDir, 'sessions');
/** The records of every session log but `except`, in order. */
function logged(except?: string): Record<string, unknown>[] {
  return readdirSync(sessionsDir())
    .filter((f) => f !== except)
    .flatMap((f) => readFileSync(path.join(sessionsDir(), f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>));
}
const sent = (n: number) => e2e.server.requests[n]!.body.messages.slice(1).map((m: { role: string; content: string }) => [m.role, m.content]);

describe('a failed turn leaves the conversation well formed', () => {
  it('tool arguments nested 5 000 deep are answered as not run, and the next question is answered and saved', async () => {
    const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    e2e.server.enqueue(toolCallReply([{ id: 'c1', name: 'aish__current_date', arguments: deep }]), textReply(['Too deep.']), textReply(['Second answer.']));
    const r = await runAish({ stdin: 'first question\nsecond question\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).not.toMatch(/internal error|cannot append/);
    expect(r.stdout).toContain('Second answer.');
    expect(sent(1).at(-1)).toEqual(['tool', '[aish] tool arguments nested deeper than 64 levels; not run']);
    expect(sent(2).at(-1)).toEqual(['user', 'second question']);
    expect(logged().filter((l) => l.role === 'user').map((l) => l.content)).toEqual(['first question', 'second question']);
  });

  it('a question whose request failed is kept in the log as unanswered; the next one goes through', async () => {
    e2e.server.enqueue({ type: 'raw', status: 400, body: '{"error":{"message":"context too long"}}' }, textReply(['Answered.']));
    const r = await runAish({ stdin: 'first question\nsecond question\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('transport: HTTP 400');
    expect(r.stdout).toContain('Answered.');
    expect(sent(1)).toEqual([['user', 'second question']]);
    const records = logged();
    expect(records.find((l) => l.event === 'unanswered')).toMatchObject({ role: 'user', content: 'first question', error: expect.stringContaining('HTTP 400') });
    expect(records.filter((l) => l.role === 'user' && !l.event).map((l) => l.content)).toEqual(['second question']);
  });

  it('--resume of a session whose last line a full disk cut: the torn line is dropped, the question before it closed, and the conversation goes on', async () => {
    mkdirSync(sessionsDir(), { recursive: true });
    const lines = [
      { meta: { started: '2026-01-01T00:00:00.000Z', model: 'fast', aish_version: '1' } },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
    ].map((l) => JSON.stringify(l));
    writeFileSync(path.join(sessionsDir(), 'old.jsonl'), `${lines.join('\n')}\n{"role":"assistant","content":"a2 cut mid-wr`);
    e2e.server.enqueue(textReply(['Answer three.']), textReply(['Answer four.']));
    const r = await runAish({ args: ['--resume', 'old'], stdin: 'q3\nq4\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('[aish] resume: line 5: cut off mid-write (the last line is torn), dropped');
    expect(r.stderr).toContain('[aish] resume: line 4: the last question has no reply in the log, closed');
    expect(r.stderr).not.toContain('cannot append');
    expect(r.stdout).toContain('Answer four.');
    expect(sent(0)).toEqual([
      ['user', 'q1'],
      ['assistant', 'a1'],
      ['user', 'q2'],
      ['assistant', '[aish] no reply (the session log ends before one was written)'],
      ['user', 'q3'],
    ]);
    expect(logged('old.jsonl').filter((l) => l.role === 'user').map((l) => l.content)).toEqual(['q1', 'q2', 'q3', 'q4']);
  });

  it('-p --resume writes the closing turn into the file it goes on in, so the next resume reads the same conversation', async () => {
    mkdirSync(sessionsDir(), { recursive: true });
    const file = path.join(sessionsDir(), 'old.jsonl');
    const header = JSON.stringify({ meta: { started: '2026-01-01T00:00:00.000Z', model: 'fast', aish_version: '1' } });
    writeFileSync(file, `${header}\n${JSON.stringify({ role: 'user', content: 'q1' })}\n{"role":"assistant","content":"a1 cu`);
    e2e.server.enqueue(textReply(['Answer two.']), textReply(['Answer three.']));
    const r = await runAish({ args: ['--resume', 'old', '-p', 'q2'], cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.code).toBe(0);
    const closing = ['assistant', '[aish] no reply (the session log ends before one was written)'];
    expect(sent(0)).toEqual([['user', 'q1'], closing, ['user', 'q2']]);
    await runAish({ args: ['--resume', 'old', '-p', 'q3'], cwd: e2e.h.cwd, env: e2e.h.env });
    expect(sent(1)).toEqual([['user', 'q1'], closing, ['user', 'q2'], ['assistant', 'Answer two.'], ['user', 'q3']]);
  });
});

describe('bounded replies', () => {
  it('a reply past broker.max_reply_chars is cut, said so, kept marked, and its CMD: lines not offered', async () => {
    e2e.writeConfig({ broker: { max_reply_chars: 1000 } });
    e2e.server.enqueue(textReply(['CMD: echo hi\n', ...Array.from({ length: 100 }, () => 'x'.repeat(50))]), textReply(['ok']));
    const r = await runAish({ stdin: 'talk a lot\nand then?\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('[aish] reply cut at 1000 chars (broker.max_reply_chars): aish stopped reading it');
    expect(r.stderr).not.toContain("execute 'echo hi'");
    const [, reply] = sent(1);
    expect(reply[1]).toHaveLength(1000 + '\n[reply cut at 1000 chars]'.length);
    expect(reply[1]).toMatch(/^CMD: echo hi\nx+\n\[reply cut at 1000 chars\]$/);
  });

  it('past broker.max_tool_calls the rest of the calls get a tool turn saying why', async () => {
    e2e.writeConfig({ broker: { max_tool_calls: 2 } });
    const calls = Array.from({ length: 4 }, (_, i) => ({ id: `c${i}`, name: 'aish__current_date', arguments: '{}' }));
    e2e.server.enqueue(toolCallReply(calls), textReply(['done']));
    const r = await runAish({ stdin: 'what time is it, four times?\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('[aish] the reply made 4 tool calls; the first 2 run, the rest are answered as not run (broker.max_tool_calls)');
    const tools = sent(1).filter(([role]: string[]) => role === 'tool').map(([, content]: string[]) => content);
    expect(tools.slice(0, 2)).toEqual([expect.stringMatching(/^date: /), expect.stringMatching(/^date: /)]);
    expect(tools.slice(2)).toEqual(Array(2).fill('[aish] tool call not run: more than 2 calls in one reply (broker.max_tool_calls)'));
  });
});

describe('a tool result over the 10 MiB of one stdio message', () => {
  it('is reported as too large, and the server stays connected for the next call', async () => {
    e2e.writeConfig({ mcp: { servers: { fx: fixtureStdio() }, auto_approve: ['fx__*'] } });
    e2e.server.enqueue(
      toolCallReply([{ id: 'b', name: 'fx__big', arguments: JSON.stringify({ n: 11 * 1024 * 1024 }) }]),
      textReply(['That was too much.']),
      toolCallReply([{ id: 'e', name: 'fx__echo', arguments: '{"text":"still here"}' }]),
      textReply(['Echoed.']),
    );
    const r = await runAish({ stdin: 'get the big thing\n:mcp list\nsay it back please\n', cwd: e2e.h.cwd, env: e2e.h.env, timeoutMs: 30_000 });
    expect(r.stderr).toContain('[aish] tool result too large: the server sent 11.0 MB in one message, more than the 10.0 MB aish reads over stdio');
    expect(r.stderr + r.stdout).not.toContain('exited');
    expect(r.stdout).toMatch(/^fx .* stdio +\d+ +connected$/m);
    expect(r.stdout).toContain('Echoed.');
    const echo = e2e.server.requests[3]!.body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === 'e');
    expect(echo.content).toBe('echo: still here');
  });
});

describe.skipIf(!SMALL_DISK.ok)(`a full disk${SMALL_DISK.ok ? '' : ` (skipped: ${SMALL_DISK.reason})`}`, () => {
  it(':remember and the session log say the disk is full; every line in the log stays whole and the session resumes', async () => {
    mountSmallDisk(e2e.h.stateDir);
    try {
      e2e.server.enqueue(textReply(['Answer one.']), textReply(['A long answer: ', 'z'.repeat(20_000)]), textReply(['Answer three.']));
      const run = startAish({ cwd: e2e.h.cwd, env: e2e.h.env });
      // :sessions runs once the first line is done, its turns written: it lists the session.
      run.write('first question\n:sessions\n');
      await run.waitFor(/\* .*first question/);
      fillDisk(e2e.h.stateDir);
      run.write(':remember the deploy key lives in the vault\n');
      await run.waitFor(/memory .*: the disk is full \(ENOSPC\); nothing was changed/);
      run.write('second question\n');
      await run.waitFor('session log stopped');
      run.end();
      const r = await run.exited;
      expect(r.stderr).not.toContain('internal error');
      expect(r.stderr).toMatch(/\[aish\] session log stopped: cannot write \S+\.jsonl: the disk is full \(ENOSPC\); the lines written before are whole, later turns are not saved/);
      const [file] = readdirSync(sessionsDir());
      const text = readFileSync(path.join(sessionsDir(), file!), 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(records.filter((l) => l.role).map((l) => l.content)).toEqual(['first question', 'Answer one.', 'second question']);
      // The question whose reply did not fit is closed on resume, and the conversation goes on.
      rmSync(path.join(e2e.h.stateDir, 'filler'));
      const resumed = await runAish({ args: ['--resume', 'last'], stdin: 'third question\n', cwd: e2e.h.cwd, env: e2e.h.env });
      expect(resumed.stderr).toContain('the last question has no reply in the log, closed');
      expect(resumed.stdout).toContain('Answer three.');
    } finally {
      unmountSmallDisk(e2e.h.stateDir);
    }
  });
});
