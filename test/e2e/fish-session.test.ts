// fish as the session's shell end to end (docs/shell.md): the built program on a real
// pseudo-terminal with a real fish reading a real config.fish in a temporary HOME. State lives from
// line to line, Ctrl-C stops a command and keeps the shell, Tab shows fish's own completions, and
// the router knows fish's words.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeHome, type AishHome } from '../support/aish-env.js';
import { KEY, PtySession } from '../support/pty.js';
import { needs } from '../support/needs.js';
import { runningWith } from '../support/processes.js';

let h: AishHome;
let term: PtySession | undefined;
beforeEach(() => {
  h = makeHome();
});
afterEach(() => {
  term?.kill();
  term = undefined;
  h.cleanup();
});

const PROMPT = /\[aish:fast\]> $/;
const CONFIG = ['abbr -a ll echo LL-abbr', 'function greet; echo "hello $argv"; end', 'set -gx FROM_RC rc-value', "complete -c greet -f -a 'world moon' -d 'a place'", ''].join('\n');

function startTerm(): PtySession {
  mkdirSync(path.join(h.home, '.config', 'fish'), { recursive: true });
  writeFileSync(path.join(h.home, '.config', 'fish', 'config.fish'), CONFIG);
  term = PtySession.start({ cwd: h.cwd, env: { ...h.env, SHELL: '/usr/bin/fish' }, cols: 100, rows: 30 });
  return term;
}

/** Types `line` and waits for its exec frame to close; returns what it printed. */
async function typed(t: PtySession, line: string): Promise<string> {
  await t.waitFor(PROMPT);
  const mark = t.mark();
  t.line(line);
  return t.waitFor(/╰─ exit \d+[^\n]*\n/, { from: mark });
}

needs('/usr/bin/fish').describe('fish on a terminal', () => {
  it("keeps config.fish's abbreviation, function and export, set variables, functions and the directory", async () => {
    const t = startTerm();
    expect(await typed(t, 'greet world')).toContain('hello world');
    expect(await typed(t, 'll')).toContain('LL-abbr');
    expect(await typed(t, 'echo $FROM_RC')).toContain('rc-value');
    await typed(t, 'set x 5');
    expect(await typed(t, 'echo "x is $x"')).toContain('x is 5');
    await typed(t, 'function shout; string upper -- $argv; end');
    expect(await typed(t, 'shout quiet')).toContain('QUIET');
    await typed(t, 'cd /usr');
    expect(await typed(t, 'pwd')).toContain('\n/usr\n');
    expect(await typed(t, 'false')).toMatch(/exit 1/);
  });

  it('Ctrl-C stops a running command and keeps the shell and its variables', async () => {
    const t = startTerm();
    await typed(t, 'set kept yes');
    await t.waitFor(PROMPT);
    const sleeping = t.mark();
    // A duration no other process has: Ctrl-C goes once that sleep runs (before it, fish itself
    // takes the Ctrl-C, drops the rest of the line and keeps echo's status, 0).
    const seconds = `30.${process.pid}`;
    t.line(`echo started; sleep ${seconds}; echo not-reached`);
    await t.waitFor(/╭─ echo started[^\n]*\n[\s\S]*started\n/, { from: sleeping });
    await runningWith(seconds);
    t.write(KEY.ctrlC);
    const out = await t.waitFor(/exit 130/, { from: sleeping });
    expect(out).not.toContain('\nnot-reached');
    expect(await typed(t, 'echo "still $kept"')).toContain('still yes');
  });

  it("Tab offers fish's completions, and :why knows a fish builtin", async () => {
    const t = startTerm();
    await typed(t, 'echo warm');
    /** Types `text` at a new prompt, then Tab once it is echoed, and waits for `shown`. */
    const tab = async (text: string, shown: RegExp | string) => {
      await t.waitFor(PROMPT);
      const mark = t.mark();
      t.write(text);
      await t.waitFor(text, { from: mark });
      t.write(KEY.tab);
      return { mark, shown: await t.waitFor(shown, { from: mark }) };
    };
    const { mark } = await tab('greet mo', 'greet moon');
    t.write(KEY.enter);
    expect(await t.waitFor(/╰─ exit \d+[^\n]*\n/, { from: mark })).toContain('hello moon');
    expect((await tab('greet ', /world\s+\(a place\)/)).shown).toMatch(/moon\s+\(a place\)/);
    t.write(KEY.ctrlC);
    const why = t.mark();
    t.line(':why abbr -a gs git status');
    expect(await t.waitFor(/rule 4[^\n]*\n/, { from: why })).toMatch(/abbr/);
  });
});
