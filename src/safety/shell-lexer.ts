// Splits a shell command line into tokens the way a POSIX shell reads it before running it:
// quotes, backslash escapes, operators, redirections, here-documents, `$( … )`, backticks and
// `<( … )`, without expanding anything. Pure, and it never throws: an unclosed quote or
// parenthesis runs to the end of the input. Substitutions are kept as source text in the words
// that hold them, for the caller to read the same way.

export interface Word {
  /** The value after quote removal; expansions stay as written (`$HOME`, `$(date)`). */
  text: string;
  /** Some part was quoted or escaped (so `{` or `if` is not a reserved word). */
  quoted: boolean;
  /** Has a parameter expansion or a substitution, so its value is not known here. */
  dynamic: boolean;
  /** Starts with a process substitution `<( … )` or `>( … )`. */
  processSubstitution: boolean;
  /** Has an unquoted glob character (`*` `?` `[`) or a brace expansion (`{a,b}`, `{1..3}`). */
  pattern: boolean;
  /** The sources of the command and process substitutions inside, which a shell runs too. */
  inner: string[];
}

export interface Redirect {
  /** `>` `>>` `>|` `&>` `&>>` `>&` `<` `<&` `<>` `<<` `<<-` `<<<` */
  op: string;
  /** The file descriptor written before the operator (`2>`), or ''. */
  fd: string;
  target: Word;
  /** What a here-document or here-string feeds to the command. */
  body?: string;
}

type TokenBody = { type: 'word'; word: Word } | { type: 'redirect'; redirect: Redirect } | { type: 'op'; op: string };
/** A token and where it stands in the source. */
export type Token = TokenBody & { start: number; end: number };

interface Cursor {
  src: string;
  i: number;
  /** How many substitutions deep the cursor is. */
  depth: number;
}

/** Deeper substitutions are not split further: the rest of the input is one substitution's body. */
const MAX_NESTING = 64;

const REDIRECT = /^(\d*)(<<<|<<-|&>>|<<|<>|<&|>>|>\||>&|&>|<|>)/;
const OPERATORS = ['&&', '||', '|&', ';;', '|', '&', ';', '(', ')'];
const WORD_BREAK = /[\s;&|()<>]/;
const GLOB = /[*?[]/;
const BRACE = /\{[^{}\s]*(?:,|\.\.)[^{}\s]*\}/;

/** The tokens of `src`; substitutions stay inside the words that hold them. */
export function tokenize(src: string): Token[] {
  return lex({ src, i: 0, depth: 0 }, false);
}

function emptyWord(): Word {
  return { text: '', quoted: false, dynamic: false, processSubstitution: false, pattern: false, inner: [] };
}

/** Tokens up to the end, or (nested) up to and including the `)` that closes a `$(`. */
function lex(cur: Cursor, nested: boolean): Token[] {
  const { src } = cur;
  const tokens: Token[] = [];
  const heredocs: Redirect[] = [];
  const push = (start: number, token: TokenBody) => tokens.push({ ...token, start, end: cur.i });
  while (cur.i < src.length) {
    const start = cur.i;
    const c = src[cur.i]!;
    if (c === '\\' && src[cur.i + 1] === '\n') cur.i += 2;
    // Any blank but a newline separates words (form feed and vertical tab too: readWord stops at them).
    else if (c !== '\n' && /\s/.test(c)) cur.i++;
    else if (c === '#') cur.i = lineEnd(src, cur.i);
    else if (c === '\n') {
      cur.i++;
      push(start, { type: 'op', op: '\n' });
      for (const heredoc of heredocs.splice(0)) readHeredocBody(cur, heredoc);
    } else if (c === ')' && nested) {
      cur.i++;
      return tokens;
    } else if (src.startsWith('((', cur.i)) {
      const word = emptyWord(); // an arithmetic command: only its substitutions run
      word.text = '((';
      readEnclosed(cur, word, cur.i, '(');
      push(start, { type: 'word', word });
    } else {
      const redirect = readRedirect(cur, heredocs);
      const op = redirect ? undefined : OPERATORS.find((o) => src.startsWith(o, cur.i));
      if (redirect) push(start, { type: 'redirect', redirect });
      else if (op) {
        cur.i += op.length;
        push(start, { type: 'op', op: op === ';;' ? ';' : op });
      } else {
        const word = readWord(cur);
        // A character no rule consumes is skipped, so no input can stall the lexer.
        if (cur.i === start) cur.i++;
        else push(start, { type: 'word', word });
      }
    }
  }
  return tokens;
}

function lineEnd(src: string, from: number): number {
  const end = src.indexOf('\n', from);
  return end < 0 ? src.length : end;
}

function readRedirect(cur: Cursor, heredocs: Redirect[]): Redirect | undefined {
  const m = REDIRECT.exec(cur.src.slice(cur.i, cur.i + 24));
  if (!m) return undefined;
  const [all, fd = '', op = ''] = m;
  if ((op === '<' || op === '>') && cur.src[cur.i + all.length] === '(') return undefined; // <( … )
  cur.i += all.length;
  while (cur.src[cur.i] === ' ' || cur.src[cur.i] === '\t') cur.i++;
  const atBreak = cur.i >= cur.src.length || (WORD_BREAK.test(cur.src[cur.i]!) && !cur.src.startsWith('<(', cur.i) && !cur.src.startsWith('>(', cur.i));
  const redirect: Redirect = { op, fd, target: atBreak ? emptyWord() : readWord(cur) };
  if (op === '<<<') redirect.body = redirect.target.text;
  if (op === '<<' || op === '<<-') heredocs.push(redirect);
  return redirect;
}

/** Reads the lines after a newline up to the delimiter; an unquoted one lets `$( … )` run inside. */
function readHeredocBody(cur: Cursor, heredoc: Redirect): void {
  const lines: string[] = [];
  while (cur.i < cur.src.length) {
    const end = lineEnd(cur.src, cur.i);
    let line = cur.src.slice(cur.i, end).replace(/\r$/, '');
    cur.i = Math.min(end + 1, cur.src.length);
    if (heredoc.op === '<<-') line = line.replace(/^\t+/, '');
    if (line === heredoc.target.text) break;
    lines.push(line);
  }
  heredoc.body = lines.join('\n');
  if (!heredoc.target.quoted) heredoc.target.inner.push(...substitutionsIn(heredoc.body, cur.depth));
}

/** The substitutions in text read as if double-quoted (a here-document, an arithmetic body, a prompt string). */
export function substitutionsIn(text: string, depth = 0): string[] {
  const scratch = emptyWord();
  readDoubleQuoted({ src: text, i: 0, depth }, scratch, undefined);
  return scratch.inner;
}

/** `(( … ))` or `{ … }` (of `${ … }`) starting at `open`: only the substitutions inside run. */
function readEnclosed(cur: Cursor, word: Word, open: number, opener: '(' | '{'): void {
  const closer = opener === '(' ? ')' : '}';
  const width = opener === '(' ? 2 : 1;
  const end = closing(cur.src, open, opener, closer);
  const bodyEnd = cur.src.startsWith(closer.repeat(width), end - width) ? end - width : end;
  word.inner.push(...substitutionsIn(cur.src.slice(open + width, bodyEnd), cur.depth));
  cur.i = end;
}

function readWord(cur: Cursor): Word {
  const { src } = cur;
  const word = emptyWord();
  let bare = ''; // the unquoted characters, quoted ones as a blank
  while (cur.i < src.length) {
    bare += src[cur.i] === '\\' || src[cur.i] === "'" || src[cur.i] === '"' ? ' ' : src[cur.i];
    const c = src[cur.i]!;
    const next = src[cur.i + 1];
    if ((c === '<' || c === '>') && next === '(') {
      word.processSubstitution ||= word.text === '';
      readSubstitution(cur, word, cur.i + 2);
    } else if (WORD_BREAK.test(c)) break;
    else if (c === "'") {
      const end = src.indexOf("'", cur.i + 1);
      const stop = end < 0 ? src.length : end;
      word.text += src.slice(cur.i + 1, stop);
      word.quoted = true;
      cur.i = stop + 1;
    } else if (c === '"' || (c === '$' && next === '"')) {
      cur.i += c === '"' ? 1 : 2;
      word.quoted = true;
      readDoubleQuoted(cur, word, '"');
    } else if (c === '$' && next === "'") {
      readAnsiC(cur, word);
    } else if (c === '\\') {
      if (next !== '\n') word.text += next ?? '';
      word.quoted ||= next !== '\n';
      cur.i += 2;
    } else if (c === '$' || c === '`') readExpansion(cur, word);
    else {
      word.text += c;
      cur.i++;
    }
  }
  word.pattern = GLOB.test(bare) || BRACE.test(bare);
  return word;
}

/** Inside `"…"`, or a whole here-document body when `terminator` is undefined. */
function readDoubleQuoted(cur: Cursor, word: Word, terminator: '"' | undefined): void {
  const { src } = cur;
  while (cur.i < src.length) {
    const c = src[cur.i]!;
    const next = src[cur.i + 1];
    if (c === terminator) {
      cur.i++;
      return;
    }
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') word.text += next;
      cur.i += 2;
    } else if (c === '$' || c === '`') readExpansion(cur, word);
    else {
      word.text += c;
      cur.i++;
    }
  }
}

/** `$'…'`: backslash escapes (`\n`, `\x72`, `\162`, `\u0072`, `\cA`), no expansion. */
function readAnsiC(cur: Cursor, word: Word): void {
  const { src } = cur;
  word.quoted = true;
  cur.i += 2;
  while (cur.i < src.length && src[cur.i] !== "'") {
    if (src[cur.i] !== '\\') word.text += src[cur.i++];
    else {
      const m = ANSI_C_ESCAPE.exec(src.slice(cur.i + 1, cur.i + 11))!;
      word.text += ansiCEscape(m[0]);
      cur.i += 1 + Math.max(m[0].length, 1);
    }
  }
  cur.i++;
}

const ANSI_C_ESCAPE = /^(?:x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c[\s\S]|[\s\S]|)/;
const ANSI_C_SIMPLE: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** One escape of `$'…'` (without its backslash) as bash decodes it. */
function ansiCEscape(escape: string): string {
  const [head = '', tail = ''] = [escape[0], escape.slice(1)];
  if (/^[xuU]$/.test(head) && tail) return fromCode(parseInt(tail, 16));
  if (/^[0-7]+$/.test(escape)) return fromCode(parseInt(escape, 8) & 0xff);
  if (head === 'c' && tail) return fromCode(tail.toUpperCase().charCodeAt(0) & 0x1f);
  return Object.hasOwn(ANSI_C_SIMPLE, escape) ? ANSI_C_SIMPLE[escape]! : escape;
}

function fromCode(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** `$NAME`, `${…}`, `$(( … ))`, `$( … )` or a backquoted command; a lone `$` is literal. */
function readExpansion(cur: Cursor, word: Word): void {
  const { src } = cur;
  const start = cur.i;
  const next = src[start + 1] ?? '';
  if (src[start] === '`') readBackquoted(cur, word);
  else if (src.startsWith('$((', start)) readEnclosed(cur, word, start + 1, '(');
  else if (next === '(') readSubstitution(cur, word, start + 2);
  else if (next === '{') readEnclosed(cur, word, start + 1, '{');
  else if (/[A-Za-z_]/.test(next)) cur.i = start + 1 + /^[A-Za-z_]\w*/.exec(src.slice(start + 1))![0].length;
  else if (/[0-9@*#?$!-]/.test(next)) cur.i = start + 2;
  else {
    word.text += '$';
    cur.i++;
    return;
  }
  word.dynamic = true;
  word.text += src.slice(start, cur.i);
}

/** `$( … )`, `<( … )` or `>( … )` whose body starts at `bodyStart`. */
function readSubstitution(cur: Cursor, word: Word, bodyStart: number): void {
  const start = cur.i;
  cur.i = bodyStart;
  if (cur.depth < MAX_NESTING) {
    cur.depth++;
    lex(cur, true);
    cur.depth--;
  } else cur.i = cur.src.length;
  const closed = cur.src[cur.i - 1] === ')' && cur.i > bodyStart;
  word.inner.push(cur.src.slice(bodyStart, closed ? cur.i - 1 : cur.i));
  if (cur.src[start] !== '$') word.text += cur.src.slice(start, cur.i);
  word.dynamic = true;
}

function readBackquoted(cur: Cursor, word: Word): void {
  const { src } = cur;
  let body = '';
  cur.i++;
  while (cur.i < src.length && src[cur.i] !== '`') {
    const escaped = src[cur.i] === '\\' && '`$\\'.includes(src[cur.i + 1] ?? 'x');
    body += escaped ? src[cur.i + 1] : src[cur.i];
    cur.i += escaped ? 2 : 1;
  }
  cur.i++;
  word.inner.push(body);
}

/** The index after the `closer` that matches the `opener` at `open`. */
function closing(src: string, open: number, opener: string, closer: string): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === opener) depth++;
    else if (src[i] === closer && --depth === 0) return i + 1;
  }
  return src.length;
}
