// Trust boundaries end to end, through the real program: a hostile MCP server, model and error
// body cannot put one raw control byte on the screen (piped or on a terminal, the confirm line
// included), and no secret from the environment reaches a model request or any file aish writes.

import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { HOSTILE, RAW_CONTROL } from '../support/hostile.js';
import { fixtureStdio } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';
import { PtySession } from '../support/pty.js';
import { runAish, startAish } from '../support/run-aish.js';

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

/** Every hostile payload of the corpus in one string, and what the person must see instead. */
const BAD = HOSTILE.map(([, input]) => input).join(' ');
const SHOWN = HOSTILE.map(([, , shown]) => shown).join(' ');

describe('one sanitizer, every path (piped)', () => {
  it('MCP tool names, descriptions, schemas, annotations and results, model text, CMD: lines and error bodies', async () => {
    h.writeConfig({
      models: { fast: { endpoint: server.url, model: 'm' } },
      mcp: { servers: { fixture: fixtureStdio(['--hostile']) }, auto_approve: ['fixture__*'] },
    });
    server.enqueue(
      toolCallReply([{ id: 'c1', name: 'fixture__hostile', arguments: JSON.stringify({ p: BAD }) }]),
      textReply([`Here: ${BAD}\nCMD: echo safe ${BAD}\n`]),
      { type: 'raw', status: 500, body: `upstream exploded ${BAD}` },
    );
    const run = startAish({ cwd: h.cwd, env: h.env });
    run.write(':mcp tools\n');
    await run.waitFor('fixture__hostile');
    const evil = /fixture__evil\S*/.exec(run.stdout)![0];
    run.write(`:mcp tool fixture__hostile\n:mcp tool ${evil}\n:mcp list\n`);
    await run.waitFor('(server name: evil');
    run.write('use the hostile tool\n');
    await run.waitFor('CMD: echo safe');
    run.write('and again\n');
    await run.waitFor('HTTP 500');
    run.end();
    const result = await run.exited;
    const all = result.stdout + result.stderr;
    expect(result.code).toBe(0);
    const raw = RAW_CONTROL.exec(all);
    expect(raw, raw ? `raw ${JSON.stringify(raw[0])} near ${JSON.stringify(all.slice(Math.max(0, raw.index - 40), raw.index + 40))}` : '').toBeNull();
    expect(all).toContain('Hostile ^[]0;pwned^G^[[2J^[_Gapc^[\\\\u202eevil\\x9b2J description');
    expect(all).toContain('(server name: evil^[]0;pwned^G');
    expect(all).toContain(`Here: ${SHOWN}`);
    expect(all).toContain('result ^[]0;pwned^G');
    expect(all).toMatch(/\[aish\] transport: HTTP 500: upstream exploded/);
  });

  it(':history after --resume shows stored model text made visible', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const dir = path.join(h.stateDir, 'sessions');
    mkdirSync(dir, { recursive: true });
    const lines = [
      { meta: { started: '2026-01-01T00:00:00.000Z', model: 'fast', aish_version: '0.1.0', format: 1 } },
      { role: 'user', content: `question ${BAD}` },
      { role: 'assistant', content: `answer ${BAD}` },
    ];
    writeFileSync(path.join(dir, 'hostile.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const result = await runAish({ cwd: h.cwd, env: h.env, args: ['--resume', 'hostile'], stdin: ':history\n' });
    const all = result.stdout + result.stderr;
    expect(all).toContain('resumed hostile (2 turns)');
    // :history previews each turn; the start of the payload is enough to see it made visible.
    expect(all).toMatch(/assistant +answer \^\[\[2J \^\[\[1A/);
    expect(all).not.toMatch(RAW_CONTROL);
  });
});

describe('one sanitizer on a terminal: the confirm line', () => {
  it('a CMD: line cannot hide what runs behind escape sequences: it is refused, never shown raw', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const disguise = "touch marker #\x1b[2K\x1b[1A\x1b[2K\x1b[1Gexecute 'ls -la";
    server.enqueue(textReply([`Run this:\nCMD: ${disguise}\n`]), textReply(['CMD: echo safe\x1b[2J\n']));
    const t = PtySession.start({ cwd: h.cwd, env: h.env });
    try {
      await t.waitFor('[aish:fast]> ');
      const mark = t.raw.length;
      t.line('what should I run?');
      // A control character in a command would act as a key in the shell: the policy denies it.
      await t.waitFor(/control character[\s\S]*\[aish:fast\]> $/);
      const shown = t.raw.slice(mark);
      expect(shown).not.toContain('#\x1b[2K');
      expect(shown).not.toContain('\x1b[1Gexecute');
      expect(t.text).toContain('touch marker #^[[2K^[[1A^[[2K^[[1Gexecute');
      expect(t.text).not.toContain('? [y/N/e');
      expect(existsSync(path.join(h.cwd, 'marker'))).toBe(false);
      const mark2 = t.raw.length;
      t.line('and now?');
      await t.waitFor(/echo safe\^\[\[2J[\s\S]*control character/);
      expect(t.raw.slice(mark2)).not.toContain('safe\x1b[2J');
    } finally {
      t.kill();
    }
  });
});

describe('one approval policy', () => {
  it('a denied CMD: line is not run, says which rule, and the model hears so; :perms shows and checks the rules', async () => {
    h.writeConfig({
      models: { fast: { endpoint: server.url, model: 'm' } },
      shell: { confirm_cmd: false },
      permissions: { allow: ['git status'], confirm: ['git push*'], deny: ['touch *'] },
    });
    server.enqueue(textReply(['CMD: touch denied-marker\nCMD: echo ran-it\n']), textReply(['ok']));
    const result = await runAish({
      cwd: h.cwd,
      env: h.env,
      stdin: 'please create a file\nwhat happened?\n:perms\n:perms check rm -rf build\n:perms check git status\n:perms check sudo x && touch y\n',
    });
    expect(result.stderr, result.stdout + result.stderr).toContain('[aish] denied by permissions: touch *');
    expect(existsSync(path.join(h.cwd, 'denied-marker'))).toBe(false);
    expect(result.stdout).toContain('ran-it');
    expect(server.requests, result.stdout + result.stderr).toHaveLength(2);
    expect(server.requests[1]!.body.messages.at(-1).content).toContain('[aish] CMD not run, denied by permissions: touch *: touch denied-marker');
    expect(result.stdout).toContain('deny:    touch *');
    expect(result.stdout).toContain('confirm: git push*');
    expect(result.stdout).toMatch(/^ask: destructive command \(.+\)$/m);
    expect(result.stdout).toContain('allow: permissions.allow: git status');
    expect(result.stdout).toContain('deny: denied by permissions: touch *');
  });
});

describe('no secret leaves', () => {
  const SECRETS = {
    OPENAI_API_KEY: 'sk-test-aishsecret-0001',
    GITHUB_TOKEN: 'ghp_aishsecret0002',
    DB_PASSWORD: 'hunter2-aishsecret-0003',
    AWS_SECRET_ACCESS_KEY: 'aws/aishsecret+0004',
  };

  function filesUnder(dir: string): string[] {
    if (!existsSync(dir)) return [];
    return readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full) : [full];
    });
  }

  it('after `env`, neither the request bodies nor any file under HOME and the XDG dirs hold a secret value', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm', key_env: 'OPENAI_API_KEY' } } });
    server.enqueue(textReply(['I see your environment.']), { type: 'raw', status: 401, body: `{"error":{"message":"invalid key ${SECRETS.OPENAI_API_KEY}"}}` });
    const result = await runAish({
      cwd: h.cwd,
      env: { ...h.env, ...SECRETS },
      stdin: `env\nwhat is set?\n:remember my key is ${SECRETS.GITHUB_TOKEN}\nagain\n`,
    });
    expect(result.code).toBe(0);
    // The key still authenticates: it goes in the Authorization header, never in a body.
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${SECRETS.OPENAI_API_KEY}`);
    const bodies = server.requests.map((r) => JSON.stringify(r.body));
    expect(bodies.join('\n')).toContain('[redacted:GITHUB_TOKEN]');
    const files = filesUnder(h.home).filter((f) => !f.endsWith('.aishrc.json'));
    expect(files.some((f) => f.includes(`${path.sep}sessions${path.sep}`))).toBe(true);
    expect(files.some((f) => f.endsWith('memory.jsonl'))).toBe(true);
    const printed = result.stdout.split('\n').filter((l) => !/^[A-Z_]+=/.test(l)).join('\n') + result.stderr;
    for (const [name, value] of Object.entries(SECRETS)) {
      for (const body of bodies) expect(body, `${name} in a request body`).not.toContain(value);
      for (const file of files) expect(readFileSync(file, 'utf8'), `${name} in ${file}`).not.toContain(value);
      // What `env` itself printed is the person's own screen; aish's lines (the 401 error) are not.
      expect(printed, `${name} printed`).not.toContain(value);
    }
    expect(result.stderr).toContain('invalid key [redacted:OPENAI_API_KEY]');
  });

  it('a line typed with a leading space is not written to input history; other lines are, redacted', async () => {
    h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
    const t = PtySession.start({ cwd: h.cwd, env: { ...h.env, ...SECRETS } });
    try {
      await t.waitFor('[aish:fast]> ');
      t.line(' echo hidden-line');
      await t.waitFor(/exit 0/);
      t.line(`echo ${SECRETS.DB_PASSWORD}`);
      await t.waitFor(/exit 0[\s\S]*exit 0/);
      // A secret typed before it is in the environment is still caught by its name.
      t.line('export NEW_SERVICE_TOKEN=typed-secret-0005');
      t.line('echo after');
      // The frame of `echo after` itself, and the prompt after it: the keys typed ahead are echoed
      // inside the export's frame too, and `:quit` typed then would race the command's end.
      await t.waitFor(/╭─ echo after[^\n]*\nafter\r?\n╰─ exit 0[^\n]*\n[^]*\[aish:fast\]> $/);
      t.line(':quit');
      await t.exited;
    } finally {
      t.kill();
    }
    const history = readFileSync(path.join(h.stateDir, 'input_history'), 'utf8');
    expect(history).not.toContain('hidden-line');
    expect(history).toContain('echo [redacted:DB_PASSWORD]');
    expect(history).not.toContain(SECRETS.DB_PASSWORD);
    expect(history).toContain('export NEW_SERVICE_TOKEN=[redacted:NEW_SERVICE_TOKEN]');
    expect(history).not.toContain('typed-secret-0005');
  });
});
