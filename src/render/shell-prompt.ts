// The shell's own prompt as aish draws it (`shell.prompt_from_shell`): the text the shell made of
// the person's PS1 is text from outside, so only its colours stay. SGR sequences (colour, bold)
// are kept: they change how the prompt's own characters look and nothing else, and a reset after
// them leaves the typed line in the terminal's own style (a prompt ending in "conceal" or a
// background colour cannot hide or paint what is typed). Every other escape sequence (a window
// title, cursor moves, OSC 133 marks of another integration) is dropped; other control characters
// are made visible (neutralize), a tab becomes a space, and readline's \001/\002 go.

import { neutralize } from './sanitize.js';

/** A prompt longer than this is not a prompt to draw on every line: aish draws its own. */
const MAX_PROMPT_CHARS = 4000;

// eslint-disable-next-line no-control-regex
const SGR = /^\x1b\[[0-9;:]*m/;
/** An escape sequence: CSI, a string (OSC, DCS, SOS, PM, APC) up to BEL or ST, or a two-byte escape. */
// eslint-disable-next-line no-control-regex
const ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~])?/;

/** The prompt to draw from what the shell answered; null when there is none to draw. */
export function shellPromptText(raw: string): string | null {
  if (raw.trim() === '' || raw.length > MAX_PROMPT_CHARS) return null;
  let out = '';
  let styled = false;
  for (let i = 0; i < raw.length; ) {
    const rest = raw.slice(i);
    const sgr = SGR.exec(rest);
    if (sgr) {
      out += sgr[0];
      styled = true;
      i += sgr[0].length;
      continue;
    }
    if (raw[i] === '\x1b') {
      i += ESCAPE.exec(rest)![0].length || 1;
      continue;
    }
    out += raw[i];
    i++;
  }
  // eslint-disable-next-line no-control-regex
  const text = out.replace(/[\x01\x02]/g, '').replace(/\r\n/g, '\n').replace(/\r/g, '').replace(/\t/g, ' ');
  // The escapes kept were read above; the text between them is neutralized piece by piece.
  const safe = text
    .split(/(\x1b\[[0-9;:]*m)/)
    .map((piece, n) => (n % 2 === 1 ? piece : neutralize(piece)))
    .join('');
  return styled ? `${safe}\x1b[0m` : safe;
}
