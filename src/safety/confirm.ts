// How the gate talks to a person and reads the answer. Defaults to no: anything but an explicit
// yes (including Ctrl-C, end of input, or no terminal at all) declines. On a terminal a question
// is answered by one key (`KeyQuestion`); free text (an edited command) is a line (`AskFn`).

/**
 * The one way the gate talks to a person; null means nobody answered. `prefill` puts text on the
 * answer line, editable (edit before run).
 */
export type AskFn = (question: string, prefill?: string) => Promise<string | null>;

/**
 * A question answered by one key. The subject (a command, a call's arguments, from outside) is
 * quoted between `before` and `after`; the asker shows it whole and readable (render/question.ts),
 * inside the question when it is short, above it otherwise. The last line ends with the choices.
 */
export interface KeyQuestion {
  before: string;
  after: string;
  /** What is asked about; '' when the question quotes nothing. */
  subject: string;
  kind: 'command' | 'arguments';
  /** The answer keys, lower case (`yne`). */
  keys: string;
  /** What Enter means: one of `keys`, or '' for no key (a form field: its default, or left out). */
  fallback: string;
  /**
   * Why the policy asks, when it says more than `shell.confirm_cmd` (`destructive command (rm -r
   * -f in alias 'ls')`): shown on a line of its own above the question. It quotes the command.
   */
  why?: string;
}

/** Asks a `KeyQuestion`; resolves the key (lower case), or null when nobody answered (Ctrl-C, end of input). */
export type AskKeyFn = (question: KeyQuestion) => Promise<string | null>;

/** A question quoting nothing. */
export function plainQuestion(text: string, keys: string, fallback: string): KeyQuestion {
  return { before: text, after: '', subject: '', kind: 'command', keys, fallback };
}

/** The question as one string, its subject quoted as it is, the reason on a line above (for a line asker). */
export function questionLine(q: KeyQuestion): string {
  return (q.why ? `[aish] ${q.why}\n` : '') + q.before + q.subject + q.after;
}

const WORDS: Record<string, string> = { yes: 'y', no: 'n', always: 'a', edit: 'e', proceed: 'p', skip: 's', abort: 'a', view: 'v', cancel: 'c' };

/**
 * A `KeyQuestion` asked as a line (where no one-key reader exists): a key or its word answers,
 * an empty line is the fallback; any other answer starting with `y` is yes where `y` is a key
 * (the seed's `ans:lower():sub(1,1) == "y"`: `yep`, `yeah`), anything else is no answer (null).
 */
export function keysFromLine(ask: AskFn): AskKeyFn {
  return async (q) => {
    const line = await ask(questionLine(q));
    if (line === null) return null;
    const a = line.trim().toLowerCase();
    if (a === '') return q.fallback;
    const key = a.length === 1 ? a : (WORDS[a] ?? (a.startsWith('y') ? 'y' : undefined));
    return key !== undefined && q.keys.includes(key) ? key : null;
  };
}
