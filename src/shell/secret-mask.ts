// Keeps the session's secret (the key in every integration marker, session.ts) out of what the
// session hands out. The shell holds it in a variable, so a line can print any piece of it
// (`echo ${__aish_k:0:20}`, `declare -p`); masking only the whole secret let such a piece reach
// the screen and the model. Here any run of MIN_RUN or more characters that stands in the secret
// as it does in the text is replaced by `[aish-secret]`. Pure: `maskSecret` for a whole text,
// `SecretMask` for a stream cut into chunks anywhere.

/** What stands in place of the secret, or of a piece of it. */
export const SECRET_SHOWN = '[aish-secret]';
/** The shortest piece of the secret that is masked: 8 of its 32 hex characters. */
export const MIN_RUN = 8;
/**
 * A stream's last characters are held back while they are a piece of the secret at least this
 * long, so the rest of a piece split across chunks is masked with it. Shorter tails go at once: a
 * key's echo (one hex digit typed into a program) is not held, and a random text's tail is such a
 * piece only about once in 2 000 chunks ending in four hex digits.
 */
const HOLD_RUN = 4;

/** The secret's pieces of MIN_RUN characters, and a test for text that could hold one. */
interface Pieces {
  secret: string;
  windows: ReadonlySet<string>;
  /** Runs of the secret's characters long enough to hold a piece. */
  candidates: RegExp;
}

function piecesOf(secret: string): Pieces {
  const windows = new Set<string>();
  for (let i = 0; i + MIN_RUN <= secret.length; i++) windows.add(secret.slice(i, i + MIN_RUN));
  const alphabet = [...new Set(secret)].map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('');
  return { secret, windows, candidates: new RegExp(`[${alphabet}]{${MIN_RUN},}`, 'g') };
}

/** The ranges of `text` covered by a piece of the secret, merged, in order. */
function coveredRanges(text: string, pieces: Pieces): [start: number, end: number][] {
  const ranges: [number, number][] = [];
  for (const run of text.matchAll(pieces.candidates)) {
    for (let i = run.index; i + MIN_RUN <= run.index + run[0].length; i++) {
      if (!pieces.windows.has(text.slice(i, i + MIN_RUN))) continue;
      const last = ranges.at(-1);
      if (last && last[1] >= i) last[1] = i + MIN_RUN;
      else ranges.push([i, i + MIN_RUN]);
    }
  }
  return ranges;
}

/** `text[from, to)` with every covered range in it shown as SECRET_SHOWN. */
function masked(text: string, ranges: readonly [number, number][], from: number, to: number): string {
  let out = '';
  let at = from;
  for (const [start, end] of ranges) {
    if (at >= to) break;
    if (end <= at || start >= to) continue;
    out += text.slice(at, Math.max(start, at)) + SECRET_SHOWN;
    at = Math.min(end, to);
  }
  return out + text.slice(at, to);
}

/** `text` with every piece of `secret` of MIN_RUN characters or more masked. */
export function maskSecret(text: string, secret: string): string {
  if (text.length < MIN_RUN || secret.length < MIN_RUN) return text;
  const pieces = piecesOf(secret);
  return masked(text, coveredRanges(text, pieces), 0, text.length);
}

/**
 * Masks a stream of chunks as `maskSecret` masks their whole: a piece split across chunks is
 * masked too. What `push` returns may lag its input by a held tail; `flush` gives that tail up
 * (at a marker: the command's output is over).
 */
export class SecretMask {
  readonly #pieces: Pieces;
  /** The last characters passed on (raw), for a piece that starts in them. */
  #before = '';
  /** Characters not passed on yet. */
  #held = '';

  constructor(secret: string) {
    this.#pieces = piecesOf(secret);
  }

  /** The part of what came so far that can be passed on now, masked. */
  push(chunk: string): string {
    if (this.#pieces.secret.length < MIN_RUN) return chunk;
    const text = this.#before + this.#held + chunk;
    const ranges = coveredRanges(text, this.#pieces);
    const hold = Math.max(this.#holdFrom(text, ranges), this.#before.length);
    return this.#pass(text, ranges, hold);
  }

  /** Everything held, masked. */
  flush(): string {
    if (this.#held === '') return '';
    const text = this.#before + this.#held;
    return this.#pass(text, coveredRanges(text, this.#pieces), text.length);
  }

  #pass(text: string, ranges: readonly [number, number][], hold: number): string {
    const out = masked(text, ranges, this.#before.length, hold);
    this.#held = text.slice(hold);
    this.#before = text.slice(Math.max(0, hold - (MIN_RUN - 1)), hold);
    return out;
  }

  /** Where the held tail starts: a piece of the secret at the end (HOLD_RUN long or more),
   * with the covered run it continues; the text's length when nothing is held. */
  #holdFrom(text: string, ranges: readonly [number, number][]): number {
    const { secret } = this.#pieces;
    let from = text.length;
    for (let length = Math.min(secret.length, text.length); length >= HOLD_RUN; length--) {
      if (secret.includes(text.slice(text.length - length))) {
        from = text.length - length;
        break;
      }
    }
    const last = ranges.at(-1);
    if (last && last[1] >= from && last[0] < from) from = last[0];
    return from;
  }
}
