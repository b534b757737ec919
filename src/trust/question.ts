// The one question about a project config, asked at start-up and by `:trust <path>`: what the
// file would change, then `[aish] trust <path>? [y/N/v]`; `v` shows the file and asks again. No
// is the default, and so is an input that ends.

import type { ConfigFile } from '../config/load.js';
import type { TrustEntry } from '../config/trust-store.js';
import { describeProjectConfig } from './describe.js';

export interface TrustQuestionIo {
  /** Asks one question; null when the input ended. */
  ask(question: string): Promise<string | null>;
  /** Shows text from the file, or about it, sanitized. */
  show(text: string): void;
}

/** Shows what `file` would change and asks; true only for `y`. */
export async function askTrust(file: ConfigFile, io: TrustQuestionIo, previous?: TrustEntry): Promise<boolean> {
  io.show(await describeProjectConfig(file, previous));
  for (;;) {
    const answer = (await io.ask(`[aish] trust ${file.path}? [y/N/v] `))?.trim().toLowerCase() ?? '';
    if (answer !== 'v' && answer !== 'view') return answer === 'y' || answer === 'yes';
    io.show(`----- ${file.path}\n${file.text.replace(/\n$/, '')}\n----- end of ${file.path}`);
  }
}

/** The status line for a project config passed over, naming the two ways to trust it. */
export function ignoredLine(file: string): string {
  return `ignored project config ${file} (not trusted): start aish there on a terminal and answer y, or type :trust ${file}`;
}
