// How an OAuth login reaches the person's browser: `$BROWSER <url>` when set, else the platform's
// opener when aish runs on a terminal (xdg-open, open, start), else nothing, and the URL is printed
// for the person to open. Never waits for the browser; a failing opener is reported, not thrown.

import { spawn } from 'node:child_process';
import os from 'node:os';

/** How the page was opened: by `$BROWSER`, the platform opener, or not at all (print it). */
export type OpenedBy = 'browser' | 'opener' | 'none';

export interface OpenUrlOptions {
  env: Record<string, string | undefined>;
  isTTY: boolean;
  /** `os.platform()` unless a test says otherwise. */
  platform?: NodeJS.Platform;
}

/** The command that opens `url`, or undefined when nothing should be started. */
export function openerCommand(url: string, opts: OpenUrlOptions): { command: string; args: string[]; by: OpenedBy } | undefined {
  const browser = opts.env.BROWSER?.trim();
  // $BROWSER may be a list (`firefox:chromium`); the first entry is used, as a command line of words.
  if (browser) {
    const [command, ...args] = browser.split(':')[0]!.split(/\s+/).filter(Boolean);
    if (command) return { command, args: [...args, url], by: 'browser' };
  }
  if (!opts.isTTY) return undefined;
  switch (opts.platform ?? os.platform()) {
    case 'darwin':
      return { command: 'open', args: [url], by: 'opener' };
    case 'win32':
      return { command: 'cmd', args: ['/c', 'start', '""', url.replaceAll('&', '^&')], by: 'opener' };
    default:
      return { command: 'xdg-open', args: [url], by: 'opener' };
  }
}

/** Starts the opener for `url` (detached, silent). Resolves how it was opened; never rejects. */
export async function openUrl(url: string, opts: OpenUrlOptions): Promise<OpenedBy> {
  const opener = openerCommand(url, opts);
  if (!opener) return 'none';
  return new Promise<OpenedBy>((resolve) => {
    const child = spawn(opener.command, opener.args, { stdio: 'ignore', detached: true, env: opts.env as NodeJS.ProcessEnv });
    child.once('error', () => resolve('none'));
    child.once('spawn', () => {
      child.unref();
      resolve(opener.by);
    });
  });
}
