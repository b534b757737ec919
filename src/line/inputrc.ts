// The common settings of readline's `~/.inputrc` that aish's line editor honours: `editing-mode`
// (emacs or vi), `completion-ignore-case` and `bell-style` (none, visible, audible). Conditionals
// (`$if Bash`, `$if mode=vi`) are read as readline would for a program named aish: `$if` blocks
// for another application are skipped. Key bindings are not read. Pure.

export interface InputrcSettings {
  editingMode?: 'emacs' | 'vi';
  completionIgnoreCase?: boolean;
  bellStyle?: 'none' | 'visible' | 'audible';
}

export function parseInputrc(text: string): InputrcSettings {
  const settings: InputrcSettings = {};
  // A stack of whether each open `$if` applies.
  const active: boolean[] = [];
  const on = () => active.every(Boolean);
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const directive = /^\$(if|else|endif|include)\b\s*(.*)$/.exec(line);
    if (directive) {
      const [, word, arg] = directive;
      if (word === 'if') active.push(ifApplies(arg!.trim(), settings));
      else if (word === 'else' && active.length > 0) active[active.length - 1] = !active.at(-1);
      else if (word === 'endif') active.pop();
      continue;
    }
    if (!on()) continue;
    const set = /^set\s+([\w-]+)\s+(\S+)/i.exec(line);
    if (!set) continue;
    const name = set[1]!.toLowerCase();
    const value = set[2]!.toLowerCase();
    if (name === 'editing-mode' && (value === 'vi' || value === 'emacs')) settings.editingMode = value;
    else if (name === 'completion-ignore-case') settings.completionIgnoreCase = value === 'on' || value === '1';
    else if (name === 'bell-style' && (value === 'none' || value === 'visible' || value === 'audible')) settings.bellStyle = value;
  }
  return settings;
}

/** Whether a `$if` applies to aish: a mode test, a terminal test (taken as true) or an application name. */
function ifApplies(test: string, settings: InputrcSettings): boolean {
  const mode = /^mode\s*=\s*(\w+)/.exec(test);
  if (mode) return (settings.editingMode ?? 'emacs') === mode[1];
  if (/^term\s*=/.test(test) || /^version\s*[<>=!]/.test(test) || /^[\w-]+\s*[=!]=?\s*\S/.test(test)) return true;
  return test.toLowerCase() === 'aish';
}
