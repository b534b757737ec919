import { describe, expect, it } from 'vitest';
import { classify, explainRoute, looksLikeProse, misfiredProse } from '../src/line-router.js';
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
    ['FOO=1', 'ai', 'FOO=1'],
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

