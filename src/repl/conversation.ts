// The person's side of the conversation with the model: which preset their lines go to, the last
// question they typed, how many they asked, and a line for the model with its `@path`,
// `@alias:<uri>` and `@out` mentions attached.

import type { BlockStore } from '../blocks/block-store.js';
import { attachBlocks } from '../blocks/out-mentions.js';
import type { Config } from '../config/schema.js';
import type { ConversationPort } from '../meta/types.js';
import { attachMentions, type ResourceReader } from '../project/mentions.js';
import type { TurnCore } from '../turn/core.js';

export interface ConversationParts {
  config: Config;
  core: Pick<TurnCore, 'ask' | 'reset'> & { readonly pending: { holds(n: number): boolean } };
  /** The session's output blocks, for `@out` mentions. */
  blocks: Pick<BlockStore, 'list' | 'get' | 'made'>;
  /** The directory and environment mentions are read in. */
  shell: { readonly cwd: string; readonly env: Record<string, string | undefined> };
  /** `@alias:<uri>` mentions: the MCP servers' resources. */
  resources: ResourceReader;
  /** The tree's first snapshot, made while the model thinks (it may propose a command). */
  prepare: (cwd: string) => void;
  status: (message: string) => void;
  /** The preset user lines go to (`--model`, else `default_model`, at start). */
  active: { name: string };
}

export class Conversation implements ConversationPort {
  #lastQuestion: string | null = null;
  #turn = 0;
  readonly #parts: ConversationParts;

  constructor(parts: ConversationParts) {
    this.#parts = parts;
  }

  /** The preset user lines go to (`:model`). */
  get activeModel(): string {
    return this.#parts.active.name;
  }

  set activeModel(name: string) {
    this.#parts.active.name = name;
  }

  /** The last line sent to the model as typed (before `@file` attachments), or null. */
  get lastQuestion(): string | null {
    return this.#lastQuestion;
  }

  /** Questions asked since the start or the last `:reset` (the prompt's `{turn}`). */
  get turn(): number {
    return this.#turn;
  }

  /**
   * A line for the model: `@out`, `@path` and `@alias:<uri>` mentions are attached first (a block,
   * file or resource that is missing, or a private block, stops it here). Text that is not the person's (a server's prompt) is sent as it is,
   * `mentions: false`, and is not kept as the last question.
   */
  async ask(text: string, signal: AbortSignal, options: { mentions?: boolean } = {}): Promise<void> {
    const { core, shell, config } = this.#parts;
    if (options.mentions === false) {
      this.#turn++;
      await core.ask(text, this.activeModel, signal);
      return;
    }
    // Blocks first: they are in memory, and a wrong one stops the line before any file is read.
    const blocks = attachBlocks(text, this.#parts.blocks, (n) => core.pending.holds(n));
    const attached = await attachMentions(text, shell.cwd, shell.env.HOME, config.shell.capture_max_chars, this.#parts.resources, signal);
    for (const note of [...blocks.notes, ...attached.notes]) this.#parts.status(note);
    this.#lastQuestion = text;
    this.#turn++;
    this.#parts.prepare(shell.cwd);
    await core.ask([attached.text, ...blocks.attachments].join('\n\n'), this.activeModel, signal);
  }

  /** Empties the conversation and the pending buffer. */
  reset(): void {
    this.#parts.core.reset();
    this.#turn = 0;
  }
}
