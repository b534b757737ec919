import { describe, expect, it } from 'vitest';
import { codeBlocks } from '../../src/render/code-blocks.js';

describe('code blocks of a reply', () => {
  it.each([
    ['none', 'just prose with `code`\n', []],
    ['one, with its language', '```ts\nconst a = 1;\n\nexport {};\n```\n', [{ lang: 'ts', code: 'const a = 1;\n\nexport {};' }]],
    ['tilde and backtick fences, in order', '~~~\na\n~~~\ntext\n```sh\nb\n```', [{ lang: '', code: 'a' }, { lang: 'sh', code: 'b' }]],
    ['a shorter fence inside stays code', '````md\n```\ninner\n```\n````\n', [{ lang: 'md', code: '```\ninner\n```' }]],
    ['indented fence: its indentation is taken off', '- step\n  ```bash\n  ls -la\n    nested\n  ```\n', [{ lang: 'bash', code: 'ls -la\n  nested' }]],
    ['an info string with attributes', '```{.python title="x"}\nprint(1)\n```', [{ lang: 'python', code: 'print(1)' }]],
    ['not a fence: a backtick in the info string', '```a`b\nx\n```\n', [{ lang: '', code: '' }]],
    ['unclosed: to the end of the reply', 'see\n```py\nprint(2)\n\n', [{ lang: 'py', code: 'print(2)' }]],
    ['an empty block', '```\n```\n', [{ lang: '', code: '' }]],
  ])('%s', (_name, text, blocks) => {
    expect(codeBlocks(text)).toEqual(blocks);
  });
});
