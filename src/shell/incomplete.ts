// Whether the shell would read more lines after a line typed at the prompt (SPEC "multi-line input
// as in the shell"): an open quote, `for … do` without `done`, `if` without `fi`, a trailing `|`,
// `&&` or `||`, an open `{` or `(`, a here-document whose end word has not come. Asked of bash's
// own parser (`bash -n`, which runs nothing), since only a shell knows its grammar; the common
// line, with none of the characters or words that can leave a command open, is answered without
// starting anything.

import { spawn } from 'node:child_process';

/** Characters and words without which a line cannot be left open. */
const MAY_CONTINUE = /["'`|&\\({[<]|\b(if|for|while|until|case|select|function|do|then|else|elif)\b/;

/** What bash says of a script that ended while a construct was still open. */
const WANTS_MORE = /unexpected end of file|unexpected EOF while looking for matching|here-document at line \d+ delimited by end-of-file/;

/** How long bash -n may take; past it the line counts as complete (it is run, and the shell says). */
const CHECK_TIMEOUT_MS = 1000;

/** A here-document opened in `text` (`<<EOF`, `<<-'END'`) whose end word is not on a line of its own after it. */
export function openHereDocument(text: string): boolean {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    for (const m of lines[i]!.matchAll(/<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/g)) {
      // `<<<` is a here-string, not a here-document.
      if (lines[i]![m.index - 1] === '<' || lines[i]![m.index + 2] === '<') continue;
      const strip = m[1] === '-';
      const end = lines.slice(i + 1).findIndex((l) => (strip ? l.replace(/^\t+/, '') : l) === m[3]);
      if (end === -1) return true;
    }
  }
  return false;
}

/**
 * Whether the shell wants more lines after `text`, asked of the bash on `pathVar` (a shell without
 * bash sees only here-documents). Never rejects.
 */
export async function shellWantsMore(text: string, pathVar: string | undefined): Promise<boolean> {
  if (!MAY_CONTINUE.test(text)) return false;
  if (openHereDocument(text)) return true;
  return new Promise((resolve) => {
    let stderr = '';
    let child;
    try {
      child = spawn('bash', ['--norc', '--noprofile', '-n'], { stdio: ['pipe', 'ignore', 'pipe'], timeout: CHECK_TIMEOUT_MS, env: { PATH: pathVar ?? '/usr/bin:/bin', LC_ALL: 'C' } });
    } catch {
      resolve(false);
      return;
    }
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString('utf8');
    });
    child.on('error', () => resolve(false));
    child.on('close', () => resolve(WANTS_MORE.test(stderr)));
    child.stdin.on('error', () => {});
    child.stdin.end(text);
  });
}
