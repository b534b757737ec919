// Bracketed paste (xterm's mode 2004): the terminal marks pasted text, so newlines inside a paste
// do not submit it. On while a line is read; off while a command has the terminal.

export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';
