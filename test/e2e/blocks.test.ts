// Blocks through the real program (piped, the session's bash; the loopback model server records
// every request): `@out` forms attach the blocks they name, a block the pending output carries is
// not sent twice, a missing or private one stops the line before anything is sent, `:out` lists,
// shows and searches, private output reaches no request and no session log, and a lone `?` after
// a failure asks why with that block.

import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { modelE2e } from '../support/model-e2e.js';
import { textReply } from '../support/model-server.js';
import { runAish } from '../support/run-aish.js';

const e2e = modelE2e();

/** The text of the last user turn of request `i`. */
const asked = (i: number): string => {
  const messages = e2e.server.requests[i]!.body.messages as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'user').at(-1)!.content;
};

const count = (text: string, part: string) => text.split(part).length - 1;

function sessionLog(): string {
  const dir = path.join(e2e.h.stateDir, 'sessions');
  return readdirSync(dir)
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('');
}

const run = (lines: string[]) => runAish({ stdin: `${lines.join('\n')}\n`, cwd: e2e.h.cwd, env: e2e.h.env, timeoutMs: 30_000 });

it('@out, @out:-N, @out:N and @out:/regex/ attach their blocks; one already pending is named, not sent again; a missing one sends nothing', async () => {
  const { server } = e2e;
  server.enqueue(textReply(['one']), textReply(['two']), textReply(['three']));
  const r = await run([
    'echo alpha-one',
    'echo beta-two',
    "printf 'gamma\\nthree\\n'",
    'what did these print?',
    'please compare @out:1 with @out:-1 and @out:/gamma/',
    'please read @out:99',
    'echo delta-four',
    'please look at @out',
  ]);
  expect(r.code).toBe(0);
  expect(server.requests).toHaveLength(3);
  // The first question carries the pending output, as before.
  expect(asked(0)).toContain('alpha-one');
  // The second: blocks 1, 2 and 3 attached, each once, headed by their commands.
  const second = asked(1);
  expect(second).toMatch(/^please compare @out:1 with @out:-1 and @out:\/gamma\/\n\n\[block 1: \$ echo alpha-one \(exit 0, in .*\)\]\n```\nalpha-one\n```/);
  expect(second).toContain('[block 2: $ echo beta-two (exit 0');
  expect(second).toContain('[block 3: $ printf');
  expect(count(second, 'gamma\nthree')).toBe(1);
  expect(r.stderr).toContain('attached @out:-1: block 2 (1 line)');
  // The missing block: a status line, and no request (the third request is the last question).
  expect(r.stderr).toContain('@out:99: there is no block 99 (nothing was sent)');
  // The last: block 4 is in the pending output it carries, so it is there once, and named.
  const last = asked(2);
  expect(count(last, 'delta-four\n[exit 0]')).toBe(1);
  expect(last).toContain('[exec output]\n$ echo delta-four\ndelta-four\n[exit 0]');
  expect(last).toContain('[@out is block 4: the exec output of `echo delta-four` above]');
  expect(last).not.toContain("[block 4:");
});

it('private output (privacy.private_commands, :private on, :private <command>) reaches no request and no session log; :out lists it withheld', async () => {
  const { server, h } = e2e;
  e2e.writeConfig({ privacy: { private_commands: ['cat *'] } });
  writeFileSync(path.join(h.cwd, 'vault.txt'), 'TOPSECRET-by-rule\n');
  writeFileSync(path.join(h.cwd, 'marked.txt'), 'TOPSECRET-marked\n');
  writeFileSync(path.join(h.cwd, 'mode.txt'), 'TOPSECRET-mode\n');
  server.enqueue(textReply(['seen']));
  const r = await run([
    'cat vault.txt',
    ':private head -1 marked.txt',
    ':private on',
    ':private',
    'head -1 mode.txt',
    ':private off',
    'echo visible-five',
    'what did these print?',
    'please explain @out:1',
    'please explain @out:/TOPSECRET/',
    ':out',
    ':out show 2',
    ':out show',
    ':out grep TOPSECRET',
    ':out grep visible',
    'please summarize @out:-1 and @out',
  ]);
  expect(r.code).toBe(0);
  // The person's own terminal shows the output as printed.
  expect(r.stdout).toContain('TOPSECRET-by-rule');
  expect(r.stdout).toContain('TOPSECRET-mode');
  expect(r.stderr).toContain('private output is on');
  // The one question that went: the rest named private blocks. Summaries and memory proposals
  // are made from the conversation's turns, which never held the private text.
  expect(server.requests).toHaveLength(1);
  const bodies = server.requests.map((q) => JSON.stringify(q.body)).join('\n');
  expect(bodies).toContain('visible-five');
  expect(bodies).not.toContain('TOPSECRET');
  expect(sessionLog()).toContain('visible-five');
  expect(sessionLog()).not.toContain('TOPSECRET');
  // Named, a private block stops the line; a regex never finds one.
  expect(r.stderr).toContain('@out:1: block 1 is private (nothing was sent)');
  expect(r.stderr).toContain('@out:/TOPSECRET/: no block matches /TOPSECRET/ (nothing was sent)');
  // :out: the commands shown, the private text withheld.
  expect(r.stdout).toMatch(/^1 {2}\d\d:\d\d:\d\d {2}exit 0 +private, withheld +cat vault\.txt$/m);
  expect(r.stdout).toMatch(/^2 .*private, withheld +head -1 marked\.txt$/m);
  expect(r.stdout).toMatch(/^3 .*private, withheld +head -1 mode\.txt$/m);
  expect(r.stdout).toMatch(/^4 .*exit 0 +1 line +echo visible-five$/m);
  expect(r.stderr).toContain('block 2 is private (marked private): its output was not kept');
  expect(r.stdout).toMatch(/^block 4: \$ echo visible-five {2}\(exit 0, .*\)\nvisible-five$/m);
  expect(r.stderr).toContain("no block's output matches TOPSECRET");
  expect(r.stdout).toMatch(/^4: visible-five$/m);
  // Block 3 (:private on) is private too: @out:-1 of the last question stops it.
  expect(r.stderr).toContain('@out:-1: block 3 is private (nothing was sent)');
});

it('a lone ? after a failure asks the model why, with that block once; after a success it sends nothing', async () => {
  const { server } = e2e;
  server.enqueue(textReply(['No such directory.']), textReply(['It failed earlier.']));
  const r = await run(['ls /no-such-dir-here', '?', 'true', '?', ':explain 1']);
  expect(r.code).toBe(0);
  expect(server.requests).toHaveLength(2);
  const first = asked(0);
  expect(first).toContain('Why did this command fail (exit 2)? Say briefly, and how to fix it. @out:1');
  expect(count(first, "no-such-dir-here': No such file")).toBe(1);
  expect(first).toContain('[@out:1 is block 1: the exec output of `ls /no-such-dir-here` above]');
  expect(r.stdout).toContain('No such directory.');
  expect(r.stderr).toContain('the last command did not fail (block 2, exit 0): ask about it with @out');
  // :explain N attaches a block the pending output no longer holds.
  expect(asked(1)).toMatch(/\[block 1: \$ ls \/no-such-dir-here \(exit 2, in .*\)\]\n```\nls: cannot access/);
});

it(':out copy puts a block on the clipboard as the screen showed it (colours gone); a private one is refused', async () => {
  const { h } = e2e;
  const bin = path.join(h.home, 'bin');
  const file = path.join(h.home, 'clipboard.txt');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'wl-copy'), `#!/bin/sh\ncat > '${file}'\n`);
  chmodSync(path.join(bin, 'wl-copy'), 0o755);
  const env = { ...h.env, PATH: `${bin}:${h.env.PATH}`, WAYLAND_DISPLAY: 'wayland-test' };
  const r = await runAish({ stdin: "printf 'red \\033[31mtext\\n'\n:private echo hidden\n:out copy 2\n:out copy 1\n", cwd: h.cwd, env, timeoutMs: 30_000 });
  expect(r.stderr).toContain('block 2 is private (marked private): its output was not kept');
  expect(r.stderr).toContain('[aish] copied block 1: 1 line (8 chars) to the clipboard (wl-copy)');
  expect(readFileSync(file, 'utf8')).toBe('red text');
});
