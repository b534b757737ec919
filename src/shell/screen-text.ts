// What a terminal showed for a command's output, as plain text for the model (SPEC §4): the bytes
// a program wrote to its pseudo-terminal go through a headless terminal emulator (@xterm/headless),
// so colours and cursor moves vanish and a `\r` progress line leaves only its final state. A
// program that used the alternate screen (vim, less, top) is reported, since its screen is gone
// when it ends. Output without escapes or carriage returns is the common case and skips the
// emulator.

/** The text a terminal showed, and whether a full-screen program ran. */
export interface ScreenText {
  text: string;
  fullScreen: boolean;
}

/** What needs the emulator: an escape, a carriage return that is not part of CR LF, a backspace. */
const NEEDS_EMULATOR = /\x1b|\r(?!\n)|\x08/;

/** Turns `raw` (pty output, starting at column 0) into the lines a terminal `cols` wide showed. */
export async function screenText(raw: string, cols: number): Promise<ScreenText> {
  if (!NEEDS_EMULATOR.test(raw)) {
    // eslint-disable-next-line no-control-regex
    return { text: raw.replace(/\r\n/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '').replace(/[ \t]+$/gm, '').replace(/\n+$/, ''), fullScreen: false };
  }
  const { Terminal } = await loadXterm();
  const lines = countLines(raw);
  const term = new Terminal({ cols: Math.max(20, cols), rows: 24, scrollback: lines + 24, allowProposedApi: true });
  let fullScreen = false;
  const watch = term.buffer.onBufferChange((buffer) => {
    if (buffer.type === 'alternate') fullScreen = true;
  });
  try {
    await new Promise<void>((resolve) => term.write(raw, resolve));
    const buffer = term.buffer.normal;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i++) {
      const line = buffer.getLine(i);
      if (!line) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && out.length > 0) out[out.length - 1] += text;
      else out.push(text);
    }
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return { text: out.join('\n'), fullScreen };
  } finally {
    watch.dispose();
    term.dispose();
  }
}

function countLines(raw: string): number {
  let n = 1;
  for (let i = raw.indexOf('\n'); i !== -1; i = raw.indexOf('\n', i + 1)) n++;
  return n;
}

type XtermModule = typeof import('@xterm/headless');

/** @xterm/headless is CommonJS: its exports may sit on `default` once bundled. */
async function loadXterm(): Promise<XtermModule> {
  const mod = (await import('@xterm/headless')) as XtermModule & { default?: XtermModule };
  return mod.Terminal ? mod : mod.default!;
}
