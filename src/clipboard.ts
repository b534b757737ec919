// The system clipboard (`:copy`). First a clipboard tool found on PATH that can work here: pbcopy
// on macOS, wl-copy under Wayland (WAYLAND_DISPLAY), xclip or xsel under X (DISPLAY), clip.exe
// on Windows and WSL. Else, when output is a terminal, OSC 52 (`ESC ] 52 ; c ; <base64> BEL`): the
// terminal sets its clipboard, which works over ssh too where the terminal allows it. In tmux the
// sequence goes as is (tmux takes it with `set -g set-clipboard on` and passes it on); in GNU
// screen it is wrapped in screen's DCS passthrough, in pieces screen accepts. The payload is
// base64, so no text can end the sequence early. Else a ClipboardError says what to install.

import { spawn } from 'node:child_process';
import os from 'node:os';
import { findOnPath } from './find-on-path.js';

/** A clipboard tool: the program and its arguments; it reads the text on stdin. */
export interface ClipboardTool {
  name: string;
  args: string[];
}

export class ClipboardError extends Error {}

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
 * Puts `text` on the clipboard; resolves to how (`wl-copy`, `OSC 52`). A tool that fails is
 * reported in the error if nothing else works, and OSC 52 is tried after it.
 */
export async function copyToClipboard(text: string, opts: ClipboardOptions): Promise<string> {
  const run = opts.run ?? runTool;
  const failures: string[] = [];
  for (const tool of clipboardTools(opts.env, opts.platform)) {
    try {
      await run(tool, text, opts.env);
      return tool.name;
    } catch (err) {
      failures.push(`${tool.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const failed = failures.length ? ` (${failures.join('; ')})` : '';
  if (opts.terminal && opts.env.TERM !== 'dumb') {
    const base64Length = 4 * Math.ceil(Buffer.byteLength(text, 'utf8') / 3);
    if (base64Length > OSC52_MAX) throw new ClipboardError(`too long for OSC 52 (${text.length} chars); install a clipboard tool (wl-copy, xclip, xsel, pbcopy)${failed}`);
    opts.terminal.write(osc52(text, opts.env));
    return 'OSC 52';
  }
  if (failures.length) throw new ClipboardError(`the clipboard tool failed${failed}`);
  throw new ClipboardError('no clipboard tool found (pbcopy, wl-copy, xclip, xsel or clip.exe on PATH) and output is not a terminal for OSC 52');
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
