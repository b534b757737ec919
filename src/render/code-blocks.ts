// The fenced code blocks of a reply's markdown source (`:copy code N`), found by the rules the
// markdown renderer draws them with: an opening fence of three or more backticks or tildes (a
// backtick fence's info string has no backtick), closed by a fence of the same character at least
// as long; the opening fence's indentation is taken off each line; an unclosed block runs to the
// end of the reply. Pure.

export interface CodeBlock {
  /** The first word of the info string (`ts`, `bash`), or ''. */
  lang: string;
  /** The lines between the fences, joined with `\n`, no trailing newline. */
  code: string;
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { ch: string; len: number; indent: number; lang: string; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    if (open) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === open.ch && close[1]!.length >= open.len) {
        blocks.push({ lang: open.lang, code: open.lines.join('\n') });
        open = null;
        continue;
      }
      let strip = 0;
      while (strip < open.indent && line[strip] === ' ') strip++;
      open.lines.push(line.slice(strip));
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(line);
    if (!fence || (fence[2]![0] === '`' && fence[3]!.includes('`'))) continue;
    const lang = /^[\s{.]*([^\s{}.,;]*)/.exec(fence[3]!)?.[1] ?? '';
    open = { ch: fence[2]![0]!, len: fence[2]!.length, indent: fence[1]!.length, lang, lines: [] };
  }
  if (open) blocks.push({ lang: open.lang, code: open.lines.join('\n').replace(/\n+$/, '') });
  return blocks;
}
