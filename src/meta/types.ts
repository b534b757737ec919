// The shape of a meta command and what it may use. One table of these drives `:help`, dispatch
// and Tab completion, so a command exists in all three or in none.

import type { Config } from '../config/schema.js';
import type { SavedPrompts } from '../history/saved-prompts.js';
import type { SessionStore } from '../history/session.js';
import type { McpRegistry } from '../mcp/registry.js';
import type { MemoryStore } from '../memory/store.js';
import type { NorrisMode } from '../norris/mode.js';
import type { Renderer } from '../render/renderer.js';
import type { ApprovalGate } from '../safety/gate.js';
import type { ShellRunner } from '../shell/shell-runner.js';
import type { TurnCore } from '../turn/core.js';
import type { ToolControls } from '../turn/types.js';
import type { Checkpoints } from '../undo/checkpoints.js';

/** What meta commands can see and do: the session's parts, and a few actions of the REPL. */
export interface MetaContext {
  readonly config: Config;
  readonly render: Renderer;
  readonly commands: readonly MetaCommand[];
  /** The conversation: context, pending exec output, routing switches. */
  readonly core: TurnCore;
  /** The session log: list, save, resume. */
  readonly sessions: SessionStore;
  /** Shell lines: cwd, environment, last status. */
  readonly shell: ShellRunner;
  /** The MCP servers of this session. */
  readonly mcp: McpRegistry;
  /** Every tool of the session (built-ins and MCP), switched on and off by `:tools`. */
  readonly tools: ToolControls;
  /** Long-term memory (memory.jsonl). */
  readonly memory: MemoryStore;
  readonly norris: NorrisMode;
  /** Checkpoints of the trees aish ran commands in, and `:undo`. */
  readonly undo: Checkpoints;
  /** The one approval gate (`:perms check`). */
  readonly gate: ApprovalGate;
  /** The preset user lines go to. */
  activeModel: string;
  /** Saved prompts (`:prompt`). */
  readonly prompts: SavedPrompts;
  /** The last line sent to the model as typed (before `@file` attachments), or null. */
  readonly lastQuestion: string | null;
  /**
   * Asks for a line of text in the middle of a command, `complete` answering Tab; null when nobody
   * can answer (no terminal), on Ctrl-C (the line's signal is aborted then) or Ctrl-D.
   */
  askLine(question: string, complete?: (typed: string) => Promise<string[]>): Promise<string | null>;
  /** Runs Norris toward `goal` until it ends; lines typed meanwhile reach it. */
  runNorris(goal: string, signal: AbortSignal): Promise<void>;
  /** One input as if typed (`:edit`): routed to the shell, a meta command or the model. */
  runInput(text: string, signal: AbortSignal): Promise<void>;
  /**
   * `:edit`: composes a line in $VISUAL/$EDITOR starting from `initial`; null when cancelled
   * (the reason is already shown). Throws a UsageError without a terminal.
   */
  composeLine(initial: string): Promise<string | null>;
  /**
   * Sends text to the model as a user turn, whatever the line router would say; `@` mentions are
   * attached unless `mentions: false` (text from a server, which must not reach the person's files).
   */
  askModel(text: string, signal: AbortSignal, options?: { mentions?: boolean }): Promise<void>;
  /** `:memory summarize`: proposes items from this session and asks about each. */
  summarizeMemory(signal: AbortSignal): Promise<void>;
  /** The `[project]` block the model gets for the current directory; null outside a git work tree. */
  projectBlock(): Promise<string | null>;
  /** Empties the conversation and the pending buffer. */
  resetConversation(): void;
  clearScreen(): void;
  quit(): void;
}

export interface MetaCommand {
  name: string;
  aliases?: readonly string[];
  /** Argument synopsis shown by `:help`, e.g. `<name>`. */
  usage: string;
  summary: string;
  /**
   * Candidates for the argument being typed (Tab); `args` is everything typed after the command
   * name. A promise when a server is asked (it is waited for).
   */
  complete?(argPrefix: string, ctx: MetaContext, args?: string): string[] | Promise<string[]>;
  run(args: string, ctx: MetaContext, signal: AbortSignal): Promise<void> | void;
}
