// The CMD: contract (SPEC §5): a line of the model's final text that begins at column 0 with
// exactly `CMD: ` is a command proposal. Pure; never applied to tool results or exec output.

const PREFIX = 'CMD: ';

/**
 * The commands proposed in `text`, in order; empty bodies are skipped. Only the lines that start
 * with the prefix are cut out: a long reply is not split into all its lines (a 700 000-character
 * reply made ~17 000 strings, ~1.5 MB promoted at the end of it).
 */
export function extractCmdLines(text: string): string[] {
  const commands: string[] = [];
  for (let start = text.startsWith(PREFIX) ? 0 : nextCmdLine(text, 0); start !== -1; ) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const body = text.slice(start + PREFIX.length, end).trim();
    if (body !== '') commands.push(body);
    start = nl === -1 ? -1 : nextCmdLine(text, nl);
  }
  return commands;
}

/** Where the next line that starts with the prefix begins, at or after `from`; -1 if none does. */
function nextCmdLine(text: string, from: number): number {
  const at = text.indexOf(`\n${PREFIX}`, from);
  return at === -1 ? -1 : at + 1;
}

/** Whether a complete line is a CMD: line (for the renderer). */
export function isCmdLine(line: string): boolean {
  return line.startsWith(PREFIX);
}

export const CMD_PREFIX = PREFIX;
