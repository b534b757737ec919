// Decides where a typed line goes: the shell, a meta command or the model (SPEC §3). Pure: the
// same line, config and answers about its words always give the same route. What the first word
// is (an alias, a function, a builtin, a keyword, a program on PATH) is asked of the session's
// shell by the caller and given here as `kindOf`; while the shell starts, or without a session,
// `shell.known_commands` stands in. What the shell is and which files exist come in the same way,
// as `RouteContext`, so the prompt can call `routeSign` on every key.

export type RouteRule =
  | 'blank'
  | 'meta'
  | 'dollar'
  | 'shell-knows'
  | 'known-command'
  | 'env-assignment'
  | 'path-like'
  | 'history-expansion'
  | 'test-bracket'
  | 'group'
  | 'escaped-command'
  | 'quoted-command'
  | 'variable-command'
  | 'job'
  | 'auto-cd'
  | 'fish-set'
  | 'english'
  | 'explain'
  | 'default'
  | 'flipped';

/** What the session's shell says a word is (`type -t`, `whence -w`). */
export type WordKind = 'alias' | 'function' | 'builtin' | 'keyword' | 'file';

/** The shell's answer for `word`: a kind, null when it knows no such command, undefined when not asked. */
export type KindOf = (word: string) => WordKind | null | undefined;

/** Shell syntax recognised before any word is looked up. */
type SyntaxRule = 'history-expansion' | 'test-bracket' | 'group' | 'escaped-command' | 'quoted-command' | 'variable-command' | 'job' | 'auto-cd' | 'fish-set';

export type Route =
  | { kind: 'blank'; payload: ''; rule: 'blank' }
  | { kind: 'meta'; payload: string; rule: 'meta' }
  | { kind: 'shell'; payload: string; rule: 'dollar' | 'known-command' | 'env-assignment' | 'path-like' | SyntaxRule }
  | { kind: 'shell'; payload: string; rule: 'shell-knows'; wordKind: WordKind }
  | { kind: 'ai'; payload: string; rule: 'default' }
  /** A line of just `?`: the model is asked why the last command failed (`:explain`). */
  | { kind: 'ai'; payload: '?'; rule: 'explain' }
  /** Worded as English although it starts like a command; `reason` names what gave it away. */
  | { kind: 'ai'; payload: string; rule: 'english'; reason: string }
  /** Sent the other way on purpose (Alt-Enter): see `flipRoute`. */
  | { kind: 'shell' | 'ai'; payload: string; rule: 'flipped' };

export interface RouterConfig {
  shell: { known_commands: readonly string[] };
}

/**
 * What the router may know of the session besides the words (all optional; pure callbacks).
 * `shell` and `autoCd` say whether a lone directory name is a `cd` (zsh's AUTO_CD, bash's
 * `shopt -s autocd`) and whether `set x 5` is fish's assignment; `isDirectory` and `exists` answer
 * for paths relative to the shell's directory.
 */
export interface RouteContext {
  shell?: 'bash' | 'zsh' | 'fish' | (string & {});
  autoCd?: boolean;
  isDirectory?: (path: string) => boolean;
  exists?: (path: string) => boolean;
}

const PATH_LIKE = /^(~|\/|\.\/|\.\.\/|\.\.$|\.\.\.$)/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
/** Words that start a command and mean the shell, whatever the shell says of them. */
const ALWAYS_SHELL = new Set(['source', '.']);
/**
 * Keywords and builtins every bash and zsh has: without the shell's answer (while it starts, or
 * with no session) they count as known, as the known list does.
 */
const EVERY_SHELL = new Set(
  'if for while until case select function time coproc ! [[ { [ test read wait trap eval exec set unset export alias unalias type command builtin history fc fg bg jobs disown pushd popd dirs umask ulimit help printf echo kill true false hash getopts cd pwd'.split(' '),
);
/**
 * fish's own builtins, keywords and functions that ship with it, known the same way in a fish
 * session (`set` is one of every shell's already; `abbr greet` and `string upper hi` are fish's).
 */
const FISH_ONLY = new Set(
  'begin end not and or switch abbr funced funcsave functions string math contains count status argparse emit commandline complete set_color isatty prevd nextd dirh vared fish_add_path fish_config fish_update_completions fish_vi_key_bindings fish_default_key_bindings fish_key_reader fish_indent realpath random'.split(' '),
);

/** Whether `word` is a builtin or keyword every shell of `context`'s kind has. */
function everyShellHas(word: string, context: RouteContext | undefined): boolean {
  return EVERY_SHELL.has(word) || (context?.shell === 'fish' && FISH_ONLY.has(word));
}

/** Commands that change the shell or the session for good: one word of English after them sends the line to the model. */
const STATE_CHANGING = new Set(['export', 'unset', 'eval', 'trap', 'source', '.', 'fc', 'exec', 'set', 'alias', 'unalias', 'cd', 'readonly', 'declare', 'typeset', 'local', 'clear', 'reset', 'login']);
/** Commands that destroy or never stop: one word of English after them sends the line to the model. */
const DESTRUCTIVE = new Set(['touch', 'rm', 'mv', 'cp', 'yes', 'kill', 'killall', 'pkill', 'dd', 'shred', 'truncate', 'rmdir', 'chmod', 'chown', 'ln', 'shutdown', 'reboot', 'halt', 'poweroff']);
/** A function definition: `f() { …`, `function f {…`. */
const FUNCTION_DEFINITION = /^(function\s+[\w.:-]+|[\w.:-]+\s*\(\s*\))\s*[({]/;
/** Builtins that only mean something inside a loop or a function: as a first word, prose (`break it`). */
const NOT_A_START = new Set(['break', 'continue', 'return', 'shift', 'caller', 'local', 'times', 'suspend']);
/** Keywords that can start a command (`then`, `done`, `in`… cannot). */
const STARTING_KEYWORDS = new Set(['if', 'for', 'while', 'until', 'case', 'select', 'function', 'time', 'coproc', '{', '!', '[[', 'repeat', 'foreach']);
/**
 * English words that are also commands: a line starting with one goes to the shell unless it
 * reads as prose (`who am i talking to`, `set a greeting`, `time to refactor this?`).
 */
const ENGLISH_COMMANDS = new Set(
  'who what when where why how time more test sort file type help history info look write wait read let set select yes say see open show tell do can will fix explain list check run install watch split join paste fold last next print cut get put use add remove create build start stop update send talk ask give take try describe summarize compare'.split(' '),
);
/** Commands that print their arguments: prose after them is what they print (`echo the build is done`). */
const PRINTS_ITS_WORDS = new Set(['echo', 'printf', 'say', 'espeak', 'figlet', 'toilet', 'banner', 'cowsay', 'cowthink', 'notify-send', 'logger', 'wall', 'lolcat']);
/** Commands that run the command after them (`sudo apt install x`, `time npm test`). */
const PREFIXES = new Set(['sudo', 'doas', 'time', 'nohup', 'nice', 'ionice', 'env', 'command', 'builtin', 'exec', 'xargs', 'watch', 'timeout', 'strace', 'ltrace', 'caffeinate', 'noglob', 'nocorrect', 'stdbuf', 'unbuffer', 'chronic', '!']);
/** Commands whose arguments are mostly files, for `:why`'s wording. */
const TAKES_FILES = new Set(['cat', 'less', 'more', 'head', 'tail', 'touch', 'rm', 'mv', 'cp', 'view', 'vim', 'vi', 'nvim', 'nano', 'emacs', 'code', 'bat', 'wc', 'stat', 'file', 'chmod', 'chown', 'ln', 'open', 'source', '.', 'diff', 'tar', 'zip', 'unzip', 'rmdir', 'mkdir', 'ls', 'tree']);
/** Commands that read the files they are given: a plain word that names no file here is not one of theirs. */
const READS_FILES = new Set(['cat', 'less', 'more', 'head', 'tail', 'view', 'bat', 'wc', 'stat', 'file', 'ls', 'tree', 'du', 'diff', 'rm', 'rmdir', 'chmod', 'chown', 'find', 'source', '.']);
/** Words with an English ending (`safely`, `explained`) that are also common names. */
const NOT_ENGLISH_ENDINGS = new Set(['nightly', 'weekly', 'monthly', 'daily', 'hourly', 'yearly', 'apply', 'reply', 'supply', 'assembly', 'family', 'italy', 'july', 'jelly', 'bully', 'ally', 'rally', 'fully', 'embed', 'seed', 'speed', 'feed', 'need', 'shed', 'bred', 'proceed', 'exceed', 'succeed', 'deployed', 'managed', 'shared', 'unsigned', 'detached', 'merged', 'related', 'allowed', 'untracked', 'staged', 'tracked', 'unmerged']);
/** Commands that take no plain word as an argument: `free memory` is not a command. */
const NO_WORD_ARGUMENTS = new Set(['top', 'htop', 'btop', 'uptime', 'free', 'whoami', 'pwd', 'nproc', 'lscpu', 'clear', 'reset', 'history', 'date', 'kill']);
/** The subcommands of tools with a fixed set: any other plain word after them is a hint of prose. */
const SUBCOMMANDS: Record<string, ReadonlySet<string>> = Object.fromEntries(
  Object.entries({
    go: 'build run test mod get install fmt vet generate env version clean doc list work tool fix bug help telemetry',
    git: 'add am apply archive bisect blame branch bundle checkout cherry cherry-pick citool clean clone commit config describe diff difftool fetch format-patch fsck gc grep gui help init instaweb log ls-files ls-remote ls-tree merge merge-base mergetool mv notes prune pull push range-diff rebase reflog remote repack replace request-pull reset restore rev-list rev-parse revert rm send-email shortlog show show-branch sparse-checkout stash status submodule switch tag worktree whatchanged lfs flow cat-file hash-object update-index count-objects maintenance',
    docker: 'attach build builder buildx commit compose config container context cp create diff events exec export history image images import info init inspect kill load login logout logs manifest network node pause plugin port ps pull push rename restart rm rmi run save scout search secret service stack start stats stop swarm system tag top trust unpause update version volume wait',
    kubectl: 'annotate api-resources api-versions apply attach auth autoscale certificate cluster-info completion config cordon cp create debug delete describe diff drain edit events exec explain expose get kustomize label logs patch plugin port-forward proxy replace rollout run scale set taint top uncordon version wait',
    npm: 'access adduser audit bugs cache ci completion config dedupe deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund help hook i init install install-ci-test install-test link ll login logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart root run run-script sbom search shrinkwrap star stars start stop team test t token uninstall un unpublish unstar update up version view whoami x it tst rb c se v info show home unlink r rm remove ddp',
    cargo: 'add bench build b check c clean clippy doc d fetch fix fmt generate-lockfile help init install locate-project login metadata new owner package pkgid publish remove report run r rustc rustdoc search test t tree uninstall update vendor verify-project version yank',
    systemctl: 'start stop restart reload status enable disable is-active is-enabled list-units list-unit-files daemon-reload mask unmask cat edit show kill reset-failed isolate poweroff reboot suspend',
    brew: 'install uninstall upgrade update list search info doctor cleanup services tap untap outdated pin unpin link unlink deps uses leaves home config reinstall bundle',
    apt: 'install remove purge update upgrade full-upgrade autoremove search show list edit-sources satisfy policy depends rdepends source download changelog',
  }).map(([tool, words]) => [tool, new Set(words.split(' '))]),
);

/** Small words of English that stand where a command's arguments belong (weight: how sure). */
const PROSE_WEIGHT = new Map<string, number>([
  ...'the please pls thanks thank me my mine its this these those that what why how which where when whatever whether whoever something anything everything nothing someone everyone it you your yours we our us they them their he she him her is are was were does did should could would can will isn\'t doesn\'t'.split(' ').map((w) => [w, 2] as const),
  ...'to of for with from into onto about on in at by up out over under through between without after before and or but so then than every each some any more less faster slower bigger smaller largest biggest smallest latest oldest newest better worse instead again too also just only not no now ahead back away sure am do be been being has have had there here let last first next previous recent one two three four five six seven eight nine ten'.split(' ').map((w) => [w, 1] as const),
]);

/** Words that start a noun phrase: English does not end a line with one, a half-typed file name may. */
const DETERMINERS = new Set(['the', 'my', 'your', 'our', 'their', 'its', 'his', 'her']);

/** A shell line scanned the way the shell would split it, with what it shows of prose. */
interface Scan {
  /** Words of the first simple command, quotes removed. */
  words: Word[];
  /** Control operators and redirections outside quotes (`|`, `&&`, `;`, `>`...). */
  operators: number;
  /** `$VAR`, `$(…)` or backticks outside single quotes. */
  expansions: number;
  /** `what's`, `don't`: an apostrophe a shell would read as an open quote. */
  contraction: string | null;
}

interface Word {
  text: string;
  quoted: boolean;
}

/** Splits a line into the words of its first command, counting what only shell syntax has. */
function scan(text: string): Scan {
  const words: Word[] = [];
  let operators = 0;
  let expansions = 0;
  let contraction: string | null = null;
  let current = '';
  let quoted = false;
  let inWord = false;
  let firstCommand = true;
  const flush = () => {
    if (inWord && firstCommand) words.push({ text: current, quoted });
    current = '';
    quoted = false;
    inWord = false;
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      flush();
      i++;
    } else if (c === '\\') {
      current += text[i + 1] ?? '';
      inWord = true;
      i += 2;
    } else if (c === "'") {
      const suffix = /^(s|t|re|ve|ll|d|m)(?![A-Za-z])/i.exec(text.slice(i + 1))?.[0];
      if (inWord && suffix !== undefined && /[A-Za-z]$/.test(current)) {
        contraction ??= `${/[A-Za-z]+$/.exec(current)![0]}'${suffix}`;
        current += "'";
        i++;
        continue;
      }
      const end = text.indexOf("'", i + 1);
      current += text.slice(i + 1, end < 0 ? text.length : end);
      quoted = inWord = true;
      i = end < 0 ? text.length : end + 1;
    } else if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      const inner = text.slice(i + 1, j);
      if (c === '`' || /\$[\w{(]/.test(inner)) expansions++;
      current += inner;
      quoted = inWord = true;
      i = j + 1;
    } else if (c === '$' && /^[\w{(?!#@*$-]/.test(text[i + 1] ?? '')) {
      expansions++;
      current += c;
      inWord = true;
      i++;
    } else if ('|&;<>'.includes(c)) {
      flush();
      operators++;
      firstCommand = false;
      while (i < text.length && '|&;<>'.includes(text[i]!)) i++;
    } else {
      current += c;
      inWord = true;
      i++;
    }
  }
  flush();
  return { words, operators, expansions, contraction };
}

/** How the words after a command read: a score (above 0 is prose) and the word that showed it. */
interface Reading {
  score: number;
  /** The part of the score that English words gave, not words that name no file here. */
  words: number;
  /** The strongest sign of English, phrased for `:why`. */
  reason: string | null;
}

/** Reads the arguments of `command` the way a person would: as a command's arguments, or as English. */
function readArguments(command: string, args: readonly Word[], all: Scan, context: RouteContext): Reading {
  let score = 0;
  let words = 0;
  let best = 0;
  let reason: string | null = null;
  const sign = (weight: number, why: string, isWord = true) => {
    score += weight;
    if (isWord) words += weight;
    if (weight > best) {
      best = weight;
      reason = why;
    }
  };
  const where = TAKES_FILES.has(command) ? 'a file' : 'an argument';
  if (all.contraction) sign(3, `"${all.contraction}" is a contraction, not a shell quote`);
  score -= 3 * all.operators + 2 * all.expansions;
  const subcommands = SUBCOMMANDS[command];
  const first = args[0];
  // The last word may be one still being typed (Tab completes `go to` to `go tool`): a prefix of a
  // subcommand, a lone "the" or "my", or a short small word there is no sign of English yet.
  const typing = (i: number, word: string) => i === args.length - 1 && !/[,.!?]$/.test(args[i]!.text) && word.length <= 3;
  const last = args.length - 1;
  const isPrefix = (word: string) => [...(subcommands ?? [])].some((s) => s.startsWith(word));
  if (subcommands && first && !first.quoted && /^[a-z]+$/.test(first.text) && !subcommands.has(first.text) && !(last === 0 && isPrefix(first.text))) {
    sign(1, `"${first.text}" is not a ${command} subcommand`);
  }
  const checksFiles = context.exists !== undefined && READS_FILES.has(command);
  args.forEach((arg, i) => {
    if (i === 0 && subcommands?.has(arg.text)) return;
    if (arg.quoted) {
      score -= 1;
      return;
    }
    const text = arg.text;
    const bare = text.replace(/[,.!?:;]+$/, '');
    if (/^--?[\w-]/.test(text) || /[/~*[\]{}=$@:]/.test(bare) || /\.\w{1,6}$/.test(bare) || /^\.\w/.test(bare) || context.exists?.(bare)) {
      score -= 1;
      return;
    }
    if (i === args.length - 1 && /[A-Za-z]{2}\?$/.test(text)) sign(2, 'it ends in a question mark');
    if (/^[A-Za-z]+,$/.test(text) && i < args.length - 1) sign(1, `a comma after "${bare}"`);
    const word = bare === 'I' ? 'i-capital' : bare.toLowerCase();
    if (word === 'i-capital') return sign(2, `"I" after "${command}" where ${where} belongs`);
    if (word === 'a' || word === 'an') {
      const next = args[i + 1];
      if (next && !next.quoted && /^[A-Za-z]{2,}[,.!?]?$/.test(next.text)) sign(2, `"${bare} ${next.text}" after "${command}" where ${where} belongs`);
      return;
    }
    if (word === 'i') return sign(1, `"i" after "${command}"`);
    if (i === last && text === bare && DETERMINERS.has(word)) return;
    const weight = PROSE_WEIGHT.get(word);
    if (weight !== undefined) return sign(weight, `"${bare}" after "${command}" where ${where} belongs`, !(weight === 1 && typing(i, word)));
    const afterOption = i > 0 && /^-/.test(args[i - 1]!.text);
    if (NO_WORD_ARGUMENTS.has(command) && !afterOption && /^[a-z]{3,}$/.test(bare)) return sign(2, `"${bare}" after "${command}", which takes no such argument`);
    if (/^[a-z]{3,}([^e]ed|[^l]ly)$/.test(bare) && !NOT_ENGLISH_ENDINGS.has(bare)) return sign(1, `"${bare}" after "${command}" reads as English`);
    if (checksFiles && !afterOption && /^[a-z]{3,}$/.test(bare)) sign(1, `"${bare}" after "${command}" is not a file here`, false);
  });
  // Prose after a command (`find . -name '*.ts' and count them`): the options before it do not
  // make the plain words at the end any less English.
  let tail = 0;
  let tailWeight = 0;
  for (let i = last; i >= 0 && !args[i]!.quoted && /^[A-Za-z][A-Za-z']*[,.!?]?$/.test(args[i]!.text); i--) {
    tail++;
    tailWeight += PROSE_WEIGHT.get(args[i]!.text.replace(/[,.!?]+$/, '').toLowerCase()) ?? 0;
  }
  if (tail >= 3 && tailWeight >= 3 && all.operators === 0) score = Math.max(score, 2);
  return { score, words, reason };
}

/** The first word of a line, up to a blank or a control operator (`jobs; echo x` → `jobs`). */
export function firstWord(text: string): string {
  const trimmed = text.trim();
  return /^[^\s;|&<>()]+/.exec(trimmed)?.[0] ?? trimmed.split(/\s+/, 1)[0] ?? '';
}

/**
 * Classifies one input line. Matching of command names is case-sensitive, like a shell. `kindOf`
 * and `context` are optional answers about the session; without them the known list decides.
 */
export function classify(line: string, config: RouterConfig, kindOf?: KindOf, context: RouteContext = {}): Route {
  const text = line.trim();
  if (text === '' || text === '$') return { kind: 'blank', payload: '', rule: 'blank' };
  if (text.startsWith(':')) return { kind: 'meta', payload: text.slice(1).trim(), rule: 'meta' };
  if (/^\$\s/.test(text)) return { kind: 'shell', payload: text.slice(1).trim(), rule: 'dollar' };
  // As a command `?` is a glob that runs whatever one-letter file is here: nobody types it so.
  if (text === '?') return { kind: 'ai', payload: '?', rule: 'explain' };
  const shell = (rule: Exclude<RouteRule, 'shell-knows' | 'blank' | 'meta' | 'default' | 'english' | 'explain' | 'flipped'>): Route => ({ kind: 'shell', payload: text, rule });
  const english = (reason: string): Route => ({ kind: 'ai', payload: text, rule: 'english', reason });
  const first = firstWord(text);
  if (ASSIGNMENT.test(first)) return shell('env-assignment');
  if (FUNCTION_DEFINITION.test(text)) return shell('known-command');
  const lookup = (word: string): WordKind | null | undefined => {
    const kind = kindOf?.(word);
    if (kind) return kind;
    return config.shell.known_commands.includes(word) || ALWAYS_SHELL.has(word) || (kind === undefined && everyShellHas(word, context)) ? 'file' : kind;
  };
  const all = scan(text);
  const syntax = shellSyntax(text, all, lookup, context);
  if (syntax) {
    const reading = readArguments(first, all.words.slice(1), all, context);
    return reading.score >= 2 && reading.reason ? english(reading.reason) : shell(syntax);
  }
  // Words that end aish are shell only as commands: `exit 3` leaves, "exit the plan mode" asks.
  if (first === 'exit' || first === 'logout') {
    return /^(exit|logout)(\s+\d+)?\s*$/.test(text) ? shell('known-command') : english(`"${first}" with words after it would end aish`);
  }
  const wordKind = kindOf?.(first);
  const known = config.shell.known_commands.includes(first) || ALWAYS_SHELL.has(first) || (wordKind === undefined && everyShellHas(first, context));
  if (wordKind || known) {
    if (wordKind === 'alias' || wordKind === 'function') return { kind: 'shell', payload: text, rule: 'shell-knows', wordKind };
    const prose = proseAfter(first, wordKind ?? (everyShellHas(first, context) ? 'builtin' : 'file'), all, lookup, context);
    if (prose) return english(prose);
    return wordKind ? { kind: 'shell', payload: text, rule: 'shell-knows', wordKind } : shell('known-command');
  }
  if (PATH_LIKE.test(first)) {
    const reading = readArguments(first, all.words.slice(1), all, context);
    return reading.score >= 2 && reading.reason ? english(reading.reason) : shell('path-like');
  }
  if (context.autoCd && all.words.length === 1 && all.operators === 0 && context.isDirectory?.(first)) return shell('auto-cd');
  return { kind: 'ai', payload: text, rule: 'default' };
}

/** The shell syntax a line starts with, if any: these lines are the shell's whatever the words. */
function shellSyntax(text: string, all: Scan, lookup: (word: string) => WordKind | null | undefined, context: RouteContext): SyntaxRule | null {
  // `!!`, `!$`, `!-2`, `!42`, `!git`, `!?foo?`; `! cmd` is the keyword, read as a prefix later.
  if (/^!(!|\$|\*|\^|-?\d+|[A-Za-z_.~/][^\s]*|\?\S+)/.test(text)) return 'history-expansion';
  if (/^\^[^\s^]+\^/.test(text)) return 'history-expansion';
  if (/^\[\[?\s/.test(text)) return 'test-bracket';
  if (/^\(\(/.test(text)) return 'group';
  const grouped = /^(?:\(\s*|\{\s+)([^\s;|&<>()]+)/.exec(text)?.[1];
  if (grouped !== undefined && (lookup(grouped) || PATH_LIKE.test(grouped) || ASSIGNMENT.test(grouped))) return 'group';
  const escaped = /^\\([A-Za-z_][\w.+-]*)/.exec(text)?.[1];
  if (escaped !== undefined && lookup(escaped)) return 'escaped-command';
  const quoted = /^(['"])([^'"\s]+)\1(?=\s|$)/.exec(text)?.[2];
  if (quoted !== undefined && (lookup(quoted) || /^\$/.test(quoted) || PATH_LIKE.test(quoted))) return 'quoted-command';
  if (/^(['"])(\/|~\/|\.\.?\/|\$)/.test(text)) return 'quoted-command';
  if (/^\$([A-Za-z_]\w*|\{[^}]+\}|\(|'|\[)/.test(text)) return 'variable-command';
  if (/^%(\d+|[%+-]|\??[\w.-]+)(\s*&)?$/.test(text)) return 'job';
  if (context.shell === 'fish' && /^set(\s+-{1,2}[a-zA-Z]+)*\s+[A-Za-z_]\w*(\s|$)/.test(text) && all.operators === 0) return 'fish-set';
  return null;
}

/**
 * Why a line that starts with a command word the shell (or the known list) knows reads as English,
 * or null when it reads as a command. Prefix commands (`sudo`, `time`, `watch`) are read through.
 */
function proseAfter(first: string, kind: WordKind, all: Scan, lookup: (word: string) => WordKind | null | undefined, context: RouteContext): string | null {
  if (kind === 'keyword' && !STARTING_KEYWORDS.has(first)) return `"${first}" is a shell keyword that cannot start a command`;
  if (kind === 'builtin' && NOT_A_START.has(first)) return `"${first}" only means something inside a loop or a function`;
  let command = first;
  let args = all.words.slice(1);
  while (PREFIXES.has(command)) {
    const start = args.findIndex((w) => w.quoted || !(/^-/.test(w.text) || /^\d+(\.\d+)?[smhd]?$/.test(w.text) || ASSIGNMENT.test(w.text)));
    const next = start < 0 ? undefined : args[start];
    if (!next) return null;
    if (!next.quoted && (PATH_LIKE.test(next.text) || /^[!$%]/.test(next.text))) return null;
    if (next.quoted || !lookup(next.text)) break;
    command = next.text;
    args = args.slice(start + 1);
  }
  if (PRINTS_ITS_WORDS.has(command)) {
    const asks = all.contraction !== null || (/[A-Za-z]\?$/.test(all.words.at(-1)?.text ?? '') && args.some((w) => /^(what|why|how|which|where|when|who|is|are|does|do|did|can|could|should)$/i.test(w.text)));
    return asks ? `it is worded as a question, though "${command}" prints its words` : null;
  }
  const reading = readArguments(command, args, all, context);
  const strict = DESTRUCTIVE.has(command) || STATE_CHANGING.has(command);
  // After a command that destroys or changes the shell, one word of English is enough; a word that
  // only names no file here is not (`rmdir tmp`).
  if (reading.reason && (reading.score >= 2 || (strict && reading.score >= 1 && reading.words >= 1))) return reading.reason;
  // An English word as the command with nothing but plain words after it: `set a greeting`, `who am i talking to`.
  if (ENGLISH_COMMANDS.has(first) && all.operators === 0 && args.length >= 2 && args.every((w) => !w.quoted && /^[A-Za-z][A-Za-z']*[,.!?:]?$/.test(w.text))) {
    return `"${first}" is also an English word and only plain words follow it`;
  }
  return null;
}

/** What the prompt shows before Enter: where the line would go and the rule that says so. */
export interface RouteSign {
  kind: 'blank' | 'shell' | 'model' | 'meta';
  rule: RouteRule;
}

/**
 * Where `line` would go, for the prompt to show on every key. The same decision as `classify`
 * (and `:why`), with `ai` named `model`. Pure, and cheap enough to call per keystroke.
 */
export function routeSign(line: string, config: RouterConfig, kindOf?: KindOf, context?: RouteContext): RouteSign {
  const route = classify(line, config, kindOf, context);
  return { kind: route.kind === 'ai' ? 'model' : route.kind, rule: route.rule };
}

/**
 * The route for sending a line the other way (Alt-Enter): a shell line to the model as typed, a
 * model line to the shell as typed. Meta commands and blank lines have no other way and come back
 * unchanged. Pure.
 */
export function flipRoute(route: Route): Route {
  if (route.kind === 'shell') return { kind: 'ai', payload: route.payload, rule: 'flipped' };
  if (route.kind === 'ai') return { kind: 'shell', payload: route.payload, rule: 'flipped' };
  return route;
}

/** Whether the router needs the shell's answer about `word` (cheap rules decide first). */
export function asksShell(line: string, config: RouterConfig): string | null {
  const text = line.trim();
  if (text === '' || /^[:$]/.test(text)) return null;
  const first = firstWord(text).replace(/^\\(?=[A-Za-z_])/, '');
  if (ASSIGNMENT.test(first) || PATH_LIKE.test(first)) return null;
  if (!/^[A-Za-z0-9_.+@%^,-][A-Za-z0-9_.+:@%^,-]*$|^[{!]$|^\[\[$/.test(first)) return null;
  return first;
}

/** How soon a failure counts as "the shell did not understand this" rather than real work failing. */
export const MISFIRE_MS = 200;

/**
 * Whether a line that starts with a command shows some sign of English after it without reading
 * as English outright (`cat and dog`): such a line goes to the shell, and if it fails at once the
 * person is offered the model. Pure.
 */
export function looksLikeProse(line: string): boolean {
  const all = scan(line.trim());
  const [command, ...args] = all.words;
  if (!command || command.quoted || PRINTS_ITS_WORDS.has(command.text)) return false;
  const reading = readArguments(command.text, args, all, {});
  return reading.reason !== null && reading.score >= 1;
}

/** Whether a shell line that just failed was probably meant for the model. */
export function misfiredProse(line: string, exitCode: number, elapsedMs: number): boolean {
  if (!looksLikeProse(line)) return false;
  return exitCode === 127 || ((exitCode === 1 || exitCode === 2) && elapsedMs < MISFIRE_MS);
}

/** A one-line explanation of a route, for `:why`: the same rule the prompt's sign shows. */
export function explainRoute(line: string, config: RouterConfig, kindOf?: KindOf, context?: RouteContext): string {
  const route = classify(line, config, kindOf, context);
  const first = firstWord(line);
  const prose = looksLikeProse(line)
    ? `; it reads partly as prose, so if it fails at once (exit 127, or 1 or 2 within ${MISFIRE_MS} ms) aish offers to ask the model instead (on a terminal)`
    : '';
  switch (route.rule) {
    case 'blank':
      return 'blank: empty lines are skipped';
    case 'meta':
      return 'meta (rule 2: a leading ":" is a meta command)';
    case 'dollar':
      return `shell (rule 3: a leading "$ " forces the shell): ${route.payload}`;
    case 'shell-knows':
      return `shell (rule 4: ${first} is ${KIND_WORDS[route.wordKind]})${prose}`;
    case 'known-command':
      if (!config.shell.known_commands.includes(first) && EVERY_SHELL.has(first)) return `shell (rule 4: "${first}" is a builtin or keyword of every shell)${prose}`;
      if (!config.shell.known_commands.includes(first) && everyShellHas(first, context)) return `shell (rule 4: "${first}" is a builtin of fish)${prose}`;
      return `shell (rule 4: "${first}" is in shell.known_commands)${prose}`;
    case 'env-assignment':
      return `shell (rule 4: "${first}" is an assignment)`;
    case 'history-expansion':
      return `shell (rule 4: "${first}" is history expansion)`;
    case 'test-bracket':
      return `shell (rule 4: "${first}" is the shell's test)`;
    case 'group':
      return `shell (rule 4: "${first.startsWith('((') ? '((' : first[0]}" opens ${first.startsWith('((') ? 'an arithmetic command' : first.startsWith('(') ? 'a subshell' : 'a command group'})`;
    case 'escaped-command':
      return `shell (rule 4: "${first}" is a command with its alias bypassed)`;
    case 'quoted-command':
      return `shell (rule 4: ${first} is a quoted command word)`;
    case 'variable-command':
      return `shell (rule 4: "${first}" is a command named by a variable)`;
    case 'job':
      return `shell (rule 4: "${first}" names a job)`;
    case 'fish-set':
      return 'shell (rule 4: "set" assigns a variable in fish)';
    case 'path-like':
      return `shell (rule 5: "${first}" looks like a path)`;
    case 'auto-cd':
      return `shell (rule 5: "${first}" is a directory and the shell changes to it (AUTO_CD))`;
    case 'english':
      return `ai (rule 6: reads as English: ${route.reason})`;
    case 'explain':
      return 'ai (rule 2: a lone "?" asks the model why the last command failed, as :explain does)';
    case 'default':
      return `ai (rule 6: "${first}" is not a known command or a path)`;
    case 'flipped':
      return `${route.kind} (sent the other way)`;
  }
}

const KIND_WORDS: Record<WordKind, string> = {
  alias: 'an alias',
  function: 'a function',
  builtin: 'a shell builtin',
  keyword: 'a shell keyword',
  file: 'a program on PATH',
};
