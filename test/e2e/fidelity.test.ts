// Faithful to the original, truthful to the model: the seeds' status lines and config shapes, and
// sessions that behave as people expect, driven through the real program.

import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { fixtureStdio } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

const sessionFiles = () => readdirSync(path.join(h.stateDir, 'sessions')).sort();

describe('MCP status lines as seed 000 gives them', () => {
  it('a JSON-RPC error from tools/call gets its tool turn and a status line; the non-text notice is said once per session', async () => {
    h.writeConfig({
      models: { fast: { endpoint: server.url, model: 'm' } },
      // The seed's map shape of auto_approve.
      mcp: { servers: { fx: fixtureStdio() }, auto_approve: { 'fx__*': true } },
    });
    server.enqueue(
      toolCallReply([{ id: 'r', name: 'fx__rpc_error', arguments: '{}' }]),
      textReply(['noted']),
      toolCallReply([{ id: 'm1', name: 'fx__media', arguments: '{}' }]),
      toolCallReply([{ id: 'm2', name: 'fx__media', arguments: '{}' }]),
      toolCallReply([{ id: 'm3', name: 'fx__media', arguments: '{}' }]),
      textReply(['done']),
    );
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'break it\nshow media three times\n' });
    expect(r.stderr).toContain('[aish] tool dispatch failed: widget 42 does not exist');
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/^\[aish\] tool dispatch failed: widget 42/) });
    for (const kind of ['image', 'audio']) {
      expect(r.stderr.split(`${kind} blocks in tool results reach the model as one-line summaries`).length - 1, kind).toBe(1);
    }
    // Text resources and links reach the model whole: nothing to warn about.
    expect(r.stderr).not.toMatch(/resource(_link)? blocks in tool results/);
  });
});

describe('sessions people can come back to', () => {
  it(':save, :reset, :resume gives back the saved conversation; :reset starts a new log', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['first answer']), textReply(['second answer']));
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'first question\n:save mytest\n:reset\nanother topic\n:reset\n:resume mytest\n:history\n' });
    expect(r.stderr).toContain('resumed mytest (2 turns)');
    expect(r.stdout).toContain('first answer');
    expect(sessionFiles().filter((f) => f !== 'mytest.jsonl').length).toBeGreaterThanOrEqual(1);
  });

  it('--resume writes no copy until something new is said', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['answer']), textReply(['later answer']));
    await runAish({ cwd: h.cwd, env: h.env, stdin: 'a question\n:save base\n' });
    for (let i = 0; i < 3; i++) {
      const r = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'base'], stdin: ':history\n' });
      expect(r.stderr).toContain('resumed base (2 turns)');
    }
    expect(sessionFiles()).toEqual(['base.jsonl']);
    const r = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'base'], stdin: 'a follow-up\n' });
    expect(r.stdout).toContain('later answer');
    expect(server.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content)).toContain('answer');
    expect(sessionFiles()).toHaveLength(2);
  });
});

describe('the model is told what the person saw', () => {
  it('a stream cut off (no finish_reason, no [DONE]) is shown as cut, kept marked, and its CMD: lines are not offered', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, shell: { confirm_cmd: false } });
    server.enqueue(
      { type: 'sse', done: false, events: [{ choices: [{ index: 0, delta: { content: 'Run this:\nCMD: rm -rf /tmp/aish-cut-test/keep' } }] }] },
      textReply(['ok']),
    );
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'clean up\nwhat now?\n' });
    expect(r.stdout).toContain('Run this:');
    expect(r.stderr).toContain('[aish] reply cut off: the connection ended before the reply did');
    expect(r.stderr).toContain('the CMD: lines of a cut-off reply are not offered');
    expect(r.stderr).not.toContain('╭─ rm');
    expect(server.requests[1]!.body.messages.at(-2)).toEqual({ role: 'assistant', content: 'Run this:\nCMD: rm -rf /tmp/aish-cut-test/keep\n[reply cut off]' });
  });
});

describe('--resume, in the REPL and with -p', () => {
  it('--resume of a session that does not exist is a usage error (exit 2), like -m nosuch', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const repl = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'nosuch'], stdin: '' });
    expect(repl.code).toBe(2);
    expect(repl.stderr).toContain("aish: --resume: no session named 'nosuch'");
    const oneShot = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'nosuch', '-p', 'hello'], stdin: '' });
    expect(oneShot.code).toBe(2);
    expect(oneShot.stderr).toContain("no session named 'nosuch'");
    expect(server.requests).toHaveLength(0);
  });

  it('-p with --resume answers in that conversation and appends the exchange to its file', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['The answer is 42.']), textReply(['You asked about 42.']), textReply(['Still 42.']));
    await runAish({ cwd: h.cwd, env: h.env, stdin: 'what is the answer?\n:save proj\n' });
    const r = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'proj', '-p', 'what did I ask?'], stdin: '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('You asked about 42.');
    expect(server.requests[1]!.body.messages.slice(1).map((m: { content: string }) => m.content)).toEqual(['what is the answer?', 'The answer is 42.', 'what did I ask?']);
    const again = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'proj', '-p', 'and now?'], stdin: '' });
    expect(again.code).toBe(0);
    expect(server.requests[2]!.body.messages.length).toBe(6);
    expect(sessionFiles()).toEqual(['proj.jsonl']);
    const lines = readFileSync(path.join(h.stateDir, 'sessions', 'proj.jsonl'), 'utf8').trim().split('\n');
    expect(lines.filter((l) => l.startsWith('{"role"'))).toHaveLength(6);
  });
});

describe('-p --resume into a torn file', () => {
  it('skips the torn line with a warning, ends it, and appends an exchange the next resume reads', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['The answer is 42.']), textReply(['You asked about 42.']), textReply(['Still 42.']));
    await runAish({ cwd: h.cwd, env: h.env, stdin: 'what is the answer?\n:save torn\n' });
    const file = path.join(h.stateDir, 'sessions', 'torn.jsonl');
    // Killed in the middle of writing a line: no newline, not JSON.
    appendFileSync(file, '{"role":"user","content":"half a li');
    const r = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'torn', '-p', 'what did I ask?'], stdin: '' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/line 4/);
    expect(r.stdout).toContain('You asked about 42.');
    expect(server.requests[1]!.body.messages.slice(1).map((m: { content: string }) => m.content)).toEqual(['what is the answer?', 'The answer is 42.', 'what did I ask?']);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[3]).toBe('{"role":"user","content":"half a li');
    expect(JSON.parse(lines[4]!)).toEqual({ role: 'user', content: 'what did I ask?' });
    const again = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'torn', '-p', 'and now?'], stdin: '' });
    expect(again.code).toBe(0);
    expect(server.requests[2]!.body.messages.slice(1).map((m: { content: string }) => m.content)).toEqual([
      'what is the answer?',
      'The answer is 42.',
      'what did I ask?',
      'You asked about 42.',
      'and now?',
    ]);
  });
});

describe('-p with piped input', () => {
  it('caps a large pipe head and tail with a note, and refuses binary input', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, shell: { capture_max_chars: 2000 } });
    server.enqueue(textReply(['seen']));
    const big = `FIRST-LINE\n${'x'.repeat(80)}\n`.repeat(5000) + 'LAST-LINE\n';
    const r = await runAish({ cwd: h.cwd, env: h.env, args: ['-p', 'summarize'], stdin: big });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[aish] piped input capped at 2000 chars');
    const sent: string = server.requests[0]!.body.messages.at(-1).content;
    expect(sent.length).toBeLessThan(3000);
    expect(sent).toContain('FIRST-LINE');
    expect(sent).toContain('LAST-LINE');
    const binary = await runAish({ cwd: h.cwd, env: h.env, args: ['-p', 'what is this?'], stdin: 'ELF\u0000\u0001\u0002' });
    expect(binary.code).toBe(2);
    expect(binary.stderr).toMatch(/standard input looks binary/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('errors the person can act on', () => {
  it('a 429 with Retry-After is retried once after the wait, saying so; the JSON body shows as its message', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const limited = { type: 'raw' as const, status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' }, body: '{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}' };
    server.enqueue(limited, textReply(['after the wait']), limited, { ...limited, headers: { 'retry-after': '120' } });
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'first\nsecond\n' });
    expect(r.stderr).toContain('[aish] fast: HTTP 429; retrying once in 1 s (Retry-After)');
    expect(r.stdout).toContain('after the wait');
    // A wait longer than 30 s is not sat through: the error is shown, as its message, not raw JSON.
    expect(r.stderr).toContain('[aish] transport: HTTP 429: Rate limit reached (rate_limit_exceeded)');
    expect(server.requests).toHaveLength(4);
  });

  it('a server that answered and then went silent is not called down', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm', timeout_ms: 300 } } });
    server.enqueue({ type: 'stall', sendHeaders: true });
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'hello\n' });
    expect(r.stderr).toContain('transport: Timeout was reached');
    expect(r.stderr).toContain('answered, then sent nothing');
    expect(r.stderr).not.toContain('is the server running?');
  });

  it('a server that took the connection and sent no header says so, not "is the server running?"', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm', timeout_ms: 300 } } });
    server.enqueue({ type: 'stall' });
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'hello\n' });
    expect(r.stderr).toContain(`[aish] transport: Timeout was reached (fast at ${server.url} accepted the connection but did not answer within 300 ms; models.fast.timeout_ms sets the limit)`);
    expect(r.stderr).not.toContain('is the server running?');
  });
});

describe('prose that starts with a known command', () => {
  it('on a terminal, `make clean and build` fails at once and the model is offered instead; the failed run is not sent', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['Profile first.']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('make clean and build');
      await t.waitFor('ask the model instead? [Y/n] ');
      expect(t.text).toMatch(/exit 2/);
      t.line('');
      await t.waitFor('Profile first.');
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'make clean and build' });
      t.line('make no-such-target-here');
      await t.waitFor(/exit 2[\s\S]*exit 2/);
      t.line(':q');
      await t.exited;
      expect(t.text.split('ask the model instead?').length - 1).toBe(1);
    } finally {
      t.kill();
    }
  });

  it('from a pipe nobody is asked: the line stays a shell line', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'make clean and build\n:why make clean and build\n' });
    expect(r.stdout + r.stderr).not.toContain('ask the model instead? [Y/n]');
    expect(r.stdout).toContain('it reads partly as prose');
    expect(server.requests).toHaveLength(0);
  });
});

