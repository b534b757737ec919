// The front (src/front.ts): what aish does before the program is loaded. On a terminal it draws
// the banner and the prompt the REPL would draw and puts the terminal in raw mode; from a pipe it
// waits for the first input, hands it back, and ends aish when there is none and nothing to do.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliOptions } from '../src/cli.js';
import { sha256Hex, stateDirOf, trustFileOf, TrustStore } from '../src/config/trust-store.js';
import type { ModelConfig } from '../src/config/schema.js';
import { runFront, warmUp, type FrontOptions } from '../src/front.js';
import { bannerText } from '../src/repl/banner.js';
import { Renderer } from '../src/render/renderer.js';
import { createStyle } from '../src/render/style.js';
import { tempDir } from './support/temp-dir.js';

const PRESET = { endpoint: 'http://127.0.0.1:9/v1', model: 'm' };

/**
 * A HOME holding the person's own `.aishrc.json` (or `files`), and a work dir below it to start
 * in; `projectFiles` go in the work dir (project configs: used only once trusted).
 */
function project(files: Record<string, string> = { '.aishrc.json': JSON.stringify({ models: { fast: PRESET } }) }, projectFiles: Record<string, string> = {}) {
  const home = tempDir('aish-front-');
  const cwd = path.join(home, 'work');
  mkdirSync(cwd);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(home, name), text);
  for (const [name, text] of Object.entries(projectFiles)) writeFileSync(path.join(cwd, name), text);
  return { home, cwd };
}

interface FakeTerminal {
  input: PassThrough & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  out: string[];
  err: string[];
  rawModes: boolean[];
}

function fakeStreams(tty: boolean): FakeTerminal {
  const out: string[] = [];
  const err: string[] = [];
  const rawModes: boolean[] = [];
  const input: FakeTerminal['input'] = new PassThrough();
  if (tty) {
    input.isTTY = true;
    input.setRawMode = (mode: boolean) => rawModes.push(mode);
  }
  return { input, out, err, rawModes };
}

const sink = (into: string[]) =>
  new Writable({
    write(chunk, _enc, cb) {
      into.push(String(chunk));
      cb();
    },
  });

function front(where: { home: string; cwd: string }, streams: FakeTerminal, cli: Partial<CliOptions> = {}, env: Record<string, string> = {}, io: Partial<FrontOptions['io']> = {}) {
  const opts: FrontOptions = {
    cli: { help: false, version: false, ...cli },
    io: { input: () => streams.input, output: sink(streams.out), errors: sink(streams.err), isTTY: Boolean(streams.input.isTTY), ...io },
    env: { HOME: where.home, TERM: 'xterm-256color', NO_COLOR: '1', XDG_CONFIG_HOME: path.join(where.home, '.config'), ...env },
    cwd: where.cwd,
    home: where.home,
    version: '9.9.9',
  };
  return runFront(opts);
}

describe('the front on a terminal', () => {
  it('draws the banner and the prompt, turns on bracketed paste and raw mode, and hands over the config', async () => {
    const where = project();
    const t = fakeStreams(true);
    const state = await front(where, t);
    expect(typeof state).toBe('object');
    if (typeof state !== 'object') return;
    expect(state.prompted).toBe(true);
    expect(state.loaded?.file).toBe(path.join(where.home, '.aishrc.json'));
    expect(state.loaded?.config.models.fast?.model).toBe('m');
    expect(t.err.join('')).toBe(`[aish] aish 9.9.9: fast = m at ${PRESET.endpoint} (config ${path.join(where.home, '.aishrc.json')}); :help for commands\n`);
    expect(t.out.join('')).toBe('\x1b[?2004h[aish:fast]> ');
    expect(t.rawModes).toEqual([true]);
  });

  it('writes the banner and the prompt in the bytes Renderer.status and chalk write, in colour too', async () => {
    const where = project({
      '.aishrc.json': JSON.stringify({ models: { fast: { ...PRESET, model: 'm\x1b[22mx' } } }),
    });
    const t = fakeStreams(true);
    const state = await front(where, t, {}, { NO_COLOR: '', FORCE_COLOR: '2' });
    expect(typeof state === 'object' && state.prompted).toBe(true);
    const style = createStyle(2);
    const err: string[] = [];
    const io = { input: t.input, output: sink([]), errors: sink(err), isTTY: true, columns: () => 80 };
    const file = path.join(where.home, '.aishrc.json');
    new Renderer(io, style, (s) => s).status(`aish 9.9.9: fast = m\x1b[22mx at ${PRESET.endpoint} (config ${file}); :help for commands`);
    expect(t.err.join('')).toBe(err.join(''));
    expect(t.err.join('')).toContain('\x1b[2m[aish] aish 9.9.9');
    expect(t.out.join('')).toBe(`\x1b[?2004h${style.bold('[aish:fast]')}> `);
  });

  it('sets raw mode before the banner and the prompt are drawn', async () => {
    const where = project();
    const t = fakeStreams(true);
    const order: string[] = [];
    t.input.setRawMode = (mode: boolean) => order.push(`raw ${mode} after ${t.err.length + t.out.length} writes`);
    const state = await front(where, t);
    expect(typeof state === 'object' && state.prompted).toBe(true);
    expect(order).toEqual(['raw true after 0 writes']);
  });

  it('ends aish as a lost terminal would when the prompt cannot be written', async () => {
    const where = project();
    const t = fakeStreams(true);
    const lost = {
      write: () => {
        throw Object.assign(new Error('write EIO'), { code: 'EIO' });
      },
    };
    expect(await front(where, t, {}, {}, { output: lost })).toBe(129);
  });

  it('draws the shell.prompt template and --model, as the REPL would', async () => {
    const where = project({
      '.aishrc.json': JSON.stringify({ models: { fast: PRESET, deep: { ...PRESET, model: 'd' } }, shell: { prompt: '{model} {cwd_short} {turn}$ ' } }),
    });
    const t = fakeStreams(true);
    const state = await front(where, t, { model: 'deep' });
    expect(typeof state === 'object' && state.prompted).toBe(true);
    expect(t.out.join('')).toBe('\x1b[?2004hdeep ~/work 0$ ');
  });

  it('sanitizes what the config says before it reaches the screen', async () => {
    const where = project({ '.aishrc.json': JSON.stringify({ models: { fast: { ...PRESET, model: 'm\x1b[2J\u202e' } } }) });
    const t = fakeStreams(true);
    await front(where, t);
    expect(t.err.join('')).toContain('m^[[2J\\u202e at');
    expect(t.err.join('')).not.toContain('\x1b[2J');
  });

  it.each([
    ['--resume (the conversation is shown first)', { resume: 'last' }, {}],
    ['-p (no prompt at all)', { prompt: 'hi' }, {}],
    ['an unknown --model (the program says so)', { model: 'nope' }, {}],
    ['TERM=dumb (no cursor movement to redraw with)', {}, { TERM: 'dumb' }],
  ])('leaves the screen to the program with %s', async (_name, cli: Partial<CliOptions>, env: Record<string, string>) => {
    const where = project();
    const t = fakeStreams(true);
    const state = await front(where, t, cli, env);
    expect(typeof state === 'object' && state.prompted).toBe(false);
    expect(t.out.join('') + t.err.join('')).toBe('');
    expect(t.rawModes).toEqual([]);
  });

  it.each([
    ['a YAML config (cosmiconfig reads it)', { '.aishrc.yaml': 'models: {}\n' }],
    ['a JSON config that does not parse', { '.aishrc.json': '{ nope' }],
    ['an invalid config', { '.aishrc.json': JSON.stringify({ shell: { confirm_cmd: 'yes' } }) }],
  ])('leaves %s to the program, which loads it again and reports', async (_name, files: Record<string, string>) => {
    const where = project(files);
    const t = fakeStreams(true);
    const state = await front(where, t);
    expect(typeof state === 'object' && state.loaded).toBeUndefined();
    expect(typeof state === 'object' && state.prompted).toBe(false);
    expect(t.out.join('') + t.err.join('')).toBe('');
  });
});

describe('the front and a project config', () => {
  const projectConfig = JSON.stringify({ models: { fast: { ...PRESET, model: 'project-model' } } });

  it('leaves an untrusted one to the program (which asks or reports), drawing nothing', async () => {
    const where = project(undefined, { '.aishrc.json': projectConfig });
    const t = fakeStreams(true);
    const state = await front(where, t);
    expect(typeof state === 'object' && state.loaded).toBeUndefined();
    expect(typeof state === 'object' && state.prompted).toBe(false);
    expect(t.out.join('') + t.err.join('')).toBe('');
    expect(t.rawModes).toEqual([]);
  });

  it('uses one the store trusts with these bytes, and leaves it to the program once it changed', async () => {
    const where = project(undefined, { '.aishrc.json': projectConfig });
    const file = path.join(where.cwd, '.aishrc.json');
    const env = { XDG_STATE_HOME: path.join(where.home, 'state') };
    new TrustStore(trustFileOf(stateDirOf(env, where.home))).trust(file, await sha256Hex(Buffer.from(projectConfig)), new Date());
    const t = fakeStreams(true);
    const state = await front(where, t, {}, env);
    expect(typeof state === 'object' && state.loaded?.file).toBe(file);
    expect(t.err.join('')).toContain('project-model');
    writeFileSync(file, projectConfig.replace('project-model', 'other-model'));
    const again = await front(where, fakeStreams(true), {}, env);
    expect(typeof again === 'object' && again.loaded).toBeUndefined();
  });
});

describe('the front on a pipe', () => {
  it('ends aish (exit code 0) on an input that ends before its first byte', async () => {
    const t = fakeStreams(false);
    t.input.end();
    expect(await front(project(), t)).toBe(0);
    expect(t.out.join('') + t.err.join('')).toBe('');
  });

  it('hands the first input back to the stream, paused and whole, for the program to read', async () => {
    const t = fakeStreams(false);
    t.input.write('echo one\n');
    const state = await front(project(), t);
    expect(typeof state === 'object' && state.prompted).toBe(false);
    t.input.end('echo two\n');
    let read = '';
    t.input.on('data', (d) => (read += String(d)));
    // As readline does: the front left the stream paused.
    t.input.resume();
    await new Promise((resolve) => t.input.once('end', resolve));
    expect(read).toBe('echo one\necho two\n');
  });

  it('ends aish on an input seen ended by the peek, without asking for the stream', async () => {
    const t = fakeStreams(false);
    let asked = false;
    const input = () => ((asked = true), t.input);
    expect(await front(project(), t, {}, {}, { input, peekInput: () => null })).toBe(0);
    expect(asked).toBe(false);
  });

  it('hands the bytes the peek took back to the stream, ahead of the rest', async () => {
    const t = fakeStreams(false);
    const state = await front(project(), t, {}, {}, { peekInput: () => Buffer.from('echo one\n') });
    expect(typeof state === 'object' && state.prompted).toBe(false);
    t.input.end('echo two\n');
    let read = '';
    t.input.on('data', (d) => (read += String(d)));
    await new Promise((resolve) => t.input.once('end', resolve));
    expect(read).toBe('echo one\necho two\n');
  });

  it('reads the stream when the peek cannot tell (nothing yet, not a pipe)', async () => {
    const t = fakeStreams(false);
    t.input.end();
    expect(await front(project(), t, {}, {}, { peekInput: () => undefined })).toBe(0);
  });

  it('ends aish as a lost terminal would when the input fails', async () => {
    const t = fakeStreams(false);
    const result = front(project(), t);
    // Once the front reads (the config is loaded first).
    while (t.input.listenerCount('data') === 0) await new Promise((resolve) => setImmediate(resolve));
    t.input.destroy(Object.assign(new Error('read EIO'), { code: 'EIO' }));
    expect(await result).toBe(129);
  });

  it.each([
    ['MCP servers to connect (a script hears of failures)', { mcp: { servers: { s: { command: 'true' } } } }, {}],
    ['--resume', {}, { resume: 'last' }],
  ])('loads the program on an empty input when there are %s', async (_name, extra: object, cli: Partial<CliOptions>) => {
    const t = fakeStreams(false);
    t.input.end();
    const state = await front(project({ '.aishrc.json': JSON.stringify({ models: { fast: PRESET }, ...extra }) }), t, cli);
    expect(typeof state).toBe('object');
  });
});

describe('the warm-up the build runs before it makes the front\'s code cache', () => {
  it('runs the front on a config without a word, and refuses one on which the front draws no prompt', async () => {
    const good = project();
    await expect(warmUp(good.home)).resolves.toBeUndefined();
    const bad = project({ '.aishrc.json': JSON.stringify({ shell: { confirm_cmd: 'yes' } }) });
    await expect(warmUp(bad.home)).rejects.toThrow(/drew no prompt/);
  });
});

describe('the banner', () => {
  it('shows where requests go without the password of an endpoint URL', () => {
    const preset = { endpoint: ['https://me:', 'hunter2-long', '@llm.example.org/v1'].join(''), model: 'm' } as ModelConfig;
    expect(bannerText('9.9.9', 'fast', preset, undefined)).toBe('aish 9.9.9: fast = m at https://llm.example.org/v1 (no config file); :help for commands');
  });
});
