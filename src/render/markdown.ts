// Markdown for a colour terminal, rendered while a reply streams. Append-only: every byte is
// written once, after what is already on screen, and nothing is ever redrawn or erased. The output
// depends only on the text, never on how it was split into chunks; with colour off it is the text.
//
// What waits for what: a line's first few characters are held until its kind is known (`CMD: `,
// heading, list item, quote, fence, rule); then prose streams word by word, each word written when
// the whitespace after it arrives (greedy wrapping only needs that), except that an inline span
// (`**…**`, `*…*`, `` `…` ``, `~~…~~`, `[…](…)`) is held from its opener until it closes, the
// line ends, or it grows past HOLD_LIMIT characters (then the opener was literal). `CMD: ` lines
// stream word by word, bold cyan, unwrapped, in and out of code fences. Fence lines (kept, dim),
// code lines (indented two columns, never wrapped, coloured per line by highlight.ts, so a
// construct spanning lines such as a block comment is coloured only on its first line) and rule
// candidates are written when the line is complete. Every styled piece carries its own SGR open
// and close codes, so nothing is left open between pushes. A source line break is always a line
// break: lines of a paragraph are not joined and re-flowed.

import type { ChalkInstance } from 'chalk';
import { CMD_PREFIX } from '../cmd-contract.js';
import { highlighterFor, type LineHighlighter } from './highlight.js';

/** An unclosed inline span holds output back at most this many characters. */
const HOLD_LIMIT = 400;

const BOLD = 1;
const ITALIC = 2;
const UNDERLINE = 4;
const STRIKE = 8;
const CODE = 16;
const LINK = 32;
const URL = 64;
const DIM = 128;

/** Characters that start something inline: whitespace, delimiters, `[`, `\`. */
const SPECIAL = new Uint8Array(128);
for (const c of ' \t*_`~[\\') SPECIAL[c.charCodeAt(0)] = 1;

export interface MarkdownOptions {
  /** The colour policy; at level 0 the renderer passes text through unchanged. */
  style: ChalkInstance;
  /** Columns to wrap prose at (the terminal width when the reply started). */
  width: number;
}

/**
 * Streaming markdown → terminal text. Feed it neutralised text (no ESC) with `push`, in chunks of
 * any size; write what it returns. Never returns cursor movement or erase sequences, and the
 * concatenated output is the same however the input was chunked. With colour off (chalk level 0)
 * `push` returns its input unchanged and `flush` returns nothing.
 */
export class MarkdownRenderer {
  readonly #style: ChalkInstance;
  readonly #passThrough: boolean;
  readonly #width: number;
  readonly #out: Out = { s: '' };
  readonly #paints = new Map<number, (s: string) => string>();
  readonly #wrapper: Wrapper;

  /** What the rest of the current line is. */
  #phase: 'start' | 'inline' | 'cmd' | 'raw' | 'whole' = 'start';
  #lineUsed = false;
  // Line start: leading whitespace, then the held characters that decide the line's kind.
  #startKind: 'indent' | 'cmd' | 'hash' | 'tick' | 'marker' | 'ordinal' | 'quote' = 'indent';
  #indent = 0;
  #indentText = '';
  #pre = '';
  #count = 0;
  #marker = '';
  #bulletable = false;
  // Bodies.
  #inline: InlineParser | null = null;
  #cmdRun = '';
  #line = '';
  #fence: { ch: string; len: number; indent: number; highlight: LineHighlighter | null } | null = null;

  constructor(opts: MarkdownOptions) {
    this.#style = opts.style;
    this.#passThrough = opts.style.level === 0;
    this.#width = Math.max(10, Math.floor(opts.width));
    this.#wrapper = new Wrapper(this.#out, (mask, s) => this.#paint(mask, s), this.#width);
  }

  /** Renders the next piece of the reply; returns what to append to the terminal. */
  push(text: string): string {
    if (this.#passThrough) return text;
    let i = 0;
    while (i < text.length) {
      if (this.#phase === 'start') {
        const c = text[i]!;
        if (c === '\n') this.#endLine();
        else this.#startChar(c);
        i++;
        continue;
      }
      const nl = text.indexOf('\n', i);
      const end = nl === -1 ? text.length : nl;
      if (end > i) {
        this.#lineUsed = true;
        const piece = i === 0 && end === text.length ? text : text.slice(i, end);
        if (this.#phase === 'inline') this.#inline!.feed(piece);
        else this.#body(piece);
      }
      if (nl === -1) break;
      this.#endLine();
      i = nl + 1;
    }
    const out = this.#out.s;
    this.#out.s = '';
    return out;
  }

  /** Completes an unfinished last line (as if it ended); open code fences stay open. */
  flush(): string {
    if (this.#passThrough || !this.#lineUsed) return '';
    return this.push('\n');
  }

  #paint(mask: number, s: string): string {
    if (mask === 0 || s === '') return s;
    let paint = this.#paints.get(mask);
    if (!paint) {
      let c = this.#style;
      if (mask & BOLD) c = c.bold;
      if (mask & DIM) c = c.dim;
      if (mask & ITALIC) c = c.italic;
      if (mask & UNDERLINE) c = c.underline;
      if (mask & STRIKE) c = c.strikethrough;
      if (mask & CODE) c = c.yellow;
      if (mask & LINK) c = c.blue.underline;
      if (mask & URL) c = c.dim;
      const chain = c;
      paint = (text: string) => chain(text);
      this.#paints.set(mask, paint);
    }
    return paint(s);
  }

  #cmd(s: string): string {
    return this.#style.bold.cyan(s);
  }

  // ---- line start ------------------------------------------------------------------------

  #startChar(c: string): void {
    this.#lineUsed = true;
    switch (this.#startKind) {
      case 'indent':
        if (c === ' ' || c === '\t') {
          this.#indent += c === ' ' ? 1 : 4 - (this.#indent % 4);
          this.#indentText += c;
        } else this.#first(c);
        return;
      case 'cmd': {
        const pre = this.#pre + c;
        if (pre === CMD_PREFIX) this.#beginCmd();
        else if (CMD_PREFIX.startsWith(pre)) this.#pre = pre;
        else this.#beginParagraph(pre);
        return;
      }
      case 'hash':
        if (c === '#' && this.#count < 6) {
          this.#count++;
          this.#pre += c;
        } else if (c === ' ' || c === '\t') this.#beginHeading(this.#count);
        else this.#beginParagraph(this.#pre + c);
        return;
      case 'tick':
        if (c === this.#marker) {
          this.#count++;
          this.#pre += c;
        } else if (this.#count >= 3) this.#beginWhole(this.#pre + c);
        else this.#beginParagraph(this.#pre + c);
        return;
      case 'marker':
        if (c === this.#marker) {
          this.#count++;
          this.#pre += c;
        } else if (c === ' ' || c === '\t') {
          if (this.#pre.length === 1 && this.#marker !== '_') this.#bulletable = true;
          this.#pre += c;
        } else if (this.#bulletable) this.#beginItem('', this.#pre.slice(1) + c);
        else this.#beginParagraph(this.#pre + c);
        return;
      case 'ordinal': {
        const last = this.#pre[this.#pre.length - 1]!;
        const afterDelim = last === '.' || last === ')';
        if (!afterDelim && c >= '0' && c <= '9' && this.#pre.length < 9) this.#pre += c;
        else if (!afterDelim && (c === '.' || c === ')')) this.#pre += c;
        else if (afterDelim && (c === ' ' || c === '\t')) this.#beginItem(this.#pre, '');
        else this.#beginParagraph(this.#pre + c);
        return;
      }
      case 'quote':
        if (c === '>') this.#count++;
        if (c === '>' || c === ' ' || c === '\t') this.#pre += c;
        else this.#beginQuote(c);
        return;
    }
  }

  /** The first character after the indentation. */
  #first(c: string): void {
    this.#pre = c;
    this.#count = 1;
    if (c === 'C' && this.#indent === 0) this.#startKind = 'cmd';
    else if (c === '#') this.#startKind = 'hash';
    else if (c === '`' || c === '~') {
      this.#startKind = 'tick';
      this.#marker = c;
    } else if (c === '-' || c === '*' || c === '+' || c === '_') {
      this.#startKind = 'marker';
      this.#marker = c;
      this.#bulletable = false;
    } else if (c >= '0' && c <= '9') this.#startKind = 'ordinal';
    else if (c === '>') this.#startKind = 'quote';
    else if (c === '|') this.#beginRaw(c);
    else this.#beginParagraph(c);
  }

  /** A line ended while its kind was still undecided: decide with what is there. */
  #decideAtEnd(): void {
    const pre = this.#pre;
    switch (this.#startKind) {
      case 'indent':
        return;
      case 'hash':
        return this.#beginHeading(this.#count);
      case 'tick':
        return this.#count >= 3 ? this.#beginWhole(pre) : this.#beginParagraph(pre);
      case 'marker':
        if (this.#count >= 3 && this.#marker !== '+') return this.#rule();
        return this.#bulletable ? this.#beginItem('', pre.slice(1)) : this.#beginParagraph(pre);
      case 'ordinal': {
        const last = pre[pre.length - 1];
        return last === '.' || last === ')' ? this.#beginItem(pre, '') : this.#beginParagraph(pre);
      }
      case 'quote':
        return this.#beginQuote('');
      default:
        return this.#beginParagraph(pre);
    }
  }

  // ---- blocks ----------------------------------------------------------------------------

  #beginParagraph(text: string): void {
    const pad = ' '.repeat(this.#indent);
    this.#beginInline(pad, this.#indent, pad, this.#indent, 0, text);
  }

  #beginHeading(level: number): void {
    const pad = ' '.repeat(this.#indent);
    this.#beginInline(pad, this.#indent, pad, this.#indent, level === 1 ? BOLD | UNDERLINE : BOLD, '');
  }

  /** `ordinal` is `1.`/`1)` as typed, or '' for a bullet. */
  #beginItem(ordinal: string, rest: string): void {
    const marker = ordinal !== '' ? ordinal : this.#indent < 2 ? '•' : '◦';
    const width = this.#indent + marker.length + 1;
    const hang = ' '.repeat(width);
    this.#beginInline(`${' '.repeat(this.#indent)}${marker} `, width, hang, width, 0, rest);
  }

  #beginQuote(first: string): void {
    const bars = this.#paint(DIM, '│ '.repeat(this.#count));
    const prefix = `${' '.repeat(this.#indent)}${bars}`;
    const width = this.#indent + 2 * this.#count;
    this.#beginInline(prefix, width, prefix, width, DIM, first);
  }

  #beginInline(prefix: string, prefixWidth: number, hang: string, hangWidth: number, mask: number, text: string): void {
    this.#phase = 'inline';
    this.#wrapper.begin(prefix, prefixWidth, hang, hangWidth, mask & UNDERLINE ? this.#paint(mask, ' ') : ' ');
    this.#inline = new InlineParser(this.#wrapper, mask);
    if (text !== '') this.#inline.feed(text);
  }

  #beginCmd(): void {
    this.#phase = 'cmd';
    this.#cmdRun = CMD_PREFIX;
  }

  #beginRaw(text: string): void {
    this.#phase = 'raw';
    this.#out.s += this.#indentText + text;
  }

  #beginWhole(text: string): void {
    this.#phase = 'whole';
    this.#line = this.#indentText + text;
  }

  #rule(): void {
    this.#out.s += ' '.repeat(this.#indent) + this.#paint(DIM, '─'.repeat(Math.max(3, this.#width - this.#indent)));
  }

  /** Text of the current line after its kind is known, up to (not including) a newline. */
  #body(s: string): void {
    switch (this.#phase) {
      case 'inline':
        this.#inline!.feed(s);
        return;
      case 'raw':
        this.#out.s += s;
        return;
      case 'whole':
        this.#line += s;
        return;
      case 'cmd':
        // Written a word (and the whitespace after it) at a time, so chunking never shows.
        for (const c of s) {
          const space = c === ' ' || c === '\t';
          const run = this.#cmdRun;
          if (!space && run !== '' && (run.endsWith(' ') || run.endsWith('\t'))) {
            this.#out.s += this.#cmd(run);
            this.#cmdRun = c;
          } else this.#cmdRun = run + c;
        }
        return;
    }
  }

  #endLine(): void {
    if (this.#phase === 'start') this.#decideAtEnd();
    switch (this.#phase) {
      case 'start':
        this.#out.s += '\n';
        break;
      case 'inline':
        this.#inline!.end();
        this.#wrapper.endLine();
        this.#inline = null;
        break;
      case 'cmd':
        this.#out.s += `${this.#cmd(this.#cmdRun)}\n`;
        this.#cmdRun = '';
        break;
      case 'raw':
        this.#out.s += '\n';
        break;
      case 'whole':
        this.#wholeLine(this.#line);
        this.#line = '';
        break;
    }
    this.#phase = this.#fence ? 'whole' : 'start';
    this.#startKind = 'indent';
    this.#lineUsed = false;
    this.#indent = 0;
    this.#indentText = '';
    this.#pre = '';
  }

  /** A complete fence line or code line, or a line that only looked like a fence. */
  #wholeLine(line: string): void {
    const fence = this.#fence;
    if (fence) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === fence.ch && close[1]!.length >= fence.len) {
        this.#fence = null;
        this.#out.s += `${this.#paint(DIM, line)}\n`;
      } else if (line.startsWith(CMD_PREFIX)) {
        this.#out.s += `${this.#cmd(line)}\n`;
      } else {
        let strip = 0;
        while (strip < fence.indent && line[strip] === ' ') strip++;
        const code = line.slice(strip);
        const shown = code === '' ? '' : `${' '.repeat(fence.indent + 2)}${fence.highlight ? fence.highlight(code) : code}`;
        this.#out.s += `${shown}\n`;
      }
      return;
    }
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(line);
    if (!open || (open[2]![0] === '`' && open[3]!.includes('`'))) {
      this.#beginParagraph(line.slice(this.#indentText.length));
      this.#inline!.end();
      this.#wrapper.endLine();
      this.#inline = null;
      return;
    }
    const lang = /^[\s{.]*([^\s{}.,;]*)/.exec(open[3]!)?.[1] ?? '';
    this.#fence = {
      ch: open[2]![0]!,
      len: open[2]!.length,
      indent: this.#indent,
      highlight: lang === '' ? null : highlighterFor(lang, this.#style),
    };
    this.#out.s += `${this.#paint(DIM, line)}\n`;
  }
}

interface Out {
  s: string;
}

/** Where the inline parser sends its words: styled text, and breaks between words. */
interface Sink {
  text(s: string, mask: number): void;
  space(): void;
}

/**
 * Greedy word wrap for one block line: a word is placed when it is complete, on this visual line
 * if it fits, else after a newline and the hanging indent. Words wider than the line overflow.
 */
class Wrapper implements Sink {
  #word = '';
  #frag = '';
  #fragMask = 0;
  #wordWidth = 0;
  #col = 0;
  #lineHasWord = false;
  #hang = '';
  #hangWidth = 0;
  #sep = ' ';

  constructor(
    private readonly out: Out,
    private readonly paint: (mask: number, s: string) => string,
    private readonly width: number,
  ) {}

  begin(prefix: string, prefixWidth: number, hang: string, hangWidth: number, sep: string): void {
    this.out.s += prefix;
    this.#col = prefixWidth;
    this.#hang = hang;
    this.#hangWidth = hangWidth;
    this.#sep = sep;
    this.#lineHasWord = false;
  }

  text(s: string, mask: number): void {
    if (s === '') return;
    if (mask !== this.#fragMask && this.#frag !== '') {
      this.#word += this.paint(this.#fragMask, this.#frag);
      this.#frag = '';
    }
    this.#fragMask = mask;
    this.#frag += s;
    this.#wordWidth += textWidth(s);
  }

  space(): void {
    if (this.#frag === '' && this.#word === '') return;
    const word = this.#fragMask === 0 ? this.#word + this.#frag : this.#word + this.paint(this.#fragMask, this.#frag);
    const width = this.#wordWidth;
    this.#word = '';
    this.#frag = '';
    this.#wordWidth = 0;
    if (this.#lineHasWord) {
      if (this.#col + 1 + width > this.width) {
        this.out.s += `\n${this.#hang}`;
        this.#col = this.#hangWidth;
      } else {
        this.out.s += this.#sep;
        this.#col += 1;
      }
    }
    this.out.s += word;
    this.#col += width;
    this.#lineHasWord = true;
  }

  endLine(): void {
    this.space();
    this.out.s += '\n';
    this.#lineHasWord = false;
  }
}

type Opener = { type: 'code'; len: number } | { type: 'delim'; ch: string; len: number } | { type: 'link' };

/**
 * Emphasis, strong, strike-through, code spans and links within one line, as the characters
 * arrive. Plain text goes straight to the sink; from an opener on, text is held until the span
 * closes (then sent styled, its inside parsed again) or cannot (the opener is sent as typed and
 * the held text parsed again). Simplified CommonMark: a closer is a run of the opener's length.
 */
class InlineParser {
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

/** Terminal columns taken by `s`: East Asian wide characters count 2, combining marks 0. */
export function textWidth(s: string): number {
  let width = s.length;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x300) continue;
    if (code >= 0xd800 && code <= 0xdbff) {
      const cp = s.codePointAt(i)!;
      i++;
      width--; // two code units, one character
      if ((cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)) width++;
      else if (cp >= 0xe0100 && cp <= 0xe01ef) width--;
      continue;
    }
    if (
      (code >= 0x300 && code <= 0x36f) ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x20d0 && code <= 0x20ff) ||
      (code >= 0xfe00 && code <= 0xfe0f)
    ) {
      width--;
    } else if (
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6)
    ) {
      width++;
    }
  }
  return width;
}
