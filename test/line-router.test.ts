import { describe, expect, it } from 'vitest';
import { asksShell, classify, explainRoute, flipRoute, looksLikeProse, misfiredProse, routeSign, type WordKind } from '../src/line-router.js';
import { DEFAULT_KNOWN_COMMANDS } from '../src/config/defaults.js';

const config = { shell: { known_commands: DEFAULT_KNOWN_COMMANDS } };

describe('classify', () => {
  it.each([
    // rule 1: blank
    ['', 'blank', ''],
    ['   ', 'blank', ''],
    ['\t', 'blank', ''],
    // rule 2: meta
    [':help', 'meta', 'help'],
    [':model fast', 'meta', 'model fast'],
    ['  :q  ', 'meta', 'q'],
    [':ask what is ls', 'meta', 'ask what is ls'],
    [':exec make me a sandwich', 'meta', 'exec make me a sandwich'],
    // rule 3: "$ " forces the shell, only with the space (SPEC §3): `$HOME/x` is a command of its own
    ['$ ls -la', 'shell', 'ls -la'],
    ['$ who', 'shell', 'who'],
    ['$ time make', 'shell', 'time make'],
    ['$ find all the files modified today', 'shell', 'find all the files modified today'],
    ['$', 'blank', ''],
    ['$ ', 'blank', ''],
    ['$HOME/bin/x', 'shell', '$HOME/bin/x'],
    ['$ls -la', 'shell', '$ls -la'],
    // rule 4: known commands
    ['ls', 'shell', 'ls'],
    ['ls -la /tmp', 'shell', 'ls -la /tmp'],
    ['git status', 'shell', 'git status'],
    ['cd', 'shell', 'cd'],
    ['cd ..', 'shell', 'cd ..'],
    ['pwd', 'shell', 'pwd'],
    ['grep -rn TODO src', 'shell', 'grep -rn TODO src'],
    ['npm test', 'shell', 'npm test'],
    ['python3 -m http.server', 'shell', 'python3 -m http.server'],
    ['docker ps', 'shell', 'docker ps'],
    ['export FOO=bar', 'shell', 'export FOO=bar'],
    ['unset FOO', 'shell', 'unset FOO'],
    ['true', 'shell', 'true'],
    ['false', 'shell', 'false'],
    ['echo "hello world"', 'shell', 'echo "hello world"'],
    ['  ls  ', 'shell', 'ls'],
    // prose that starts with a command word goes to the model (SPEC §3 rule 6)
    ['find me the largest file', 'ai', 'find me the largest file'],
    ['make it faster please', 'ai', 'make it faster please'],
    ['Find me the largest file', 'ai', 'Find me the largest file'],
    ['Make the tests pass', 'ai', 'Make the tests pass'],
    ['who am i talking to', 'ai', 'who am i talking to'],
    ['time to refactor this?', 'ai', 'time to refactor this?'],
    ['sort these numbers: 3 1 2', 'ai', 'sort these numbers: 3 1 2'],
    ['file a bug for me', 'ai', 'file a bug for me'],
    ['test the parser', 'ai', 'test the parser'],
    ['lsof-like output?', 'ai', 'lsof-like output?'],
    ['ls, what does it do?', 'ai', 'ls, what does it do?'],
    // rule 4b: environment assignments before a command
    ['FOO=1 make', 'shell', 'FOO=1 make'],
    ['CI=true npm test', 'shell', 'CI=true npm test'],
    ['FOO=1', 'shell', 'FOO=1'],
    ['x=5', 'shell', 'x=5'],
    ['PATH+=:/opt/bin', 'shell', 'PATH+=:/opt/bin'],
    ['exit', 'shell', 'exit'],
    ['logout', 'shell', 'logout'],
    ['source venv/bin/activate', 'shell', 'source venv/bin/activate'],
    ['. venv/bin/activate', 'shell', '. venv/bin/activate'],
    // rule 5: path-like first word
    ['./build.sh', 'shell', './build.sh'],
    ['../scripts/run --fast', 'shell', '../scripts/run --fast'],
    ['/usr/bin/env', 'shell', '/usr/bin/env'],
    ['~/bin/deploy', 'shell', '~/bin/deploy'],
    ['~', 'shell', '~'],
    // rule 6: everything else goes to the model, with no PATH probing
    ['why did the build fail?', 'ai', 'why did the build fail?'],
    ['explain this error', 'ai', 'explain this error'],
    ['hello', 'ai', 'hello'],
    ['cowsay hi', 'ai', 'cowsay hi'],
    ['.hidden file?', 'ai', '.hidden file?'],
    ['what is $HOME', 'ai', 'what is $HOME'],
  ])('%j → %s', (line, kind, payload) => {
    const route = classify(line, config);
    expect(route.kind).toBe(kind);
    expect(route.payload).toBe(payload);
  });

  it('uses the configured list, not the defaults, when one is given', () => {
    const custom = { shell: { known_commands: ['cowsay'] } };
    expect(classify('cowsay hi', custom).kind).toBe('shell');
    expect(classify('ls', custom).kind).toBe('ai');
  });
});

describe('classify with the session shell answering `type`', () => {
  /** A scripted shell: what `type -t` would say of each word. */
  const shell: Record<string, WordKind | null> = {
    greet: 'function',
    ll: 'alias',
    pushd: 'builtin',
    read: 'builtin',
    jobs: 'builtin',
    if: 'keyword',
    then: 'keyword',
    do: 'keyword',
    break: 'builtin',
    return: 'builtin',
    set: 'builtin',
    write: 'file',
    type: 'builtin',
    time: 'keyword',
    who: 'file',
    sort: 'file',
    test: 'builtin',
    help: 'builtin',
    cowsay: 'file',
    find: 'file',
    tell: null,
    ls: 'file',
    exit: 'builtin',
    export: 'builtin',
    unset: 'builtin',
    clear: 'file',
    login: 'file',
    source: 'builtin',
    mysql: 'file',
    psql: 'file',
    mycli: null,
  };
  const kindOf = (w: string) => (w in shell ? shell[w] : undefined);

  it.each([
    ['greet world', 'shell', 'shell-knows'],
    ['ll', 'shell', 'shell-knows'],
    ['pushd /usr', 'shell', 'shell-knows'],
    ["read -p 'name? ' n", 'shell', 'shell-knows'],
    ['jobs', 'shell', 'shell-knows'],
    ['if true; then echo y; fi', 'shell', 'shell-knows'],
    ['cowsay hi', 'shell', 'shell-knows'],
    ['who', 'shell', 'shell-knows'],
    ['sort -u names.txt', 'shell', 'shell-knows'],
    ['time make', 'shell', 'shell-knows'],
    ['ls -la', 'shell', 'shell-knows'],
    // prose that starts with an English word the shell knows stays with the model
    ['who am i talking to', 'ai', 'english'],
    ['time to refactor this?', 'ai', 'english'],
    ['sort these numbers: 3 1 2', 'ai', 'english'],
    ['test the parser', 'ai', 'english'],
    ['help me with git', 'ai', 'english'],
    ['read the file and tell me', 'ai', 'english'],
    // keywords that cannot start a command are words of prose
    ['then what happens?', 'ai', 'english'],
    ['do you know why?', 'ai', 'english'],
    ['break it', 'ai', 'english'],
    ['set a greeting', 'ai', 'english'],
    ['write a plan', 'ai', 'english'],
    ['set -o vi', 'shell', 'shell-knows'],
    ['type greet', 'shell', 'shell-knows'],
    ['write alice', 'shell', 'shell-knows'],
    ['return the favour', 'ai', 'english'],
    // the person's own definitions win even over prose
    ['greet the world please', 'shell', 'shell-knows'],
    // in the known list, but worded as English
    ['find me the largest file', 'ai', 'english'],
    // the shell knows no such command, or was not asked: the list and the other rules decide
    ['tell me a joke', 'ai', 'default'],
    ['git status', 'shell', 'known-command'],
    ['greet', 'shell', 'shell-knows'],
    ['jobs; echo listed', 'shell', 'shell-knows'],
    // found by a red-team pass: prose that would end aish or change the shell
    ['exit the plan mode and explain', 'ai', 'english'],
    ['exit 3', 'shell', 'known-command'],
    ['export the results as csv', 'ai', 'english'],
    ['unset all the things', 'ai', 'english'],
    ['clear the context', 'ai', 'english'],
    ['login to github', 'ai', 'english'],
    ['source of this bug?', 'ai', 'english'],
    ['export FOO=bar', 'shell', 'shell-knows'],
    ['f() { exit 3; }; f', 'shell', 'known-command'],
    ['function greet { echo hi; }', 'shell', 'known-command'],
    ['greet|cat', 'shell', 'shell-knows'],
    // a database client on PATH runs with its password option or URL (redacted in what is kept)
    ['mysql -u root -pS3cret-x9 shop', 'shell', 'shell-knows'],
    ['mysql -u root -p shop', 'shell', 'shell-knows'],
    ['psql postgres://app:S3cret-x9@db.internal/app', 'shell', 'shell-knows'],
    ['mysql into the shop database and show me the tables', 'ai', 'english'],
    // not installed: the model is asked (the password is redacted before it is sent)
    ['mycli -u root -pS3cret-x9 shop', 'ai', 'default'],
  ])('%j → %s (%s)', (line, kind, rule) => {
    const route = classify(line, config, kindOf);
    expect(route.kind).toBe(kind);
    expect(route.rule).toBe(rule);
  });

  it('names the kind in :why', () => {
    expect(explainRoute('greet world', config, kindOf)).toBe('shell (rule 4: greet is a function)');
    expect(explainRoute('ll', config, kindOf)).toBe('shell (rule 4: ll is an alias)');
    expect(explainRoute('pushd /usr', config, kindOf)).toBe('shell (rule 4: pushd is a shell builtin)');
    expect(explainRoute('who am i talking to', config, kindOf)).toBe('ai (rule 6: reads as English: "am" after "who" where an argument belongs)');
    expect(explainRoute('x=5', config, kindOf)).toBe('shell (rule 4: "x=5" is an assignment)');
  });

  it('asks the shell only about a plain command word', () => {
    expect(asksShell('greet world', config)).toBe('greet');
    expect(asksShell('x=5', config)).toBeNull();
    expect(asksShell(':help', config)).toBeNull();
    expect(asksShell('$ls', config)).toBeNull();
    expect(asksShell('./run.sh', config)).toBeNull();
    expect(asksShell('what is $(rm -rf ~)', config)).toBe('what');
    expect(asksShell('"quoted" word', config)).toBeNull();
    expect(asksShell('a*b', config)).toBeNull();
  });
});

describe('explainRoute', () => {
  it.each([
    ['git log', /^shell \(rule 4: "git" is in shell\.known_commands\)/],
    ['./x', /^shell \(rule 5: "\.\/x" looks like a path\)/],
    ['$ who', /^shell \(rule 3/],
    ['$who', /^shell \(rule 4: "\$who" is a command named by a variable\)/],
    [':help', /^meta \(rule 2/],
    ['?', /^ai \(rule 2: a lone "\?" asks the model why the last command failed/],
    ['tell me a joke', /^ai \(rule 6: "tell" is not a known command or a path\)/],
  ])('%j', (line, expected) => {
    expect(explainRoute(line, config)).toMatch(expected);
  });
});

describe('a lone "?" (blocks): the model explains the last failure', () => {
  it.each(['?', '  ?  '])('%j is ai with rule explain, and the prompt shows the model sign', (line) => {
    expect(classify(line, config)).toEqual({ kind: 'ai', payload: '?', rule: 'explain' });
    expect(routeSign(line, config)).toEqual({ kind: 'model', rule: 'explain' });
    expect(asksShell(line, config)).toBeNull();
  });

  it.each(['??', '? why', 'why?', 'ls ?', './?'])('%j is not', (line) => {
    expect(classify(line, config).rule).not.toBe('explain');
  });

  it('goes to the shell as typed with Alt-Enter', () => {
    expect(flipRoute(classify('?', config))).toEqual({ kind: 'shell', payload: '?', rule: 'flipped' });
  });
});

describe('prose that starts with a known command', () => {
  it.each<[string, boolean]>([
    ['make it faster', true],
    ['find the largest file', true],
    ['kill the process on port 3000', true],
    ['find all files changed today', true],
    ['make clean all', false],
    ['make clean and build', true],
    ['cat and dog', true],
    ['kill the process that\'s on port 3000', true],
    ['make test', false],
    ['make', false],
    ['git status', false],
    ['find . -name x', false],
    ['kill -9 1234', false],
    ['grep the notes.txt', true],
    ['ls the/dir here', false],
    ['cat a b c', false],
    ['echo "the end" now', false],
    ['find the | sort', false],
    ['npm run build for me', true],
  ])('%j → %s', (line, prose) => {
    expect(looksLikeProse(line)).toBe(prose);
  });

  it.each<[string, number, number, boolean]>([
    ['make clean and build', 2, 50, true],
    ['make clean and build', 2, 5000, false],
    ['make clean and build', 127, 5000, true],
    ['make clean and build', 0, 50, false],
    ['make test all', 2, 50, false],
    ['find the largest file', 1, 10, true],
  ])('misfiredProse(%j, exit %d, %d ms) → %s', (line, code, ms, expected) => {
    expect(misfiredProse(line, code, ms)).toBe(expected);
  });

  it(':why says what happens to a command line with a sign of prose in it (the usage docs example)', () => {
    expect(explainRoute('make clean and build', config)).toMatch(/^shell \(rule 4: "make" is in shell\.known_commands\); it reads partly as prose, so if it fails at once .* aish offers to ask the model instead/);
    expect(explainRoute('make it faster', config)).toBe('ai (rule 6: reads as English: "it" after "make" where an argument belongs)');
    expect(explainRoute('make test', config)).toBe('shell (rule 4: "make" is in shell.known_commands)');
  });
});


describe('the line (issue 33): shell syntax goes to the shell, English to the model', () => {
  const programs = new Set(['ls', 'find', 'touch', 'yes', 'go', 'print', 'set', 'view', 'make', 'cat', 'git', 'echo', 'sudo', 'apt', 'npm', 'head', 'rm', 'kill', 'time', 'vim']);
  const kindOf = (w: string): WordKind | null => (w === 'print' || w === 'set' || w === 'echo' || w === 'kill' ? 'builtin' : w === 'time' ? 'keyword' : programs.has(w) ? 'file' : null);
  const zsh = { shell: 'zsh', autoCd: true, isDirectory: (p: string) => ['src', 'docs', 'src/repl'].includes(p), exists: (p: string) => ['README.md', 'src', 'notes'].includes(p) };

  it.each([
    ['!!', 'history-expansion'],
    ['!git', 'history-expansion'],
    ['!$', 'history-expansion'],
    ['^old^new', 'history-expansion'],
    ['time npm test', 'shell-knows'],
    ['[ -f x ] && echo yes', 'test-bracket'],
    ['[[ -n $TERM ]]', 'test-bracket'],
    ['(cd /tmp && ls)', 'group'],
    ['{ echo a; echo b; }', 'group'],
    ['((i++))', 'group'],
    ['\\ls', 'escaped-command'],
    ["'ls' -la", 'quoted-command'],
    ['"ls"', 'quoted-command'],
    ['"$EDITOR" notes.txt', 'quoted-command'],
    ['$EDITOR notes.txt', 'variable-command'],
    ['${PAGER:-less} README.md', 'variable-command'],
    ['$(which python3) --version', 'variable-command'],
    ['%1', 'job'],
    ['%vim', 'job'],
    ['x=5', 'env-assignment'],
    ['src', 'auto-cd'],
    ['src/repl', 'auto-cd'],
    ['..', 'path-like'],
  ])('%j → shell (%s)', (line, rule) => {
    const route = classify(line, config, kindOf, zsh);
    expect(route).toMatchObject({ kind: 'shell', payload: line, rule });
  });

  it('a word that names a file here is an argument, not prose', () => {
    expect(classify('rm -rf it', config, kindOf, { exists: (p) => p === 'it' }).kind).toBe('shell');
    expect(classify('rm -rf it', config, kindOf).kind).toBe('ai');
  });

  it('terse requests: words a command cannot take, words that name no file here, English endings', () => {
    const here = { exists: (p: string) => ['README.md', 'src'].includes(p) };
    expect(classify('kill port 3000', config, kindOf)).toMatchObject({ kind: 'ai', reason: '"port" after "kill", which takes no such argument' });
    expect(classify('ls hidden files', config, kindOf, here)).toMatchObject({ kind: 'ai', reason: '"hidden" after "ls" is not a file here' });
    expect(classify('ls hidden files', config, kindOf).kind).toBe('shell');
    expect(classify('rm node modules folder safely', config, kindOf).kind).toBe('ai');
    expect(classify('git squash last three commits', config, kindOf).kind).toBe('ai');
    // prose after a command's options
    expect(classify("find . -name '*.ts' and count them", config, kindOf).kind).toBe('ai');
    expect(classify('rm -rf node_modules and reinstall everything', config, kindOf).kind).toBe('ai');
    expect(classify('docker run --rm -it ubuntu bash', config, kindOf).kind).toBe('shell');
    // one word that names no file is not enough, even after a command that destroys
    expect(classify('rmdir tmp', config, kindOf, here).kind).toBe('shell');
    expect(classify('ls src README.md', config, kindOf, here).kind).toBe('shell');
    // a subcommand is not a word of English (`npm it` is install-test)
    expect(classify('npm it', config, kindOf).kind).toBe('shell');
    expect(classify('rustup default nightly', config, kindOf).kind).toBe('shell');
  });

  it.each(['cd do', 'rm in', 'cp to', 'cd my', 'cat the', 'vim my', 'go to', 'git st', 'touch up'])(
    'a half-typed word is no sign of English yet, so Tab still completes it: %j → shell',
    (line) => {
      expect(classify(line, config, kindOf).kind).toBe('shell');
    },
  );

  it('a directory name is a cd only where AUTO_CD is on', () => {
    expect(classify('src', config, kindOf, { ...zsh, autoCd: false }).kind).toBe('ai');
    expect(classify('src', config, kindOf).kind).toBe('ai');
    expect(classify('tests', config, kindOf, zsh).kind).toBe('ai');
  });

  it("fish's `set x 5` is an assignment; bash's prose after set is not", () => {
    const fish = { shell: 'fish' };
    expect(classify('set greeting hello', config, kindOf, fish)).toMatchObject({ kind: 'shell', rule: 'fish-set' });
    expect(classify('set -gx EDITOR vim', config, kindOf, fish)).toMatchObject({ kind: 'shell' });
    expect(classify('set the variable to five', config, kindOf, fish)).toMatchObject({ kind: 'ai', rule: 'english' });
    expect(classify('set greeting hello', config, kindOf, { shell: 'bash' })).toMatchObject({ kind: 'ai' });
  });

  it.each([
    ['string upper hello', 'shell'],
    ['abbr -a gs git status', 'shell'],
    ['math 2 + 3', 'shell'],
    ['funced greet', 'shell'],
    ['count the lines in this file', 'ai'],
  ] as const)("fish's builtins are known before fish answers: %s", (line, kind) => {
    const unknown = () => undefined;
    expect(classify(line, config, unknown, { shell: 'fish' }).kind).toBe(kind);
    if (kind === 'shell') expect(classify(line, config, unknown, { shell: 'bash' }).kind).toBe('ai');
  });

  it(':why names a builtin of fish', () => {
    expect(explainRoute('abbr -a gs git status', config, () => undefined, { shell: 'fish' })).toContain('"abbr" is a builtin of fish');
  });

  it.each([
    ['find all the files modified today', '"the" after "find" where an argument belongs'],
    ['touch up the readme wording please', '"the" after "touch" where a file belongs'],
    ['yes please', '"please" after "yes" where an argument belongs'],
    ['go to the deeper dir', '"the" after "go" where an argument belongs'],
    ['print a line of stars', '"a line" after "print" where an argument belongs'],
    ['set the variable to five', '"the" after "set" where an argument belongs'],
    ['view line 500 of the log', '"the" after "view" where a file belongs'],
    ['make it faster', '"it" after "make" where an argument belongs'],
    ["cat the file and tell me what's in it", `"what's" is a contraction, not a shell quote`],
    ['sudo make me a sandwich', '"me" after "make" where an argument belongs'],
    ['time to refactor this?', 'it ends in a question mark'],
    ['go ahead', '"ahead" is not a go subcommand'],
    ['kill it', '"it" after "kill" where an argument belongs'],
    ['echo back what I just said?', 'it is worded as a question, though "echo" prints its words'],
  ])('%j → model: %s', (line, reason) => {
    expect(classify(line, config, kindOf, zsh)).toEqual({ kind: 'ai', payload: line, rule: 'english', reason });
  });

  it.each([
    "find . -name '*.ts'",
    'touch a b c',
    'yes | head -3',
    'go build ./...',
    'make test',
    'cat README.md',
    'set -o vi',
    'print -l *',
    'view /etc/hosts',
    'git commit -m "fix the thing"',
    'echo hello world',
    'echo the build is done',
    'sudo apt install x',
    'ls -la | less',
    'rm a',
    'make clean all',
  ])('%j → shell', (line) => {
    expect(classify(line, config, kindOf, zsh)).toMatchObject({ kind: 'shell', payload: line });
  });

  it('routeSign names the route the way the prompt shows it, with the rule :why explains', () => {
    expect(routeSign('touch up the readme', config, kindOf, zsh)).toEqual({ kind: 'model', rule: 'english' });
    expect(routeSign('touch a b c', config, kindOf, zsh)).toEqual({ kind: 'shell', rule: 'shell-knows' });
    expect(routeSign('!!', config, kindOf, zsh)).toEqual({ kind: 'shell', rule: 'history-expansion' });
    expect(routeSign(':help', config)).toEqual({ kind: 'meta', rule: 'meta' });
    expect(routeSign('  ', config)).toEqual({ kind: 'blank', rule: 'blank' });
    expect(explainRoute('touch up the readme', config, kindOf, zsh)).toBe('ai (rule 6: reads as English: "the" after "touch" where a file belongs)');
    expect(explainRoute('!!', config, kindOf, zsh)).toBe('shell (rule 4: "!!" is history expansion)');
    expect(explainRoute('(cd /tmp && ls)', config, kindOf, zsh)).toBe('shell (rule 4: "(" opens a subshell)');
    expect(explainRoute('{ make; } 2> log', config, kindOf, zsh)).toBe('shell (rule 4: "{" opens a command group)');
    expect(explainRoute('src', config, kindOf, zsh)).toBe('shell (rule 5: "src" is a directory and the shell changes to it (AUTO_CD))');
  });

  it('flipRoute sends a line the other way, as typed', () => {
    expect(flipRoute(classify('make it faster', config, kindOf))).toEqual({ kind: 'shell', payload: 'make it faster', rule: 'flipped' });
    expect(flipRoute(classify('ls -la', config, kindOf))).toEqual({ kind: 'ai', payload: 'ls -la', rule: 'flipped' });
    expect(flipRoute(classify('$ ls -la', config))).toEqual({ kind: 'ai', payload: 'ls -la', rule: 'flipped' });
    expect(flipRoute(classify(':help', config))).toEqual({ kind: 'meta', payload: 'help', rule: 'meta' });
  });
});
