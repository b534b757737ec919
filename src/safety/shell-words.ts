// The simple commands of a shell line (SPEC §11): the lexer's tokens grouped the way a shell
// runs them, split on `;` `&&` `||` `|` `&` and newlines, through `( … )` and `{ …; }` groups,
// keywords (`if`, `do`…) and function bodies, each with its pipe context; and the names of the
// functions the line defines, in every form bash and zsh accept. Pure.

import { tokenize, type Redirect, type Token, type Word } from './shell-lexer.js';

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** The command as written (here-document bodies left out). */
  source: string;
  /** Its input comes from a pipe. */
  piped: boolean;
  /** The simple command feeding that pipe, when there is one. */
  upstream?: SimpleCommand;
  /** The name of the shell function whose body holds it. */
  inFunction?: string;
}

export interface Script {
  commands: SimpleCommand[];
  /** The names of the functions it defines (`f() …`, `function f …`, zsh's `f g () …`), in order. */
  functions: string[];
}

/** The simple commands of `src`, in order, with their pipe and function context. */
export function parseShell(src: string): SimpleCommand[] {
  return parseScript(src).commands;
}

/** The simple commands of `src` and the functions it defines. */
export function parseScript(src: string): Script {
  return buildScript(tokenize(src), src);
}

/** The text of every simple command in `line`, those inside substitutions too. */
export function commandsOf(line: string): string[] {
  return parseShell(line).flatMap((command) => [command.source, ...substitutionsOf(command).flatMap(commandsOf)]);
}

/** The sources of the substitutions in a command's words and redirections. */
export function substitutionsOf(command: SimpleCommand): string[] {
  return [...command.words, ...command.redirects.map((r) => r.target)].flatMap((w) => w.inner);
}

const SKIPPED_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', 'fi', 'done', 'esac']);

/** Groups tokens into simple commands, following pipes, groups and function definitions. */
function buildScript(tokens: Token[], src: string): Script {
  const commands: SimpleCommand[] = [];
  const functions: string[] = [];
  const groups: (string | undefined)[] = []; // the function each open group is the body of
  let subshells = 0; // open `(` groups: a `)` without one ends a case pattern (`*)`)
  let pendingFunction: string | undefined;
  let words: Word[] = [];
  let redirects: Redirect[] = [];
  let span: [number, number] | undefined;
  let piped = false;
  let upstream: SimpleCommand | undefined;

  const finish = (): SimpleCommand | undefined => {
    if (!span) return undefined;
    const inFunction = groups.findLast((g) => g !== undefined);
    const command: SimpleCommand = { words, redirects: words[0]?.text === '[[' ? [] : redirects, source: src.slice(...span), piped };
    if (upstream) command.upstream = upstream;
    if (inFunction) command.inFunction = inFunction;
    commands.push(command);
    [words, redirects, span, piped, upstream] = [[], [], undefined, false, undefined];
    return command;
  };
  const openGroup = () => {
    finish();
    groups.push(pendingFunction);
    pendingFunction = undefined;
  };
  const define = (names: readonly string[]) => {
    functions.push(...names);
    pendingFunction = names[0]; // anonymous (zsh `() { … }`, `function { … }`): runs at once
  };

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.type === 'word') {
      const { word } = token;
      const reserved = words.length === 0 && !word.quoted ? word.text : undefined;
      if (reserved === '{') openGroup();
      else if (reserved === '}') {
        finish();
        groups.pop();
      } else if (reserved === 'function') {
        // `function name… [()] body`: zsh takes several names, bash one.
        const names: string[] = [];
        for (let next = tokens[t + 1]; next?.type === 'word' && !isOpenBrace(next.word); next = tokens[++t + 1]) names.push(next.word.text);
        if (isOp(tokens[t + 1], '(') && isOp(tokens[t + 2], ')')) t += 2;
        define(names);
      } else if (reserved === undefined || !SKIPPED_KEYWORDS.has(reserved)) {
        // A body that is not a group (`f() if …`, zsh's `f() echo hi`) marks no group as the body.
        if (words.length === 0) pendingFunction = undefined;
        words.push(word);
        span = [span?.[0] ?? token.start, token.end];
      }
    } else if (token.type === 'redirect') {
      redirects.push(token.redirect);
      span = [span?.[0] ?? token.start, token.end];
    } else if (token.op === '(' && isOp(tokens[t + 1], ')') && words.length > 0 && redirects.length === 0 && words.every(isFunctionName)) {
      define(words.map((w) => w.text)); // name() body; zsh: name1 name2 () body
      [words, redirects, span] = [[], [], undefined];
      t++;
    } else if (token.op === '(') {
      openGroup();
      subshells++;
    } else if (token.op === ')' && subshells === 0 && words.length === 1 && redirects.length === 0) {
      [words, redirects, span] = [[], [], undefined]; // `pattern)` of a case: nothing runs
    } else if (token.op === ')') {
      finish();
      groups.pop();
      subshells = Math.max(subshells - 1, 0);
    } else if (token.op === '|' || token.op === '|&') {
      const command = finish();
      piped = true;
      upstream = command;
    } else finish();
  }
  finish();
  return { commands, functions };
}

/** A word that can name a function before `()`: not an assignment (`a=()` is an empty array). */
function isFunctionName(word: Word): boolean {
  return !word.dynamic && !word.text.includes('=');
}

function isOpenBrace(word: Word): boolean {
  return word.text === '{' && !word.quoted;
}

function isOp(token: Token | undefined, op: string): boolean {
  return token?.type === 'op' && token.op === op;
}
