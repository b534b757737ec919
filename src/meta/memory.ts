// :remember and :memory add|list|forget|clear|inject|summarize — the long-term memory store.

import { UsageError } from '../errors.js';
import { MEMORY_KINDS } from '../memory/store.js';
import type { Config } from '../config/schema.js';
import type { MemoryStore } from '../memory/store.js';
import type { MetaCommand, Say } from './types.js';

export interface MemoryPort extends Say {
  readonly config: Pick<Config, 'memory'>;
  readonly memory: Pick<MemoryStore, 'add' | 'list' | 'forget' | 'clear' | 'inject'>;
  /** `:memory summarize`: proposes items from this session and asks about each. */
  summarize(signal: AbortSignal): Promise<void>;
}

const SUBCOMMANDS = ['add', 'list', 'forget', 'clear', 'inject', 'summarize'];

function store(ctx: MemoryPort) {
  if (!ctx.config.memory.enabled) throw new UsageError('memory is off (memory.enabled: false)');
  return ctx.memory;
}

export const memoryCommands: MetaCommand<MemoryPort>[] = [
  {
    name: 'remember',
    usage: '<text>',
    summary: 'keep a fact in long-term memory (sent as [background])',
    run(args, ctx) {
      const text = args.trim();
      if (!text) throw new UsageError('usage: :remember <text>');
      const item = store(ctx).add('fact', text);
      ctx.render.status(`remembered #${item.id}`);
    },
  },
  {
    name: 'memory',
    usage: 'add <fact|pref|context> <text> | list | forget <id> | clear | inject | summarize',
    summary: 'long-term memory across sessions',
    complete: (prefix) => [...SUBCOMMANDS, ...MEMORY_KINDS].filter((w) => w.startsWith(prefix)),
    async run(args, ctx, signal) {
      const [sub = 'list', ...rest] = args.trim().split(/\s+/).filter(Boolean);
      const memory = store(ctx);
      switch (sub) {
        case 'add': {
          const [kind, ...words] = rest;
          if (!kind || words.length === 0) throw new UsageError('usage: :memory add <fact|pref|context> <text>');
          const item = memory.add(kind, words.join(' '));
          ctx.render.status(`remembered #${item.id} (${item.kind})`);
          return;
        }
        case 'list': {
          const items = memory.list();
          ctx.render.info(items.length ? items.map((i) => `#${i.id}  (${i.kind}) ${i.content}`).join('\n') : 'memory is empty');
          return;
        }
        case 'forget': {
          const id = Number(rest[0]?.replace(/^#/, ''));
          if (!Number.isInteger(id)) throw new UsageError('usage: :memory forget <id>');
          if (!memory.forget(id)) throw new UsageError(`no memory item #${id}`);
          ctx.render.status(`forgot #${id}`);
          return;
        }
        case 'clear':
          ctx.render.status(`forgot ${memory.clear()} item(s)`);
          return;
        case 'inject': {
          const block = memory.inject(ctx.config.memory.max_inject_chars);
          ctx.render.info(block || '(memory is empty: no [background] block is sent)');
          return;
        }
        case 'summarize':
          await ctx.summarize(signal);
          return;
        default:
          throw new UsageError(`unknown :memory subcommand "${sub}" (${SUBCOMMANDS.join(', ')})`);
      }
    },
  },
];
