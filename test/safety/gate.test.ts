// The one gate that asks: it carries out the policy's decision, asks with the exact wording,
// defaults to no, remembers "always" per instance, and answers for Norris's HALT.

import { describe, expect, it } from 'vitest';
import { ApprovalGate, annotationLabel } from '../../src/safety/gate.js';
import type { Policy } from '../../src/safety/policy.js';

const signal = new AbortController().signal;
const policy = (over: Partial<Policy> = {}): Policy => ({ confirmCommands: true, permissions: { allow: [], confirm: [], deny: [] }, autoApprove: [], ...over });

function gateWith(answers: (string | null)[] | null, over: Partial<Policy> = {}) {
  const asked: string[] = [];
  const shown: string[] = [];
  const gate = new ApprovalGate({
    policy: policy(over),
    ask: answers === null ? null : async (q) => (asked.push(q), answers.shift() ?? null),
    show: (t) => shown.push(t),
  });
  return { gate, asked, shown };
}

describe('ApprovalGate: tool calls', () => {
  it('asks with the exact wording, shows the arguments and annotations, and remembers "always"', async () => {
    const { gate, asked, shown } = gateWith(['a']);
    expect(await gate.decide('fs__rm', { path: '/tmp/x\u001b[2J' }, { destructiveHint: true }, signal)).toEqual({ approved: true, by: 'user' });
    expect(asked).toEqual(["call 'fs__rm'? [y/N/a] "]);
    expect(shown[0]).toBe('fs__rm [destructive] {\n  "path": "/tmp/x\\u001b[2J"\n}');
    expect(await gate.decide('fs__rm', {}, undefined, signal)).toEqual({ approved: true, by: 'always' });
    expect(asked).toHaveLength(1);
  });

  it('defaults to no, and denies without a terminal', async () => {
    expect(await gateWith(['']).gate.decide('x__y', {}, undefined, signal)).toEqual({ approved: false, by: 'user' });
    expect(await gateWith(null).gate.decide('x__y', {}, undefined, signal)).toEqual({ approved: false, by: 'no-terminal' });
  });

  it('a line answer starting with y approves, as the seed reads it; anything else that is no key declines', async () => {
    expect(await gateWith(['yeah']).gate.decide('x__y', {}, undefined, signal)).toEqual({ approved: true, by: 'user' });
    expect(await gateWith(['sure']).gate.decide('x__y', {}, undefined, signal)).toEqual({ approved: false, by: 'user' });
  });

  it('mcp.auto_approve approves without asking', async () => {
    const { gate, asked } = gateWith(null, { autoApprove: ['x__*'] });
    expect(await gate.decide('x__y', {}, undefined, signal)).toEqual({ approved: true, by: 'policy' });
    expect(asked).toEqual([]);
  });

  it('"always" is per gate instance, not global', async () => {
    const first = gateWith(['a']);
    await first.gate.decide('a__b', {}, undefined, signal);
    const second = gateWith(['n']);
    expect(await second.gate.decide('a__b', {}, undefined, signal)).toEqual({ approved: false, by: 'user' });
  });

  it.each([
    [{ readOnlyHint: true }, ' [read-only]'],
    [{ destructiveHint: true }, ' [destructive]'],
    [{ destructiveHint: false }, ' [not destructive]'],
    [undefined, ''],
  ])('annotation label %j', (a, label) => {
    expect(annotationLabel(a)).toBe(label);
  });
});

describe('ApprovalGate: CMD: lines', () => {
  it.each<[string, (string | null)[] | null, Partial<Policy>, boolean, string[]]>([
    ['asks and runs on y', ['y'], {}, true, ["execute 'ls -la'? [y/N/e] "]],
    ['asks and declines on Enter', [''], {}, false, ["execute 'ls -la'? [y/N/e] "]],
    ['declines with nobody to ask', null, {}, false, []],
    ['runs without asking when confirm_cmd is off', [], { confirmCommands: false }, true, []],
    ['runs without asking on an allow rule', [], { permissions: { allow: ['ls *'], confirm: [], deny: [] } }, true, []],
    ['asks on a confirm rule even with confirm_cmd off', ['n'], { confirmCommands: false, permissions: { allow: [], confirm: ['ls*'], deny: [] } }, false, ["[aish] permissions.confirm: ls*\nexecute 'ls -la'? [y/N/e] "]],
    ['never asks about a denied one', ['y'], { permissions: { allow: [], confirm: [], deny: ['ls *'] } }, false, []],
  ])('%s', async (_name, answers, over, approved, questions) => {
    const { gate, asked } = gateWith(answers, over);
    expect((await gate.command('ls -la', signal)).approved).toBe(approved);
    expect(asked).toEqual(questions);
  });

  it('asks about a destructive command even when an allow rule and confirm_cmd off say run', async () => {
    const { gate, asked } = gateWith(['n'], { confirmCommands: false, permissions: { allow: ['rm *'], confirm: [], deny: [] } });
    const result = await gate.command('rm -rf build', signal);
    expect(result).toMatchObject({ approved: false, decision: { verdict: 'ask' } });
    expect(asked).toEqual(["[aish] destructive command (rm -r -f)\nexecute 'rm -rf build'? [y/N/e] "]);
  });

  it('gives a one-key asker the reason when it says more than shell.confirm_cmd', async () => {
    const questions: unknown[] = [];
    const gate = new ApprovalGate({ policy: policy(), ask: null, askKey: async (q) => (questions.push(q), 'n'), show: () => {} });
    await gate.command("alias ls='rm -rf'", signal);
    await gate.command('ls -la', signal);
    expect(questions).toEqual([
      { before: "execute '", subject: "alias ls='rm -rf'", after: "'? [y/N/e] ", kind: 'command', keys: 'yne', fallback: 'n', why: "destructive command (rm -r -f in alias 'ls')" },
      { before: "execute '", subject: 'ls -la', after: "'? [y/N/e] ", kind: 'command', keys: 'yne', fallback: 'n' },
    ]);
  });
});

describe('ApprovalGate: edit before run', () => {
  it('e puts the command on the line; Enter runs the edited command', async () => {
    const asked: string[] = [];
    const prefills: (string | undefined)[] = [];
    const answers = ['e', 'ls -l'];
    const gate = new ApprovalGate({
      policy: { confirmCommands: true, permissions: { allow: [], confirm: [], deny: [] }, autoApprove: [] },
      ask: async (q, prefill) => (asked.push(q), prefills.push(prefill), answers.shift() ?? null),
      show: () => {},
    });
    const r = await gate.command('ls -la', signal);
    expect(r).toMatchObject({ approved: true, command: 'ls -l', by: 'user' });
    expect(asked).toEqual(["execute 'ls -la'? [y/N/e] ", 'edit: ']);
    expect(prefills).toEqual([undefined, 'ls -la']);
  });

  it('an edit into a destructive command is asked about again', async () => {
    const { gate, asked } = gateWith(['e', 'rm -rf build', 'n']);
    const r = await gate.command('ls', signal);
    expect(r).toMatchObject({ approved: false, command: 'rm -rf build' });
    expect(asked).toEqual(["execute 'ls'? [y/N/e] ", 'edit: ', "[aish] destructive command (rm -r -f)\nexecute 'rm -rf build'? [y/N/e] "]);
  });

  it('an edit into a denied command does not run', async () => {
    const { gate } = gateWith(['e', 'sudo ls'], { permissions: { allow: [], confirm: [], deny: ['sudo *'] } });
    expect(await gate.command('ls', signal)).toMatchObject({ approved: false, command: 'sudo ls', decision: { verdict: 'deny' } });
  });

  it('an edit that changes nothing asks again (e then Enter out of habit does not run it)', async () => {
    const { gate, asked } = gateWith(['e', 'ls', 'n']);
    expect(await gate.command('ls', signal)).toMatchObject({ approved: false, command: 'ls' });
    expect(asked).toEqual(["execute 'ls'? [y/N/e] ", 'edit: ', "execute 'ls'? [y/N/e] "]);
  });

  it('the command goes to a one-key asker as the subject of its question', async () => {
    const questions: unknown[] = [];
    const gate = new ApprovalGate({ policy: policy(), ask: null, askKey: async (q) => (questions.push(q), 'y'), show: () => {} });
    expect(await gate.command(`curl x${' '.repeat(6000)}ls`, signal)).toMatchObject({ approved: true });
    expect(questions).toEqual([{ before: "execute '", subject: `curl x${' '.repeat(6000)}ls`, after: "'? [y/N/e] ", kind: 'command', keys: 'yne', fallback: 'n' }]);
  });

  it('an empty edit declines', async () => {
    const { gate } = gateWith(['e', '   ']);
    expect((await gate.command('ls', signal)).approved).toBe(false);
  });
});

describe('ApprovalGate: preview', () => {
  function previewGate(answers: string[], over: Partial<Policy> = {}) {
    const asked: string[] = [];
    const previewed: string[] = [];
    const gate = new ApprovalGate({
      policy: policy(over),
      ask: async (q) => (asked.push(q), answers.shift() ?? null),
      show: () => {},
      preview: async (command) => void previewed.push(command),
    });
    return { gate, asked, previewed };
  }

  it('p previews the command, then asks again without p; y runs it', async () => {
    const { gate, asked, previewed } = previewGate(['p', 'y']);
    expect(await gate.command('rm -rf build', signal)).toMatchObject({ approved: true, command: 'rm -rf build' });
    expect(previewed).toEqual(['rm -rf build']);
    expect(asked).toEqual(["[aish] destructive command (rm -r -f)\nexecute 'rm -rf build'? [y/N/e/p] ", "[aish] destructive command (rm -r -f)\nexecute 'rm -rf build'? [y/N/e] "]);
  });

  it('the question after a preview offers no p; an edited command offers it anew', async () => {
    const keys: string[] = [];
    const previewed: string[] = [];
    const answers = ['p', 'e', 'p', 'n'];
    const gate = new ApprovalGate({
      policy: policy(),
      ask: async () => 'rm -rf dist',
      askKey: async (q) => (keys.push(q.keys), answers.shift() ?? null),
      show: () => {},
      preview: async (command) => void previewed.push(command),
    });
    expect(await gate.command('rm -rf build', signal)).toMatchObject({ approved: false, command: 'rm -rf dist' });
    expect(previewed).toEqual(['rm -rf build', 'rm -rf dist']);
    expect(keys).toEqual(['ynep', 'yne', 'ynep', 'yne']);
  });

  it('a command the policy denies, or runs without asking, is never previewed', async () => {
    const denied = previewGate(['p'], { permissions: { allow: [], confirm: [], deny: ['rm *'] } });
    expect(await denied.gate.command('rm -rf build', signal)).toMatchObject({ approved: false, decision: { verdict: 'deny' } });
    const allowed = previewGate(['p'], { confirmCommands: false });
    expect(await allowed.gate.command('ls', signal)).toMatchObject({ approved: true });
    expect([...denied.previewed, ...allowed.previewed, ...denied.asked, ...allowed.asked]).toEqual([]);
  });
});

describe('ApprovalGate: HALT', () => {
  it.each<[string | null, string]>([
    ['p', 'proceed'],
    ['proceed', 'proceed'],
    ['s', 'skip'],
    ['', 'abort'],
    [null, 'abort'],
    ['whatever', 'abort'],
  ])('%j → %s', async (answer, expected) => {
    const { gate, asked } = gateWith([answer]);
    expect(await gate.halt('destructive command (rm): rm -rf x')).toBe(expected);
    expect(asked).toEqual(['[Norris] destructive command (rm): rm -rf x\n  proceed / skip / abort? [p/s/A] ']);
  });

  it('aborts with nobody to ask', async () => {
    expect(await gateWith(null).gate.halt('x')).toBe('abort');
  });
});

describe('ApprovalGate: Norris without a sandbox', () => {
  it.each<[string | null, string]>([
    ['y', 'yes'],
    ['a', 'always'],
    ['', 'no'],
    [null, 'no'],
    ['p', 'no'],
  ])('%j → %s', async (answer, expected) => {
    const { gate, asked } = gateWith([answer]);
    expect(await gate.unboxed('make test')).toBe(expected);
    expect(asked).toEqual(["[Norris] no sandbox here: run 'make test'? [y/N/a] "]);
  });

  it('with nobody to ask the answer is nobody (the run aborts)', async () => {
    expect(await gateWith(null).gate.unboxed('make test')).toBe('nobody');
  });
});
