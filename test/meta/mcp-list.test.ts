// :mcp list laid out for the terminal's width (issue 36: a long target or failure reason made its
// lines 120 columns wide, and an 80-column terminal wrapped them into the next column's place).
import { describe, expect, it } from 'vitest';
import type { McpServerRow } from '../../src/mcp/registry.js';
import { findCommand } from '../../src/meta/dispatch.js';
import { mcpCommands } from '../../src/meta/mcp.js';
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
