// The session shell's integration markers (docs/shell.md), parsed out of the bytes the shell's
// pseudo-terminal prints. Pure: chunks in, events out, with a marker split across chunks held back
// until it is whole. A marker is `ESC ] 6973 ; <kind> ; <secret> [; field]* BEL` (or ST). One
// whose secret is not the session's (a program printing a forged end marker) is dropped like every
// other 6973 sequence: no marker byte, true or forged, is ever passed on as output.

/** R: ready for a line; C: a command starts; D: it ended (status, cwd, lines dropped);
 * P: the shell wants more input; Q: the answer to a query (id, payload). */
export type MarkerKind = 'R' | 'C' | 'D' | 'P' | 'Q';

export type ShellEvent = { type: 'output'; text: string } | { type: 'marker'; kind: MarkerKind; fields: string[] };

const INTRO = '\x1b]6973;';
/** A forged or broken sequence longer than this is given up on and dropped up to here. */
const MAX_FORGED = 4096;
/** A true marker's fields (an environment, a long directory) may be long, but not endless. */
const MAX_MARKER = 8 * 1024 * 1024;
const KINDS = new Set(['R', 'C', 'D', 'P', 'Q']);

export class MarkerParser {
  readonly #secret: string;
  /** A possible marker start held back from the previous chunk. */
  #held = '';

  constructor(secret: string) {
    this.#secret = secret;
  }

  /** Parses the next chunk of the shell's output. */
  push(chunk: string): ShellEvent[] {
    const text = this.#held + chunk;
    this.#held = '';
    const events: ShellEvent[] = [];
    let out = '';
    let i = 0;
    for (;;) {
      const at = text.indexOf('\x1b', i);
      if (at === -1) {
        out += text.slice(i);
        break;
      }
      out += text.slice(i, at);
      const rest = text.length - at;
      // An ESC at the end that could still become the intro: wait for more.
      if (rest < INTRO.length) {
        if (INTRO.startsWith(text.slice(at))) {
          this.#held = text.slice(at);
          break;
        }
        out += '\x1b';
        i = at + 1;
        continue;
      }
      if (!text.startsWith(INTRO, at)) {
        out += '\x1b';
        i = at + 1;
        continue;
      }
      const end = findEnd(text, at + INTRO.length);
      if (end === -1) {
        const length = text.length - at;
        if (length > MAX_MARKER || (length > MAX_FORGED && !this.#secretMatches(text, at))) {
          // Never ends: dropped, and what follows is output again.
          i = text.length;
          break;
        }
        this.#held = text.slice(at);
        break;
      }
      const body = text.slice(at + INTRO.length, end.start);
      i = end.after;
      const marker = this.#parse(body);
      if (marker) {
        if (out) events.push({ type: 'output', text: out });
        out = '';
        events.push(marker);
      }
    }
    if (out) events.push({ type: 'output', text: out });
    return events;
  }

  /** Whether the sequence at `at` carries the secret so far (it may be a long true marker). */
  #secretMatches(text: string, at: number): boolean {
    const body = text.slice(at + INTRO.length, at + INTRO.length + 2 + this.#secret.length + 1);
    return body.length >= 2 + this.#secret.length && body.slice(2, 2 + this.#secret.length) === this.#secret;
  }

  #parse(body: string): ShellEvent | null {
    const parts = body.split(';');
    const [kind, secret, ...fields] = parts;
    if (kind === undefined || !KINDS.has(kind) || secret !== this.#secret) return null;
    return { type: 'marker', kind: kind as MarkerKind, fields: fields.map(decodeField) };
  }
}

/** The end of an OSC body from `from`: BEL, or ESC \ (ST); -1 when not there yet. */
function findEnd(text: string, from: number): { start: number; after: number } | -1 {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x07) return { start: i, after: i + 1 };
    if (c === 0x1b) {
      if (i + 1 >= text.length) return -1;
      // ESC \ (ST) ends the body; any other ESC ends it too but starts what follows (a true
      // marker after an unfinished forged one must still be read as one).
      return { start: i, after: text[i + 1] === '\\' ? i + 2 : i };
    }
  }
  return -1;
}

/** Undoes the integration's `%XX` escapes of a field. */
export function decodeField(field: string): string {
  if (!field.includes('%')) return field;
  return field.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The `env` query's answer: `NAME=value` entries after `\x1f`, each value escaped once more than
 * the field that carries them all. */
export function parseEnv(payload: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of payload.split('\x1f')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = decodeField(entry.slice(eq + 1));
  }
  return env;
}
