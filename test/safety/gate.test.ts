import { describe, expect, it } from 'vitest';
import { ConfirmToolGate, annotationLabel, isAutoApproved } from '../../src/safety/tool-gate.js';

describe('isAutoApproved', () => {
  it.each([
    ['web__search', ['web__*'], true],
    ['webhooks__send', ['web__*'], false],
    ['web__search', ['web__search'], true],
    ['web__searchx', ['web__search'], false],
    ['fs__read', ['web__*', 'fs__read'], true],
    ['fs__write', ['fs__read'], false],
    ['anything', [], false],
    ['a__b__c', ['a__*'], true],
  ] as const)('%s with %j → %s', (name, policy, expected) => {
    expect(isAutoApproved(name, policy)).toBe(expected);
  });
});

describe('ConfirmToolGate', () => {
  const signal = new AbortController().signal;

  it('asks with the exact wording, shows the arguments and annotations, and remembers "always"', async () => {
    const asked: string[] = [];
    const shown: string[] = [];
    const answers = ['a'];
    const gate = new ConfirmToolGate({ policy: [], ask: async (q) => (asked.push(q), answers.shift() ?? null), show: (t) => shown.push(t) });
    expect(await gate.decide('fs__rm', { path: '/tmp/x\u001b[2J' }, { destructiveHint: true }, signal)).toEqual({ approved: true, by: 'user' });
    expect(asked).toEqual(["call 'fs__rm'? [y/N/a] "]);
    expect(shown[0]).toBe('fs__rm [destructive] {\n  "path": "/tmp/x\\u001b[2J"\n}');
    expect(await gate.decide('fs__rm', {}, undefined, signal)).toEqual({ approved: true, by: 'always' });
    expect(asked).toHaveLength(1);
  });

  it('defaults to no, and denies without a terminal', async () => {
    const gate = new ConfirmToolGate({ policy: [], ask: async () => '', show: () => {} });
    expect(await gate.decide('x__y', {}, undefined, signal)).toEqual({ approved: false, by: 'user' });
    const piped = new ConfirmToolGate({ policy: [], ask: null, show: () => {} });
    expect(await piped.decide('x__y', {}, undefined, signal)).toEqual({ approved: false, by: 'no-terminal' });
  });

  it('the policy approves without asking', async () => {
    const gate = new ConfirmToolGate({ policy: ['x__*'], ask: null, show: () => {} });
    expect(await gate.decide('x__y', {}, undefined, signal)).toEqual({ approved: true, by: 'policy' });
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
