// :help and :models laid out for the terminal's width (a long usage must not push every description
// to column 170).
import { describe, expect, it } from 'vitest';
import { copyCommands } from '../../src/meta/copy.js';
import { coreCommands } from '../../src/meta/core.js';
import { editCommands } from '../../src/meta/edit.js';
import { mcpCommands } from '../../src/meta/mcp.js';
import { memoryCommands } from '../../src/meta/memory.js';
import { norrisCommands } from '../../src/meta/norris.js';
import { permsCommands } from '../../src/meta/perms.js';
import { projectCommands } from '../../src/meta/project.js';
import { promptCommands } from '../../src/meta/prompt.js';
import { routeCommands } from '../../src/meta/route.js';
import { sessionCommands } from '../../src/meta/session.js';
import { toolsCommands } from '../../src/meta/tools.js';
import { trustCommands } from '../../src/meta/trust.js';
import { findCommand } from '../../src/meta/dispatch.js';
import { textWidth } from '../../src/render/markdown-wrap.js';

const commands = [
  ...coreCommands,
  ...sessionCommands,
  ...mcpCommands,
  ...toolsCommands,
  ...routeCommands,
  ...norrisCommands,
  ...memoryCommands,
  ...permsCommands,
  ...projectCommands,
  ...promptCommands,
  ...editCommands,
  ...copyCommands,
  ...trustCommands({ storeFile: '/nonexistent/trust.json', ask: async () => 'n' } as never),
];

function shown(name: string, args: string, columns: number, extra: Record<string, unknown> = {}): string[] {
  const out: string[] = [];
  const ctx = { commands, render: { io: { columns: () => columns }, info: (s: string) => out.push(s) }, ...extra } as never;
  void findCommand(commands, name)!.run(args, ctx, new AbortController().signal);
  return out.join('\n').split('\n');
}

describe(':help fits the terminal', () => {
  it.each([80, 100, 140])('at %i columns no line is wider, and descriptions start in the first half', (columns) => {
    const lines = shown('help', '', columns);
    const rows = lines.filter((l) => l.startsWith('  :'));
    expect(rows.length).toBeGreaterThan(20);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(columns);
    const help = lines.find((l) => l.startsWith('  :help'))!;
    const column = help.indexOf('list meta commands');
    expect(column).toBeGreaterThan(0);
    expect(column).toBeLessThan(columns / 2);
  });

  it('every command and its whole summary are still there', () => {
    const text = shown('help', '', 100).join(' ').replace(/\s+/g, ' ');
    for (const c of commands) {
      expect(text).toContain(`:${c.name}`);
      expect(text).toContain(c.summary.replace(/\s+/g, ' '));
    }
  });
});

describe(':models', () => {
  it('aligns the model column and marks the active preset', () => {
    const config = {
      models: {
        fast: { model: 'qwen3', endpoint: 'http://127.0.0.1:11434/v1' },
        'a-much-longer-name': { model: 'gpt-x', endpoint: 'https://api.example.com/v1' },
      },
    };
    const lines = shown('models', '', 100, { config, conversation: { activeModel: 'fast' } });
    expect(lines).toHaveLength(2);
    expect(lines[0]!.startsWith('* fast')).toBe(true);
    expect(lines[0]!.indexOf('qwen3')).toBe(lines[1]!.indexOf('gpt-x'));
  });
});
