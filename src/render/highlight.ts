// Syntax colour for one line of a fenced code block, by language. highlight.js (core only) and
// the one grammar asked for are loaded synchronously when a fence first names a language, so
// start-up never pays for them; an unknown language, or a library that fails to load, gives no
// highlighter (plain code). Synchronous on purpose: a reply renders the same bytes whatever the
// timing, and the first line of a block is coloured like the rest (the load happens once).

import type { ChalkInstance } from 'chalk';
import { createRequire } from 'node:module';

/** Colours one complete code line; the text comes back intact, only wrapped in SGR colour codes. */
export type LineHighlighter = (line: string) => string;

/** The part of highlight.js's API used here (its own types pull in the DOM library). */
interface Hljs {
  getLanguage(name: string): object | undefined;
  registerLanguage(name: string, grammar: unknown): void;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

/** Fence info-string names (lower case) to highlight.js grammar files, for names that differ. */
const GRAMMAR_FOR: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  sh: 'bash', zsh: 'bash', ksh: 'bash', shell: 'bash', shellscript: 'bash',
  console: 'shell', terminal: 'shell', 'shell-session': 'shell',
  py: 'python', python3: 'python', rs: 'rust', golang: 'go', rb: 'ruby', kt: 'kotlin', kts: 'kotlin',
  cs: 'csharp', 'c#': 'csharp', 'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', h: 'c',
  ps1: 'powershell', pwsh: 'powershell', pl: 'perl', hs: 'haskell', ex: 'elixir', exs: 'elixir',
  erl: 'erlang', yml: 'yaml', jsonc: 'json', json5: 'json', toml: 'ini', cfg: 'ini',
  html: 'xml', htm: 'xml', xhtml: 'xml', svg: 'xml', md: 'markdown', patch: 'diff',
  docker: 'dockerfile', make: 'makefile', mk: 'makefile', gql: 'graphql', proto: 'protobuf',
  psql: 'pgsql', postgres: 'pgsql', postgresql: 'pgsql', tex: 'latex', vimscript: 'vim',
};

/** Names that mean "no highlighting". */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', 'output', 'log']);

/** highlight.js scopes (the class after `hljs-`, sub-scopes joined by `.`) to colours. */
const THEME: Record<string, (s: ChalkInstance) => ChalkInstance> = {
  keyword: (s) => s.magenta, 'selector-tag': (s) => s.magenta, doctag: (s) => s.magenta,
  'template-tag': (s) => s.magenta, section: (s) => s.magenta.bold,
  string: (s) => s.green, regexp: (s) => s.green, addition: (s) => s.green, char: (s) => s.green,
  number: (s) => s.yellow, literal: (s) => s.yellow, symbol: (s) => s.yellow, bullet: (s) => s.yellow,
  built_in: (s) => s.yellow, type: (s) => s.yellow, 'title.class_': (s) => s.yellow,
  title: (s) => s.blue, name: (s) => s.blue, attr: (s) => s.blue, attribute: (s) => s.blue,
  'selector-id': (s) => s.blue, 'selector-class': (s) => s.blue,
  comment: (s) => s.gray, quote: (s) => s.gray, meta: (s) => s.gray,
  deletion: (s) => s.red, emphasis: (s) => s.italic, strong: (s) => s.bold,
};

const ENTITY: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const HLJS_HTML = /<span class="([^"]*)">|<\/span>|[^<]+/g;

/**
 * A highlighter for the fence language `lang` (`ts`, `bash`, `python`, ...), or null when the
 * language is unknown or highlight.js cannot be loaded. Loads highlight.js on the first call
 * and each grammar once; grammars are registered on highlight.js's shared instance, which lives
 * in Node's module cache. Never throws.
 */
export function highlighterFor(lang: string, style: ChalkInstance): LineHighlighter | null {
  const name = lang.toLowerCase();
  if (name === '' || PLAIN.has(name) || !/^[a-z0-9][a-z0-9_+#-]*$/.test(name)) return null;
  const grammar = GRAMMAR_FOR[name] ?? name;
  if (!/^[a-z0-9-]+$/.test(grammar)) return null;
  let hljs: Hljs;
  try {
    // A local require, not an import: esbuild leaves it alone, so nothing is bundled or loaded
    // until a fence names a language.
    const load = createRequire(import.meta.url);
    hljs = load('highlight.js/lib/core') as Hljs;
    if (!hljs.getLanguage(grammar)) hljs.registerLanguage(grammar, load(`highlight.js/lib/languages/${grammar}`));
  } catch {
    return null;
  }
  const paints = new Map<string, ((s: string) => string) | null>();
  const paintFor = (cls: string): ((s: string) => string) | null => {
    let paint = paints.get(cls);
    if (paint !== undefined) return paint;
    // `hljs-title function_` is scope `title.function_`; fall back to its first part.
    const [first = '', ...rest] = cls.split(' ');
    const scope = first.replace(/^hljs-/, '');
    const theme = THEME[[scope, ...rest].join('.')] ?? THEME[scope];
    paint = theme ? theme(style) : null;
    paints.set(cls, paint);
    return paint;
  };
  return (line) => {
    let html: string;
    try {
      html = hljs.highlight(line, { language: grammar, ignoreIllegals: true }).value;
    } catch {
      return line;
    }
    let out = '';
    const stack: Array<((s: string) => string) | null> = [];
    for (const m of html.matchAll(HLJS_HTML)) {
      if (m[1] !== undefined) stack.push(paintFor(m[1]) ?? stack[stack.length - 1] ?? null);
      else if (m[0] === '</span>') stack.pop();
      else {
        const text = m[0].includes('&') ? m[0].replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITY[e]!) : m[0];
        const paint = stack[stack.length - 1];
        out += paint ? paint(text) : text;
      }
    }
    return out;
  };
}
