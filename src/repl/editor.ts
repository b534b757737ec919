// Composing a line in the person's editor (Ctrl-X Ctrl-E, `:edit`): the text goes to a file in a
// private temp directory (0700, the file 0600), `$VISUAL`, else `$EDITOR`, else `vi` runs on it
// with the terminal, and what was saved comes back. The editor variable may carry arguments
// (`code -w`, `emacs -nw`): it is run by `/bin/sh -c '<editor> "$@"'`, as git runs its editor.
// The caller hands the terminal over first (out of raw mode) and takes it back after.

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface EditorOptions {
  /** The environment the editor runs with; VISUAL and EDITOR are read from it. */
  env: Record<string, string | undefined>;
  cwd: string;
  /** Where the private directory is made (the system temp dir). */
  tmpDir: string;
}

/** The saved text (trailing newlines removed), or why nothing is to be run. */
export type EditorResult = { ok: true; text: string } | { ok: false; reason: string };

/** The editor command: `$VISUAL`, else `$EDITOR`, else `vi`. */
export function editorCommand(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/**
 * Opens `initial` in the editor and waits for it. Cancelled (`ok: false`) when the editor exits
 * with a non-zero status or a signal (vim's `:cq`), or when the saved file is empty.
 */
export async function composeInEditor(initial: string, opts: EditorOptions): Promise<EditorResult> {
  const editor = editorCommand(opts.env);
  const dir = await mkdtemp(path.join(opts.tmpDir, 'aish-edit-'));
  try {
    const file = path.join(dir, 'line.txt');
    await writeFile(file, initial === '' ? '' : `${initial}\n`, { mode: 0o600, flag: 'wx' });
    const end = await runEditor(editor, file, opts);
    if (end.error) return { ok: false, reason: `could not start the editor (${editor}): ${end.error}` };
    if (end.signal) return { ok: false, reason: `the editor (${editor}) was ended by ${end.signal}: nothing run` };
    if (end.code === 127) return { ok: false, reason: `the editor (${editor}) was not found: set $VISUAL or $EDITOR` };
    if (end.code !== 0) return { ok: false, reason: `the editor (${editor}) exited with status ${end.code}: nothing run` };
    const text = (await readFile(file, 'utf8')).replace(/\r\n/g, '\n').replace(/\n+$/, '');
    if (text.trim() === '') return { ok: false, reason: 'edit cancelled (empty file)' };
    return { ok: true, text };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runEditor(editor: string, file: string, opts: EditorOptions): Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: string }> {
  return new Promise((resolve) => {
    // The editor shares aish's process group and terminal, as an interactive command does.
    const child = spawn('/bin/sh', ['-c', `${editor} "$@"`, 'aish-editor', file], { stdio: 'inherit', env: opts.env, cwd: opts.cwd });
    child.once('error', (err) => resolve({ code: null, signal: null, error: err.message }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/**
 * The editor in the shell's directory and environment (Ctrl-X Ctrl-E, `:edit`): the text, or null
 * with a status line saying why nothing is to be run.
 */
export function shellEditor(
  shell: { readonly cwd: string; readonly env: Record<string, string | undefined> },
  say: { status(message: string): void; error(message: string): void },
  describe: (err: unknown) => string,
): (initial: string) => Promise<string | null> {
  return async (initial) => {
    try {
      const result = await composeInEditor(initial, { env: shell.env, cwd: shell.cwd, tmpDir: shell.env.TMPDIR || tmpdir() });
      if (result.ok) return result.text;
      say.status(result.reason);
    } catch (err) {
      say.error(`editor: ${describe(err)}`);
    }
    return null;
  };
}
