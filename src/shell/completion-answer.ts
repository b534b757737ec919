// The session shell's answer to a Tab (the integration's `complete` query, docs/shell.md "Tab
// completion"): the text the candidates replace, as the shell's word breaks cut it, whether they
// are file names (quoted as readline would, directories already marked with `/`) and whether a
// single one takes no space after it, and what the shell says of each (fish's descriptions). Pure;
// the candidates are the shell's text, not yet trusted.

export interface ShellCompletion {
  /** What the candidates replace: the end of the line from the current word's start (its opening quote included). */
  word: string;
  /** File names: to be quoted for the shell (`-o filenames`, or file completion). */
  filenames: boolean;
  /** No space after a single candidate (`-o nospace`). */
  nospace: boolean;
  candidates: string[];
  /** What the shell says of a candidate (fish: `checkout` "Checkout and switch to a branch"); only when it says something. */
  descriptions?: Record<string, string>;
}

/**
 * Reads the payload: the word, the flags, then the candidates, each after a `\x1f`, a candidate's
 * description after a tab. Null when malformed.
 */
export function parseCompletion(payload: string): ShellCompletion | null {
  const fields = payload.split('\x1f');
  if (fields.length < 2) return null;
  const [word, flags, ...entries] = fields as [string, string, ...string[]];
  if (!/^[fn]*$/.test(flags)) return null;
  const candidates: string[] = [];
  const descriptions: Record<string, string> = {};
  for (const entry of entries) {
    const tab = entry.indexOf('\t');
    const name = tab === -1 ? entry : entry.slice(0, tab);
    if (name === '') continue;
    candidates.push(name);
    if (tab !== -1 && entry.length > tab + 1) descriptions[name] = entry.slice(tab + 1);
  }
  return { word, filenames: flags.includes('f'), nospace: flags.includes('n'), candidates, ...(Object.keys(descriptions).length ? { descriptions } : {}) };
}
