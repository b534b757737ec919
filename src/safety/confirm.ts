// How the gate talks to a person and reads the answer. Defaults to no: anything but an explicit
// yes (including Ctrl-C, end of input, or no terminal at all) declines.

export type Answer = 'yes' | 'no' | 'always';

/** The one way the gate talks to a person; null means nobody answered. */
export type AskFn = (question: string) => Promise<string | null>;

/** Parses an answer to a `[y/N]` or `[y/N/a]` question. */
export function parseAnswer(answer: string | null, allowAlways: boolean): Answer {
  const a = (answer ?? '').trim().toLowerCase();
  if (a === 'y' || a === 'yes') return 'yes';
  if (allowAlways && (a === 'a' || a === 'always')) return 'always';
  return 'no';
}
