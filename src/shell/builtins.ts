// The commands aish handles itself because a child shell cannot change aish's state: `cd`,
// `export` and `unset` (SPEC §4). Words are split natively when plain; anything with quotes,
// `$`, globs or escapes is expanded by /bin/sh so the result matches what a shell would do.

import { execFile } from 'node:child_process';
import { stat, access, constants as fsConstants } from 'node:fs/promises';
import path from 'node:path';

/** The part of aish's state a builtin may change. */
export interface ShellState {
  cwd: string;
  oldpwd: string | undefined;
  env: Record<string, string | undefined>;
}

/** The state of a shell started in `cwd` with `env`. */
export function shellState(cwd: string, env: Record<string, string | undefined>): ShellState {
  return { cwd, oldpwd: env.OLDPWD, env: { ...env, PWD: cwd } };
}

export type BuiltinName = 'cd' | 'export' | 'unset';

/** A builtin's outcome: output for the terminal, or an error message; status like a shell's. */
export interface BuiltinResult {
  status: number;
  output?: string;
  error?: string;
}

// Control operators make a compound command: those run in the shell as typed.
const COMPOUND = /[;&|<>()`\n]|\$\(/;
const NEEDS_EXPANSION = /[$'"\\*?[\]{}]|(^|\s)~[^/\s]/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The builtin a line invokes, or null when the line is for the shell. */
export function matchBuiltin(line: string): { name: BuiltinName; rest: string } | null {
  const m = /^(cd|export|unset)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m) return null;
  const rest = (m[2] ?? '').trim();
  if (COMPOUND.test(rest)) return null;
  // Bare `export` lists the environment: the shell does that as well as we could.
  if (m[1] === 'export' && rest === '') return null;
  return { name: m[1] as BuiltinName, rest };
}

/** Splits builtin arguments into words, expanding like /bin/sh would. */
export async function expandWords(rest: string, state: ShellState): Promise<string[]> {
  if (rest === '') return [];
  if (!NEEDS_EXPANSION.test(rest)) {
    const home = state.env.HOME ?? '';
    return rest.split(/\s+/).map((w) => (w === '~' ? home : w.startsWith('~/') ? home + w.slice(1) : w));
  }
  // `set --` lets the shell do quoting, parameter expansion, globbing and tilde expansion.
  const script = `set -- ${rest}\nfor a do printf '%s\\0' "$a"; done`;
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile('/bin/sh', ['-c', script], { cwd: state.cwd, env: state.env as NodeJS.ProcessEnv }, (err, out, errOut) => {
      if (err) reject(new Error(String(errOut).trim().replace(/^\/bin\/sh: (\d+: )?/, '') || err.message));
      else resolve(out);
    });
  });
  return stdout.split('\0').slice(0, -1);
}

/** Runs a builtin against `state`, changing it in place. Never rejects. */
export async function runBuiltin(name: BuiltinName, rest: string, state: ShellState): Promise<BuiltinResult> {
  let words: string[];
  try {
    words = await expandWords(rest, state);
  } catch (err) {
    return { status: 1, error: `${name}: ${(err as Error).message}` };
  }
  switch (name) {
    case 'cd':
      return changeDirectory(words, state);
    case 'export':
      return exportVars(words, state);
    case 'unset':
      return unsetVars(words, state);
  }
}

async function changeDirectory(words: string[], state: ShellState): Promise<BuiltinResult> {
  if (words.length > 1) return { status: 1, error: 'cd: too many arguments' };
  const arg = words[0];
  let target: string;
  let announce = false;
  if (arg === undefined || arg === '') {
    const home = state.env.HOME;
    if (!home) return { status: 1, error: 'cd: HOME not set' };
    target = home;
  } else if (arg === '-') {
    if (!state.oldpwd) return { status: 1, error: 'cd: OLDPWD not set' };
    target = state.oldpwd;
    announce = true;
  } else {
    target = path.resolve(state.cwd, arg);
  }
  const shown = arg && arg !== '-' ? arg : target;
  try {
    const info = await stat(target);
    if (!info.isDirectory()) return { status: 1, error: `cd: not a directory: ${shown}` };
    await access(target, fsConstants.X_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 1, error: `cd: no such file or directory: ${shown}` };
    if (code === 'EACCES') return { status: 1, error: `cd: permission denied: ${shown}` };
    if (code === 'ENOTDIR') return { status: 1, error: `cd: not a directory: ${shown}` };
    return { status: 1, error: `cd: ${shown}: ${(err as Error).message}` };
  }
  state.oldpwd = state.cwd;
  state.cwd = target;
  state.env.OLDPWD = state.oldpwd;
  state.env.PWD = target;
  return announce ? { status: 0, output: target } : { status: 0 };
}

function exportVars(words: string[], state: ShellState): BuiltinResult {
  const bad: string[] = [];
  for (const word of words) {
    if (word.startsWith('-')) return { status: 2, error: `export: options are not supported: ${word}` };
    const eq = word.indexOf('=');
    const key = eq === -1 ? word : word.slice(0, eq);
    if (!IDENTIFIER.test(key)) {
      bad.push(key || word);
      continue;
    }
    // Every variable aish holds is exported already, so a bare name needs nothing.
    if (eq !== -1) state.env[key] = word.slice(eq + 1);
  }
  if (bad.length) return { status: 1, error: `export: not a valid identifier: ${bad.join(' ')}` };
  return { status: 0 };
}

function unsetVars(words: string[], state: ShellState): BuiltinResult {
  const names = words.filter((w) => w !== '-v');
  if (names.some((w) => w.startsWith('-'))) return { status: 2, error: 'unset: only variables can be unset (-v)' };
  const bad = names.filter((n) => !IDENTIFIER.test(n));
  if (bad.length) return { status: 1, error: `unset: not a valid identifier: ${bad.join(' ')}` };
  for (const name of names) delete state.env[name];
  return { status: 0 };
}
