// The line as a terminal shows it: layouts drawn one over the other into a headless xterm, read
// back as rows and a cursor position.

import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { layout, LineView, type ViewInput } from '../../src/line/view.js';
import { HeadlessTerm } from '../support/headless-term.js';

const width = (g: string) => stringWidth(g);

function input(text: string, over: Partial<ViewInput> = {}): ViewInput {
  return { prompt: '[aish:fast]$ ', continuation: '... ', text, cursor: text.length, suggestion: '', columns: 20, width, ...over };
}

/** Draws each input in turn on a fresh terminal, as the reader does; the screen after the last. */
async function drawn(inputs: ViewInput[], cols = 20): Promise<HeadlessTerm> {
  const term = new HeadlessTerm(cols, 8);
  const view = new LineView();
  for (const v of inputs) await term.write(view.draw(layout({ ...v, columns: cols })));
  return term;
}

describe('the line on the screen', () => {
  it('shows the prompt and the text with the cursor after it', async () => {
    const t = await drawn([input('ls -la')]);
    expect(t.lines()).toEqual(['[aish:fast]$ ls -la']);
    expect(t.cursor()).toEqual({ row: 0, column: 19 });
  });

  it('a redraw replaces the line: shorter text leaves nothing behind', async () => {
    const t = await drawn([input('a long line that wraps around'), input('short')]);
    expect(t.lines()).toEqual(['[aish:fast]$ short']);
  });

  it('a line longer than the terminal wraps, and the cursor follows it', async () => {
    const t = await drawn([input('0123456789abcdef', { cursor: 10 })]);
    expect(t.lines()).toEqual(['[aish:fast]$ 0123456', '789abcdef']);
    expect(t.cursor()).toEqual({ row: 1, column: 3 });
  });

  it('a line exactly as wide as the terminal puts the cursor on the next row', async () => {
    const t = await drawn([input('0123456')]);
    expect(t.lines()).toEqual(['[aish:fast]$ 0123456']);
    expect(t.cursor()).toEqual({ row: 1, column: 0 });
  });

  it('a wide character that does not fit at the margin goes to the next row', async () => {
    const t = await drawn([input('012345日本')]);
    expect(t.lines().map((l) => l.trimEnd())).toEqual(['[aish:fast]$ 012345', '日本']);
    expect(t.cursor()).toEqual({ row: 1, column: 4 });
  });

  it('the cursor between wide characters sits by their columns', async () => {
    const t = await drawn([input('日本語', { cursor: 2 })]);
    expect(t.cursor()).toEqual({ row: 0, column: 17 });
  });

  it('a prompt wider than the terminal wraps too', async () => {
    const t = await drawn([input('x', { prompt: '[aish:a-very-long-model-name]$ ' })]);
    expect(t.lines()).toEqual(['[aish:a-very-long-mo', 'del-name]$ x']);
    expect(t.cursor()).toEqual({ row: 1, column: 12 });
  });

  it('a prompt of several lines keeps its rows, and the cursor comes after its last', async () => {
    const t = await drawn([input('ls', { prompt: '~/src/app on main\n❯ ' }), input('ls -l', { prompt: '~/src/app on main\n❯ ' })], 40);
    expect(t.lines()).toEqual(['~/src/app on main', '❯ ls -l']);
    expect(t.cursor()).toEqual({ row: 1, column: 7 });
  });

  it('styled prompts take the columns of their text only', async () => {
    const t = await drawn([input('ls', { prompt: '\x1b[1m[aish:fast]\x1b[22m$ ' })]);
    expect(t.lines()).toEqual(['[aish:fast]$ ls']);
    expect(t.cursor()).toEqual({ row: 0, column: 15 });
  });

  it('further lines of the text come after the continuation prompt', async () => {
    const t = await drawn([input('for i in 1 2; do\necho $i', { cursor: 3 })], 40);
    expect(t.lines()).toEqual(['[aish:fast]$ for i in 1 2; do', '... echo $i']);
    expect(t.cursor()).toEqual({ row: 0, column: 16 });
  });

  it('control characters are shown, never sent raw', async () => {
    const t = await drawn([input('a\x1b[2Jb\x07')], 40);
    expect(t.lines()).toEqual(['[aish:fast]$ a^[[2Jb^G']);
  });

  it('the suggestion follows the cursor, dimmed, and takes no part in the cursor', async () => {
    const t = await drawn([input('git st', { suggestion: 'atus' })], 40);
    expect(t.lines()).toEqual(['[aish:fast]$ git status']);
    expect(t.cursor()).toEqual({ row: 0, column: 19 });
    const cell = t.term.buffer.active.getLine(0)!.getCell(20)!;
    expect(cell.isDim()).toBeTruthy();
  });

  it('a redraw from a wrapped cursor goes back to the first row', async () => {
    const t = await drawn([input('0123456789abcdefghij', { cursor: 2 }), input('0123456789abcdefghijkl'), input('ok')]);
    expect(t.lines()).toEqual(['[aish:fast]$ ok']);
  });

  it('leaving the line keeps it on the screen and moves below it', async () => {
    const term = new HeadlessTerm(20, 8);
    const view = new LineView();
    const shown = layout(input('0123456789abcdef', { cursor: 0 }));
    await term.write(view.draw(shown));
    await term.write(view.leave(shown.rows));
    await term.write('next');
    expect(term.lines()).toEqual(['[aish:fast]$ 0123456', '789abcdef', 'next']);
  });
});
