// How the gate talks to a person and reads the answer. Defaults to no: anything but an explicit
// yes (including Ctrl-C, end of input, or no terminal at all) declines.

export type Answer = 'yes' | 'no' | 'always' | 'edit';

/**
 * The one way the gate talks to a person; null means nobody answered. `prefill` puts text on the
 * answer line, editable (edit before run).
 */
export type AskFn = (question: string, prefill?: string) => Promise<string | null>;

/** Parses an answer to a `[y/N]`, `[y/N/a]` or `[y/N/e]` question. */
export function parseAnswer(answer: string | null, allowAlways: boolean, allowEdit = false): Answer {
  const a = (answer ?? '').trim().toLowerCase();
  if (a === 'y' || a === 'yes') return 'yes';
  if (allowAlways && (a === 'a' || a === 'always')) return 'always';
  if (allowEdit && (a === 'e' || a === 'edit')) return 'edit';
  return 'no';
}
