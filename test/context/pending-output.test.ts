import { describe, expect, it } from 'vitest';
import { cutPending, PendingOutput, type PendingEntry } from '../../src/context/pending-output.js';

const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i)).join('\n');
const run = (command: string, body: string, exitCode = 0): PendingEntry => ({ type: 'run', command, body, exitCode });

describe('cutPending', () => {
  it('keeps everything whole when it fits', () => {
    const entries = [run('echo a', 'a'), { type: 'note' as const, text: '[aish] a note' }, run('false', '', 1)];
    expect(cutPending(entries, 1000)).toBe('[exec output]\n$ echo a\na\n[exit 0]\n[aish] a note\n[exec output]\n$ false\n[exit 1]');
  });

  it('keeps the newest whole when it fits and cuts an older one to head and tail', () => {
    const text = cutPending([run('seq 1 3000', lines(1, 3000)), run('seq 1 200', lines(1, 200))], 2000);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).toContain(`$ seq 1 200\n${lines(1, 200)}\n[exit 0]`);
    expect(text).toMatch(/\$ seq 1 3000\n1\n2\n[\s\S]*\[\.\.\. \d+ chars left out \.\.\.\]\n[\s\S]*2999\n3000\n\[exit 0\]/);
  });

  it('names an older run only once too little is left for its head and tail', () => {
    const text = cutPending([run('seq 1 100', lines(1, 100)), run('seq 1 3000', lines(1, 3000))], 1000);
    expect(text).toContain('$ seq 1 100\n[output left out: 100 lines, 291 chars]\n[exit 0]');
    expect(text).toMatch(/\$ seq 1 3000\n1\n[\s\S]*chars left out[\s\S]*3000\n\[exit 0\]$/);
    expect(text.length).toBeLessThanOrEqual(1000);
  });

  it('cuts the newest too when it alone is over', () => {
    const text = cutPending([run('seq 1 9000', lines(1, 9000))], 3000);
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text).toMatch(/^\[exec output\]\n\$ seq 1 9000\n1\n[\s\S]*chars left out[\s\S]*\n9000\n\[exit 0\]$/);
  });

  it('keeps notes whole', () => {
    const note = { type: 'note' as const, text: '[aish] CMD not run, declined by the user: rm -rf build' };
    const text = cutPending([note, run('seq 1 3000', lines(1, 3000))], 1000);
    expect(text.startsWith(`${note.text}\n[exec output]`)).toBe(true);
  });
});

describe('PendingOutput', () => {
  it('take(max) cuts, take() does not, and both empty the buffer', () => {
    const p = new PendingOutput();
    p.append({ command: 'seq 1 3000', output: lines(1, 3000), exitCode: 0 });
    expect(p.take(1000).length).toBeLessThanOrEqual(1000);
    expect(p.isEmpty).toBe(true);
    p.append({ command: 'seq 1 3000', output: lines(1, 3000), exitCode: 0 });
    expect(p.take()).toContain(lines(1, 3000));
  });

  it('rollback drops what came after, restore puts a taken buffer back in front', () => {
    const p = new PendingOutput();
    p.append({ command: 'echo a', output: 'a', exitCode: 0 });
    const before = p.text;
    p.append({ command: 'echo b', output: 'b', exitCode: 0 });
    p.note('[aish] note');
    p.rollback(before);
    expect(p.text).toBe(before);
    const taken = p.take();
    p.note('[aish] later');
    p.restore(taken);
    expect(p.text).toBe(`${before}\n[aish] later`);
  });
});
