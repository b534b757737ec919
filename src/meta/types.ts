// The shape of a meta command and what it may use. Each family of commands declares the port it
// needs (the few parts and actions it uses, `CorePort`, `McpPort`...) and is bound to it when the
// session is built (`bind`); nothing else of the session is within its reach. One table of bound
// commands drives `:help`, dispatch and Tab completion, so a command exists in all three or in none.

import type { Renderer } from '../render/renderer.js';

/** What `:help` shows of a command. */
export interface CommandInfo {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** Argument synopsis shown by `:help`, e.g. `<name>`. */
  readonly usage: string;
  readonly summary: string;
}

export interface MetaCommand<P> extends CommandInfo {
  /**
   * Candidates for the argument being typed (Tab); `args` is everything typed after the command
   * name. A promise when a server is asked (it is waited for).
   */
  complete?(argPrefix: string, ctx: P, args?: string): string[] | Promise<string[]>;
  run(args: string, ctx: P, signal: AbortSignal): Promise<void> | void;
}

/** A command with its port: what dispatch, Tab and `:help` see. */
export interface BoundCommand extends CommandInfo {
  complete?(argPrefix: string, args?: string): string[] | Promise<string[]>;
  run(args: string, signal: AbortSignal): Promise<void> | void;
}

/** What every family may use: where its lines go. */
export interface Say {
  readonly render: Pick<Renderer, 'info' | 'status'>;
}

/** The person's conversation with the model (repl/conversation.ts). */
export interface ConversationPort {
  /** The preset user lines go to. */
  activeModel: string;
  /** The last line sent to the model as typed (before `@file` attachments), or null. */
  readonly lastQuestion: string | null;
  /**
   * Sends text to the model as a user turn, whatever the line router would say; `@` mentions are
   * attached unless `mentions: false` (text from a server, which must not reach the person's files).
   */
  ask(text: string, signal: AbortSignal, options?: { mentions?: boolean }): Promise<void>;
  /** Empties the conversation and the pending buffer. */
  reset(): void;
}

/**
 * Asks for a line of text in the middle of a command, `complete` answering Tab; null when nobody
 * can answer (no terminal), on Ctrl-C (the line's signal is aborted then) or Ctrl-D.
 */
export type AskLine = (question: string, complete?: (typed: string) => Promise<string[]>) => Promise<string | null>;

/** `commands` with `port` given to each. */
export function bind<P>(commands: readonly MetaCommand<P>[], port: P): BoundCommand[] {
  return commands.map((c) => {
    const complete = c.complete;
    return {
      name: c.name,
      ...(c.aliases ? { aliases: c.aliases } : {}),
      usage: c.usage,
      summary: c.summary,
      ...(complete ? { complete: (prefix: string, args?: string) => complete(prefix, port, args) } : {}),
      run: (args: string, signal: AbortSignal) => c.run(args, port, signal),
    };
  });
}
