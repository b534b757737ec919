// The prompt as it reads now: aish's own, or with `shell.prompt_from_shell` the shell's rendered
// prompt followed by aish's marks and sign, aish's again while the shell has not answered.

import { describe, expect, it } from 'vitest';
import { promptOf, type PromptSources } from '../../src/repl/prompt.js';

function sources(over: { rendered?: string | null; fromShell?: boolean; routing?: boolean; norris?: boolean; private?: boolean; template?: string }): PromptSources {
  return {
    template: over.template,
    conversation: { activeModel: 'fast', turn: 0 },
    core: { routing: { auto: over.routing ?? false }, context: { estimateTokens: () => 0, tokenBudget: 4096 } },
    norris: { running: over.norris ?? false },
    blocks: { privateMode: over.private ?? false },
    shell: { cwd: '/home/me/src', env: { HOME: '/home/me' }, lastStatus: 0, lastRenderedPrompt: over.rendered ?? null },
    fromShell: over.fromShell ?? false,
    bold: (s) => s,
  };
}

describe('promptOf', () => {
  it.each([
    ['aish\'s own without the key', { rendered: 'me:~$ ' }, '[aish:fast]> '],
    ['the shell\'s, then aish\'s sign', { rendered: 'me:~$ ', fromShell: true }, 'me:~$ > '],
    ['the marks before the sign', { rendered: 'me:~$ ', fromShell: true, routing: true, norris: true }, 'me:~$ ↻⚡> '],
    ['aish\'s while the shell has not answered', { rendered: null, fromShell: true }, '[aish:fast]> '],
    ['`private` while :private on', { private: true, routing: true }, '[aish:fast ↻ private]> '],
    ['[private] after the shell\'s prompt', { rendered: 'me:~$ ', fromShell: true, private: true }, 'me:~$ [private]> '],
    ['{private} in a template', { private: true, template: '{private}> ' }, 'private> '],
    ['the template while the shell has not answered', { rendered: null, fromShell: true, template: '{cwd_short} % ' }, '~/src % '],
  ])('%s', (_, over, shown) => {
    expect(promptOf(sources(over))()).toBe(shown);
  });
});
