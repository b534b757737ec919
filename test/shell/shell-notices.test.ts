// What the shell printed between commands, as recorded from real bash 5.2 and zsh 5.9 on a pty
// (markers removed): the job notices are kept, the line editor's redraws are not.

import { describe, expect, it } from 'vitest';
import { shellNotices } from '../../src/shell/shell-notices.js';

describe('shellNotices', () => {
  it.each([
    ['bash, after a command', '[1]+  Done                    sleep 0.2\r\n\x1b[?2004h', '[1]+  Done                    sleep 0.2'],
    ['zsh, at its idle prompt', '\r\x1b[K\x1b[K\r\r\n[1]  + done       sleep 0.2\r\n\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[K', '[1]  + done       sleep 0.2'],
    ['zsh drawing its empty prompt', '\r\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[K\x1b[?1h\x1b=\x1b[?2004h\x1b[K', ''],
    ['nothing', '', ''],
    ['two jobs', '[1]-  Done  sleep 1\r\n[2]+  Exit 3  false\r\n', '[1]-  Done  sleep 1\n[2]+  Exit 3  false'],
  ])('%s', async (_, raw, shown) => {
    expect(await shellNotices(raw, 80)).toBe(shown);
  });
});
