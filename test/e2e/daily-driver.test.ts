// The daily-driver features through a real pseudo-terminal, as a person uses them: Ctrl-R through
// the history, Ctrl-X Ctrl-E and :edit with an editor (a script set in $EDITOR), tables in a
// reply, and :copy through a clipboard tool (a script on PATH) or OSC 52.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { ModelServer, textReply } from '../support/model-server.js';
import { KEY, PtySession } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

let h: AishHome;
let server: ModelServer;
let term: PtySession | undefined;

beforeEach(async () => {
  h = makeHome();
  server = await ModelServer.start();
  h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server.close();
  h.cleanup();
});

const PROMPT = '[aish:fast]> ';
const CTRL_R = '\x12';
const CTRL_X = '\x18';
const CTRL_E = '\x05';
const ESC = '\x1b';

function start(env: Record<string, string> = {}, cols = 100): PtySession {
  return (term = PtySession.start({ cwd: h.cwd, env: { ...h.env, ...env }, cols }));
}

/** Input history as earlier sessions left it, oldest first. */
function writeHistory(lines: string[]): void {
  mkdirSync(h.stateDir, { recursive: true });
  writeFileSync(path.join(h.stateDir, 'input_history'), `${lines.join('\n')}\n`, { mode: 0o600 });
}

/** An executable script in the test home. */
function script(name: string, body: string): string {
  const file = path.join(h.home, 'bin', name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/**
 * An editor that records how it was run (its arguments, the file it got, the modes of the file
 * and its directory, whether the terminal was in canonical mode) and saves `saved` as the text.
 */
function fakeEditor(saved: string | null, exitCode = 0): { command: string; log: string } {
  const log = path.join(h.home, 'editor.log');
  const out = path.join(h.home, 'editor.out');
  if (saved !== null) writeFileSync(out, saved);
  const file = script(
    'fake-editor',
    [
      'for f; do :; done',
      `{ echo "args: $*"; echo "initial: $(cat "$f")"; stat -c 'mode: %a' "$f"; stat -c 'dir: %a' "$(dirname "$f")"; stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?icanon'; } > '${log}'`,
      saved === null ? '' : `cat '${out}' > "$f"`,
      `exit ${exitCode}`,
    ].join('\n'),
  );
  return { command: `${file} --wait`, log };
}

describe('Ctrl-R: reverse incremental search', () => {
  it('finds the newest match, Ctrl-R goes older, Enter runs it', async () => {
    writeHistory(['echo first-one', 'make test', 'echo second-one', 'git log']);
    const t = start();
    await t.waitFor(PROMPT);
    t.write('half');
    await t.waitFor('half');
    t.write(CTRL_R);
    await t.waitFor("(reverse-i-search)`': half");
    t.write('ech');
    await t.waitFor("(reverse-i-search)`ech': echo second-one");
    t.write(CTRL_R);
    await t.waitFor("(reverse-i-search)`ech': echo first-one");
    const mark = t.mark();
    t.write(KEY.enter);
    const out = await t.waitFor(/╰─ exit 0[\s\S]*\[aish:fast\]> /, { from: mark });
    expect(out).toContain('╭─ echo first-one');
    expect(out).toMatch(/\nfirst-one\n/);
  });

  it('Esc cancels and gives back the line as it was; a failed query says so', async () => {
    writeHistory(['echo only-entry']);
    const t = start();
    await t.waitFor(PROMPT);
    t.write('echo typed');
    await t.waitFor('echo typed');
    t.write(CTRL_R);
    t.write('zzz');
    await t.waitFor("(failed reverse-i-search)`zzz': echo typed");
    t.write(ESC);
    await t.waitFor('[aish:fast]$ echo typed', { from: t.text.lastIndexOf('zzz') });
    const mark = t.mark();
    t.write(KEY.enter);
    await t.waitFor(/\ntyped\n/, { from: mark });
  });

  it('an arrow accepts the match to edit it before it runs', async () => {
    writeHistory(['echo abc']);
    const t = start();
    await t.waitFor(PROMPT);
    t.write(CTRL_R);
    t.write('abc');
    await t.waitFor("(reverse-i-search)`abc': echo abc");
    // The cursor is on the "a" where the match starts: Right accepts and moves past it.
    t.write('\x1b[C');
    await t.waitFor('[aish:fast]$ echo abc', { from: t.text.lastIndexOf("abc':") });
    // Typed apart: readline appends characters that arrive in one read with others at the end.
    t.write('X');
    await t.waitFor('echo aXbc', { from: t.text.lastIndexOf("abc':") });
    const mark = t.mark();
    t.write(KEY.enter);
    await t.waitFor(/\naXbc\n/, { from: mark });
  });
});

describe('Ctrl-X Ctrl-E and :edit: composing in $EDITOR', () => {
  it('hands the line to the editor with the terminal, then runs what was saved', async () => {
    const editor = fakeEditor('echo from-the-editor\n');
    const t = start({ EDITOR: editor.command });
    await t.waitFor(PROMPT);
    t.write('echo half typed');
    await t.waitFor('half typed');
    const mark = t.mark();
    t.write(CTRL_X + CTRL_E);
    const out = await t.waitFor(/╰─ exit 0[\s\S]*\[aish:fast\]> /, { from: mark });
    expect(out).toContain('[aish:fast]$ echo from-the-editor');
    expect(out).toMatch(/\nfrom-the-editor\n/);
    const log = readFileSync(editor.log, 'utf8');
    expect(log).toMatch(/^args: --wait \/.*\/aish-edit-[^/]+\/line\.txt$/m);
    expect(log).toContain('initial: echo half typed');
    expect(log).toContain('mode: 600');
    expect(log).toContain('dir: 700');
    // The terminal was out of raw mode: canonical input, as a shell leaves it for an editor.
    expect(log).toMatch(/^icanon$/m);
    // It joined the input history like a typed line.
    t.write(KEY.up);
    await t.waitFor(/\[aish:fast\]\$ echo from-the-editor/, { from: t.text.lastIndexOf('exit 0') });
  });

  it('$VISUAL wins over $EDITOR', async () => {
    const editor = fakeEditor('echo visual\n');
    const t = start({ VISUAL: editor.command, EDITOR: '/bin/false' });
    await t.waitFor(PROMPT);
    t.write(CTRL_X + CTRL_E);
    await t.waitFor(/\nvisual\n/);
  });

  it('several lines go to the model as one question', async () => {
    server.enqueue(textReply(['One answer.']));
    const editor = fakeEditor('why does this fail?\n\n  at line 3\n');
    const t = start({ EDITOR: editor.command });
    await t.waitFor(PROMPT);
    t.write(CTRL_X + CTRL_E);
    await t.waitFor('One answer.');
    expect(t.text).toContain('[aish:fast]? why does this fail?\n... \n...   at line 3\n');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'why does this fail?\n\n  at line 3' });
  });

  it('an empty file cancels and the line comes back', async () => {
    const editor = fakeEditor('');
    const t = start({ EDITOR: editor.command });
    await t.waitFor(PROMPT);
    t.write('echo keep me');
    await t.waitFor('keep me');
    t.write(CTRL_X + CTRL_E);
    await t.waitFor('[aish] edit cancelled (empty file)');
    await t.waitFor(/\[aish:fast\]\$ echo keep me/, { from: t.text.indexOf('edit cancelled') });
    const mark = t.mark();
    t.write(KEY.enter);
    await t.waitFor(/\nkeep me\n/, { from: mark });
  });

  it('an editor that fails runs nothing', async () => {
    const editor = fakeEditor('echo should-not-run\n', 1);
    const t = start({ EDITOR: editor.command });
    await t.waitFor(PROMPT);
    t.write(CTRL_X + CTRL_E);
    await t.waitFor(/exited with status 1: nothing run/);
    expect(t.text).not.toContain('╭─ echo should-not-run');
  });

  it(':edit [text] composes from the text and runs the result as typed', async () => {
    const editor = fakeEditor('echo via-meta\n');
    const t = start({ EDITOR: editor.command });
    await t.waitFor(PROMPT);
    t.line(':edit echo start');
    const out = await t.waitFor(/╰─ exit 0/);
    expect(out).toContain('[aish:fast]> echo via-meta');
    expect(out).toMatch(/\nvia-meta\n/);
    expect(readFileSync(editor.log, 'utf8')).toContain('initial: echo start');
    expect(readFileSync(editor.log, 'utf8')).toMatch(/^icanon$/m);
  });

  it('Ctrl-C while the editor is open cancels the composed line (it stays in the history)', async () => {
    const marker = path.join(h.cwd, 'composed-ran');
    const pidFile = path.join(h.home, 'aish.pid');
    // An editor that outlives Ctrl-C (as one that takes the terminal raw does): aish hears SIGINT
    // while it runs, then the editor saves a command and exits 0.
    const editor = script('stubborn-editor', ['for f; do :; done', `kill -INT "$(cat '${pidFile}')"`, `echo "touch '${marker}'" > "$f"`, 'exit 0'].join('\n'));
    const t = start({ EDITOR: editor });
    await t.waitFor(PROMPT);
    writeFileSync(pidFile, String(t.pid));
    t.line(':edit');
    await t.waitFor('[aish] cancelled');
    expect(existsSync(marker)).toBe(false);
    const mark = t.mark();
    t.write(KEY.up);
    await t.waitFor(`[aish:fast]$ touch '${marker}'`, { from: mark });
  });

  it('a composed meta line runs as typed: :quit ends aish', async () => {
    const editor = fakeEditor(':quit\n');
    const t = start({ EDITOR: editor.command });
    await t.waitFor(PROMPT);
    t.line(':edit');
    expect((await t.exited).exitCode).toBe(0);
    expect(t.text).toContain(`${PROMPT}:quit`);
  });

  it(':edit needs a terminal', async () => {
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: ':edit\n' });
    expect(r.stderr).toContain(':edit needs a terminal');
  });
});

const TABLE_REPLY = [
  'Sizes:\n\n',
  '| Name | Size | Note |\n|:--',
  '--|---:|:---:|\n| **alpha** | 12 | 日本 |\n| `beta` | 3456 | ok |\n',
  '\nDone.\n',
].join('');

describe('tables in a reply', () => {
  it('draws aligned columns by display width, alignment colons honoured', async () => {
    server.enqueue(textReply([TABLE_REPLY]));
    const t = start();
    await t.waitFor(PROMPT);
    t.line('sizes please');
    await t.waitFor('Done.');
    const screen = t.text.slice(t.text.indexOf('Sizes:'));
    expect(screen).toContain(
      [
        '┌───────┬──────┬──────┐',
        '│ Name  │ Size │ Note │',
        '├───────┼──────┼──────┤',
        '│ alpha │   12 │ 日本 │',
        '│ beta  │ 3456 │  ok  │',
        '└───────┴──────┴──────┘',
      ].join('\n'),
    );
    expect(screen).not.toContain('|:--');
  });

  it('a table wider than the terminal becomes one record per row', async () => {
    const wide = `| Option | Meaning |\n|---|---|\n| --force | ${'overwrite everything without asking '.repeat(2).trim()} |\n| -n | dry run |\n`;
    server.enqueue(textReply([wide]));
    const t = start({}, 40);
    await t.waitFor(PROMPT);
    t.line('options please');
    await t.waitFor('Meaning: dry run');
    const screen = t.text.slice(t.text.indexOf('options please'));
    expect(screen).toContain('Option: --force\nMeaning: overwrite everything without\n  asking overwrite everything without\n  asking\n\nOption: -n\nMeaning: dry run');
    expect(screen).not.toContain('┌');
  });

  it('piped, the table stays as the model wrote it', async () => {
    server.enqueue(textReply([TABLE_REPLY]));
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: 'sizes please\n' });
    expect(r.stdout).toContain('| Name | Size | Note |\n|:----|---:|:---:|\n| **alpha** | 12 | 日本 |');
  });
});

const CODE_REPLY = 'Two ways:\n\n```bash\nls -la\n```\n\nor\n\n~~~python\nimport os\nprint(os.listdir("."))\n~~~\n';

describe(':copy', () => {
  /** A clipboard tool that keeps what it is given, under the name wl-copy, on PATH first. */
  function fakeClipboard(): { env: Record<string, string>; file: string } {
    const file = path.join(h.home, 'clipboard.txt');
    const bin = path.dirname(script('wl-copy', `cat > '${file}'`));
    return { env: { PATH: `${bin}:${h.env.PATH}`, WAYLAND_DISPLAY: 'wayland-test' }, file };
  }

  it('copies the last reply (markdown source) and its code blocks through the clipboard tool', async () => {
    server.enqueue(textReply([CODE_REPLY]));
    const clip = fakeClipboard();
    const t = start(clip.env);
    await t.waitFor(PROMPT);
    t.line('list files');
    await t.waitFor('print(os.listdir');
    t.line(':copy');
    await t.waitFor('[aish] copied 12 lines (81 chars) to the clipboard (wl-copy)');
    expect(readFileSync(clip.file, 'utf8')).toBe(CODE_REPLY.replace(/\n$/, ''));
    t.line(':copy code 1');
    await t.waitFor('[aish] copied code block 1 of 2 (bash): 1 line (6 chars) to the clipboard (wl-copy)');
    expect(readFileSync(clip.file, 'utf8')).toBe('ls -la');
    t.line(':copy code');
    await t.waitFor('[aish] copied code block 2 of 2 (python): 2 lines');
    expect(readFileSync(clip.file, 'utf8')).toBe('import os\nprint(os.listdir("."))');
    t.line(':copy code 3');
    await t.waitFor('the last reply has 2 code blocks: :copy code <1-2>');
  });

  it('without a clipboard tool, sends OSC 52 to the terminal, and what it sends is sanitized', async () => {
    server.enqueue(textReply(['```\necho hi\x1b[2J\n```\n']));
    const t = start({ PATH: '/usr/bin:/bin' });
    await t.waitFor(PROMPT);
    t.line('say hi');
    await t.waitFor('echo hi');
    const mark = t.raw.length;
    t.line(':copy code');
    await t.waitFor('(OSC 52, if the terminal allows it)');
    const osc = /\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/.exec(t.raw.slice(mark));
    expect(osc).not.toBeNull();
    expect(Buffer.from(osc![1]!, 'base64').toString('utf8')).toBe('echo hi^[[2J');
  });

  it('with nothing to copy to, says so', async () => {
    server.enqueue(textReply(['Plain answer.']));
    const r = await runAish({ cwd: h.cwd, env: { ...h.env, PATH: '/usr/bin:/bin' }, stdin: 'a question\n:copy\n' });
    expect(r.stderr).toContain('no clipboard tool found');
  });

  it('before any reply, says there is nothing to copy', async () => {
    const r = await runAish({ cwd: h.cwd, env: h.env, stdin: ':copy\n' });
    expect(r.stderr).toContain('no reply to copy yet');
  });
});
