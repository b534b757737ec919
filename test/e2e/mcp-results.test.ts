// What a tool call shows and gives the model beyond its text, end to end through the REPL:
// server-everything (streamable HTTP, started here on 127.0.0.1) for progress, structured content
// and resource links; the fixture server (stdio, `--hostile`) for log lines and hostile bytes.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RAW_CONTROL } from '../support/hostile.js';
import { mcpE2e } from '../support/mcp-e2e.js';
import { fixtureStdio } from '../support/mcp-servers.js';
import { textReply } from '../support/model-server.js';
import { PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';
import { fileAppears } from '../support/until.js';

const e2e = mcpE2e((everything) => ({ everything: { url: `${everything.origin}/mcp` }, fx: fixtureStdio(['--hostile']) }), { auto_approve: ['everything__*', 'fx__*'] });
const { call, toolTurn } = e2e;

describe('server-everything capability tools through the REPL', () => {
  it('structured content and resource links reach the model; a long operation shows progress in place on the terminal', async () => {
    e2e.server.enqueue(
      call('w', 'everything__get-structured-content', { location: 'New York' }),
      call('l', 'everything__get-resource-links', { count: 2 }),
      call('p', 'everything__trigger-long-running-operation', { duration: 1.5, steps: 3 }),
      textReply(['All three done.']),
    );
    const t = PtySession.start({ cwd: e2e.h.cwd, env: e2e.h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('weather, links and a long job please');
      await t.waitFor(/running everything__trigger-long-running-operation · (33|67)%/);
      await t.waitFor('All three done.');
      expect(JSON.parse(toolTurn('w').content)).toEqual({ temperature: 33, conditions: 'Cloudy', humidity: 82 });
      expect(toolTurn('l').content.split('\n').slice(1)).toEqual([
        expect.stringMatching(/^\[resource_link demo:\/\/resource\/\S+\] \w+ Resource 1: .+/),
        expect.stringMatching(/^\[resource_link demo:\/\/resource\/\S+\] \w+ Resource 2: .+/),
      ]);
      expect(toolTurn('p').content).toMatch(/^Long running operation completed/);
      // Gone when the call ended: the frame's end line follows, and no progress after it.
      const end = t.text.lastIndexOf('╰─');
      expect(end).toBeGreaterThan(t.text.lastIndexOf('%'));
    } finally {
      t.kill();
    }
  });
});

describe('log lines and results from a hostile server', () => {
  it('warning and above become dim status lines, sanitized; lower levels are not shown', async () => {
    e2e.server.enqueue(call('g', 'fx__log', { levels: ['info', 'warning', 'error'] }), call('k', 'fx__links'), textReply(['logged']));
    const r = await runAish({ stdin: 'log something\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('[aish] mcp fx warning (fixture): warning from the fixture ^[]0;pwned^G');
    expect(r.stderr).toContain('[aish] mcp fx error (fixture): error from the fixture');
    expect(r.stderr).not.toContain('info from the fixture');
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    expect(toolTurn('k').content).toMatch(/^\[resource_link file:\/\/\/srv\/report\.md\] report\.md \x1b\]0;pwned/);
  });

  it('a hostile server\'s form and sampling prompt reach the screen made visible, and nobody at the terminal declines both', async () => {
    e2e.server.enqueue(call('q', 'fx__ask'), textReply(['ok']));
    const r = await runAish({ stdin: 'ask me\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('[aish] mcp fx asked: Your name? ^[]0;pwned^G');
    expect(r.stderr).toContain('[aish] mcp fx: sampling request denied (mcp.sampling)');
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROL);
    const answer = JSON.parse(toolTurn('q').content);
    expect(answer.form).toEqual({ action: 'decline' });
    expect(answer.sampled.error).toMatch(/User rejected sampling request/);
    expect(e2e.server.requests).toHaveLength(2);
  });

  it('on a terminal the hostile form and sampling questions are shown made visible; the answers reach the server', async () => {
    e2e.server.enqueue(call('q', 'fx__ask'), textReply(['ok']));
    const t = PtySession.start({ cwd: e2e.h.cwd, env: e2e.h.env });
    try {
      await t.waitFor(/\]> $/);
      t.line('ask me');
      await t.waitFor('mcp fx asks: Your name? ^[]0;pwned^G');
      await t.waitFor('answer it? [y/N/c]');
      t.line('y');
      await t.waitFor('name (required) [string]: ');
      expect(t.text).toContain('name: the name ^[]0;pwned^G');
      t.line('Ada');
      await t.waitFor(/asks the model: Say hi \^\[\]0;pwned\^G.*\[y\/N\] /);
      t.line('n');
      await t.waitFor(/\]> $/, { from: t.text.indexOf('asks the model: Say hi') });
      expect(t.raw).not.toContain('\x1b]0;pwned');
      expect(t.raw).not.toContain('\u202e');
      const answer = JSON.parse(toolTurn('q').content);
      expect(answer.form).toEqual({ action: 'accept', content: { name: 'Ada' } });
      expect(answer.sampled.error).toMatch(/User rejected sampling request/);
    } finally {
      t.kill();
    }
  });

  it('a structuredContent that breaks its outputSchema is rejected, and both the model and the person are told', async () => {
    e2e.server.enqueue(call('b', 'fx__bad_weather'), call('v', 'fx__weather'), textReply(['ok']));
    const r = await runAish({ stdin: 'weather\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(toolTurn('b').content).toMatch(/^\[aish\] tool result rejected: Structured content does not match the tool's output schema/);
    expect(r.stderr).toMatch(/\[aish\] tool result rejected: Structured content does not match/);
    expect(toolTurn('v').content).toBe('Mild today.\n[structured content] {"celsius":21.5}');
  });

  it('a log line that comes while the person types at the prompt waits until the line is entered', async () => {
    const go = path.join(e2e.h.cwd, 'log-now');
    e2e.server.enqueue(call('late', 'fx__log', { levels: ['error'], when_file: go }), textReply(['It will log later.']));
    const t = PtySession.start({ cwd: e2e.h.cwd, env: e2e.h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('log later');
      await t.waitFor('It will log later.');
      await t.waitFor('[aish:fast]> ', { from: t.text.indexOf('It will log later.') });
      t.write('echo typed-at-the-');
      await t.waitFor('echo typed-at-the-', { from: t.text.lastIndexOf('[aish:fast]> ') });
      // The server logs once the file is there, and writes `.sent` when aish has read the message;
      // the echo of the keys typed after it comes after anything aish printed on reading it.
      writeFileSync(go, '');
      await fileAppears(`${go}.sent`);
      const typing = t.mark();
      t.write('prompt');
      await t.waitFor('prompt', { from: typing });
      expect(t.text).not.toContain('late error');
      const typed = t.mark();
      t.write('\r');
      await t.waitFor('[aish] mcp fx error: late error', { from: typed });
      await t.waitFor(/^typed-at-the-prompt$/m, { from: typed });
      expect(t.text.slice(typed).indexOf('late error')).toBeLessThan(t.text.slice(typed).search(/^typed-at-the-prompt$/m));
    } finally {
      t.kill();
    }
  });
});
