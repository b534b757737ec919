// The block store: numbering, the bounds, redaction, which runs are private and what a private
// block keeps; and the pending buffer's memory of the blocks it holds (so one is not sent twice).

import { describe, expect, it } from 'vitest';
import { BlockStore } from '../../src/blocks/block-store.js';
import { PendingOutput } from '../../src/context/pending-output.js';

const redact = (text: string) => text.replace(/hunter2/g, '[redacted:password]');
const store = (options: Partial<ConstructorParameters<typeof BlockStore>[0]> = {}) => new BlockStore({ privateCommands: ['pass *', 'gpg *'], redact, ...options });
const run = (command: string, output = `${command} printed this\n`, exitCode = 0) => ({ command, cwd: '/work', exitCode, output });

describe('BlockStore', () => {
  it('numbers blocks from 1 and keeps command, directory, status, time, lines and redacted text', () => {
    const blocks = store({ now: () => new Date(2026, 10, 28, 9, 30, 0) });
    blocks.add(run('ls'));
    const b = blocks.add(run('echo hunter2', 'hunter2\nsecond line\n\n', 1));
    expect(b).toMatchObject({ n: 2, command: 'echo [redacted:password]', cwd: '/work', exitCode: 1, text: '[redacted:password]\nsecond line', lines: 2, private: null });
    expect(b.at.getHours()).toBe(9);
    expect(blocks.newest()).toBe(b);
    expect(blocks.get(1)?.command).toBe('ls');
    expect(blocks.made).toBe(2);
  });

  it('keeps the newest maxBlocks; numbers go on, and the dropped ones are gone', () => {
    const blocks = store({ maxBlocks: 3 });
    for (let i = 1; i <= 5; i++) blocks.add(run(`echo ${i}`));
    expect(blocks.list().map((b) => b.n)).toEqual([3, 4, 5]);
    expect(blocks.get(2)).toBeUndefined();
    expect(blocks.get(4)?.command).toBe('echo 4');
    expect(blocks.made).toBe(5);
  });

  it('keeps no more than maxChars of text in all, dropping the oldest, but always the newest', () => {
    const blocks = store({ maxChars: 25 });
    blocks.add(run('a', 'x'.repeat(10)));
    blocks.add(run('b', 'y'.repeat(10)));
    blocks.add(run('c', 'z'.repeat(10)));
    expect(blocks.list().map((b) => b.command)).toEqual(['b', 'c']);
    blocks.add(run('d', 'w'.repeat(100)));
    expect(blocks.list().map((b) => b.command)).toEqual(['d']);
  });

  it.each([
    ['pass show github', 'privacy.private_commands: pass *'],
    ['sudo gpg --decrypt notes.gpg', 'privacy.private_commands: gpg *'],
    ['cd ~/x && pass show a', 'privacy.private_commands: pass *'],
    ['echo pass show', null],
    ['passwd', null],
  ])('%j is private: %j', (command, why) => {
    expect(store().privacyOf(command)).toBe(why);
  });

  it('makes every run private while privateMode is on, and a marked line always', () => {
    const blocks = store();
    expect(blocks.privacyOf('ls', true)).toBe('marked private');
    blocks.privateMode = true;
    expect(blocks.privacyOf('ls')).toBe(':private on');
    blocks.privateMode = false;
    expect(blocks.privacyOf('ls')).toBeNull();
  });

  it('keeps a private block without its text, and grep never finds it', () => {
    const blocks = store();
    const secret = blocks.add(run('pass show github', 'TOPSECRET\n'));
    blocks.add({ ...run('cat notes', 'TOPSECRET copy\n'), marked: true });
    blocks.add(run('echo public', 'public TOPSECRET mention\n'));
    expect(secret).toMatchObject({ command: 'pass show github', text: '', lines: 1, private: 'privacy.private_commands: pass *' });
    expect(blocks.grep(/TOPSECRET/).map((f) => f.block.n)).toEqual([3]);
  });
});

describe('PendingOutput and blocks', () => {
  it('knows which blocks it holds, through take, restore and rollback', () => {
    const pending = new PendingOutput();
    pending.append({ command: 'a', output: 'A\n', exitCode: 0, block: 1 });
    pending.append({ command: 'quiet', output: '', exitCode: 0, block: 2 });
    expect(pending.holds(1)).toBe(true);
    // A run that printed nothing and succeeded is not in the buffer.
    expect(pending.holds(2)).toBe(false);
    const taken = pending.take();
    expect(pending.holds(1)).toBe(false);
    pending.append({ command: 'b', output: 'B\n', exitCode: 1, block: 3 });
    pending.restore(taken);
    expect([pending.holds(1), pending.holds(3)]).toEqual([true, true]);
    const before = pending.text;
    pending.append({ command: 'c', output: 'C\n', exitCode: 1, block: 4 });
    pending.rollback(before);
    expect([pending.holds(3), pending.holds(4)]).toEqual([true, false]);
    pending.clear();
    expect(pending.holds(1)).toBe(false);
  });
});
