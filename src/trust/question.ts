// The one question about a project config, asked at start-up and by `:trust <path>`: what the
// file would change, then `[aish] trust <path>? [y/N/v]`, answered by one key; `v` shows the file
// and asks again. No is the default, and so is an input that ends.

import type { ConfigFile, RefusedConfig } from '../config/load.js';
import type { TrustEntry } from '../config/trust-store.js';
import { describeProjectConfig } from './describe.js';

export interface TrustQuestionIo {
  /** Asks a question answered by one key of `keys` (Enter: `fallback`); null when nobody answered. */
  askKey(question: string, keys: string, fallback: string): Promise<string | null>;
  /** Shows text from the file, or about it, sanitized. */
  show(text: string): void;
}

/** Shows what `file` would change and asks; true only for `y`. */
export async function askTrust(file: ConfigFile, io: TrustQuestionIo, previous?: TrustEntry): Promise<boolean> {
  io.show(await describeProjectConfig(file, previous));
  for (;;) {
    const answer = await io.askKey(`[aish] trust ${file.path}? [y/N/v] `, 'ynv', 'n');
    if (answer !== 'v') return answer === 'y';
    io.show(`----- ${file.path}\n${file.text.replace(/\n$/, '')}\n----- end of ${file.path}`);
  }
}

/** The status line for a project config passed over, naming the two ways to trust it. */
export function ignoredLine(file: string): string {
  return `ignored project config ${file} (not trusted): start aish there on a terminal and answer y, or type :trust ${file}`;
}

/** The status line for a project config refused unread or unrun (a FIFO, a link out of its project, a local import). */
export function refusedLine(file: RefusedConfig): string {
  return `passed over project config ${file.path}: ${file.reason}`;
}
