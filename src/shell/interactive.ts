// Decides whether a command needs the terminal itself (editors, pagers, REPLs, ssh), in which case
// it runs with aish's stdio and nothing is captured. Pure; checks every stage of a pipeline.

const WRAPPERS = new Set(['sudo', 'doas', 'env', 'command', 'exec', 'time', 'nice', 'nohup']);
const REPLS = new Set([
  'python', 'python3', 'node', 'deno', 'bun', 'irb', 'ghci', 'lua', 'luajit', 'bash', 'sh', 'zsh',
  'fish', 'dash', 'psql', 'mysql', 'sqlite3', 'redis-cli', 'mongosh', 'R', 'julia', 'ipython',
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function words(stage: string): string[] {
  const all = stage.trim().split(/\s+/).filter(Boolean);
  let i = 0;
  while (i < all.length && (ASSIGNMENT.test(all[i]!) || WRAPPERS.has(all[i]!) || (i > 0 && all[i]!.startsWith('-') && WRAPPERS.has(all[i - 1]!)))) i++;
  return all.slice(i);
}

function gitNeedsTerminal(args: string[]): boolean {
  const sub = args[0];
  if (sub === 'commit') return !args.some((a) => /^(-m|--message|-F|--file|--no-edit|-C)/.test(a) || /^-[a-zA-Z]*m$/.test(a));
  if (sub === 'rebase') return args.some((a) => a === '-i' || a === '--interactive');
  if (sub === 'add' || sub === 'checkout' || sub === 'reset' || sub === 'stash') {
    return args.some((a) => a === '-p' || a === '--patch' || a === '-i' || a === '--interactive');
  }
  return false;
}

/** True when any stage of `command` is an interactive program from `list`, a bare REPL or an editor-opening git command. */
export function isInteractiveCommand(command: string, list: readonly string[]): boolean {
  for (const stage of command.split(/\|\|?|&&|;/)) {
    const [first, ...args] = words(stage);
    if (first === undefined) continue;
    const name = first.slice(first.lastIndexOf('/') + 1);
    if (list.includes(name)) return true;
    if (args.length === 0 && REPLS.has(name)) return true;
    if (name === 'git' && gitNeedsTerminal(args)) return true;
  }
  return false;
}
