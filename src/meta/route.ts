// :route on|off|classes|check <text> and :fallback on|off — per-request routing at runtime.

import { UsageError } from '../errors.js';
import { classifyText } from '../model-routing/classify.js';
import type { Config } from '../config/schema.js';
import type { TurnCore } from '../turn/core.js';
import type { ConversationPort, MetaCommand, Say } from './types.js';

export interface RoutePort extends Say {
  readonly config: Pick<Config, 'routing'>;
  readonly core: Pick<TurnCore, 'routing'>;
  readonly conversation: Pick<ConversationPort, 'activeModel'>;
}

const onOff = (prefix: string) => ['on', 'off'].filter((w) => w.startsWith(prefix));

export const routeCommands: MetaCommand<RoutePort>[] = [
  {
    name: 'route',
    usage: 'on|off|classes|check <text>',
    summary: 'per-request model routing: switch it, show the classes, test a line',
    complete: (prefix) => ['on', 'off', 'classes', 'check'].filter((w) => w.startsWith(prefix)),
    run(args, ctx) {
      const [sub = '', ...rest] = args.trim().split(/\s+/);
      const routing = ctx.core.routing;
      const classes = ctx.config.routing.classes;
      switch (sub) {
        case 'on':
        case 'off':
          routing.auto = sub === 'on';
          ctx.render.status(`routing ${sub}`);
          return;
        case '':
        case 'classes': {
          const lines = (['code', 'reasoning', 'default'] as const).map((cls) => `  ${cls.padEnd(9)} → ${classes[cls] ?? `(active model: ${ctx.conversation.activeModel})`}`);
          ctx.render.info([`routing is ${routing.auto ? 'on' : 'off'}`, ...lines].join('\n'));
          return;
        }
        case 'check': {
          const text = rest.join(' ');
          if (!text) throw new UsageError('usage: :route check <text>');
          const { cls, reason } = classifyText(text);
          const preset = classes[cls];
          const model = ctx.conversation.activeModel;
          const target = !routing.auto ? `${model} (routing is off)` : (preset ?? `${model} (no preset for ${cls})`);
          ctx.render.info(`${cls}: ${reason} → ${target}`);
          return;
        }
        default:
          throw new UsageError('usage: :route on|off|classes|check <text>');
      }
    },
  },
  {
    name: 'fallback',
    usage: 'on|off',
    summary: 'retry a failed local request once on routing.fallback_model',
    complete: onOff,
    run(args, ctx) {
      const sub = args.trim();
      const routing = ctx.core.routing;
      if (sub === '') {
        ctx.render.info(`fallback is ${routing.cloudFallback ? 'on' : 'off'} (fallback_model: ${ctx.config.routing.fallback_model ?? 'not set'})`);
        return;
      }
      if (sub !== 'on' && sub !== 'off') throw new UsageError('usage: :fallback on|off');
      if (sub === 'on' && !ctx.config.routing.fallback_model) throw new UsageError('set routing.fallback_model in the config first');
      routing.cloudFallback = sub === 'on';
      ctx.render.status(`fallback ${sub}`);
    },
  },
];
