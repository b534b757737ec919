// :perms shows the rules for the model's CMD: lines; :perms check <command> says what the one
// approval policy decides for a command, and why (SPEC §11 permissions).

import { UsageError } from '../errors.js';
import type { Config } from '../config/schema.js';
import type { ApprovalGate } from '../safety/gate.js';
import type { MetaCommand, Say } from './types.js';

export interface PermsPort extends Say {
  readonly config: Pick<Config, 'permissions' | 'shell'>;
  readonly gate: Pick<ApprovalGate, 'judge'>;
}

const list = (items: readonly string[]) => (items.length ? items.join('  ') : '(none)');

export const permsCommands: MetaCommand<PermsPort>[] = [
  {
    name: 'perms',
    usage: '[check <command>]',
    summary: "the rules for the model's CMD: lines; test one with :perms check <command>",
    complete: (prefix) => ['check'].filter((w) => w.startsWith(prefix)),
    run(args, ctx) {
      const m = /^(\S*)\s*([\s\S]*)$/.exec(args.trim())!;
      const sub = m[1]!;
      if (sub === '') {
        const { allow, confirm, deny } = ctx.config.permissions;
        ctx.render.info(
          [
            `deny:    ${list(deny)}`,
            `confirm: ${list(confirm)}`,
            `allow:   ${list(allow)}`,
            `otherwise: ${ctx.config.shell.confirm_cmd ? 'ask (shell.confirm_cmd)' : 'run (shell.confirm_cmd is off)'}; a destructive command always asks, and so does one that changes the shell for later commands`,
          ].join('\n'),
        );
        return;
      }
      if (sub !== 'check' || m[2]!.trim() === '') throw new UsageError('usage: :perms [check <command>]');
      const decision = ctx.gate.judge({ type: 'command', command: m[2]!.trim() });
      ctx.render.info(`${decision.verdict}: ${decision.reason}`);
    },
  },
];
