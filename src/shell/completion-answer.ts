// The session shell's answer to a Tab (the integration's `complete` query, docs/shell.md "Tab
// completion"): the text the candidates replace, as the shell's word breaks cut it, whether they
// are file names (quoted as readline would, directories already marked with `/`) and whether a
// single one takes no space after it. Pure; the candidates are the shell's text, not yet trusted.

export interface ShellCompletion {
  /** What the candidates replace: the end of the line from the current word's start (its opening quote included). */
  word: string;
  /** File names: to be quoted for the shell (`-o filenames`, or file completion). */
  filenames: boolean;
  /** No space after a single candidate (`-o nospace`). */
  nospace: boolean;
  candidates: string[];
}

/** Reads the payload: the word, the flags, then the candidates, each after a `\x1f`. Null when malformed. */
export function parseCompletion(payload: string): ShellCompletion | null {
  const fields = payload.split('\x1f');
  if (fields.length < 2) return null;
  const [word, flags, ...candidates] = fields as [string, string, ...string[]];
  if (!/^[fn]*$/.test(flags)) return null;
  return { word, filenames: flags.includes('f'), nospace: flags.includes('n'), candidates: candidates.filter((c) => c !== '') };
}
