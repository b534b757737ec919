// Inline markdown within one line (emphasis, strong, strike-through, code spans, links), parsed as
// the characters arrive. Words and breaks go to a Sink; an unclosed span holds output back at most
// HOLD_LIMIT characters, after which its opener is taken as literal text.

import { BOLD, CODE, ITALIC, LINK, STRIKE, URL } from './markdown-style.js';

/** An unclosed inline span holds output back at most this many characters. */
const HOLD_LIMIT = 400;

/** Characters that start something inline: whitespace, delimiters, `[`, `\`. */
const SPECIAL = new Uint8Array(128);
for (const c of ' \t*_`~[\\') SPECIAL[c.charCodeAt(0)] = 1;

/** Where the inline parser sends its words: styled text, and breaks between words. */
export interface Sink {
  text(s: string, mask: number): void;
  space(): void;
}

type Opener = { type: 'code'; len: number } | { type: 'delim'; ch: string; len: number } | { type: 'link' };

/**
 * Emphasis, strong, strike-through, code spans and links within one line, as the characters
 * arrive. Plain text goes straight to the sink; from an opener on, text is held until the span
 * closes (then sent styled, its inside parsed again) or cannot (the opener is sent as typed and
 * the held text parsed again). Simplified CommonMark: a closer is a run of the opener's length.
 */
export class InlineParser {
  /** A run of `*`, `_`, `` ` `` or `~` whose length is not known yet. */
  #runCh = '';
  #runLen = 0;
  #runPrev = '';
  #escape = false;
  /** The last character sent on at this level ('' at line start). */
  #prev = '';
  #open: Opener | null = null;
  #held = '';
  // Scanning the held text for the closer.
  #scanRun = 0;
  #scanPrev = '';
  #scanEsc = false;
  #depth = 0;
  #linkStage: 'text' | 'paren' | 'url' = 'text';
  #linkTextEnd = 0;

  constructor(
    private readonly sink: Sink,
    private readonly mask: number,
  ) {}

  feed(s: string): void {
    const n = s.length;
    let i = 0;
    while (i < n) {
      if (this.#open === null && this.#runCh === '' && !this.#escape) {
        // The common cases inline: a space between words, a run of ordinary characters.
        const code = s.charCodeAt(i);
        if (code === 32 || code === 9) {
          this.sink.space();
          this.#prev = s[i]!;
          i++;
          continue;
        }
        let j = i;
        while (j < n && SPECIAL[s.charCodeAt(j)] !== 1) j++;
        if (j > i) {
          this.sink.text(s.slice(i, j), this.mask);
          this.#prev = s[j - 1]!;
          i = j;
          continue;
        }
      }
      this.#char(s[i]!);
      i++;
    }
  }

  /** The line ended: close what can be closed, send the rest as typed. */
  end(): void {
    for (;;) {
      if (this.#escape) {
        this.#escape = false;
        this.#literal('\\');
      }
      if (this.#runCh !== '') this.#endRun('');
      const open = this.#open;
      if (open === null) break;
      if (open.type === 'code' && this.#scanRun === open.len) this.#resolveCode();
      else if (open.type === 'delim' && this.#scanRun > 0 && this.#closes(open, '')) this.#resolveDelim();
      else this.#fail();
    }
    this.#prev = '';
  }

  #char(c: string): void {
    if (this.#open !== null) {
      this.#heldChar(c);
      return;
    }
    if (this.#escape) {
      this.#escape = false;
      if (isPunct(c)) {
        this.#literal(c);
        return;
      }
      this.#literal('\\');
    }
    if (this.#runCh !== '') {
      if (c === this.#runCh) {
        this.#runLen++;
        return;
      }
      this.#endRun(c);
      if (this.#open !== null) {
        this.#heldChar(c);
        return;
      }
    }
    switch (c) {
      case ' ':
      case '\t':
        this.sink.space();
        this.#prev = c;
        return;
      case '*':
      case '_':
      case '`':
      case '~':
        this.#runCh = c;
        this.#runLen = 1;
        this.#runPrev = this.#prev;
        return;
      case '[':
        this.#startHold({ type: 'link' });
        this.#depth = 1;
        this.#linkStage = 'text';
        return;
      case '\\':
        this.#escape = true;
        return;
      default:
        this.#literal(c);
    }
  }

  /** A delimiter run ended before `next` ('' = line end): an opener, or literal text. */
  #endRun(next: string): void {
    const ch = this.#runCh;
    const len = this.#runLen;
    this.#runCh = '';
    const flanking = next !== '' && !isSpace(next);
    if (ch === '`' && next !== '') this.#startHold({ type: 'code', len });
    else if ((ch === '*' || ch === '_') && flanking && len <= 3 && !(ch === '_' && isWordChar(this.#runPrev))) {
      this.#startHold({ type: 'delim', ch, len });
    } else if (ch === '~' && flanking && len === 2) this.#startHold({ type: 'delim', ch, len });
    else this.#literal(ch.repeat(len));
  }

  #startHold(open: Opener): void {
    this.#open = open;
    this.#held = '';
    this.#scanRun = 0;
    this.#scanPrev = '';
    this.#scanEsc = false;
  }

  #heldChar(c: string): void {
    const open = this.#open!;
    if (open.type === 'code') {
      if (c === '`') this.#scanRun++;
      else if (this.#scanRun === open.len) {
        this.#resolveCode();
        this.#char(c);
        return;
      } else this.#scanRun = 0;
    } else if (open.type === 'delim') {
      if (c === open.ch && !this.#scanEsc) {
        if (this.#scanRun === 0) this.#scanPrev = this.#held[this.#held.length - 1] ?? '';
        this.#scanRun++;
      } else {
        if (this.#scanRun > 0 && this.#closes(open, c)) {
          this.#resolveDelim();
          this.#char(c);
          return;
        }
        this.#scanRun = 0;
        this.#scanEsc = !this.#scanEsc && c === '\\';
      }
    } else if (this.#linkStage === 'text') {
      if (this.#scanEsc) this.#scanEsc = false;
      else if (c === '\\') this.#scanEsc = true;
      else if (c === '[') this.#depth++;
      else if (c === ']' && --this.#depth === 0) {
        this.#linkStage = 'paren';
        this.#linkTextEnd = this.#held.length;
      }
    } else if (this.#linkStage === 'paren') {
      if (c !== '(') {
        this.#fail();
        this.#char(c);
        return;
      }
      this.#linkStage = 'url';
      this.#depth = 1;
    } else {
      if (isSpace(c)) {
        this.#fail();
        this.#char(c);
        return;
      }
      if (c === '(') this.#depth++;
      else if (c === ')' && --this.#depth === 0) {
        this.#resolveLink();
        return;
      }
    }
    this.#held += c;
    if (this.#held.length > HOLD_LIMIT) this.#fail();
  }

  /** Whether the run just scanned (followed by `next`) closes a `delim` opener. */
  #closes(open: { ch: string; len: number }, next: string): boolean {
    const run = this.#scanRun;
    if (run !== open.len && run !== 3) return false;
    if (this.#scanPrev === '' || isSpace(this.#scanPrev)) return false;
    return open.ch !== '_' || next === '' || !isWordChar(next);
  }

  #resolveCode(): void {
    const len = (this.#open as { len: number }).len;
    let content = this.#held.slice(0, this.#held.length - len);
    if (content.length > 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') {
      content = content.slice(1, -1);
    }
    this.#open = null;
    this.sink.text(content, this.mask | CODE);
    this.#prev = '`';
  }

  #resolveDelim(): void {
    const open = this.#open as { ch: string; len: number };
    const inner = this.#held.slice(0, this.#held.length - open.len);
    this.#open = null;
    const style = open.ch === '~' ? STRIKE : open.len === 1 ? ITALIC : open.len === 2 ? BOLD : BOLD | ITALIC;
    const sub = new InlineParser(this.sink, this.mask | style);
    sub.feed(inner);
    sub.end();
    this.#prev = open.ch;
  }

  #resolveLink(): void {
    const text = this.#held.slice(0, this.#linkTextEnd);
    const url = this.#held.slice(this.#linkTextEnd + 2);
    this.#open = null;
    if (text !== '') {
      const sub = new InlineParser(this.sink, this.mask | LINK);
      sub.feed(text);
      sub.end();
    }
    if (url !== '' && url !== text) {
      if (text !== '') this.sink.space();
      this.sink.text(`(${url})`, this.mask | URL);
    }
    this.#prev = ')';
  }

  /** The opener was not one: send it as typed and parse what was held again. */
  #fail(): void {
    const open = this.#open!;
    const held = this.#held;
    this.#open = null;
    this.#held = '';
    this.#literal(open.type === 'link' ? '[' : open.type === 'code' ? '`'.repeat(open.len) : open.ch.repeat(open.len));
    this.feed(held);
  }

  #literal(s: string): void {
    this.sink.text(s, this.mask);
    this.#prev = s[s.length - 1]!;
  }
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t';
}

function isWordChar(c: string): boolean {
  return /^[\p{L}\p{N}]$/u.test(c);
}

function isPunct(c: string): boolean {
  return /^[!-/:-@[-`{-~]$/.test(c);
}
