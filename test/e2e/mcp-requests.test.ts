// A server asking aish for something, end to end through the REPL with server-everything
// (streamable HTTP, started here on 127.0.0.1): a form the person fills in on the terminal
// (elicitation), a model answer after a confirm (sampling), and the directories `mcp.roots`
// offers as roots, which follow `cd` (mcp-roots.test.ts has them against server-filesystem).

import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpE2e } from '../support/mcp-e2e.js';
import { textReply } from '../support/model-server.js';
import { PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

const e2e = mcpE2e((everything) => ({ ev: { url: `${everything.origin}/mcp` } }), { auto_approve: ['ev__*'] });
const { call, toolTurn, writeConfig } = e2e;

describe('elicitation', () => {
  it('on a terminal: the message, each field with its type and default; the answers reach the server', async () => {
    e2e.server.enqueue(call('e', 'ev__trigger-elicitation-request'), textReply(['Thanks, Ada.']));
    const t = PtySession.start({ cwd: e2e.h.cwd, env: e2e.h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('ask me for my details');
      await t.waitFor('mcp ev asks: Please provide inputs for the following fields:');
      await t.waitFor('answer it? [y/N/c]');
      // One key answers; a word is not an answer and asks again.
      const asked = t.mark();
      t.write('yes\r');
      await t.waitFor('(one key: y, n or c; Enter: n)', { from: asked });
      t.write('y');
      await t.waitFor('name "String" (required) [string]: ');
      t.line('Ada');
      // A yes/no field is one key, as every other question: no Enter after it (the next field
      // would never be asked if it needed one).
      await t.waitFor('check "Boolean" [y/n, Enter to leave out]: ');
      t.write('y');
      // Enter: the default, or left out.
      for (const field of ['firstLine "String with default" [string, Enter for "It was a dark and stormy night."]: ', 'email', 'homepage', 'birthdate']) {
        const mark = t.mark();
        await t.waitFor(field.includes(' ') ? field : `${field} "`, { from: mark });
        await t.waitFor(/\]: $/, { from: mark });
        t.line('');
      }
      let mark = t.mark();
      await t.waitFor(/integer "Integer" \[integer, Enter for 42\]: $/, { from: mark });
      // Out of range: asked again, then the default.
      t.line('500');
      await t.waitFor('integer: at most 100', { from: mark });
      mark = t.text.indexOf('integer: at most 100', mark);
      await t.waitFor(/integer "Integer" \[integer, Enter for 42\]: $/, { from: mark });
      t.line('');
      for (const field of ['number', 'untitledSingleSelectEnum', 'untitledMultipleSelectEnum', 'titledSingleSelectEnum', 'titledMultipleSelectEnum', 'legacyTitledEnum']) {
        const at = t.mark();
        await t.waitFor(new RegExp(`${field} "[^"]*" \\[[^\\n]*\\]: $`), { from: at });
        t.line('');
      }
      await t.waitFor('Thanks, Ada.');
      expect(t.text).toContain('check "Boolean" [y/n, Enter to leave out]: y\n');
      const result: string = toolTurn('e').content;
      expect(result).toContain('User provided the requested information');
      expect(result).toContain('- Name: Ada');
      expect(result).toContain('- Agreed to terms: true');
      expect(result).toContain('- Favorite Integer: 42');
    } finally {
      t.kill();
    }
  });

  it('piped: declined by default; mcp.elicitation defaults accepts only when every required field has a default', async () => {
    e2e.server.enqueue(call('e', 'ev__trigger-elicitation-request'), textReply(['ok']));
    const r = await runAish({ stdin: 'ask me\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('mcp ev asked: Please provide inputs for the following fields: (declined: nobody can answer; mcp.elicitation)');
    expect(toolTurn('e').content).toMatch(/declined/i);
    // `name` is required and has no default: still declined.
    writeConfig({ elicitation: 'defaults' });
    e2e.server.enqueue(call('f', 'ev__trigger-elicitation-request'), textReply(['ok']));
    await runAish({ stdin: 'ask me\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(toolTurn('f').content).toMatch(/declined/i);
  });
});

describe('sampling', () => {
  it('on a terminal: the gate shows the prompt; y sends it to the active preset with the server’s maxTokens', async () => {
    e2e.server.enqueue(call('s', 'ev__trigger-sampling-request', { prompt: 'Write a haiku about pipes', maxTokens: 40 }), textReply(['Data flows like rain']), textReply(['The server got its haiku.']));
    const t = PtySession.start({ cwd: e2e.h.cwd, env: e2e.h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line('please have the server ask for a haiku');
      await t.waitFor(/\[aish\] mcp ev asks the model: .*Write a haiku about pipes {2}\[y\/N\] /);
      expect(t.text).toContain('mcp ev asks the model (at most 40 tokens):');
      t.line('y');
      await t.waitFor('The server got its haiku.');
      const sampled = e2e.server.requests[1]!.body;
      expect(sampled.max_tokens).toBe(40);
      expect(sampled.tools).toBeUndefined();
      expect(sampled.messages.at(-1)).toEqual({ role: 'user', content: expect.stringMatching(/Write a haiku about pipes$/) });
      expect(sampled.messages[0]).toEqual({ role: 'system', content: 'You are a helpful test server.' });
      expect(toolTurn('s').content).toContain('Data flows like rain');
    } finally {
      t.kill();
    }
  });

  it('piped: denied by default (nothing sent to the model); mcp.sampling allow runs it', async () => {
    e2e.server.enqueue(call('s', 'ev__trigger-sampling-request', { prompt: 'hi', maxTokens: 10 }), textReply(['ok']));
    const denied = await runAish({ stdin: 'sample\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(denied.stderr).toContain('mcp ev: sampling request denied (mcp.sampling)');
    expect(e2e.server.requests).toHaveLength(2);
    expect(toolTurn('s').content).toMatch(/User rejected sampling request/);
    writeConfig({ sampling: 'allow' });
    e2e.server.enqueue(call('t', 'ev__trigger-sampling-request', { prompt: 'hi', maxTokens: 10 }), textReply(['hello back']), textReply(['ok']));
    await runAish({ stdin: 'sample\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(e2e.server.requests.at(-2)!.body.max_tokens).toBe(10);
    expect(toolTurn('t').content).toContain('hello back');
  });
});

describe('sampling and :model', () => {
  it('a server’s sampling request goes to the preset :model chose, not the starting one', async () => {
    writeConfig({ sampling: 'allow' });
    const file = path.join(e2e.h.home, '.aishrc.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.models.other = { endpoint: e2e.server.url, model: 'other-m' };
    writeFileSync(file, JSON.stringify(config));
    e2e.server.enqueue(call('s', 'ev__trigger-sampling-request', { prompt: 'hi', maxTokens: 10 }), textReply(['hello back']), textReply(['ok']));
    const r = await runAish({ stdin: ':model other\nsample\n', cwd: e2e.h.cwd, env: e2e.h.env });
    expect(r.stderr).toContain('model set to other');
    expect(e2e.server.requests.map((q) => q.body.model)).toEqual(['other-m', 'other-m', 'other-m']);
    expect(toolTurn('s').content).toContain('hello back');
  });
});

describe('roots', () => {
  it('mcp.roots [".", "~/notes"]: the current directory and ~/notes are the roots; cd tells the server, which sees the new directory', async () => {
    const sub = path.join(e2e.h.cwd, 'sub');
    mkdirSync(sub);
    // Since issue 32 no roots are offered unless configured, and the home folder never is.
    writeConfig({ roots: ['.', '~/notes'] });
    e2e.server.enqueue(call('a', 'ev__get-roots-list'), textReply(['ok']), call('b', 'ev__get-roots-list'), textReply(['ok']));
    await runAish({ stdin: 'what are my roots?\ncd sub\nand now?\n', cwd: e2e.h.cwd, env: e2e.h.env });
    const before: string = toolTurn('a').content;
    const home = realpathSync(e2e.h.env.HOME!);
    expect(before).toContain(`URI: file://${realpathSync(e2e.h.cwd)}`);
    expect(before).toContain(`URI: file://${home}/notes`);
    expect(toolTurn('b').content).toContain(`URI: file://${realpathSync(sub)}`);
  });
});
