// The system clipboard (`:copy`). First a clipboard tool found on PATH that can work here: pbcopy
// on macOS, wl-copy under Wayland (WAYLAND_DISPLAY), xclip or xsel under X (DISPLAY), clip.exe
// on Windows and WSL. Else, inside tmux ($TMUX), tmux's buffer (`tmux load-buffer -w -`), which
// tmux passes on to the terminal's clipboard unless its `set-clipboard` is off: with `external`
// it drops a program's OSC 52, so that sequence alone copied nothing. Else, when output is a
// terminal, OSC 52 (`ESC ] 52 ; c ; <base64> BEL`): the terminal sets its clipboard, which works
// over ssh too where the terminal allows it; in GNU screen it is wrapped in screen's DCS
// passthrough, in pieces screen accepts. The payload is base64, so no text can end the sequence
// early. Else a ClipboardError says what to install.

import { execFile, spawn } from 'node:child_process';
import os from 'node:os';
import { findOnPath } from './find-on-path.js';

/** A clipboard tool: the program and its arguments; it reads the text on stdin. */
export interface ClipboardTool {
  name: string;
  args: string[];
}

export class ClipboardError extends Error {}

/** Where the text went and how, for the status line: `copied … to <to> (<via>)`. */
export interface Copied {
  to: string;
  via: string;
}

/** Base64 characters of the largest OSC 52 payload sent; terminals drop longer ones (xterm, hterm: ~100 000). */
export const OSC52_MAX = 100_000;

/** How long a clipboard tool may take to read its input and exit. */
const TOOL_TIMEOUT_MS = 5000;

export interface ClipboardOptions {
  env: Record<string, string | undefined>;
  /** The terminal OSC 52 is written to; null when output is not a terminal. */
  terminal: { write(text: string): unknown } | null;
  platform?: NodeJS.Platform;
  /** Runs a tool with `text` on stdin (tests replace it). */
  run?: (tool: ClipboardTool, text: string, env: Record<string, string | undefined>) => Promise<void>;
}

/** The tools worth trying here, in order, as they are named on PATH. */
export function clipboardTools(env: Record<string, string | undefined>, platform: NodeJS.Platform = os.platform()): ClipboardTool[] {
  const tools: ClipboardTool[] = [];
  if (platform === 'darwin') tools.push({ name: 'pbcopy', args: [] });
  if (env.WAYLAND_DISPLAY) tools.push({ name: 'wl-copy', args: [] });
  if (env.DISPLAY) tools.push({ name: 'xclip', args: ['-selection', 'clipboard'] }, { name: 'xsel', args: ['--clipboard', '--input'] });
  tools.push({ name: 'clip.exe', args: [] });
  return tools.filter((t) => findOnPath(t.name, env.PATH ?? '') !== null);
}

/** The OSC 52 sequence that sets the clipboard to `text`, wrapped for GNU screen when inside it. */
export function osc52(text: string, env: Record<string, string | undefined>): string {
  const seq = `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
  const inScreen = !env.TMUX && (env.STY !== undefined || env.TERM?.startsWith('screen') === true);
  if (!inScreen) return seq;
  // screen passes a DCS string through to the outer terminal, but only up to 768 bytes each.
  const pieces: string[] = [];
  for (let i = 0; i < seq.length; i += 76) pieces.push(`\x1bP${seq.slice(i, i + 76)}\x1b\\`);
  return pieces.join('');
}

/**
 * Puts `text` on the clipboard; resolves to where and how (`the clipboard`, `wl-copy`). A tool
 * that fails is reported in the error if nothing else works, and the next way is tried after it.
 */
export async function copyToClipboard(text: string, opts: ClipboardOptions): Promise<Copied> {
  const run = opts.run ?? runTool;
  const failures: string[] = [];
  const failure = (name: string, err: unknown) => failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  for (const tool of clipboardTools(opts.env, opts.platform)) {
    try {
      await run(tool, text, opts.env);
      return { to: 'the clipboard', via: tool.name };
    } catch (err) {
      failure(tool.name, err);
    }
  }
  if (opts.env.TMUX && findOnPath('tmux', opts.env.PATH ?? '') !== null) {
    try {
      return await copyToTmux(text, opts.env, run);
    } catch (err) {
      failure('tmux', err);
    }
  }
  const failed = failures.length ? ` (${failures.join('; ')})` : '';
  if (opts.terminal && opts.env.TERM !== 'dumb') {
    const base64Length = 4 * Math.ceil(Buffer.byteLength(text, 'utf8') / 3);
    if (base64Length > OSC52_MAX) throw new ClipboardError(`too long for OSC 52 (${text.length} chars); install a clipboard tool (wl-copy, xclip, xsel, pbcopy)${failed}`);
    opts.terminal.write(osc52(text, opts.env));
    return { to: 'the clipboard', via: 'OSC 52, if the terminal allows it' };
  }
  if (failures.length) throw new ClipboardError(`the clipboard tool failed${failed}`);
  throw new ClipboardError('no clipboard tool found (pbcopy, wl-copy, xclip, xsel or clip.exe on PATH) and output is not a terminal for OSC 52');
}

/**
 * The text in tmux's buffer, and through tmux on the terminal's clipboard (`-w`, tmux 3.2 and
 * later) as far as `set-clipboard` lets it: tmux then sends OSC 52 itself, `external` included.
 * An older tmux, which has no `-w`, gets the buffer only. Rejects when tmux cannot be reached.
 */
async function copyToTmux(text: string, env: Record<string, string | undefined>, run: NonNullable<ClipboardOptions['run']>): Promise<Copied> {
  try {
    await run({ name: 'tmux', args: ['load-buffer', '-w', '-'] }, text, env);
  } catch (err) {
    if (!/-w|unknown flag|usage/i.test(err instanceof Error ? err.message : '')) throw err;
    await run({ name: 'tmux', args: ['load-buffer', '-'] }, text, env);
    return { to: 'the tmux buffer', via: "tmux load-buffer; this tmux cannot pass it to the terminal's clipboard (no -w before tmux 3.2)" };
  }
  if ((await tmuxOption('set-clipboard', env)) === 'off') {
    return { to: 'the tmux buffer', via: "tmux load-buffer; its set-clipboard is off, so not the terminal's clipboard" };
  }
  return { to: "the tmux buffer and the terminal's clipboard", via: 'tmux load-buffer -w, if the terminal allows it' };
}

/** A global tmux option's value; undefined when tmux does not answer. */
function tmuxOption(name: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('tmux', ['show-options', '-gv', name], { env, timeout: TOOL_TIMEOUT_MS }, (err, stdout) => resolve(err ? undefined : stdout.trim()));
  });
}

/** Runs a clipboard tool with `text` on stdin; rejects when it cannot start, fails or hangs. */
function runTool(tool: ClipboardTool, text: string, env: Record<string, string | undefined>): Promise<void> {
  return new Promise((resolve, reject) => {
    // xclip and wl-copy stay behind to serve the selection, holding what they inherited: their
    // exit is waited for, not the end of their output, and stdout is not connected at all.
    const child = spawn(tool.name, tool.args, { stdio: ['pipe', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 2000) stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new ClipboardError(`no answer in ${TOOL_TIMEOUT_MS / 1000} s`));
    }, TOOL_TIMEOUT_MS);
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.stderr.destroy();
      if (err) reject(err);
      else resolve();
    };
    child.once('error', (err) => finish(err));
    child.once('exit', (code, signal) => {
      if (code === 0) finish();
      else finish(new ClipboardError(stderr.trim().split('\n')[0] || (signal ? `ended by ${signal}` : `exit ${code}`)));
    });
    child.stdin.on('error', () => {}); // a tool that exits early; its exit status tells
    child.stdin.end(text);
  });
}
