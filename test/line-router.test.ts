import { describe, expect, it } from 'vitest';
import { asksShell, classify, explainRoute, looksLikeProse, misfiredProse, type WordKind } from '../src/line-router.js';
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
    // rule 3: $ forces the shell
    ['$ls -la', 'shell', 'ls -la'],
    ['$ who', 'shell', 'who'],
    ['$time make', 'shell', 'time make'],
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
    // prose that starts with a command-like word: the list decides, by design (SPEC §3)
    ['find me the largest file', 'shell', 'find me the largest file'],
    ['make it faster please', 'shell', 'make it faster please'],
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
    ['who am i talking to', 'ai', 'default'],
    ['time to refactor this?', 'ai', 'default'],
    ['sort these numbers: 3 1 2', 'ai', 'default'],
    ['test the parser', 'ai', 'default'],
    ['help me with git', 'ai', 'default'],
    ['read the file and tell me', 'ai', 'default'],
    // keywords that cannot start a command are words of prose
    ['then what happens?', 'ai', 'default'],
    ['do you know why?', 'ai', 'default'],
    ['break it', 'ai', 'default'],
    ['set a greeting', 'ai', 'default'],
    ['write a plan', 'ai', 'default'],
    ['set -o vi', 'shell', 'shell-knows'],
    ['type greet', 'shell', 'shell-knows'],
    ['write alice', 'shell', 'shell-knows'],
    ['return the favour', 'ai', 'default'],
    // the person's own definitions win even over prose
    ['greet the world please', 'shell', 'shell-knows'],
    // in the known list: the shell says program, the misfire offer stays (SPEC §3 rule 6)
    ['find me the largest file', 'shell', 'known-command'],
    // the shell knows no such command, or was not asked: the list and the other rules decide
    ['tell me a joke', 'ai', 'default'],
    ['git status', 'shell', 'known-command'],
    ['greet', 'shell', 'shell-knows'],
    ['jobs; echo listed', 'shell', 'shell-knows'],
    // found by a red-team pass: prose that would end aish or change the shell
    ['exit the plan mode and explain', 'ai', 'default'],
    ['exit 3', 'shell', 'known-command'],
    ['export the results as csv', 'ai', 'default'],
    ['unset all the things', 'ai', 'default'],
    ['clear the context', 'ai', 'default'],
    ['login to github', 'ai', 'default'],
    ['source of this bug?', 'ai', 'default'],
    ['export FOO=bar', 'shell', 'shell-knows'],
    ['f() { exit 3; }; f', 'shell', 'known-command'],
    ['function greet { echo hi; }', 'shell', 'known-command'],
    ['greet|cat', 'shell', 'shell-knows'],
    // a database client on PATH runs with its password option or URL (redacted in what is kept)
    ['mysql -u root -pS3cret-x9 shop', 'shell', 'shell-knows'],
    ['mysql -u root -p shop', 'shell', 'shell-knows'],
    ['psql postgres://app:S3cret-x9@db.internal/app', 'shell', 'shell-knows'],
    ['mysql into the shop database and show me the tables', 'ai', 'default'],
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
    expect(explainRoute('who am i talking to', config, kindOf)).toBe('ai (rule 6: "who" is a program on PATH, but the line reads as a question)');
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
    ['$who', /^shell \(rule 3/],
    [':help', /^meta \(rule 2/],
    ['tell me a joke', /^ai \(rule 6: "tell" is not a known command or a path\)/],
  ])('%j', (line, expected) => {
    expect(explainRoute(line, config)).toMatch(expected);
  });
});

describe('prose that starts with a known command', () => {
  it.each<[string, boolean]>([
    ['make it faster', true],
    ['find the largest file', true],
    ['kill the process on port 3000', true],
    ['find all files changed today', false],
    ['make clean all', false],
    ['kill the process that\'s on port 3000', true],
    ['make test', false],
    ['make', false],
    ['git status', false],
    ['find . -name x', false],
    ['kill -9 1234', false],
    ['grep the notes.txt', false],
    ['ls the/dir here', false],
    ['cat a b c', false],
    ['echo "the end" now', false],
    ['find the | sort', false],
    ['npm run build for me', true],
  ])('%j → %s', (line, prose) => {
    expect(looksLikeProse(line)).toBe(prose);
  });

  it.each<[string, number, number, boolean]>([
    ['make it faster', 2, 50, true],
    ['make it faster', 2, 5000, false],
    ['make it faster', 127, 5000, true],
    ['make it faster', 0, 50, false],
    ['make test all', 2, 50, false],
    ['find the largest file', 1, 10, true],
  ])('misfiredProse(%j, exit %d, %d ms) → %s', (line, code, ms, expected) => {
    expect(misfiredProse(line, code, ms)).toBe(expected);
  });

  it(':why says what happens to prose that starts with a known command (the usage docs example)', () => {
    expect(explainRoute('make it faster', config)).toMatch(/^shell \(rule 4: "make" is in shell\.known_commands\); it reads as prose, so if it fails at once .* aish offers to ask the model instead/);
    expect(explainRoute('make test', config)).toBe('shell (rule 4: "make" is in shell.known_commands)');
  });
});

