// :trust lists the project configs trusted (path, hash, when); `:trust <path>` trusts one, showing
// what it would change first (on a terminal it asks, as at start-up; from a pipe the command is
// the answer); `:trust forget <path>` forgets one, so the next start there asks again. A change
// takes effect the next time aish starts (docs/security.md "Project trust").

import path from 'node:path';
import { projectRefusal, readConfigFile } from '../config/load.js';
import { sha256Hex, TrustStore } from '../config/trust-store.js';
import { UsageError, errorMessage } from '../errors.js';
import { plainQuestion, type AskKeyFn } from '../safety/confirm.js';
import { describeProjectConfig } from '../trust/describe.js';
import { askTrust } from '../trust/question.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { MetaCommand, Say } from './types.js';

export interface TrustPort extends Say {
  /** Paths are read from the shell's directory. */
  readonly shell: Pick<ShellRunner, 'cwd'>;
}

export interface TrustCommandsOptions {
  /** The store's file; undefined when aish keeps no state (nothing can be trusted). */
  storeFile: string | undefined;
  /** The REPL's one-key question on a terminal; null from a pipe. */
  askKey: AskKeyFn | null;
  now?: () => Date;
}

/** The `:trust` family, over the store at `storeFile` (read afresh by each command). */
export function trustCommands(opts: TrustCommandsOptions): MetaCommand<TrustPort>[] {
  const open = (ctx: TrustPort) => {
    const store = new TrustStore(opts.storeFile);
    if (store.problem) ctx.render.status(store.problem);
    return store;
  };
  return [
    {
      name: 'trust',
      usage: '[<path> | forget <path>]',
      summary: 'list trusted project configs, trust one (shows what it would change), or forget one',
      complete: (prefix) => ['forget'].filter((w) => w.startsWith(prefix)),
      async run(args, ctx) {
        const m = /^(\S*)\s*([\s\S]*)$/.exec(args.trim())!;
        if (m[1] === '') return list(open(ctx), ctx);
        if (m[1] === 'forget') {
          if (m[2]!.trim() === '') throw new UsageError('usage: :trust forget <path>');
          const file = path.resolve(ctx.shell.cwd, m[2]!.trim());
          if (!open(ctx).forget(file)) throw new UsageError(`${file} is not trusted (:trust lists the trusted files)`);
          ctx.render.status(`forgot ${file}: aish asks about it again the next time it starts there`);
          return;
        }
        const file = path.resolve(ctx.shell.cwd, args.trim());
        let config;
        try {
          config = readConfigFile(file);
        } catch (err) {
          throw new UsageError(`cannot read ${file}: ${errorMessage(err)}`);
        }
        const refused = projectRefusal(config);
        if (refused) throw new UsageError(`${file} cannot be trusted: ${refused.reason}`);
        const store = open(ctx);
        const sha256 = await sha256Hex(config.bytes);
        if (store.trusts(file, sha256)) {
          ctx.render.status(`${file} is already trusted as it is`);
          return;
        }
        const show = (text: string) => ctx.render.info(text);
        const previous = store.get(file);
        // From a pipe nobody can answer: typing the command was the answer.
        const { askKey } = opts;
        const yes = askKey
          ? await askTrust(config, { askKey: (question, keys, fallback) => askKey(plainQuestion(question, keys, fallback)), show }, previous)
          : (show(await describeProjectConfig(config, previous)), true);
        if (!yes) {
          ctx.render.status(`${file} stays untrusted`);
          return;
        }
        try {
          store.trust(file, sha256, (opts.now ?? (() => new Date()))());
        } catch (err) {
          throw new UsageError(errorMessage(err));
        }
        ctx.render.status(`trusted ${file}: it takes effect the next time aish starts there`);
      },
    },
  ];
}

async function list(store: TrustStore, ctx: TrustPort): Promise<void> {
  const entries = store.list();
  if (entries.length === 0) {
    ctx.render.info('no project config is trusted (:trust <path> trusts one)');
    return;
  }
  const lines = await Promise.all(entries.map(async (e) => `${e.sha256.slice(0, 12)}  ${e.trustedAt}  ${e.path}${await changed(e.path, e.sha256)}`));
  ctx.render.info(['sha256        trusted at                path', ...lines].join('\n'));
}

/** A note when the file is gone or its bytes are not the ones trusted any more. */
async function changed(file: string, sha256: string): Promise<string> {
  let config;
  try {
    config = readConfigFile(file);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? '  (missing)' : `  (cannot be read: ${errorMessage(err)})`;
  }
  return (await sha256Hex(config.bytes)) === sha256 ? '' : '  (changed since: aish asks again)';
}
