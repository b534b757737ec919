// Issue 34, end to end: with `shell.confirm_cmd` off, a `CMD:` line that changes the session's
// shell for later lines or keys (a key bound to typed text, a name reference, a completion, an
// option) is still asked about, with the reason on the line above the question; from a pipe
// nobody answers, so it never runs, while a plain command beside it runs without a question.

import { describe, expect, it } from 'vitest';
import { modelE2e } from '../support/model-e2e.js';
import { textReply } from '../support/model-server.js';
import { needs } from '../support/needs.js';
import { runAish } from '../support/run-aish.js';

const e2e = modelE2e((extra) => ({ shell: { confirm_cmd: false }, ...extra }));

const CHANGES: [line: string, reason: string][] = [
  ['bind \'"\\e[9901~": "echo pwned\\n"\'', "binds a key: changes the shell's key bindings"],
  ['declare -n p=PROMPT_COMMAND', "makes 'p' a name reference to 'PROMPT_COMMAND': changes what later commands do"],
  ["complete -C 'echo pwned' ls", "sets the completion of 'ls': changes what Tab completion runs"],
  ['builtin trap "echo pwned" DEBUG', 'changes the trap on DEBUG: changes what later commands do'],
  ['shopt -s dotglob', 'turns on dotglob: changes what later commands do'],
];

describe.each([['bash'], ['zsh']])('with confirm_cmd off, in %s', (shell) => {
  needs(`/bin/${shell}`).it('a line that changes the shell is asked with its reason and, unanswered, never runs', async () => {
    const { h, server } = e2e;
    const lines = shell === 'zsh' ? [...CHANGES, ["bindkey -s '^[[9901~' 'echo pwned\\n'", "binds a key to typed text (bindkey -s): changes the shell's key bindings"]] : CHANGES;
    server.enqueue(textReply([`${lines.map(([line]) => `CMD: ${line}\n`).join('')}CMD: echo plain-ran\n`]), textReply(['ok']));
    const r = await runAish({ stdin: 'set things up\nwhat happened?\n', cwd: h.cwd, env: { ...h.env, SHELL: `/bin/${shell}` } });
    for (const [line, reason] of lines) {
      expect(r.stderr).toContain(`[aish] ${reason}\n`);
      expect(r.stderr).toContain(`'${line}'? [y/N] n`);
      expect(r.stderr).not.toContain(`╭─ ${line}`);
    }
    // The plain command beside them asked nothing and ran.
    expect(r.stderr).not.toContain("'echo plain-ran'?");
    expect(r.stdout).toMatch(/^plain-ran$/m);
    expect(r.stdout).not.toMatch(/^pwned$/m);
    const told = server.requests[1]!.body.messages.at(-1).content as string;
    for (const [line] of lines) expect(told).toContain(`[aish] CMD not run, nobody could confirm it (input is not a terminal): ${line}`);
  });
});
