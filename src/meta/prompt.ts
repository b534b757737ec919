// :prompt save <name> keeps the last question sent to the model; :prompt <name> [args] sends it
// again with the args appended; :prompt lists them; :prompt forget <name> removes one.
// :prompt <alias>:<name> [key=value ...] runs an MCP server's prompt (server-prompt.ts).

import { UsageError } from '../errors.js';
import type { SavedPrompts } from '../history/saved-prompts.js';
import { completeServerPrompt, isServerPrompt, runServerPrompt, type ServerPromptPort } from './server-prompt.js';
import type { ConversationPort, MetaCommand } from './types.js';

export interface PromptPort extends ServerPromptPort {
  readonly prompts: Pick<SavedPrompts, 'list' | 'get' | 'save' | 'forget'>;
  readonly conversation: Pick<ConversationPort, 'ask' | 'lastQuestion'>;
}

export const promptCommands: MetaCommand<PromptPort>[] = [
  {
    name: 'prompt',
    usage: '[save <name> | forget <name> | <name> [args] | <alias>:<name> [key=value ...]]',
    summary: "saved prompts: save the last question, send one again with args, list them; an MCP server's prompt",
    async complete(prefix, ctx, args = '') {
      const servers = await completeServerPrompt(ctx, prefix, args);
      if (/\s/.test(args.trimStart())) return servers;
      return [...['save', 'forget', ...Object.keys(ctx.prompts.list())].filter((w) => w.startsWith(prefix)), ...servers];
    },
    async run(args, ctx, signal) {
      const [first = '', ...rest] = args.trim().split(/\s+/).filter(Boolean);
      if (isServerPrompt(first, ctx) && ctx.prompts.get(first) === undefined) {
        await runServerPrompt(ctx, first, args.trim().slice(first.length), signal);
        return;
      }
      if (first === '') {
        const all = Object.entries(ctx.prompts.list());
        const width = Math.max(0, ...all.map(([name]) => name.length));
        ctx.render.info(all.length ? all.map(([name, text]) => `${name.padEnd(width)}  ${text.replace(/\s+/g, ' ')}`).join('\n') : 'no saved prompts (:prompt save <name> keeps the last question)');
        return;
      }
      if (first === 'save') {
        const name = rest[0];
        if (!name || rest.length > 1) throw new UsageError('usage: :prompt save <name>');
        const last = ctx.conversation.lastQuestion;
        if (last === null) throw new UsageError('no question sent to the model yet');
        ctx.prompts.save(name, last);
        ctx.render.status(`saved prompt ${name}`);
        return;
      }
      if (first === 'forget') {
        const name = rest[0];
        if (!name) throw new UsageError('usage: :prompt forget <name>');
        if (!ctx.prompts.forget(name)) throw new UsageError(`no saved prompt named ${name}`);
        ctx.render.status(`forgot prompt ${name}`);
        return;
      }
      const saved = ctx.prompts.get(first);
      if (saved === undefined) throw new UsageError(`no saved prompt named ${first} (:prompt lists them)`);
      await ctx.conversation.ask(rest.length ? `${saved} ${rest.join(' ')}` : saved, signal);
    },
  },
];
