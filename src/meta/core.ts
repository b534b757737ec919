// The everyday meta commands: help, quit, clear, reset, model switching, forced routes and :why.

import { asksShell, explainRoute } from '../line-router.js';
import { UsageError } from '../errors.js';
import { formatCost } from '../turn/usage.js';
import { twoColumns, wrapWords } from '../render/columns.js';
import type { Config } from '../config/schema.js';
import type { Renderer } from '../render/renderer.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { TurnCore } from '../turn/core.js';
import type { CommandInfo, ConversationPort, MetaCommand } from './types.js';

export interface CorePort {
  readonly render: Pick<Renderer, 'info' | 'status' | 'io'>;
  /** The whole table, for `:help`. */
  readonly commands: readonly CommandInfo[];
  readonly config: Config;
  readonly conversation: ConversationPort;
  readonly core: Pick<TurnCore, 'usage' | 'proposed' | 'offer'>;
  readonly shell: Pick<ShellRunner, 'run' | 'wordKind' | 'routeContext'>;
  /** Ends the loop after this line. */
  quit(): void;
  clearScreen(): void;
}

export const coreCommands: MetaCommand<CorePort>[] = [
  {
    name: 'help',
    usage: '[command]',
    summary: 'list meta commands, or show one',
    complete: (prefix, ctx) => ctx.commands.map((c) => c.name).filter((n) => n.startsWith(prefix)),
    run(args, ctx) {
      const wanted = args.replace(/^:/, '').trim();
      const list = wanted ? ctx.commands.filter((c) => c.name === wanted || c.aliases?.includes(wanted)) : ctx.commands;
      if (wanted && list.length === 0) throw new UsageError(`no command :${wanted}`);
      const rows = list.map((c) => {
        const names = [c.name, ...(c.aliases ?? [])].map((n) => `:${n}`).join(', ');
        return [`${names}${c.usage ? ` ${c.usage}` : ''}`, c.summary] as const;
      });
      const columns = ctx.render.io.columns();
      const lines = twoColumns(rows, columns);
      const footer = wanted
        ? []
        : [
            '',
            ...wrapWords(
              'Other lines go to the shell when they start with a command, shell syntax, a path or "$ ", ' +
                'unless they are worded as English, and to the model otherwise (:why <line> tells which and why).',
              columns,
            ),
            ...wrapWords('Keys: Ctrl-R searches the input history, Ctrl-X Ctrl-E edits the line in $VISUAL/$EDITOR.', columns),
          ];
      ctx.render.info([...(wanted ? [] : ['Meta commands:']), ...lines, ...footer].join('\n'));
    },
  },
  {
    name: 'quit',
    aliases: ['q', 'exit'],
    usage: '',
    summary: 'leave aish (Ctrl-D does the same)',
    run(_args, ctx) {
      ctx.quit();
    },
  },
  {
    name: 'clear',
    usage: '',
    summary: 'clear the screen (the conversation stays)',
    run(_args, ctx) {
      ctx.clearScreen();
    },
  },
  {
    name: 'reset',
    usage: '',
    summary: 'empty the conversation and the pending exec output',
    run(_args, ctx) {
      ctx.conversation.reset();
      ctx.render.status('conversation reset');
    },
  },
  {
    name: 'model',
    usage: '[name]',
    summary: 'show or switch the active model preset',
    complete: (prefix, ctx) => Object.keys(ctx.config.models).filter((n) => n.startsWith(prefix)),
    run(args, ctx) {
      const name = args.trim();
      if (name === '') {
        const m = ctx.config.models[ctx.conversation.activeModel]!;
        ctx.render.info(`${ctx.conversation.activeModel}: ${m.model} at ${m.endpoint}`);
        return;
      }
      if (!ctx.config.models[name]) {
        throw new UsageError(`no preset named "${name}" (presets: ${Object.keys(ctx.config.models).join(', ')})`);
      }
      ctx.conversation.activeModel = name;
      ctx.render.status(`model set to ${name}`);
    },
  },
  {
    name: 'models',
    usage: '',
    summary: 'list model presets (* marks the active one)',
    run(_args, ctx) {
      const rows = Object.entries(ctx.config.models).map(([name, m]) => {
        const mark = name === ctx.conversation.activeModel ? '*' : ' ';
        return [`${mark} ${name}`, `${m.model}  ${m.endpoint}`] as const;
      });
      ctx.render.info(twoColumns(rows, ctx.render.io.columns(), { indent: 0 }).join('\n'));
    },
  },
  {
    name: 'exec',
    usage: '<command>',
    summary: 'run a line in the shell, whatever the router would say',
    async run(args, ctx, signal) {
      if (args.trim() === '') throw new UsageError('usage: :exec <command>');
      await ctx.shell.run(args.trim(), signal);
    },
  },
  {
    name: 'ask',
    usage: '<text>',
    summary: 'send a line to the model, whatever the router would say',
    async run(args, ctx, signal) {
      if (args.trim() === '') throw new UsageError('usage: :ask <text>');
      await ctx.conversation.ask(args.trim(), signal);
    },
  },
  {
    name: 'cost',
    usage: '',
    summary: "this session's tokens and cost, by preset and in total",
    run(_args, ctx) {
      ctx.render.info(formatCost(ctx.core.usage));
    },
  },
  {
    name: 'last',
    usage: '',
    summary: 'list the CMD: lines of the last reply that proposed any (:run N runs one)',
    run(_args, ctx) {
      const proposed = ctx.core.proposed;
      ctx.render.info(proposed.length ? proposed.map((c, i) => `${String(i + 1).padStart(3)}  ${c}`).join('\n') : 'no commands proposed yet');
    },
  },
  {
    name: 'run',
    usage: '<N>',
    summary: 'offer the Nth command of :last again (same confirmation and checks)',
    async run(args, ctx, signal) {
      const n = Number(args.trim());
      const command = Number.isInteger(n) ? ctx.core.proposed[n - 1] : undefined;
      if (!command) throw new UsageError(ctx.core.proposed.length ? `usage: :run <1-${ctx.core.proposed.length}> (:last lists them)` : 'no commands proposed yet');
      await ctx.core.offer(command, signal);
    },
  },
  {
    name: 'why',
    usage: '<line>',
    summary: 'show where a line would go and which rule decides',
    async run(args, ctx) {
      if (args.trim() === '') throw new UsageError('usage: :why <line>');
      const word = asksShell(args, ctx.config);
      const kind = word === null ? undefined : await ctx.shell.wordKind(word, Infinity);
      ctx.render.info(explainRoute(args, ctx.config, (w) => (w === word ? kind : undefined), ctx.shell.routeContext()));
    },
  },
];
