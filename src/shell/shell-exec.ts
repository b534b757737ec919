// A line that replaces the session's shell with another interactive shell (`exec bash`, `exec
// zsh -l`). Typed into the session, the new shell would start without aish's integration: no
// marker would ever end the line, and the person would be left at a raw prompt inside its frame.
// The runner starts a new session of that shell instead (shell-runner.ts). Pure.

/** Interactive shells a line may `exec`. */
const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh', 'mksh', 'oksh', 'yash', 'fish', 'tcsh', 'csh', 'nu', 'elvish', 'xonsh', 'pwsh']);

/**
 * The shell program `command` replaces the session's shell with, when it is `exec [-l] [-a name]
 * <shell> [options]` (`$SHELL` is the shell's `SHELL`, given); null for anything else (a command
 * for the new shell to run, `-c` or a script, a redirection, a list), which runs as typed.
 */
export function shellReplacement(command: string, shellVar?: string): string | null {
  const line = command.replace(/(^|\s)\$(SHELL|\{SHELL\})(?=\s|$)/g, (_, before: string) => `${before}${shellVar ?? '$'}`);
  // Only a plain line of words: quotes, expansions, redirections and lists are left to the shell.
  if (/[;&|<>()`$'"\\{}\n]/.test(line)) return null;
  const words = line.trim().split(/\s+/);
  if (words.shift() !== 'exec') return null;
  while (words[0]?.startsWith('-')) {
    const option = words.shift()!;
    if (option === '-a') words.shift();
    else if (!/^-[cl]+$/.test(option)) return null;
  }
  const program = words.shift();
  if (!program || !SHELLS.has(program.slice(program.lastIndexOf('/') + 1))) return null;
  // Options only (`-l`, `--login`): a word that is not one is a script to run, `-c` a command.
  if (words.some((w) => !w.startsWith('-') || /^-[a-zA-Z]*c/.test(w) || w === '-s')) return null;
  return program;
}
