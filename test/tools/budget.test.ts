// The tool budget: ranking as a table (seed 004's filesystem server, never alphabetical), the
// budgeted host with aish__find_tools, and the discovery flow through a real turn: the loopback
// model finds a tool of the real MCP fixture server and gets it offered in the next round.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModels } from '../../src/config/default-models.js';
import { enabledBuiltins } from '../../src/config/defaults.js';
import { resolveConfig } from '../../src/config/schema.js';
import { PendingOutput } from '../../src/context/pending-output.js';
import { McpRegistry } from '../../src/mcp/registry.js';
import { ApprovalGate } from '../../src/safety/gate.js';
import { policyFromConfig } from '../../src/safety/policy.js';
import { budgetTools, FIND_TOOLS, rankTools } from '../../src/tools/budget.js';
import { SessionTools } from '../../src/tools/session-tools.js';
import { TurnCore } from '../../src/turn/core.js';
import { presetModels } from '../../src/turn/model-client.js';
import type { ToolHost } from '../../src/turn/types.js';
import { fixtureStdio, stopAllServers } from '../support/mcp-servers.js';
import { ModelServer, textReply, toolCallReply } from '../support/model-server.js';

type Def = ReturnType<ToolHost['definitions']>[number];
const def = (name: string, description = ''): Def => ({ type: 'function', function: { name, description, parameters: { type: 'object' } } });

// @modelcontextprotocol/server-filesystem's tools, in the server's order (seed 004 issue 2).
const FS = [
  ['read_file', 'Read the complete contents of a file'],
  ['read_text_file', 'Read a file as text'],
  ['read_media_file', 'Read an image or audio file'],
  ['read_multiple_files', 'Read several files at once'],
  ['write_file', 'Create a new file or overwrite an existing one'],
  ['edit_file', 'Make line-based edits to a text file'],
  ['create_directory', 'Create a new directory'],
  ['list_directory', 'Get a detailed listing of all files and directories in a path'],
  ['list_directory_with_sizes', 'Listing with sizes'],
  ['directory_tree', 'A recursive tree view of files and directories'],
  ['move_file', 'Move or rename files and directories'],
  ['search_files', 'Recursively search for files and directories matching a pattern'],
  ['get_file_info', 'Retrieve detailed metadata about a file or directory'],
  ['list_allowed_directories', 'Returns the list of directories this server may access'],
].map(([n, d]) => def(`fs__${n}`, d));
const names = (defs: readonly Def[]) => defs.map((d) => d.function.name.replace(/^fs__/, ''));
const hint = (words = '', used: string[] = []) => ({ words, used });

describe('rankTools', () => {
  it.each<[string, ReturnType<typeof hint>, string[], string[]]>([
    ['no words: one tool per essential verb first, not four reads', hint(), [], ['read_file', 'list_directory', 'search_files', 'get_file_info', 'read_text_file']],
    ['the person\'s words pick list_directory', hint('list what is in my home directory'), [], ['list_directory', 'list_directory_with_sizes', 'list_allowed_directories', 'create_directory', 'directory_tree']],
    ['a word in a description counts, less than in a name', hint('rename the report'), [], ['move_file', 'read_file', 'list_directory', 'search_files', 'get_file_info']],
    ['tools used in this conversation come first, the latest before', hint('', ['fs__edit_file', 'fs__move_file']), [], ['move_file', 'edit_file', 'read_file', 'list_directory', 'search_files']],
    ['found tools come before everything', hint('list', ['fs__edit_file']), ['fs__directory_tree'], ['directory_tree', 'edit_file', 'list_directory', 'list_directory_with_sizes', 'list_allowed_directories']],
  ])('%s', (_label, h, found, expected) => {
    expect(names(rankTools(FS, h, found, 5))).toEqual(expected);
  });

  it('is never alphabetical: with nothing to go on, the server order stands', () => {
    const plain = ['zeta', 'alpha', 'mid'].map((n) => def(`x__${n}`));
    expect(rankTools(plain, hint(), [], 3).map((d) => d.function.name)).toEqual(['x__zeta', 'x__alpha', 'x__mid']);
  });
});

function inner(defs: Def[]): ToolHost {
  return { definitions: () => defs, has: (name) => defs.some((d) => d.function.name === name), validate: () => [], annotations: () => undefined, call: async (name) => ({ status: 'ok', content: `ran ${name}` }) };
}
const run = (h: ToolHost, name: string, args: Record<string, unknown>) => h.call(name, args, { signal: new AbortController().signal });

describe('budgetTools', () => {
  it('within the budget: every tool, no finder', () => {
    expect(budgetTools(inner(FS), { maxTools: 14, findTools: true }).definitions()).toEqual(FS);
  });

  it('over it: aish__find_tools and the likeliest others, the budget in all', () => {
    const offered = budgetTools(inner(FS), { maxTools: 4, findTools: true }).definitions(hint('search for TODO'));
    expect(offered.map((d) => d.function.name)).toEqual([FIND_TOOLS, 'fs__search_files', 'fs__read_file', 'fs__list_directory']);
    expect(offered[0]!.function.description).toContain('14 exist');
  });

  it('over it with find_tools off: just the likeliest', () => {
    expect(names(budgetTools(inner(FS), { maxTools: 2, findTools: false }).definitions())).toEqual(['read_file', 'list_directory']);
  });

  it('find_tools answers with matches and offers them from then on', async () => {
    const h = budgetTools(inner(FS), { maxTools: 3, findTools: true });
    expect(names(h.definitions())).not.toContain('get_file_info');
    const r = await run(h, FIND_TOOLS, { query: 'file metadata' });
    expect(r.content).toMatch(/^\d+ tools? found; offered from your next step on:\nfs__get_file_info: Retrieve detailed metadata/);
    expect(names(h.definitions()).slice(1, 2)).toEqual(['get_file_info']);
    expect(await run(h, 'fs__get_file_info', {})).toMatchObject({ content: 'ran fs__get_file_info' });
  });

  it('says once, naming :tools, that the tools sent were trimmed (issue 36)', () => {
    const said: string[] = [];
    const h = budgetTools(inner(FS), { maxTools: 4, findTools: true, onTrimmed: (m) => said.push(m) });
    h.definitions(hint('search'));
    h.definitions(hint('list'));
    expect(said).toEqual(['offering the model 3 of 14 tools, the likeliest for each request, and aish__find_tools for the rest (mcp.max_tools: 4); :tools lists them and turns some off']);
    const quiet: string[] = [];
    const without = budgetTools(inner(FS), { maxTools: 2, findTools: false, onTrimmed: (m) => quiet.push(m) });
    without.definitions();
    expect(quiet).toEqual(['offering the model 2 of 14 tools, the likeliest for each request (mcp.max_tools: 2); :tools lists them and turns some off']);
    const within: string[] = [];
    budgetTools(inner(FS), { maxTools: 14, findTools: true, onTrimmed: (m) => within.push(m) }).definitions();
    expect(within).toEqual([]);
  });

  it('find_tools with no match, or no query', async () => {
    const h = budgetTools(inner(FS), { maxTools: 3, findTools: true });
    expect((await run(h, FIND_TOOLS, { query: 'kubernetes pods' })).content).toBe('No tool matches "kubernetes pods" (14 tools exist). Try other words.');
    expect(h.validate(FIND_TOOLS, {})).toEqual(['/query: must be a non-empty string']);
    expect(await run(h, FIND_TOOLS, { query: ' ' })).toMatchObject({ status: 'error' });
  });
});

describe('discovery through a real turn', () => {
  let server: ModelServer;
  let registry: McpRegistry;
  beforeAll(async () => {
    server = await ModelServer.start();
    registry = new McpRegistry({ env: {}, clientVersion: '0.0.0-test' });
    expect(await registry.connectAll({ fx: fixtureStdio() })).toEqual([]);
  });
  afterAll(async () => {
    await registry.closeAll();
    await server.close();
    await stopAllServers();
  });

  it('max_tools 4: the model searches, the found tool is offered next round and runs', async () => {
    const r = resolveConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, mcp: { max_tools: 4, auto_approve: ['fx__*'] } }, defaultModels({}));
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const config = r.config;
    const core = new TurnCore({
      config,
      models: presetModels(config, {}, (t) => t),
      pending: new PendingOutput(),
      tools: new SessionTools({ mcp: registry, builtins: enabledBuiltins(true), cwd: () => '/', maxChars: 1000, maxTools: config.mcp.max_tools }).host,
      gate: new ApprovalGate({ policy: policyFromConfig(config), ask: null, show: () => {} }),
      commands: null,
      recorder: null,
      background: () => null,
      project: async () => null,
      observer: () => {},
    });
    server.enqueue(
      toolCallReply([{ id: 'f1', name: FIND_TOOLS, arguments: '{"query":"pick a colour"}' }]),
      toolCallReply([{ id: 'p1', name: 'fx__pick', arguments: '{"colour":"green"}' }]),
      textReply(['green it is']),
    );
    const outcome = await core.ask('choose something nice', 'fast', new AbortController().signal);
    expect(outcome).toMatchObject({ outcome: 'done', text: 'green it is' });
    const offered = server.requests.map((q) => q.body.tools.map((t: any) => t.function.name));
    expect(offered.map((o) => o.length)).toEqual([4, 4, 4]);
    expect(offered[0]).toContain(FIND_TOOLS);
    expect(offered[0]).not.toContain('fx__pick');
    expect(offered[1]).toContain('fx__pick');
    expect(server.requests[1]!.body.messages.at(-1).content).toContain('fx__pick: Picks a colour');
    expect(server.requests[2]!.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'p1', content: 'green' });
  });
});
