// What the trust question lists for a project config's data: every command it would start, every
// endpoint it would send to, every approval it loosens, then the other keys.

import { describe, expect, it } from 'vitest';
import { configEffects, type ConfigEffect } from '../../src/config/trust-summary.js';

const kinds = (effects: ConfigEffect[]) => effects.map((e) => `${e.kind}: ${e.text}`);

describe('configEffects', () => {
  it.each<[string, unknown, string[]]>([
    ['nothing', {}, []],
    ['null (an empty file)', null, []],
    ['not an object', [1], ['sets: nothing aish can use (the file is not an object)']],
    ['an MCP server command, quoted back', { mcp: { servers: { x: { command: 'sh', args: ['-c', "touch 'm'"], env: { A: '1' }, cwd: '/w' } } } }, [`starts: MCP server "x": sh -c 'touch '\\''m'\\''' in /w with A set`]],
    ['an HTTP MCP server and its secret', { mcp: { servers: { h: { url: 'https://e.example/mcp', auth_env: 'TOKEN' } } } }, ['sends: tool calls of MCP server "h" to https://e.example/mcp, with $TOKEN']],
    ['a model endpoint with its key and headers', { models: { fast: { endpoint: 'http://10.0.0.1/v1', model: 'm', key_env: 'OPENAI_API_KEY', headers: { 'X-A': 'b' } } } }, ['sends: your questions and context, for preset "fast", to http://10.0.0.1/v1, with the key in $OPENAI_API_KEY, with headers X-A']],
    ['permissions', { permissions: { allow: ['*'], deny: [] } }, ['loosens: commands the model proposes run without asking when they match: *', 'loosens: permissions.deny replaces your own list with: (none)']],
    ['shell.confirm_cmd off and shell.program', { shell: { confirm_cmd: false, program: '/tmp/evil', prompt: '> ' } }, ['starts: every shell line with /tmp/evil', "loosens: shell.confirm_cmd = false: the model's CMD: lines run without asking", 'sets: shell.prompt']],
    ['auto-approved tools, sampling, elicitation, roots', { mcp: { auto_approve: { 'x__*': true, y: false }, sampling: 'allow', elicitation: 'defaults', roots: ['~'] } }, ['sends: these directories are offered to MCP servers: ~', 'loosens: these tools run without asking: x__*', "loosens: servers' requests for a model answer are allowed when nobody can confirm (mcp.sampling)", "loosens: servers' questions are answered with their defaults when nobody can answer (mcp.elicitation)"]],
    [
      'roots that follow cd, for every server or one; none is only a setting',
      { mcp: { roots: 'cwd', servers: { fs: { command: 'fs', roots: ['/srv'] }, ev: { command: 'ev', roots: 'cwd' }, quiet: { command: 'q', roots: false } } } },
      [
        'starts: MCP server "fs": fs',
        'starts: MCP server "ev": ev',
        'starts: MCP server "quiet": q',
        'sends: the current directory, wherever you cd, is offered to MCP servers as a root',
        'sends: these directories are offered to MCP server "fs": /srv',
        'sends: the current directory, wherever you cd, is offered to MCP server "ev" as a root',
      ],
    ],
    ['no roots for any server', { mcp: { roots: false } }, ['sets: mcp.roots']],
    [
      'the Norris sandbox opened',
      { norris: { sandbox: 'off', network: true, unsandboxed: 'allow' } },
      [
        'loosens: Norris (the autonomous mode): norris.sandbox = off: its commands run outside the sandbox',
        'loosens: Norris (the autonomous mode): norris.network = true: its sandboxed commands reach the network',
        'loosens: Norris (the autonomous mode): norris.unsandboxed = allow: without a sandbox its commands run without asking',
      ],
    ],
    ['norris, history.dir, cloud fallback, the rest', { norris: { max_steps: 99 }, history: { dir: '/tmp/h' }, routing: { cloud_fallback: true, auto: true }, context: { max_turns: 3 }, default_model: 'x' }, ['sends: sessions and memory are written to /tmp/h', 'sends: questions go to the fallback preset when the local one fails (routing.cloud_fallback)', 'loosens: Norris (the autonomous mode): norris.max_steps = 99', 'sets: routing.auto, context.max_turns, default_model']],
    ['suggestions from a model', { suggest: { model: 'fast', idle_ms: 100 } }, ['sends: the line you are typing, at each pause, to the preset "fast" for a suggestion (suggest.model)', 'sets: suggest.idle_ms']],
    ['suggestions left off', { suggest: { model: false } }, ['sets: suggest.model']],
  ])('%s', (_label, data, expected) => {
    expect(kinds(configEffects(data))).toEqual(expected);
  });
});
