// What the session's shell prints between commands, made plain for aish to show before its next
// prompt: a background job's end (bash's `[1]+  Done  sleep 1` as it draws the prompt after a
// command, zsh's `[1]  + done  sleep 1` at its prompt). The raw text, line editor redraws and
// all, goes through the terminal emulator; the lines it leaves with text are the notices.

import { screenText } from './screen-text.js';

/** Escape sequences (CSI, OSC and other strings, two-byte escapes) and controls: what shows no text. */
// eslint-disable-next-line no-control-regex
const NO_TEXT = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~])?|[\x00-\x20\x7f]/g;

/** The lines a terminal `cols` wide showed of `raw`, blank ones left out; '' when none. */
export async function shellNotices(raw: string, cols: number): Promise<string> {
  // After most commands the shell printed only its line editor's setup: no emulator for that.
  if (raw.replace(NO_TEXT, '') === '') return '';
  const { text } = await screenText(raw, cols);
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n');
}
