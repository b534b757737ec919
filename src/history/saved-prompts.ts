// Prompts that repeat: `:prompt save <name>` keeps the last question sent to the model under a
// name in `<data dir>/prompts.json` (0600, written whole through a temporary file), so it lasts
// across sessions; `:prompt <name> [args]` sends it again with the args appended.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AishError, UsageError, fileWriteProblem } from '../errors.js';
import { isRecord } from '../is-record.js';
import { writePrivateFile } from '../private-file.js';

const NAME = /^[\w.-]{1,64}$/;

export class SavedPrompts {
  readonly #file: string | undefined;
  readonly #redact: (text: string) => string;

  /** `dir` is aish's XDG data dir; undefined keeps no prompts. Secrets are redacted before writing. */
  constructor(dir: string | undefined, redact: (text: string) => string = (text) => text) {
    this.#file = dir ? path.join(dir, 'prompts.json') : undefined;
    this.#redact = redact;
  }

  /** Every saved prompt, by name; a missing file is none, a broken one an error that says where. */
  list(): Record<string, string> {
    if (!this.#file) return {};
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new AishError('prompts', `cannot read ${this.#file}: ${(err as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AishError('prompts', `${this.#file} is not valid JSON; fix or remove it`);
    }
    if (!isRecord(parsed)) throw new AishError('prompts', `${this.#file} is not a JSON object of name → prompt`);
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  get(name: string): string | undefined {
    return this.list()[name];
  }

  save(name: string, text: string): void {
    if (!NAME.test(name)) throw new UsageError('a prompt name uses letters, digits, _ . - (at most 64)');
    this.#write({ ...this.list(), [name]: this.#redact(text) });
  }

  /** False when there was no such prompt. */
  forget(name: string): boolean {
    const all = this.list();
    if (!(name in all)) return false;
    delete all[name];
    this.#write(all);
    return true;
  }

  #write(prompts: Record<string, string>): void {
    if (!this.#file) throw new UsageError('saved prompts are off (no data directory)');
    try {
      writePrivateFile(this.#file, `${JSON.stringify(prompts, null, 2)}\n`);
    } catch (err) {
      throw new AishError('prompts', `cannot write ${this.#file}: ${fileWriteProblem(err)}; the saved prompts are as they were`, { cause: err });
    }
  }
}
