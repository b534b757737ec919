// What the session's shell prints between commands, made plain for aish to show before its next
// prompt: a background job's end (bash's `[1]+  Done  sleep 1` as it draws the prompt after a
// command, zsh's `[1]  + done  sleep 1` at its prompt). The raw text, line editor redraws and
// all, goes through the terminal emulator; the lines it leaves with text are the notices.

import { screenText } from './screen-text.js';

/** The lines a terminal `cols` wide showed of `raw`, blank ones left out; '' when none. */
export async function shellNotices(raw: string, cols: number): Promise<string> {
  if (raw === '') return '';
  const { text } = await screenText(raw, cols);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n');
}
