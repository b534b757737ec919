// Project trust at start-up (main.ts hands this to the config search): a project config the store
// trusts with these bytes is used; on a terminal any other is asked about before anything of it
// runs; without one (a pipe, `-p`) it is passed over with one status line. Answers `y` are kept.

import type { ConfigFile, TrustAnswer } from '../config/load.js';
import { sha256Hex, TrustStore } from '../config/trust-store.js';
import { errorMessage } from '../errors.js';
import type { Renderer } from '../render/renderer.js';
import { neutralize } from '../render/sanitize.js';
import { askTrust, ignoredLine } from './question.js';
import { readKey } from './read-answer.js';

export interface StartTrustOptions {
  render: Renderer;
  /** The store's file; undefined when aish keeps no state (an answer `y` then lasts one run). */
  storeFile: string | undefined;
  /** Standard input when it is a terminal aish may ask on; else nothing is asked. */
  terminal?: NodeJS.ReadableStream | undefined;
  now?: () => Date;
}

/** The trust decision for each project config found at start-up. */
export function trustAtStart(opts: StartTrustOptions): (file: ConfigFile) => Promise<TrustAnswer> {
  const { render, terminal } = opts;
  const store = new TrustStore(opts.storeFile);
  if (store.problem) render.status(store.problem);
  return async (file) => {
    const sha256 = await sha256Hex(file.bytes);
    if (store.trusts(file.path, sha256)) return 'use';
    const yes =
      terminal !== undefined &&
      (await askTrust(
        file,
        { askKey: (question, keys, fallback) => readKey(terminal, render.io.output, neutralize(question), keys, fallback), show: (text) => render.info(text) },
        store.get(file.path),
      ));
    if (!yes) {
      render.status(ignoredLine(file.path));
      return 'ignore';
    }
    try {
      store.trust(file.path, sha256, (opts.now ?? (() => new Date()))());
    } catch (err) {
      render.error(`${errorMessage(err)}: ${file.path} is trusted for this run only`);
    }
    return 'use';
  };
}
