// Norris end to end against the loopback model: a three-step plan finishes, a destructive step
// HALTs and a skip never runs it, a reply without action stalls.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { everythingStdio } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { KEY, PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({
    models: { fast: { endpoint: server.url, model: 'm' } },
    mcp: { servers: { everything: everythingStdio() }, auto_approve: ['everything__*'] },
  });
});
afterEach(async () => {
  await server.close();
  h.cleanup();
});

describe('Norris', () => {
  it('a three-step plan (a tool call, a harmless CMD:, GOAL: complete) finishes with status done', async () => {
    server.enqueue(
      toolCallReply([{ id: 'n1', name: 'everything__echo', arguments: '{"message":"step one"}' }]),
      textReply(['Now a command.\nCMD: echo step-two-ran\n']),
      textReply(['All good.\nGOAL: complete\n']),
    );
    const r = await runAish({ stdin: ':norris make sure echo works\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[aish] [Norris] done: GOAL: complete');
    expect(r.stdout).toMatch(/^step-two-ran$/m);
    expect(r.stderr).toMatch(/╭─ echo step-two-ran ─+\n╰─ exit 0/);
    expect(server.requests).toHaveLength(3);
    const system = server.requests[0]!.body.messages[0].content;
    expect(system).toContain('[NORRIS MODE]');
    expect(system).toContain('make sure echo works');
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'n1', content: 'Echo: step one' });
    expect(server.requests[2]!.body.messages.at(-1).content).toContain('[exec output]\n$ echo step-two-ran\nstep-two-ran\n[exit 0]');
  });

  it('a reply with no action and no goal line ends "stalled"; the context is kept', async () => {
    server.enqueue(textReply(['I think it is fine.']), textReply(['later']));
    const r = await runAish({ stdin: ':norris tidy up\n:history\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[Norris] stalled');
    expect(r.stdout).toContain('I think it is fine.');
    expect(r.stdout).toMatch(/assistant I think it is fine\./);
  });

  it('piped input cannot approve a destructive step: the run aborts and nothing is deleted', async () => {
    mkdirSync(path.join(h.cwd, 'data'));
    server.enqueue(textReply(['CMD: rm -rf ./data\n']));
    const r = await runAish({ stdin: ':norris clean\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[Norris] aborted');
    expect(existsSync(path.join(h.cwd, 'data'))).toBe(true);
  });

  it('on a terminal a destructive CMD: HALTs; skip never runs it and the model is told', async () => {
    mkdirSync(path.join(h.cwd, 'data'));
    writeFileSync(path.join(h.cwd, 'data', 'keep.txt'), 'precious');
    server.enqueue(textReply(['Cleaning.\nCMD: rm -rf ./data\n']), textReply(['Understood.\nGOAL: complete\n']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line(':norris free some space');
      await t.waitFor('proceed / skip / abort? [p/s/A]');
      expect(t.text).toContain('[Norris] destructive command (rm -r -f): rm -rf ./data');
      t.line('s');
      await t.waitFor('[Norris] done');
      expect(existsSync(path.join(h.cwd, 'data', 'keep.txt'))).toBe(true);
      expect(server.requests[1]!.body.messages.at(-1).content).toContain('[aish] CMD skipped by user: rm -rf ./data');
      await t.waitFor(/done[\s\S]*\[aish:fast\]> /);
      t.write(KEY.ctrlD);
      await t.exited;
    } finally {
      t.kill();
    }
  });

  it('stops when norris.max_steps is spent', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, norris: { max_steps: 2 } });
    server.enqueue(textReply(['CMD: echo a\n']), textReply(['CMD: echo b\n']), textReply(['never asked']));
    const r = await runAish({ stdin: ':norris loop\n', cwd: h.cwd, env: h.env });
    expect(r.stderr).toContain('[Norris] stopped: norris.max_steps (2) spent');
    expect(server.requests).toHaveLength(2);
  });
});

describe('Norris second opinion', () => {
  it('a command the static check passes HALTs when the deep preset says YES; asked once per command', async () => {
    const deep = await ModelServer.start();
    try {
      h.writeConfig({
        models: { fast: { endpoint: server.url, model: 'm' }, deep: { endpoint: deep.url, model: 'judge' } },
        norris: { second_opinion: true },
      });
      server.enqueue(textReply(['CMD: echo harmless\n']), textReply(['CMD: ./cleanup.sh\n']));
      deep.enqueue(textReply(['NO']), textReply(['YES']));
      const r = await runAish({ stdin: ':norris tidy\n:cost\n', cwd: h.cwd, env: h.env });
      expect(r.stderr).toMatch(/╭─ echo harmless/);
      // The second opinions are counted in the session's ledger, under their purpose.
      expect(r.stdout).toMatch(/^deep +2 /m);
      expect(r.stdout).toMatch(/^second-opinion +2 /m);
      expect(r.stdout).toMatch(/^chat +2 /m);
      expect(r.stderr).not.toMatch(/╭─ \.\/cleanup\.sh/);
      expect(r.stderr).toContain('[Norris] aborted');
      expect(deep.requests.map((q) => q.body.messages.at(-1).content)).toEqual(['echo harmless', './cleanup.sh']);
    } finally {
      await deep.close();
    }
  });
});

describe('Norris and summaries', () => {
  it('no summarizing on eviction while Norris runs', async () => {
    const summarizer = await ModelServer.start();
    try {
      h.writeConfig({
        models: { fast: { endpoint: server.url, model: 'm' }, small: { endpoint: summarizer.url, model: 's' } },
        context: { max_turns: 2, summarize_on_evict: true, summarizer_model: 'small' },
      });
      server.enqueue(textReply(['CMD: echo one\n']), textReply(['CMD: echo two\n']), textReply(['GOAL: complete\n']));
      const r = await runAish({ stdin: ':norris count\n', cwd: h.cwd, env: h.env });
      expect(r.stderr).toContain('[Norris] done');
      expect(r.stderr).toContain('[context] oldest');
      expect(summarizer.requests).toHaveLength(0);
    } finally {
      await summarizer.close();
    }
  });
});

describe('typing while Norris runs', () => {
  it('a line typed during a run is passed on as a note, and :halt stops the run', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue({ type: 'stall', sendHeaders: false }, textReply(['Noted.']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line(':norris tidy the build directory');
      await server.waitForRequests(1);
      t.line('use the staging database');
      await t.waitFor("noted for Norris's next step");
      t.line(':halt');
      await t.waitFor('[Norris] halted');
      expect(t.text).toContain('halting Norris');
      await t.waitFor(/\[aish:fast\]> $/);
      t.line('what did I say?');
      await t.waitFor('Noted.');
      expect(server.requests[1]!.body.messages.at(-1).content).toContain('[note from the user while you work] use the staging database');
    } finally {
      t.kill();
    }
  });
});

describe('stopping Norris from the line', () => {
  // The screen from the goal to the next prompt, as `:halt` or Ctrl-C leave it.
  async function stopped(stop: (t: PtySession) => void): Promise<string> {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue({ type: 'stall', sendHeaders: false }, textReply(['Still here.']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      const mark = t.mark();
      t.line(':norris tidy the build directory');
      await server.waitForRequests(1);
      stop(t);
      await t.waitFor('[Norris] halted', { from: mark });
      await t.waitFor(/\[aish:fast\]> $/);
      const screen = t.text.slice(mark).replace(/\r/g, '');
      // The session goes on: the next question is answered.
      t.line('are you there?');
      await t.waitFor('Still here.');
      return screen;
    } finally {
      t.kill();
    }
  }

  // The request in flight says it was cancelled, then the run says it halted: once each, no error.
  it(':halt halts the run', async () => {
    const screen = await stopped((t) => t.line(':halt'));
    expect(screen).toMatch(/\[aish\] halting Norris\n\[aish\] cancelled\n\[aish\] \[Norris\] halted\n\[aish:fast\]> $/);
    expect(screen.match(/cancelled/g)).toHaveLength(1);
    expect(screen).not.toContain('error');
  });

  it('Ctrl-C halts the run as :halt does', async () => {
    const screen = await stopped((t) => t.write(KEY.ctrlC));
    expect(screen).toMatch(/\^C\n\[aish\] cancelled\n\[aish\] \[Norris\] halted\n\[aish:fast\]> $/);
    expect(screen.match(/cancelled/g)).toHaveLength(1);
    expect(screen).not.toContain('error');
  });
});

describe('Ctrl-C during a Norris step', () => {
  // Issue 36: the `^C` echo and the frame's end were drawn on one line (`^C╰─ exit 130`).
  it('the ^C stands on its own line, before the frame ends with exit 130', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    server.enqueue(textReply(['CMD: echo step-started; sleep 30\n']), textReply(['Still here.']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      const mark = t.mark();
      t.line(':norris wait a while');
      // The step runs (its first output is on the screen): the Ctrl-C is for it.
      await t.waitFor(/╭─ echo step-started; sleep 30[^\n]*\nstep-started\n/, { from: mark });
      t.write(KEY.ctrlC);
      await t.waitFor(/exit 130[\s\S]*\[aish:fast\]> $/, { from: mark });
      const screen = t.text.slice(mark).replace(/\r/g, '');
      expect(screen).toMatch(/\^C\n╰─ exit 130/);
      expect(screen).not.toMatch(/\^C[^\n]*╰─/);
    } finally {
      t.kill();
    }
  });
});

describe('Norris and a cut-off reply', () => {
  it('runs none of the commands of a reply cut off mid-stream and asks the model again', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const marker = path.join(h.cwd, 'cut-marker');
    server.enqueue(
      { type: 'sse', done: false, events: [{ choices: [{ index: 0, delta: { content: `CMD: touch ${marker}` } }] }] },
      textReply(['GOAL: complete']),
    );
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: ':norris make a marker\n' });
    expect(r.stderr).toContain('[Norris] the reply was cut off: none of its commands run');
    expect(existsSync(marker)).toBe(false);
    expect(server.requests[1]!.body.messages.at(-1).content).toContain('your reply was cut off before it finished');
    expect(r.stderr).toContain('[Norris] done');
  });
});

