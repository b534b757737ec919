// Splits a stdio server's command line the way a POSIX shell splits words (quotes and backslashes,
// no expansion), and joins one back for display. Pure; used by `:mcp connect <command line>`.

/** The words of `line`; throws an Error naming the problem for an unterminated quote. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < line.length) {
        const next = line[++i]!;
        if (next !== '\n') word += next;
      }
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote === '"' ? 'double' : 'single'} quote in command line`);
  if (inWord) words.push(word);
  return words;
}

/** `words` as one line a shell would split back into the same words (for `:mcp list`). */
export function joinCommandLine(words: readonly string[]): string {
  return words.map((w) => (w !== '' && /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');
}
