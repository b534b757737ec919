// How a question shows what it asks about. A command or a call's arguments come from outside (a
// model, a server) and must be read in full before the answer: runs of whitespace are collapsed
// and counted (`␣×6000`), tabs and unusual spaces shown, controls and invisible characters made
// visible, a word that mixes Latin, Cyrillic or Greek flagged, and a long subject wrapped in full
// up to a screenful or shown head and tail with the cut marked. The policy's reason, when given,
// stands on the line right above the question. The question is always the last line. Pure: the
// caller gives the terminal's size.

import { codePointToken, neutralize } from './sanitize.js';
import { displayWidth } from './text-width.js';

/** A question about a command or a call's arguments (safety/confirm.ts's KeyQuestion has this shape). */
export interface QuestionText {
  /** The question up to where the subject is quoted, and from there on; the last line ends with the choices. */
  before: string;
  after: string;
  /** What is asked about, from outside; '' when the question quotes nothing. */
  subject: string;
  /** 'command': shell text; 'arguments': pretty JSON, whose indentation is kept. */
  kind: 'command' | 'arguments';
  /** Why it asks (the policy's reason, quoting the command), shown on a line above the question. */
  why?: string;
}

export interface QuestionLayout {
  columns: number;
  rows: number;
}

/** A run this long or longer of one whitespace character is shown as `␣×N`. */
const RUN = 3;
/** What is shown otherwise: a run of spaces to count, or tabs and the other Unicode spaces. */
const BLANK = new RegExp(` {${RUN},}|([\\t\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000])\\1*`, 'g');
/** Shown in a command although prose keeps them (emoji, some scripts): zero-width (non-)joiner. */
const JOINERS = /[\u200c\u200d]/g;

function blankSymbol(ch: string): string {
  if (ch === ' ') return '␣';
  if (ch === '\t') return '⇥';
  return codePointToken(ch);
}

/**
 * One line of a subject, readable: runs of whitespace counted (`␣×6000`, `⇥×3`), every tab `⇥`,
 * every space other than U+0020 as `<U+00A0>`. `keepIndent` leaves leading spaces (pretty JSON).
 */
function showBlanks(line: string, keepIndent: boolean): string {
  const indent = keepIndent ? (/^ */.exec(line)?.[0] ?? '') : '';
  const rest = line.slice(indent.length).replace(BLANK, (run: string, ch: string | undefined) => {
    const symbol = blankSymbol(ch ?? ' ');
    return run.length >= RUN ? `${symbol}×${run.length}` : symbol.repeat(run.length);
  });
  return indent + rest;
}

/** The subject as it is shown, before wrapping: every character visible, whitespace counted. */
export function showSubject(subject: string, kind: QuestionText['kind']): string {
  const visible = neutralize(subject).replace(JOINERS, codePointToken);
  return visible
    .split('\n')
    .map((line) => showBlanks(line, kind === 'arguments'))
    .join('\n');
}

const SCRIPTS = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
] as const;

/**
 * Words (between whitespace) that mix Latin, Cyrillic and Greek letters, the scripts whose
 * letters look alike (`gіthub.com` with a Cyrillic `і`), each with the letters of the scripts
 * in the minority: `gіthub.com: Cyrillic і U+0456`. Other mixes (Latin with CJK) are ordinary.
 */
export function mixedScriptWords(text: string): string[] {
  const found: string[] = [];
  // Without a Cyrillic or Greek letter nothing can mix (the common case, and a long one is quick).
  if (!/[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(text)) return found;
  for (const word of new Set(text.split(/\s+/))) {
    const letters = new Map<string, string[]>();
    for (const ch of word) {
      const script = SCRIPTS.find(([, re]) => re.test(ch))?.[0];
      if (!script) continue;
      const list = letters.get(script);
      if (list) list.push(ch);
      else letters.set(script, [ch]);
    }
    if (letters.size < 2) continue;
    const main = [...letters.entries()].sort((a, b) => b[1].length - a[1].length)[0]![0];
    const odd = [...letters.entries()]
      .filter(([script]) => script !== main)
      .map(([script, chars]) => `${script} ${[...new Set(chars)].map((c) => `${c} ${codePointToken(c).slice(1, -1)}`).join(', ')}`);
    found.push(`${neutralize(word)}: ${odd.join('; ')}`);
  }
  return found;
}

/**
 * Splits `line` into pieces at most `width` columns wide, as a terminal shows them: CJK and emoji
 * take two columns (text-width.ts), and a character with its marks or an emoji sequence is never
 * split. ASCII is cut by length.
 */
function wrapLine(line: string, width: number): string[] {
  if (displayWidth(line) <= width) return [line];
  if (/^[\x20-\x7e]*$/.test(line)) {
    const out: string[] = [];
    for (let i = 0; i < line.length; i += width) out.push(line.slice(i, i + width));
    return out;
  }
  const out: string[] = [];
  let piece = '';
  let used = 0;
  for (const { segment } of new Intl.Segmenter().segment(line)) {
    const w = displayWidth(segment);
    if (used + w > width && piece !== '') {
      out.push(piece);
      piece = '';
      used = 0;
    }
    piece += segment;
    used += w;
  }
  if (piece !== '') out.push(piece);
  return out;
}

/**
 * The lines of a subject that fit `maxLines`: all of them, wrapped at `width`; else the head and
 * the tail with `[… N chars not shown …]` between.
 */
export function fitSubject(shown: string, width: number, maxLines: number): string[] {
  const lines = shown.split('\n').flatMap((line) => wrapLine(line, width));
  if (lines.length <= maxLines) return lines;
  const tail = Math.max(1, Math.floor((maxLines - 1) / 3));
  const head = maxLines - 1 - tail;
  const hidden = lines.slice(head, lines.length - tail);
  // Each wrapped piece was one line of the subject or a part of one: count the characters cut.
  const cut = hidden.reduce((n, l) => n + [...l].length, 0);
  return [...lines.slice(0, head), `[… ${cut} chars not shown …]`, ...lines.slice(lines.length - tail)];
}

/** Most lines the reason above a question takes: it quotes the command, which can be padded. */
const WHY_LINES = 3;

/** The reason a question shows above itself, readable like its subject and cut to a few lines. */
function whyLines(why: string | undefined, layout: QuestionLayout): string[] {
  if (!why) return [];
  return fitSubject(showSubject(`[aish] ${why}`, 'command'), Math.max(20, layout.columns - 1), WHY_LINES);
}

/** How many lines a subject may take: a screenful less the question, its flags and a spare line, 40 at most. */
function linesFor(layout: QuestionLayout, taken: number): number {
  return Math.max(4, Math.min(40, layout.rows - taken - 2));
}

/** A call's arguments (pretty JSON) shown on their own, before a question: whole, readable, cut to the screen. */
export function formatArguments(text: string, layout: QuestionLayout): string {
  return fitSubject(showSubject(text, 'arguments'), Math.max(20, layout.columns - 1), linesFor(layout, 1)).join('\n');
}

/**
 * The question as the person sees it. A short subject that shows as it is stays inside the
 * question (`execute 'ls -la'? [y/N/e] `); anything else (a cut, a counted run, a flag, a second
 * line, too wide) stands above it, indented, and the question says "the command above".
 */
export function formatQuestion(q: QuestionText, layout: QuestionLayout): string {
  const why = whyLines(q.why, layout);
  const withWhy = (text: string) => [...why, text].join('\n');
  if (q.subject === '') return withWhy(neutralize(q.before + q.after));
  const shown = showSubject(q.subject, q.kind);
  const flags = mixedScriptWords(q.subject);
  const inline = neutralize(q.before) + shown + neutralize(q.after);
  const lastLine = inline.slice(inline.lastIndexOf('\n') + 1);
  const fits = (line: string) => displayWidth(line) < layout.columns;
  const plain = q.subject.length < layout.columns && shown === q.subject && flags.length === 0 && !shown.includes('\n');
  if (plain && fits(inline.split('\n')[0] ?? '') && fits(lastLine)) return withWhy(inline);

  const columns = Math.max(20, layout.columns);
  // The question's own lines, the flags and one line of room stay on the screen with the subject.
  const questionLines = neutralize(q.before + q.after).split('\n').length;
  const maxLines = linesFor(layout, questionLines + flags.length + why.length);
  const body = fitSubject(shown, columns - 3, maxLines).map((line) => `  ${line}`);
  const named = q.kind === 'command' ? 'the command above' : 'with the arguments above';
  const before = q.before.endsWith("'") && q.after.startsWith("'") ? q.before.slice(0, -1) : q.before;
  const after = before !== q.before ? q.after.slice(1) : q.after;
  const flagLines = flags.map((f) => `  [mixed scripts] ${f}`);
  return [...body, ...flagLines, ...why, neutralize(before) + named + neutralize(after)].join('\n');
}
