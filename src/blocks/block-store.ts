// Every command's output as a numbered block, kept for the session (docs/usage.md "Blocks"): the
// command, its directory, exit status and time, and the text the model would read of it (the
// screen's text, capped as the pending output is, redacted). Kept in memory only and bounded: the
// newest `maxBlocks`, and no more than `maxChars` of text in all (the oldest go first). A private
// block keeps its command and exit status but never its text: there is nothing of it to leak.

import { privateMatch } from '../safety/policy.js';

export interface Block {
  /** Its number in the session, from 1. */
  readonly n: number;
  /** The command line, redacted. */
  readonly command: string;
  readonly cwd: string;
  readonly exitCode: number;
  readonly at: Date;
  /** What the model would read of it, redacted; '' for a private block. */
  readonly text: string;
  /** Lines of output (a private block's too: the count tells nothing of what they said). */
  readonly lines: number;
  /** Why the block is private (`:private on`, a marked line, a `privacy.private_commands` rule), or null. */
  readonly private: string | null;
}

/** What a finished command gives the store. */
export interface CommandRun {
  command: string;
  cwd: string;
  exitCode: number;
  /** The captured text, as the pending output gets it. */
  output: string;
  /** The line was marked private (`:private <command>`). */
  marked?: boolean;
}

export interface BlockStoreOptions {
  /** `privacy.private_commands`: glob patterns on the command line. */
  privateCommands: readonly string[];
  /** The session's one redactor. */
  redact: (text: string) => string;
  maxBlocks?: number;
  maxChars?: number;
  now?: () => Date;
}

/** The newest blocks kept. */
export const MAX_BLOCKS = 200;
/** The most text kept in all blocks together. */
export const MAX_BLOCK_CHARS = 2_000_000;

export class BlockStore {
  readonly #options: BlockStoreOptions;
  readonly #blocks: Block[] = [];
  #next = 1;
  #chars = 0;
  /** `:private on`: every block is private until `:private off`. */
  privateMode = false;

  constructor(options: BlockStoreOptions) {
    this.#options = options;
  }

  /** Why a run of `command` would be private, or null. Pure but for `privateMode`. */
  privacyOf(command: string, marked = false): string | null {
    if (marked) return 'marked private';
    if (this.privateMode) return ':private on';
    const rule = privateMatch(this.#options.privateCommands, command);
    return rule === undefined ? null : `privacy.private_commands: ${rule}`;
  }

  /** Keeps a finished run as the next block; the oldest go when past the bounds. */
  add(run: CommandRun): Block {
    const why = this.privacyOf(run.command, run.marked);
    const body = run.output.replace(/\n+$/, '');
    const { redact } = this.#options;
    const block: Block = {
      n: this.#next++,
      command: redact(run.command),
      cwd: run.cwd,
      exitCode: run.exitCode,
      at: this.#options.now?.() ?? new Date(),
      text: why === null ? redact(body) : '',
      lines: body === '' ? 0 : body.split('\n').length,
      private: why,
    };
    this.#blocks.push(block);
    this.#chars += block.text.length;
    const maxBlocks = this.#options.maxBlocks ?? MAX_BLOCKS;
    const maxChars = this.#options.maxChars ?? MAX_BLOCK_CHARS;
    while (this.#blocks.length > maxBlocks || (this.#chars > maxChars && this.#blocks.length > 1)) {
      this.#chars -= this.#blocks.shift()!.text.length;
    }
    return block;
  }

  /** The blocks kept, oldest first. */
  list(): readonly Block[] {
    return this.#blocks;
  }

  /** How many blocks the session has made (the number of the newest). */
  get made(): number {
    return this.#next - 1;
  }

  /** Block `n`, if it is still kept. */
  get(n: number): Block | undefined {
    const first = this.#blocks[0];
    return first ? this.#blocks[n - first.n] : undefined;
  }

  /** The newest block, if any. */
  newest(): Block | undefined {
    return this.#blocks.at(-1);
  }

  /** The kept blocks whose text has a line `pattern` matches, with those lines; private ones never. */
  grep(pattern: RegExp): Array<{ block: Block; lines: string[] }> {
    const found: Array<{ block: Block; lines: string[] }> = [];
    for (const block of this.#blocks) {
      if (block.private) continue;
      const lines = block.text.split('\n').filter((line) => pattern.test(line));
      if (lines.length > 0) found.push({ block, lines });
    }
    return found;
  }
}
