// The start of a markdown line: leading whitespace, then the few characters that decide what kind
// of line it is (`CMD: `, heading, list item, quote, fence, rule, table row, paragraph). It writes
// nothing; it holds characters until the kind is known and hands them back with the decision.

import { CMD_PREFIX } from '../cmd-contract.js';

/**
 * What a line turned out to be, with the characters held while deciding that the body must still
 * show. `whole` is a fence candidate, written once the line is complete; `raw` is written as typed.
 */
export type LineKind =
  | { type: 'cmd' }
  | { type: 'paragraph'; text: string }
  | { type: 'heading'; level: number }
  /** `ordinal` is `1.`/`1)` as typed, or '' for a bullet. */
  | { type: 'item'; ordinal: string; rest: string }
  /** `depth` counts the `>` markers. */
  | { type: 'quote'; depth: number; first: string }
  | { type: 'raw'; text: string }
  | { type: 'whole'; text: string }
  /** A line starting with `|` (indented less than four columns): a table row, perhaps. */
  | { type: 'row'; text: string }
  | { type: 'rule' };

/**
 * Classifies one line at a time, a character at a time. `indent` (columns, tabs to multiples of 4)
 * and `indentText` (as typed) stay readable until `reset`, which the caller does at each line end.
 */
export class LineStart {
  #kind: 'indent' | 'cmd' | 'hash' | 'tick' | 'marker' | 'ordinal' | 'quote' = 'indent';
  #indent = 0;
  #indentText = '';
  #pre = '';
  #count = 0;
  #marker = '';
  #bulletable = false;

  get indent(): number {
    return this.#indent;
  }

  get indentText(): string {
    return this.#indentText;
  }

  /** The next character of the line (never a newline); the line's kind once it is known. */
  feed(c: string): LineKind | null {
    switch (this.#kind) {
      case 'indent':
        if (c === ' ' || c === '\t') {
          this.#indent += c === ' ' ? 1 : 4 - (this.#indent % 4);
          this.#indentText += c;
          return null;
        }
        return this.#first(c);
      case 'cmd': {
        const pre = this.#pre + c;
        if (pre === CMD_PREFIX) return { type: 'cmd' };
        if (CMD_PREFIX.startsWith(pre)) {
          this.#pre = pre;
          return null;
        }
        return { type: 'paragraph', text: pre };
      }
      case 'hash':
        if (c === '#' && this.#count < 6) return this.#repeat(c);
        if (c === ' ' || c === '\t') return { type: 'heading', level: this.#count };
        return { type: 'paragraph', text: this.#pre + c };
      case 'tick':
        if (c === this.#marker) return this.#repeat(c);
        if (this.#count >= 3) return { type: 'whole', text: this.#pre + c };
        return { type: 'paragraph', text: this.#pre + c };
      case 'marker':
        if (c === this.#marker) return this.#repeat(c);
        if (c === ' ' || c === '\t') {
          if (this.#pre.length === 1 && this.#marker !== '_') this.#bulletable = true;
          this.#pre += c;
          return null;
        }
        if (this.#bulletable) return { type: 'item', ordinal: '', rest: this.#pre.slice(1) + c };
        return { type: 'paragraph', text: this.#pre + c };
      case 'ordinal': {
        const last = this.#pre[this.#pre.length - 1]!;
        const afterDelim = last === '.' || last === ')';
        if (!afterDelim && c >= '0' && c <= '9' && this.#pre.length < 9) this.#pre += c;
        else if (!afterDelim && (c === '.' || c === ')')) this.#pre += c;
        else if (afterDelim && (c === ' ' || c === '\t')) return { type: 'item', ordinal: this.#pre, rest: '' };
        else return { type: 'paragraph', text: this.#pre + c };
        return null;
      }
      case 'quote':
        if (c === '>') this.#count++;
        if (c === '>' || c === ' ' || c === '\t') {
          this.#pre += c;
          return null;
        }
        return { type: 'quote', depth: this.#count, first: c };
    }
  }

  /** The line ended while its kind was still undecided: decide with what is there (null: blank). */
  decideAtEnd(): LineKind | null {
    const pre = this.#pre;
    switch (this.#kind) {
      case 'indent':
        return null;
      case 'hash':
        return { type: 'heading', level: this.#count };
      case 'tick':
        return this.#count >= 3 ? { type: 'whole', text: pre } : { type: 'paragraph', text: pre };
      case 'marker':
        if (this.#count >= 3 && this.#marker !== '+') return { type: 'rule' };
        return this.#bulletable ? { type: 'item', ordinal: '', rest: pre.slice(1) } : { type: 'paragraph', text: pre };
      case 'ordinal': {
        const last = pre[pre.length - 1];
        return last === '.' || last === ')' ? { type: 'item', ordinal: pre, rest: '' } : { type: 'paragraph', text: pre };
      }
      case 'quote':
        return { type: 'quote', depth: this.#count, first: '' };
      default:
        return { type: 'paragraph', text: pre };
    }
  }

  /** Ready for the next line. */
  reset(): void {
    this.#kind = 'indent';
    this.#indent = 0;
    this.#indentText = '';
    this.#pre = '';
  }

  /** One more `#`, fence character or list/rule marker. */
  #repeat(c: string): null {
    this.#count++;
    this.#pre += c;
    return null;
  }

  /** The first character after the indentation. */
  #first(c: string): LineKind | null {
    this.#pre = c;
    this.#count = 1;
    if (c === 'C' && this.#indent === 0) this.#kind = 'cmd';
    else if (c === '#') this.#kind = 'hash';
    else if (c === '`' || c === '~') {
      this.#kind = 'tick';
      this.#marker = c;
    } else if (c === '-' || c === '*' || c === '+' || c === '_') {
      this.#kind = 'marker';
      this.#marker = c;
      this.#bulletable = false;
    } else if (c >= '0' && c <= '9') this.#kind = 'ordinal';
    else if (c === '>') this.#kind = 'quote';
    else if (c === '|') return this.#indent < 4 ? { type: 'row', text: c } : { type: 'raw', text: c };
    else return { type: 'paragraph', text: c };
    return null;
  }
}
