// What a tool call resolves to (SPEC §6 "Results"): content for the model's tool turn, a short
// display line for the person, and notices. Pure: flattening of MCP content blocks, the size cap,
// and the fixed `[aish] ...` texts for failures, so every call gets exactly one tool turn.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CANCELLED_CALL, type ToolOutcome as CallOutcome } from '../tool-call.js';

/**
 * The result of one MCP tool call; never a rejection. `ok` also covers a server that flagged its
 * own failure (`isError: true`). `error` is a dispatch or transport failure, `cancelled` a Ctrl-C.
 * Always carries a display line and its notices.
 */
export interface ToolOutcome extends CallOutcome {
  status: 'ok' | 'error' | 'cancelled';
  display: string;
  notices: string[];
}

/** Default for `mcp.max_result_chars`. */
export const DEFAULT_MAX_RESULT_CHARS = 16_000;

/** A call that was cancelled before or while it ran. */
export function cancelledOutcome(): ToolOutcome {
  return { status: 'cancelled', content: CANCELLED_CALL, display: 'cancelled', notices: [] };
}

/** The server (or aish, for an unknown tool) refused the call: a JSON-RPC error. */
export function dispatchFailedOutcome(message: string): ToolOutcome {
  const line = oneLine(message);
  return { status: 'error', content: `[aish] tool dispatch failed: ${line}`, display: `dispatch failed: ${line}`, notices: [], alert: `tool dispatch failed: ${line}` };
}

/** The call never got an answer: transport failure, dead server, timeout. */
export function transportErrorOutcome(message: string): ToolOutcome {
  const line = oneLine(message);
  return { status: 'error', content: `[aish] tool transport error: ${line}`, display: `transport error: ${line}`, notices: [] };
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Bytes encoded by a base64 string. */
function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** `512 B`, `5 KB`, `1.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

type Block = CallToolResult['content'][number];

/** One line standing in for a non-text block, or undefined for text. */
function summarizeBlock(block: Block): string | undefined {
  switch (block.type) {
    case 'text':
      return undefined;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType || 'unknown type'}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource':
      return `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource_link ${block.uri}]`;
    default:
      return `[${String((block as { type?: unknown }).type)} block]`;
  }
}

/**
 * Cuts `text` to about `max` characters keeping head (70 %) and tail, with a note in between
 * saying how much went. Never splits a surrogate pair.
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = Math.ceil(max * 0.7);
  let tailStart = text.length - (max - head);
  if (/[\uD800-\uDBFF]/.test(text[head - 1] ?? '')) head--;
  if (/[\uDC00-\uDFFF]/.test(text[tailStart] ?? '')) tailStart++;
  const cut = tailStart - head;
  return `${text.slice(0, head)}\n[... ${cut} chars cut by aish ...]\n${text.slice(tailStart)}`;
}

function displayLine(content: string): string {
  const lines = content.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return '(empty result)';
  let first = lines[0]!.trim();
  if (first.length > 100) first = `${first.slice(0, 99)}…`;
  return lines.length > 1 ? `${first} (+${lines.length - 1} more lines)` : first;
}

/**
 * Flattens a `tools/call` result: text blocks joined by `\n`, every other block replaced by one
 * line (`[image image/png, 5 KB]`, `[resource demo://x]`, `[resource_link demo://x]`) plus one
 * notice per kind; `structuredContent` stands in when there is no content; over `maxResultChars`
 * the text is cut (see `capText`). `isError` is passed through, the status stays `ok`.
 */
export function outcomeFromResult(result: CallToolResult, maxResultChars = DEFAULT_MAX_RESULT_CHARS): ToolOutcome {
  const parts: string[] = [];
  const kinds = new Set<string>();
  for (const block of result.content ?? []) {
    const summary = summarizeBlock(block);
    if (summary === undefined) {
      parts.push((block as { text: string }).text);
    } else {
      parts.push(summary);
      kinds.add(block.type);
    }
  }
  let content = parts.join('\n');
  if (parts.length === 0 && result.structuredContent !== undefined) content = JSON.stringify(result.structuredContent);
  const capped = capText(content, maxResultChars);
  const isError = result.isError === true;
  const notices = [...kinds].map((k) => `${k} blocks in tool results reach the model as one-line summaries`);
  if (capped.length !== content.length) notices.push(`a tool result over ${maxResultChars} characters was cut (mcp.max_result_chars)`);
  const display = isError ? `tool reported an error: ${displayLine(content)}` : displayLine(content);
  return { status: 'ok', content: capped, display, isError, notices };
}
