// The CMD: contract (SPEC §5): a line of the model's final text that begins at column 0 with
// exactly `CMD: ` is a command proposal. Pure; never applied to tool results or exec output.

const PREFIX = 'CMD: ';

/** The commands proposed in `text`, in order; empty bodies are skipped. */
export function extractCmdLines(text: string): string[] {
  const commands: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.startsWith(PREFIX)) continue;
    const body = line.slice(PREFIX.length).trim();
    if (body !== '') commands.push(body);
  }
  return commands;
}

/** Whether a complete line is a CMD: line (for the renderer). */
export function isCmdLine(line: string): boolean {
  return line.startsWith(PREFIX);
}

export const CMD_PREFIX = PREFIX;
