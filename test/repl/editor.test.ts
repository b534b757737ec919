// The editor unit without a terminal: what the editor is given and what comes back.

import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeInEditor, editorCommand } from '../../src/repl/editor.js';
import { tempDir } from '../support/temp-dir.js';

const work = tempDir('aish-editor-');

/** An editor script: logs its arguments and the file, then runs `body` with the file as $f. */
function editor(body: string): { command: string; log: string } {
  const dir = mkdtempSync(path.join(work, 'bin-'));
  const file = path.join(dir, 'ed');
  const log = path.join(dir, 'log');
  writeFileSync(file, `#!/bin/sh\nfor f; do :; done\necho "$@" > '${log}'\ncat "$f" >> '${log}'\n${body}\n`);
  chmodSync(file, 0o755);
  return { command: file, log };
}

const opts = (env: Record<string, string>) => ({ env: { PATH: '/usr/bin:/bin', ...env }, cwd: work, tmpDir: work });

describe('composing in the editor', () => {
  it('$VISUAL, else $EDITOR, else vi', () => {
    expect(editorCommand({ VISUAL: 'code -w', EDITOR: 'nano' })).toBe('code -w');
    expect(editorCommand({ VISUAL: '  ', EDITOR: 'nano' })).toBe('nano');
    expect(editorCommand({})).toBe('vi');
  });

  it('gives the editor the text and its arguments, returns what was saved, removes the file', async () => {
    const ed = editor(`printf 'echo one\\r\\necho two\\n\\n\\n' > "$f"`);
    const result = await composeInEditor('draft line', opts({ EDITOR: `${ed.command} -w --flag` }));
    expect(result).toEqual({ ok: true, text: 'echo one\necho two' });
    const [args, initial] = readFileSync(ed.log, 'utf8').split('\n');
    expect(args).toMatch(/^-w --flag \/.*\/aish-edit-\w+\/line\.txt$/);
    expect(initial).toBe('draft line');
    expect(existsSync(path.dirname(args!.split(' ').at(-1)!))).toBe(false);
  });

  it('an empty file, a failing editor, a missing editor: nothing to run, and why', async () => {
    expect(await composeInEditor('x', opts({ EDITOR: editor(': > "$f"').command }))).toEqual({ ok: false, reason: 'edit cancelled (empty file)' });
    expect(await composeInEditor('x', opts({ EDITOR: editor('exit 3').command }))).toMatchObject({ ok: false, reason: expect.stringContaining('exited with status 3: nothing run') });
    expect(await composeInEditor('x', opts({ EDITOR: '/nonexistent/editor' }))).toMatchObject({ ok: false, reason: expect.stringContaining('was not found') });
  });
});
