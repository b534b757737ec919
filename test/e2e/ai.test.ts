// AI turns end to end: the real program against the loopback model server, asserting what the
// person sees and exactly what was sent.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { runAish, startAish } from '../support/run-aish.js';
import { KEY, PtySession } from '../support/pty.js';

let h: AishHome;
let server: ModelServer;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'test-model', key_env: 'TEST_MODEL_KEY' } } });
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

const run = (stdin: string, args: string[] = [], env: Record<string, string> = {}) =>
  runAish({ stdin, args, cwd: h.cwd, env: { ...h.env, ...env } });

function sessionFiles(): string[] {
  const dir = path.join(h.stateDir, 'sessions');
  try {
    return readdirSync(dir).map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

describe('AI turns', () => {
  it('streams the reply and sends the system prompt, the user turn and the built-in tools', async () => {
    server.enqueue(textReply(['Hello', ', world']));
    const r = await run('hello model\n', [], { TEST_MODEL_KEY: 'sk-secret-123' });
    expect(r.stdout).toContain('Hello, world');
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-secret-123');
    expect(req.body).toMatchObject({ model: 'test-model', stream: true, temperature: 0.2 });
    expect(req.body.tools.map((t: any) => t.function.name)).toEqual(['aish__current_date', 'aish__read_file', 'aish__list_dir']);
    expect(req.body.messages[0].role).toBe('system');
    expect(req.body.messages[0].content).toContain('CMD: ');
    expect(req.body.messages.slice(1)).toEqual([{ role: 'user', content: 'hello model' }]);
  });

  it('a tool call streamed without index runs (AISH_DEBUG says so once), and the clock takes a timezone', async () => {
    const chunk = (delta: object, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    server.enqueue(
      {
        type: 'sse',
        events: [
          chunk({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'aish__current_date', arguments: '{"timezone":' } }] }),
          chunk({ tool_calls: [{ function: { arguments: '"Asia/Tokyo"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
      textReply(['It is late in Tokyo.']),
    );
    const r = await run('what time is it in Tokyo?\n', [], { AISH_DEBUG: '1' });
    expect(r.stdout).toContain('It is late in Tokyo.');
    const said = (r.stdout + r.stderr).split('\n').filter((l) => l.includes('without "index"'));
    expect(said).toEqual(['[aish] debug: tool-call delta without "index": placed by its position in the delta (index 0 for a single call)']);
    const tool = server.requests[1]!.body.messages.find((m: any) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_call_id: 'call_1' });
    expect(tool.content).toContain('time zone: Asia/Tokyo (GMT+09:00)');

    server.enqueue(toolCallReply([{ id: 'call_2', name: 'aish__current_date', arguments: '{"timezone":"Mars/Olympus"}' }]), textReply(['ok']));
    const quiet = await run('and on Mars?\n');
    expect(quiet.stdout + quiet.stderr).not.toContain('debug:');
    const refused = server.requests[3]!.body.messages.find((m: any) => m.role === 'tool');
    expect(refused.content).toContain('unknown time zone "Mars/Olympus"');
  });

  it('with tools.builtin false and no servers, the request carries no tools field', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, tools: { builtin: false } });
    server.enqueue(textReply(['plain']));
    const r = await run('hello\n');
    expect(r.stdout).toContain('plain');
    expect(server.requests[0]!.body).not.toHaveProperty('tools');
  });

  it('built-in tools: the clock runs without asking; a file read asks, so a pipe declines it', async () => {
    writeFileSync(path.join(h.cwd, 'notes.txt'), 'private notes');
    server.enqueue(
      toolCallReply([
        { id: 'c1', name: 'aish__current_date', arguments: '{}' },
        { id: 'c2', name: 'aish__read_file', arguments: '{"path":"notes.txt"}' },
      ]),
      textReply(['It is late.']),
    );
    const r = await run('what time is it?\n');
    expect(r.stdout).toContain('It is late.');
    const [date, read] = server.requests[1]!.body.messages.slice(-2);
    expect(date).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: expect.stringMatching(/^date: \d{4}-\d\d-\d\d .*\ntime: .*\ntime zone: /s) });
    expect(read).toEqual({ role: 'tool', tool_call_id: 'c2', content: '[aish] tool call declined by user' });
  });

  it('a CMD: reply is confirmed (no on a pipe) and never run without a yes', async () => {
    server.enqueue(textReply(['Run this:\nCMD: echo from-model\n']), textReply(['I see.']));
    const r = await run('say something\nand then?\n');
    expect(r.stderr).toContain("execute 'echo from-model'? [y/N] n");
    expect(r.stderr).not.toContain('╭─ echo from-model');
    // The model is told, briefly, that its command did not run and why.
    expect(server.requests[1]!.body.messages.at(-1).content).toBe(
      '[aish] CMD not run, nobody could confirm it (input is not a terminal): echo from-model\n\nand then?',
    );
  });

  it('with confirm_cmd off the CMD: runs and its output reaches the next request', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, shell: { confirm_cmd: false } });
    server.enqueue(textReply(['CMD: echo hi\n']), textReply(['ok']));
    const r = await run('run echo\nwhat did it print?\n');
    expect(r.stdout).toMatch(/^hi$/m);
    expect(r.stderr).toMatch(/╭─ echo hi ─+\n╰─ exit 0/);
    const second = server.requests[1]!.body.messages;
    expect(second.at(-1)).toEqual({ role: 'user', content: '[exec output]\n$ echo hi\nhi\n[exit 0]\n\nwhat did it print?' });
    expect(second.slice(1, 3)).toEqual([
      { role: 'user', content: 'run echo' },
      { role: 'assistant', content: 'CMD: echo hi\n' },
    ]);
  });

  it('pending exec output joins the next user turn exactly as SPEC §4 words it', async () => {
    server.enqueue(textReply(['seen']));
    await run('echo one\nprintf ""\necho two\nls no-such-file-here\nexplain\n');
    expect(server.requests[0]!.body.messages.at(-1)).toEqual({
      role: 'user',
      content:
        '[exec output]\n$ echo one\none\n[exit 0]\n[exec output]\n$ echo two\ntwo\n[exit 0]\n' +
        "[exec output]\n$ ls no-such-file-here\nls: cannot access 'no-such-file-here': No such file or directory\n[exit 2]\n\nexplain",
    });
  });

  it('CMD: inside exec output is never extracted', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, shell: { confirm_cmd: false } });
    server.enqueue(textReply(['nothing to run']));
    const r = await run('echo "CMD: touch pwned"\nlook\n');
    expect(r.stderr).not.toContain('╭─ touch pwned');
  });

  it('a failed request removes the user turn and restores the pending output', async () => {
    server.enqueue({ type: 'raw', status: 503, body: 'upstream overloaded' }, textReply(['fine now']));
    const r = await run('echo data\nfirst try\nsecond try\n');
    expect(r.stderr).toContain('[aish] transport: HTTP 503: upstream overloaded');
    const retry = server.requests[1]!.body.messages;
    expect(retry.slice(1)).toEqual([{ role: 'user', content: '[exec output]\n$ echo data\ndata\n[exit 0]\n\nsecond try' }]);
    expect(r.code).toBe(0);
  });

  it('an unreachable endpoint prints one clear, actionable error', async () => {
    await server.close();
    const r = await run('hello\n');
    expect(r.stderr).toMatch(/\[aish\] transport: Connection refused \(fast at http:\/\/127\.0\.0\.1:\d+\/v1: is the server running\?/);
    // The presets came from the config file: that is where to change them, not OPENAI_BASE_URL.
    expect(r.stderr).toContain('models.fast in the config file sets it');
    expect(r.stderr).not.toContain('OPENAI_BASE_URL');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(0);
    server = await ModelServer.start();
  });

  it('model text cannot drive the terminal: escapes are neutralised', async () => {
    server.enqueue(textReply(['\x1b]0;pwned\x07\x1b[2Jclean']));
    const r = await run('hi\n');
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout).toContain('^[]0;pwned^G^[[2Jclean');
  });

  it(':ask forces the model path', async () => {
    server.enqueue(textReply(['answer']));
    await run(':ask ls is a command\n');
    expect(server.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'ls is a command' });
  });

  it('reasoning is shown but not stored in the conversation', async () => {
    const base = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm' };
    server.enqueue(
      {
        type: 'sse',
        events: [
          { ...base, choices: [{ index: 0, delta: { reasoning_content: 'pondering' }, finish_reason: null }] },
          { ...base, choices: [{ index: 0, delta: { content: 'answer' }, finish_reason: 'stop' }] },
        ],
      },
      textReply(['again']),
    );
    const r = await run('q1\nq2\n');
    expect(r.stdout).toContain('pondering');
    expect(server.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: 'q2' },
    ]);
  });

  it('Ctrl-C mid-stream keeps the partial text marked [interrupted]', async () => {
    server.enqueue({ type: 'stall', sendHeaders: true, body: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'partial answ' } }] })}\n\n` }, textReply(['ok']));
    const a = startAish({ cwd: h.cwd, env: h.env });
    a.write('tell me\n');
    await a.waitFor('partial answ');
    a.child.kill('SIGINT');
    await a.waitFor('[aish] cancelled');
    a.write('next\n');
    a.end();
    await a.exited;
    expect(server.requests[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'tell me' },
      { role: 'assistant', content: 'partial answ\n[interrupted]' },
      { role: 'user', content: 'next' },
    ]);
  });
});

describe('sessions', () => {
  it('two exchanges, quit, --resume last, ask again: the request holds the earlier turns', async () => {
    server.enqueue(textReply(['one']), textReply(['two']), textReply(['three']));
    await run('first question\nsecond question\n', [], { TEST_MODEL_KEY: 'sk-must-not-leak' });
    const first = sessionFiles();
    expect(first).toHaveLength(1);
    expect(statSync(first[0]!).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(first[0]!)).mode & 0o777).toBe(0o700);

    const r = await run('third question\n', ['--resume', 'last'], { TEST_MODEL_KEY: 'sk-must-not-leak' });
    expect(r.stderr).toMatch(/resumed .* \(4 turns\)/);
    expect(server.requests[2]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'one' },
      { role: 'user', content: 'second question' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'third question' },
    ]);
    const files = sessionFiles();
    expect(files).toHaveLength(2);
    const newest = files.find((f) => f !== first[0])!;
    const lines = readFileSync(newest, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].meta).toMatchObject({ model: 'fast', aish_version: expect.any(String) });
    const turns = lines.filter((l) => l.role).map((l) => l.content);
    expect(turns).toEqual(['first question', 'one', 'second question', 'two', 'third question', 'three']);
    for (const f of files) expect(readFileSync(f, 'utf8')).not.toContain('sk-must-not-leak');
  });

  it(':resume refuses while the conversation is not empty; :sessions marks the active one', async () => {
    server.enqueue(textReply(['a']), textReply(['b']));
    await run('earlier\n');
    const r = await run('now\n:resume last\n:sessions\n');
    expect(r.stderr).toContain('the conversation is not empty (:reset first)');
    expect(r.stdout).toMatch(/^\* \S+ .* 2 turns {2}now/m);
    expect(r.stdout).toMatch(/^ {2}\S+ .* 2 turns {2}earlier/m);
  });

  it(':save names the session and it keeps being written', async () => {
    server.enqueue(textReply(['a']), textReply(['b']));
    await run('one\n:save project-x\ntwo\n');
    const file = path.join(h.stateDir, 'sessions', 'project-x.jsonl');
    const turns = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.role);
    expect(turns.map((t) => t.content)).toEqual(['one', 'a', 'two', 'b']);
  });
});

describe('one-shot -p', () => {
  it('prepends piped stdin as a fenced block and prints the reply on stdout', async () => {
    server.enqueue(textReply(['Because ', 'of X.\nCMD: rm -rf /tmp/x\n']));
    const r = await run('line 1\nerror: boom\n', ['-p', 'why did this fail?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Because of X.\nCMD: rm -rf /tmp/x\n');
    expect(server.requests[0]!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: '```\nline 1\nerror: boom\n```\n\nwhy did this fail?',
    });
    expect(sessionFiles()).toHaveLength(0);
  });

  it('exits 1 on a model error and 2 on a usage error', async () => {
    server.enqueue({ type: 'raw', status: 500, body: '{"error":"x"}' });
    const failed = await run('', ['-p', 'hi']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('transport: HTTP 500');
    const usage = await run('', ['-p', '   ']);
    expect(usage.code).toBe(2);
  });
});

describe('on a terminal', () => {
  it('e edits a CMD: line before it runs; :last lists proposed commands and :run N offers one again', async () => {
    server.enqueue(textReply(['Try:\nCMD: echo original-cmd\nCMD: echo second-cmd\n']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('give me commands');
      await t.waitFor("execute 'echo original-cmd'? [y/N/e/p] ");
      t.line('e');
      await t.waitFor('edit: echo original-cmd');
      t.write('\x15');
      t.line('echo edited-cmd');
      await t.waitFor(/edited-cmd\r?\n[\s\S]*exit 0/);
      expect(t.text).not.toMatch(/original-cmd\r?\n.*exit 0/);
      await t.waitFor("execute 'echo second-cmd'? [y/N/e/p] ");
      t.line('n');
      await t.waitFor('skipped: echo second-cmd');
      t.line(':last');
      await t.waitFor(/2 +echo second-cmd/);
      t.line(':run 2');
      await t.waitFor(/execute 'echo second-cmd'\? \[y\/N\/e\/p\] [\s\S]*execute 'echo second-cmd'\? \[y\/N\/e\/p\] /);
      t.line('y');
      await t.waitFor(/second-cmd\r?\n[\s\S]*exit 0/);
    } finally {
      t.kill();
    }
  });

  it('a CMD: line is confirmed with y and its output goes to the next request', async () => {
    server.enqueue(textReply(['Sure.\nCMD: echo confirmed-run\n']), textReply(['done']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('please run it');
      await t.waitFor("execute 'echo confirmed-run'? [y/N/e/p] ");
      t.line('y');
      await t.waitFor(/confirmed-run\r?\n[\s\S]*exit 0[\s\S]*\[aish:fast\]> /);
      t.line('and?');
      await server.waitForRequests(2);
      expect(server.requests[1]!.body.messages.at(-1).content).toBe('[exec output]\n$ echo confirmed-run\nconfirmed-run\n[exit 0]\n\nand?');
      await t.waitFor(/done[\s\S]*\[aish:fast\]> /);
      t.write(KEY.ctrlD);
      await t.exited;
    } finally {
      t.kill();
    }
  });
});

describe('ui.show_stats', () => {
  it('asks for usage and prints one summary line after the reply', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, ui: { show_stats: true } });
    const reply = textReply(['hi']);
    if (reply.type === 'sse') reply.events.push({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } });
    server.enqueue(reply);
    const r = await run('hello\n');
    expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(r.stderr).toMatch(/\[aish\] 12 → 3 tokens · 0 tool calls · \d+\.\d s/);
  });

  it('is off by default: no stats line, but usage is still asked for (for :cost)', async () => {
    server.enqueue(textReply(['hi']));
    const r = await run('hello\n');
    expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(r.stderr).not.toContain('tool calls');
  });
});

describe('usage and cost', () => {
  const withUsage = (pieces: string[], prompt: number, completion: number) => {
    const reply = textReply(pieces);
    if (reply.type === 'sse') reply.events.push({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
    return reply;
  };

  it(':cost sums reported usage by preset with its prices, and marks estimates with ~', async () => {
    h.writeConfig({
      models: { fast: { endpoint: server.url, model: 'm' }, cloud: { endpoint: server.url, model: 'c', price_in: 2, price_out: 10 } },
    });
    server.enqueue(withUsage(['one'], 1000, 100), withUsage(['two'], 500000, 100000), textReply(['no usage here']));
    const r = await run(':model cloud\nfirst\n:model fast\nsecond\n:model cloud\nthird\n:cost\n');
    // cloud's two requests: one reported (1000 in, 100 out: $0.0030 at 2 and 10 per million), one estimated.
    expect(r.stdout).toMatch(/^cloud +2 +~\d+ +~\d+ +\$\d+\.\d{4}$/m);
    expect(r.stdout).toMatch(/^fast +1 +500000 +100000 +\$0\.0000$/m);
    expect(r.stdout).toMatch(/^total +3 /m);
    expect(r.stdout).toContain('~ estimated (chars / 4): the server reported no usage');
  });

  it('a backend that refuses stream_options with a 400 is asked again without it, and not asked for it again', async () => {
    server.enqueue(
      { type: 'raw', status: 400, body: '{"error":{"message":"Unrecognized request argument supplied: stream_options"}}' },
      textReply(['first answer']),
      textReply(['second answer']),
    );
    const r = await run('one\ntwo\n:cost\n');
    expect(r.stdout).toContain('first answer');
    expect(r.stdout).toContain('second answer');
    expect(server.requests.map((q) => 'stream_options' in q.body)).toEqual([true, false, false]);
    expect(r.stderr).not.toContain('HTTP 400');
  });
});
