// The shape of a meta command and what it may use. One table of these drives `:help`, dispatch
// and Tab completion, so a command exists in all three or in none.

import type { Config } from '../config/schema.js';
import type { Renderer } from '../render/renderer.js';
import type { Conversation } from '../repl/conversation.js';
import type { McpRegistry } from '../mcp/registry.js';
import type { MemoryStore } from '../memory/store.js';

/** What meta commands can see and do; the app implements it. */
export interface MetaContext {
  readonly config: Config;
  readonly render: Renderer;
  /** The conversation: context, pending exec output, session log. */
  readonly conversation: Conversation;
  readonly commands: readonly MetaCommand[];
  /** The MCP servers of this session. */
  readonly mcp: McpRegistry;
  /** Long-term memory (memory.jsonl). */
  readonly memory: MemoryStore;
  /** `:memory summarize`: proposes items from this session and asks about each. */
  summarizeMemory(signal: AbortSignal): Promise<void>;
  /** The preset user lines go to. */
  activeModel: string;
  /** Runs a line in the shell exactly as if typed (builtins, frame, pending buffer). */
  runShellLine(command: string, signal: AbortSignal): Promise<void>;
  /** Sends text to the model as a user turn, whatever the router would say. */
  askModel(text: string, signal: AbortSignal): Promise<void>;
  /** Runs Norris mode toward `goal` until it ends. */
  runNorris(goal: string, signal: AbortSignal): Promise<void>;
  readonly norrisRunning: boolean;
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
  /** Candidates for the argument being typed (Tab). */
  complete?(argPrefix: string, ctx: MetaContext): string[];
  run(args: string, ctx: MetaContext, signal: AbortSignal): Promise<void> | void;
}
