// The vocabulary of a tool call, whoever runs it (an MCP server or a built-in tool): the
// hints a server gives about a tool, and how a call ended: the body of the `role: "tool"` turn for
// the model, a short line for the person, and the fixed texts for calls that never ran. Every call
// the model makes gets exactly one outcome, so the conversation stays well formed.

/** Hints a server gives about a tool (MCP annotations); advisory, never trusted for safety alone. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  title?: string;
}

export interface ToolOutcome {
  /** `needs_approval`: the policy asks about it and nobody can be asked (`aish -p`), so it did not run. */
  status: 'ok' | 'error' | 'denied' | 'needs_approval' | 'cancelled';
  /** The body of the tool turn. */
  content: string;
  /** One short line for the tool frame; the content is shown shortened when absent. */
  display?: string;
  /** The tool flagged its own failure (`isError`, advisory: the content still goes to the model). */
  isError?: boolean;
  /** Things the person is told once per session (e.g. "image blocks reach the model as summaries"). */
  notices?: string[];
  /** A status line the person sees every time, besides the frame (a JSON-RPC error, seed 000 §4). */
  alert?: string;
}

/** A long call's report of how far it got (MCP `notifications/progress`): a count, out of `total` when known. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** `40%` or `3 of 5`-style text for a progress report, with its message: `60% · indexing src/`. */
export function progressText(p: ToolProgress, maxMessage = 60): string {
  const amount = p.total !== undefined && p.total > 0 ? `${Math.min(100, Math.max(0, Math.round((p.progress / p.total) * 100)))}%` : `${p.progress}`;
  const message = (p.message ?? '').replace(/\s+/g, ' ').trim();
  if (message === '') return amount;
  return `${amount} · ${message.length > maxMessage ? `${message.slice(0, maxMessage - 1)}…` : message}`;
}

/** The tool turn of a call cancelled by Ctrl-C, before or while it ran. */
export const CANCELLED_CALL = '[aish] tool call cancelled by user (Ctrl-C)';

/** The tool turn of a call to a name no tool host offers. */
export function unknownToolOutcome(name: string): ToolOutcome {
  return { status: 'error', content: `[aish] tool dispatch failed: no tool named ${name}` };
}

/** The tool turn of a call whose arguments break the tool's input schema. */
export function schemaMismatchOutcome(problems: readonly string[]): ToolOutcome {
  return { status: 'error', content: `[aish] tool arguments do not match the tool's input schema: ${problems.join('; ')}` };
}

/** The tool turn of a call the person (or the policy) declined. */
export const DECLINED_CALL = '[aish] tool call declined by user';

/**
 * The tool turn of a call that needs the person's approval where nobody can be asked (`aish -p`):
 * not run, and the model is told why, so it can answer without it.
 */
export const NEEDS_APPROVAL_CALL = '[aish] tool call not run: it needs approval and nobody can be asked here (aish -p runs only the tools mcp.auto_approve names)';
