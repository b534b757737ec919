import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClipboardError, clipboardTools, copyToClipboard, osc52, type ClipboardTool } from '../src/clipboard.js';
import { runs } from './support/programs.js';
import { tempDir } from './support/temp-dir.js';

/** A PATH directory holding executables with these names. */
function binWith(...names: string[]): string {
  const dir = tempDir('aish-clip-');
  for (const name of names) {
    writeFileSync(path.join(dir, name), '#!/bin/sh\ncat > /dev/null\n');
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}

describe('which clipboard tool', () => {
  const all = binWith('pbcopy', 'wl-copy', 'xclip', 'xsel', 'clip.exe');

  it.each<[string, Record<string, string>, NodeJS.Platform, string[]]>([
    ['macOS: pbcopy', {}, 'darwin', ['pbcopy', 'clip.exe']],
    ['Wayland first, then X', { WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }, 'linux', ['wl-copy', 'xclip', 'xsel', 'clip.exe']],
    ['X only', { DISPLAY: ':0' }, 'linux', ['xclip', 'xsel', 'clip.exe']],
    ['no display (ssh, WSL): only clip.exe', {}, 'linux', ['clip.exe']],
  ])('%s', (_name, env, platform, names) => {
    expect(clipboardTools({ PATH: all, ...env }, platform).map((t) => t.name)).toEqual(names);
  });

  it('only tools found on PATH, executable', () => {
    const dir = binWith('xsel');
    writeFileSync(path.join(dir, 'xclip'), 'not executable');
    expect(clipboardTools({ PATH: `/nonexistent:${dir}`, DISPLAY: ':0' }, 'linux')).toEqual([{ name: 'xsel', args: ['--clipboard', '--input'] }]);
    expect(clipboardTools({ PATH: '', DISPLAY: ':0' }, 'linux')).toEqual([]);
  });
});

describe('OSC 52', () => {
  it('sets the clipboard with the text as base64', () => {
    expect(osc52('hé\x1b]0;x\x07', {})).toBe(`\x1b]52;c;${Buffer.from('hé\x1b]0;x\x07').toString('base64')}\x07`);
  });

  it('goes as is inside tmux', () => {
    expect(osc52('x', { TMUX: '/tmp/tmux-0/default,1,0', TERM: 'screen-256color' })).toBe('\x1b]52;c;eA==\x07');
  });

  it('is wrapped in DCS passthrough pieces inside GNU screen', () => {
    const text = 'y'.repeat(200);
    const seq = osc52(text, { STY: '123.pts-0', TERM: 'screen' });
    const pieces = [...seq.matchAll(/\x1bP([^\x1b]*(?:\x1b\]52;c;)?[^\x1b]*)\x1b\\/g)];
    expect(seq.startsWith('\x1bP\x1b]52;c;')).toBe(true);
    expect(pieces.length).toBeGreaterThan(1);
    expect(seq.replace(/\x1bP|\x1b\\/g, '')).toBe(osc52(text, {}));
  });
});

describe('copying', () => {
  const ok = async () => {};
  const fails = async (tool: ClipboardTool) => {
    throw new ClipboardError(`${tool.name} cannot open display`);
  };

  it('uses the first tool that works', async () => {
    const ran: string[] = [];
    const via = await copyToClipboard('text', {
      env: { PATH: binWith('xclip', 'xsel'), DISPLAY: ':0' },
      platform: 'linux',
      terminal: null,
      run: async (tool) => {
        ran.push(tool.name);
        if (tool.name === 'xclip') throw new Error('no X');
      },
    });
    expect([via, ran]).toEqual([{ to: 'the clipboard', via: 'xsel' }, ['xclip', 'xsel']]);
  });

  it('falls back to OSC 52 on a terminal', async () => {
    let written = '';
    const via = await copyToClipboard('hi', { env: { PATH: binWith('xclip'), DISPLAY: ':0' }, platform: 'linux', terminal: { write: (s) => (written += s) }, run: fails });
    expect(via).toEqual({ to: 'the clipboard', via: 'OSC 52, if the terminal allows it' });
    expect(written).toBe('\x1b]52;c;aGk=\x07');
  });

  it('not on a dumb terminal, not past what terminals take, not without one', async () => {
    const terminal = { write: () => true };
    await expect(copyToClipboard('hi', { env: { PATH: '', TERM: 'dumb' }, terminal, run: ok })).rejects.toThrow(/no clipboard tool found/);
    await expect(copyToClipboard('x'.repeat(80_000), { env: { PATH: '' }, terminal, run: ok })).rejects.toThrow(/too long for OSC 52/);
    await expect(copyToClipboard('hi', { env: { PATH: binWith('xclip'), DISPLAY: ':0' }, platform: 'linux', terminal: null, run: fails })).rejects.toThrow(
      'the clipboard tool failed (xclip: xclip cannot open display)',
    );
  });

  it('runs a real tool with the text on stdin and waits for it', async () => {
    const dir = tempDir('aish-clip-');
    const out = path.join(dir, 'got');
    writeFileSync(path.join(dir, 'wl-copy'), `#!/bin/sh\ncat > '${out}'\n`);
    chmodSync(path.join(dir, 'wl-copy'), 0o755);
    const via = await copyToClipboard('line 1\nline 2', { env: { PATH: `${dir}:/usr/bin:/bin`, WAYLAND_DISPLAY: 'w' }, platform: 'linux', terminal: null });
    expect(via).toEqual({ to: 'the clipboard', via: 'wl-copy' });
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(out, 'utf8')).toBe('line 1\nline 2');
  });

  it("a tool that fails says why, from its stderr", async () => {
    const dir = tempDir('aish-clip-');
    writeFileSync(path.join(dir, 'xclip'), "#!/bin/sh\necho \"Error: Can't open display: (null)\" >&2\nexit 1\n");
    chmodSync(path.join(dir, 'xclip'), 0o755);
    await expect(copyToClipboard('x', { env: { PATH: `${dir}:/usr/bin:/bin`, DISPLAY: ':9' }, platform: 'linux', terminal: null })).rejects.toThrow(
      "xclip: Error: Can't open display: (null)",
    );
  });
});

// Issue 36: with `set-clipboard external` tmux takes no OSC 52 from a program inside it, so `:copy`
// said "copied" and nothing was. A real tmux server of the test's own (a private socket) says what
// its buffer holds.
describe.skipIf(!runs('tmux', ['-V']))('inside tmux', () => {
  const socketDir = tempDir('aish-tmux-');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TMUX_TMPDIR: socketDir, HOME: socketDir };
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', 'aish-test', '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  /** What a program inside that tmux finds in its environment. */
  let inside: Record<string, string>;

  beforeAll(() => {
    tmux('new-session', '-d', '-x', '80', '-y', '24');
    inside = { PATH: env.PATH, TMUX: tmux('display-message', '-p', '#{socket_path},#{pid},0').trim() };
  });
  afterAll(() => {
    tmux('kill-server');
  });

  it('set-clipboard external: the text goes to the tmux buffer through tmux, which passes it on; no OSC 52 that tmux would drop', async () => {
    tmux('set-option', '-g', 'set-clipboard', 'external');
    let written = '';
    const copied = await copyToClipboard('line 1\nline 2', { env: inside, platform: 'linux', terminal: { write: (s) => (written += s) } });
    expect(tmux('show-buffer')).toBe('line 1\nline 2');
    expect(written).toBe('');
    expect(copied).toEqual({ to: "the tmux buffer and the terminal's clipboard", via: 'tmux load-buffer -w, if the terminal allows it' });
  });

  it("set-clipboard off: the tmux buffer only, and it says so", async () => {
    tmux('set-option', '-g', 'set-clipboard', 'off');
    const copied = await copyToClipboard('off text', { env: inside, platform: 'linux', terminal: null });
    expect(tmux('show-buffer')).toBe('off text');
    expect(copied).toEqual({ to: 'the tmux buffer', via: "tmux load-buffer; its set-clipboard is off, so not the terminal's clipboard" });
  });
});
