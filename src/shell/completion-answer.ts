// The session shell's answer to a Tab (the integration's `complete` query, docs/shell.md "Tab
// completion"): the text the candidates replace, as the shell's word breaks cut it, whether they
// are file names (quoted as readline would, directories already marked with `/`) and whether a
// single one takes no space after it, and what the shell would list for each when that says more
// (zsh's `--amend  -- amend previous commit`, fish's descriptions). Pure; the candidates are the
// shell's text, not yet trusted.

export interface ShellCompletion {
  /** What the candidates replace: the end of the line from the current word's start (its opening quote included). */
  word: string;
  /** File names: to be quoted for the shell (`-o filenames`, or file completion). */
  filenames: boolean;
  /** No space after a single candidate (`-o nospace`). */
  nospace: boolean;
  candidates: string[];
  /** What the shell lists for each candidate (`checkout  -- switch branches`), when it says more than the candidate. */
  descriptions?: string[];
}

/**
 * Reads the payload: the word, the flags, then the candidates, each after a `\x1f`. With flag `d`
 * (zsh's compsys) each candidate is followed by what zsh lists for it; otherwise a candidate may
 * carry its description after a tab (fish), listed as `name  (description)`. Null when malformed.
 */
export function parseCompletion(payload: string): ShellCompletion | null {
  const fields = payload.split('\x1f');
  if (fields.length < 2) return null;
  const [word, flags, ...rest] = fields as [string, string, ...string[]];
  if (!/^[fnd]*$/.test(flags)) return null;
  const answer = { word, filenames: flags.includes('f'), nospace: flags.includes('n') };
  const candidates: string[] = [];
  const descriptions: string[] = [];
  if (flags.includes('d')) {
    if (rest.length % 2 !== 0) return null;
    for (let i = 0; i < rest.length; i += 2) {
      if (rest[i] === '') continue;
      candidates.push(rest[i]!);
      descriptions.push(rest[i + 1]!);
    }
    return { ...answer, candidates, descriptions };
  }
  const said: string[] = [];
  for (const entry of rest) {
    const tab = entry.indexOf('\t');
    const name = tab === -1 ? entry : entry.slice(0, tab);
    if (name === '') continue;
    candidates.push(name);
    said.push(tab === -1 ? '' : entry.slice(tab + 1));
  }
  if (!said.some((d) => d !== '')) return { ...answer, candidates };
  const width = Math.max(...candidates.map((c) => c.length)) + 2;
  for (const [i, name] of candidates.entries()) descriptions.push(said[i] ? `${name.padEnd(width)}(${said[i]})` : name);
  return { ...answer, candidates, descriptions };
}
