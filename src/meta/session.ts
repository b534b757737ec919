// Meta commands about the conversation and its session log: :history, :sessions, :save, :resume.

import path from 'node:path';
import { UsageError } from '../errors.js';
import type { SessionStore } from '../history/session.js';
import type { TurnCore } from '../turn/core.js';
import type { ToolControls } from '../turn/types.js';
import type { MetaCommand, Say } from './types.js';

export interface SessionPort extends Say {
  readonly core: Pick<TurnCore, 'context' | 'pending'>;
  readonly sessions: Pick<SessionStore, 'list' | 'names' | 'save' | 'resumeInto'>;
  readonly tools: Pick<ToolControls, 'restore'>;
}

function preview(text: string, max = 70): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Where the token budget came from, in words. */
function budgetSource(source: TurnCore['context']['budgetSource']): string {
  if (source.type === 'config') return 'context.token_budget';
  if (source.type === 'server') return `the server of ${source.preset}: a context of ${source.contextLength} tokens`;
  return "aish's default; the model's server has not said";
}

export const sessionCommands: MetaCommand<SessionPort>[] = [
  {
    name: 'history',
    usage: '',
    summary: 'show the conversation turns, the budget used and the summary',
    run(_args, ctx) {
      const context = ctx.core.context;
      const lines = context.turns.map((turn, i) => {
        const n = String(i + 1).padStart(3);
        if (turn.role === 'tool') return `${n} tool      ${turn.name ?? turn.tool_call_id}: ${preview(turn.content)}`;
        if (turn.role === 'assistant' && turn.tool_calls?.length) {
          const calls = turn.tool_calls.map((c) => c.name).join(', ');
          return `${n} assistant ${turn.content ? `${preview(turn.content, 40)} ` : ''}→ calls ${calls}`;
        }
        return `${n} ${turn.role.padEnd(9)} ${preview(turn.content)}`;
      });
      if (lines.length === 0) lines.push('  (no turns yet)');
      lines.push(
        '',
        `budget: ${context.length}/${context.maxTurns} turns, ~${context.estimateTokens()}/${context.tokenBudget} tokens (from ${budgetSource(context.budgetSource)})`,
        `pending exec output: ${ctx.core.pending.isEmpty ? 'none' : `${ctx.core.pending.text.length} chars`}`,
        `summary: ${context.summary ?? '(none)'}`,
      );
      ctx.render.info(lines.join('\n'));
    },
  },
  {
    name: 'sessions',
    usage: '',
    summary: 'list saved sessions, newest first (* marks this one)',
    async run(_args, ctx) {
      const sessions = await ctx.sessions.list();
      if (sessions.length === 0) {
        ctx.render.info('no sessions yet');
        return;
      }
      const width = Math.max(...sessions.map((s) => s.name.length));
      ctx.render.info(
        sessions
          .map((s) => {
            const date = s.started.toISOString().replace('T', ' ').slice(0, 16);
            return `${s.active ? '*' : ' '} ${s.name.padEnd(width)}  ${date}  ${String(s.turns).padStart(4)} turns  ${preview(s.firstPrompt, 50)}`;
          })
          .join('\n'),
      );
    },
  },
  {
    name: 'save',
    usage: '<name>',
    summary: 'name the active session log (it keeps being written)',
    run(args, ctx) {
      const name = args.trim();
      if (!name) throw new UsageError('usage: :save <name>');
      if (ctx.core.context.length === 0) throw new UsageError('nothing to save yet: the conversation is empty');
      const file = ctx.sessions.save(name);
      ctx.render.status(`session saved as ${path.basename(file, '.jsonl')}`);
    },
  },
  {
    name: 'resume',
    usage: '<name|last>',
    summary: 'load a saved session into the (empty) conversation',
    complete: (prefix, ctx) => ['last', ...ctx.sessions.names().sort().reverse()].filter((n) => n.startsWith(prefix)),
    async run(args, ctx) {
      const r = await ctx.sessions.resumeInto(ctx.core.context, args.trim() || 'last');
      for (const warning of r.warnings) ctx.render.status(`resume: ${warning}`);
      if (r.repaired) ctx.render.status(`resume: ${r.repaired} unanswered tool call(s) closed as interrupted`);
      if (r.toolRules) ctx.tools.restore(r.toolRules);
      ctx.render.status(`resumed ${path.basename(r.file, '.jsonl')} (${r.turns} turns)`);
    },
  },
];
