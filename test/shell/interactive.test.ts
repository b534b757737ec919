import { describe, expect, it } from 'vitest';
import { isInteractiveCommand } from '../../src/shell/interactive.js';
import { DEFAULT_INTERACTIVE } from '../../src/config/defaults.js';

describe('isInteractiveCommand', () => {
  it.each([
    ['vim notes.md', true],
    ['sudo vim /etc/hosts', true],
    ['EDITOR=nano git commit', true],
    ['git commit', true],
    ['git commit -m "msg"', false],
    ['git commit -am "msg"', false],
    ['git rebase -i HEAD~3', true],
    ['git add -p', true],
    ['git log --oneline', false],
    ['git log | less', true],
    ['python3', true],
    ['python3 script.py', false],
    ['node', true],
    ['node -e 1', false],
    ['ssh host', true],
    ['top', true],
    ['ls -la', false],
    ['/usr/bin/less file', true],
    ['cat file && man ls', true],
  ])('%j → %s', (cmd, expected) => {
    expect(isInteractiveCommand(cmd, DEFAULT_INTERACTIVE)).toBe(expected);
  });
});
