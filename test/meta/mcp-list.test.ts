// :mcp list laid out for the terminal's width (issue 36: a long target or failure reason made its
// lines 120 columns wide, and an 80-column terminal wrapped them into the next column's place).
import { describe, expect, it } from 'vitest';
import type { McpServerRow } from '../../src/mcp/registry.js';
import { findCommand } from '../../src/meta/dispatch.js';
import { mcpCommands } from '../../src/meta/mcp.js';
import { toolsCommands } from '../../src/meta/tools.js';
import { displayWidth } from '../../src/render/text-width.js';

const row = (r: Partial<McpServerRow> & Pick<McpServerRow, 'alias' | 'target' | 'status'>): McpServerRow => ({
  transport: 'stdio',
  toolCount: 0,
  server: '',
  protocolVersion: '',
  ...r,
});

const ROWS: McpServerRow[] = [
  row({ alias: 'everything', target: 'npx -y @modelcontextprotocol/server-everything stdio', toolCount: 13, status: 'connected' }),
  row({ alias: 'files', target: 'https://mcp.example.com/very/long/path/to/the/files/server/mcp', transport: 'streamable-http', toolCount: 4, status: 'connected' }),
  row({
    alias: 'broken',
    target: '/bin/sh -c ./start-the-broken-server.sh --verbose',
    status: 'failed',
    reason: 'the server exited during start-up: broken: proxy said certificate unknown',
  }),
];

function listed(columns: number, terminal: boolean): string[] {
  const out: string[] = [];
  const ctx = { render: { io: { columns: () => columns }, outputIsTerminal: terminal, info: (s: string) => out.push(s) }, mcp: { list: () => ROWS } } as never;
  void findCommand(mcpCommands, 'mcp')!.run('list', ctx, new AbortController().signal);
  return out.join('\n').split('\n');
}

describe(':mcp list', () => {
  it.each([80, 60])('at %i columns no line is wider, and every cell is still there', (columns) => {
    const lines = listed(columns, true);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
    // Each column's text, read down the lines between the header's column starts.
    const starts = ['alias', 'target', 'transport', 'tools', 'status'].map((h) => lines[0]!.indexOf(h));
    const column = (i: number) => lines.map((l) => l.slice(starts[i], starts[i + 1])).join('').replace(/\s+/g, '');
    ROWS.forEach((r) => {
      expect(column(0)).toContain(r.alias);
      expect(column(1)).toContain(r.target.replace(/\s+/g, ''));
      expect(column(4)).toContain(`${r.status}${r.reason ? `:${r.reason}` : ''}`.replace(/\s+/g, ''));
    });
  });

  it('at 80 columns the columns stay aligned: a wrapped cell goes on under itself', () => {
    const lines = listed(80, true);
    const at = (word: string) => lines[0]!.indexOf(word);
    expect(lines[0]).toMatch(/^alias +target +transport +tools +status$/);
    const everything = lines.findIndex((l) => l.startsWith('everything '));
    expect(lines[everything]!.indexOf('stdio')).toBe(at('transport'));
    expect(lines[everything]!.indexOf('connected')).toBe(at('status'));
    // A continuation line is blank up to its column.
    const broken = lines.findIndex((l) => l.startsWith('broken '));
    expect(lines[broken + 1]!.slice(0, at('target'))).toBe(' '.repeat(at('target')));
  });

  it('wide enough, one line per server, as before', () => {
    const lines = listed(200, true);
    expect(lines).toHaveLength(4);
  });

  it('on a pipe, one line per server whatever the width: a script greps it', () => {
    const lines = listed(80, false);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/^broken .*failed: the server exited during start-up: broken: proxy said certificate unknown$/);
  });
});

// The other listings (issue 36: `:mcp resources`, `:mcp prompts`, `:mcp tools` and `:tools` wrapped
// at any width a long URI or description gave them).
describe(':mcp resources, :mcp prompts, :mcp tools and :tools fit the terminal', () => {
  const longUri = `file:///srv/projects/${'deeply/nested/'.repeat(6)}README.markdown`;
  const longText = 'Reads a file from the project and returns its whole text, with the line numbers the editor shows beside it';
  const session = {
    alias: 'fs',
    lists: {
      offersResources: true,
      offersPrompts: true,
      ready: async () => {},
      resources: [{ uri: longUri, name: 'readme', mimeType: 'text/markdown', size: 20_480 }],
      templates: [{ uriTemplate: 'file:///srv/projects/{path}', name: 'project file', description: longText }],
      prompts: [{ name: 'review', arguments: [{ name: 'path', required: true }, { name: 'style' }], description: longText }],
    },
  };
  const tools = [{ wireName: 'fs__read_text_file_with_line_numbers', name: 'read_text_file_with_line_numbers', alias: 'fs', description: `${longText}\nSecond line.` }];

  async function shown(command: string, args: string, columns: number, terminal: boolean): Promise<string[]> {
    const out: string[] = [];
    const render = { io: { columns: () => columns }, outputIsTerminal: terminal, info: (s: string) => out.push(s), status: (s: string) => out.push(s) };
    const ctx = {
      render,
      mcp: { connected: () => [session], connectedSession: () => session, allTools: () => tools },
      core: { context: { turns: [] } },
      tools: { rows: () => tools.map((t) => ({ name: t.wireName, group: 'fs', enabled: true })), nextRequest: () => ({ tools: 1, tokens: 90 }) },
    } as never;
    const found = command === 'tools' ? findCommand(toolsCommands, command) : findCommand(mcpCommands, command);
    await found!.run(args, ctx, new AbortController().signal);
    return out.join('\n').split('\n');
  }

  /** The prose lines after a listing (a hint, a count) wrap as the terminal wraps them: not a table's. */
  const prose = (line: string) => /^(@fs:|:prompt |\d+ tools, )/.test(line);
  const letters = (lines: string[]) => [...lines.join('').replace(/\s+/g, '')].sort().join('');

  it.each([
    ['mcp', 'resources'],
    ['mcp', 'prompts'],
    ['mcp', 'tools'],
    ['tools', ''],
  ] as const)(':%s %s at 60 and 80 columns: no table line is wider, and no character is lost', async (command, args) => {
    const whole = await shown(command, args, 1000, true);
    for (const columns of [60, 80]) {
      const lines = await shown(command, args, columns, true);
      for (const line of lines.filter((l) => !prose(l))) expect(displayWidth(line), `${line} at ${columns}`).toBeLessThanOrEqual(columns);
      expect(letters(lines)).toBe(letters(whole));
    }
  });

  it('wide enough, a row is one line', async () => {
    const lines = await shown('mcp', 'resources', 1000, true);
    expect(lines.some((l) => l.includes(longUri) && l.includes('text/markdown'))).toBe(true);
    const prompt = (await shown('mcp', 'prompts', 1000, true)).find((l) => l.includes('fs:review'));
    expect(prompt).toMatch(/path \(required\), style +Reads a file/);
  });

  it('on a pipe a row stays one line, whatever the width', async () => {
    const lines = await shown('mcp', 'resources', 60, false);
    expect(lines.some((l) => l.includes(longUri) && l.includes('text/markdown'))).toBe(true);
    const tool = (await shown('mcp', 'tools', 60, false)).filter((l) => l.startsWith('fs__'));
    expect(tool).toEqual([`fs__read_text_file_with_line_numbers  ${longText}`]);
  });

  it('a control sequence in a tool description is shown inert, and the columns still line up', async () => {
    tools.push({ wireName: 'fs__evil', name: 'evil', alias: 'fs', description: 'moves \x1b[2J the cursor' });
    try {
      const lines = await shown('mcp', 'tools', 80, true);
      expect(lines.join('\n')).not.toContain('\x1b');
    } finally {
      tools.pop();
    }
  });
});
