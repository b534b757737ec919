// Tables for the pure parts of src/mcp: aliases from URLs and command lines, wire names, the
// mapping of unsafe tool names and back, and shell-like splitting of a command line.

import { describe, expect, it } from 'vitest';
import { joinCommandLine, splitCommandLine } from '../../src/mcp/command-line.js';
import {
  aliasProblem,
  deriveAlias,
  deriveStdioAlias,
  mapToolNames,
  splitWireName,
  toWireName,
  uniqueAlias,
  WIRE_NAME_PATTERN,
} from '../../src/mcp/naming.js';

describe('deriveAlias', () => {
  it.each([
    ['http://boltzmann.fritz.box:8080/mcp', [], 'boltzmann'],
    ['https://nc.reauktion.de:8080/mcp', [], 'nc'],
    ['http://boltzmann.fritz.box:8080/mcp', ['boltzmann'], 'boltzmann-2'],
    ['http://boltzmann.fritz.box:8080/mcp', ['boltzmann', 'boltzmann-2'], 'boltzmann-3'],
    ['http://127.0.0.1:3001/mcp', [], 'local'],
    ['http://localhost:3001/mcp', ['local'], 'local-2'],
    ['http://[::1]:3001/mcp', [], 'local'],
    ['http://192.168.1.5/mcp', [], 'ip-192-168-1-5'],
    ['http://[fe80::1]/mcp', [], 'ip6'],
    ['http://My_Weird__Host.example/mcp', [], 'my_weird_host'],
    ['http://xn--bcher-kva.example/mcp', [], 'xn--bcher-kva'],
    ['not a url', [], 'mcp'],
    ['http://aish.lan/mcp', [], 'aish-2'],
  ])('%s with %j taken → %s', (url, taken, alias) => {
    expect(deriveAlias(url, new Set(taken))).toBe(alias);
    expect(aliasProblem(alias)).toBeUndefined();
  });
});

describe('deriveStdioAlias', () => {
  it.each([
    ['npx', ['-y', '@modelcontextprotocol/server-everything'], 'everything'],
    ['npx', ['-y', '@modelcontextprotocol/server-filesystem@2025.1.1', '/tmp'], 'filesystem'],
    ['uvx', ['mcp-server-time'], 'time'],
    ['python3', ['-m', 'mcp_server_git', '--repository', '.'], 'git'],
    ['node', ['/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'], 'everything'],
    ['node', ['--require', './preload.cjs', 'servers/weather-mcp.mjs'], 'weather'],
    ['/usr/local/bin/github-mcp-server', ['stdio'], 'github'],
    ['docker', ['run', '-i', '--rm', '-e', 'TOKEN', 'mcp/fetch:latest'], 'fetch'],
    ['uv', ['run', 'my-tools'], 'my-tools'],
    ['./server.sh', [], 'server'],
  ])('%s %j → %s', (command, args, alias) => {
    expect(deriveStdioAlias(command, args, new Set())).toBe(alias);
  });

  it('is made unique', () => {
    expect(deriveStdioAlias('uvx', ['mcp-server-time'], new Set(['time']))).toBe('time-2');
  });
});

describe('aliasProblem', () => {
  it.each([
    ['boltzmann', undefined],
    ['a-b_c', undefined],
    ['', 'an alias may not be empty'],
    ['a__b', 'alias "a__b" may not contain "__"'],
    ['a_', 'alias "a_" may not end with "_"'],
    ['a.b', 'alias "a.b" may use only letters, digits, _ and -'],
    ['aish', 'alias "aish" is reserved for aish\'s built-in tools'],
    ['x'.repeat(49), `alias "${'x'.repeat(49)}" is longer than 48 characters`],
  ])('%j → %j', (alias, problem) => {
    expect(aliasProblem(alias)).toBe(problem);
  });

  it('uniqueAlias stays within the length limit', () => {
    const base = 'x'.repeat(48);
    expect(uniqueAlias(base, new Set([base]))).toBe(`${'x'.repeat(46)}-2`);
  });
});

describe('splitWireName', () => {
  it.each([
    ['boltzmann__read_file', { alias: 'boltzmann', tool: 'read_file' }],
    ['a__b__c', { alias: 'a', tool: 'b__c' }],
    ['a___x', { alias: 'a', tool: '_x' }],
    ['local-2__echo', { alias: 'local-2', tool: 'echo' }],
    ['noseparator', undefined],
    ['__tool', undefined],
    ['alias__', undefined],
  ])('%s → %j', (name, parts) => {
    expect(splitWireName(name)).toEqual(parts);
  });

  it('round-trips toWireName for aliases aish accepts', () => {
    expect(splitWireName(toWireName('fx', '_private__x'))).toEqual({ alias: 'fx', tool: '_private__x' });
  });
});

describe('mapToolNames', () => {
  const long = `l${'o'.repeat(140)}ng`;
  const names = ['echo', 'files.read', 'files_read', 'read file', long, 'naïve', '', 'a/b'];
  const map = mapToolNames('fx', names);

  it.each([
    ['echo', 'echo'],
    ['files_read', 'files_read'],
    ['read file', 'read_file'],
    ['a/b', 'a_b'],
  ])('%j → %j', (name, safe) => {
    expect(map.toSafe.get(name)).toBe(safe);
  });

  it('disambiguates collisions and cut names with a hash of the original', () => {
    expect(map.toSafe.get('files.read')).toMatch(/^files_read_[0-9a-f]{8}$/);
    expect(map.toSafe.get(long)).toMatch(/^lo+_[0-9a-f]{8}$/);
    expect(map.toSafe.get('')).toMatch(/^_[0-9a-f]{8}$/);
    expect(map.toSafe.get('naïve')).toBe('na_ve');
  });

  it('every wire name is valid and unique, and maps back to its original', () => {
    const wire = names.map((n) => toWireName('fx', map.toSafe.get(n)!));
    for (const w of wire) expect(w).toMatch(WIRE_NAME_PATTERN);
    expect(new Set(wire).size).toBe(names.length);
    for (const n of names) expect(map.toOriginal.get(map.toSafe.get(n)!)).toBe(n);
    expect(toWireName('fx', map.toSafe.get(long)!)).toHaveLength(128);
  });

  it('is deterministic', () => {
    expect([...mapToolNames('fx', names).toSafe]).toEqual([...map.toSafe]);
  });
});

describe('splitCommandLine', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-everything', ['npx', '-y', '@modelcontextprotocol/server-everything']],
    ['  node   server.mjs  ', ['node', 'server.mjs']],
    [`python -m srv --root "/my docs" --name 'it''s'`, ['python', '-m', 'srv', '--root', '/my docs', '--name', 'its']],
    [`cmd "a \\"quoted\\" word" 'single \\ stays'`, ['cmd', 'a "quoted" word', 'single \\ stays']],
    ['cmd a\\ b ""', ['cmd', 'a b', '']],
    ['', []],
  ])('%s', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it('rejects an unterminated quote', () => {
    expect(() => splitCommandLine(`node "server.mjs`)).toThrow('unterminated double quote in command line');
  });

  it('joinCommandLine quotes what needs it, and splits back', () => {
    const words = ['node', '/my docs/server.mjs', "it's", '--flag=x', ''];
    const line = joinCommandLine(words);
    expect(line).toBe(`node '/my docs/server.mjs' 'it'\\''s' --flag=x ''`);
    expect(splitCommandLine(line)).toEqual(words);
  });
});
