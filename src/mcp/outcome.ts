// What a tool call resolves to (SPEC §6 "Results"): content for the model's tool turn, a short
// display line for the person, and notices. Pure: flattening of MCP content blocks, the size cap,
// and the fixed `[aish] ...` texts for failures, so every call gets exactly one tool turn.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CANCELLED_CALL, type ToolOutcome } from '../tool-call.js';

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

/** The server answered, but its `structuredContent` breaks the tool's `outputSchema` (or is missing). */
export function invalidResultOutcome(message: string): ToolOutcome {
  const line = oneLine(message);
  return { status: 'error', content: `[aish] tool result rejected: ${line}`, display: `result rejected: ${line}`, notices: [], alert: `tool result rejected: ${line}` };
}

/** The SDK's own check of a result against the tool's `outputSchema` failed (it throws before returning). */
export function isOutputSchemaFailure(message: string): boolean {
  return /^(MCP error -?\d+: )?(Tool .* has an output schema but did not return structured content|Structured content does not match the tool's output schema|Failed to validate structured content)/.test(message);
}

/**
 * The server answered with one message too large to read over stdio: it was skipped, so nothing
 * of the result is known, and the server stays connected. The model is told to ask for less.
 */
export function tooLargeOutcome(bytes: number, limit: number): ToolOutcome {
  const line = `the server sent ${formatBytes(bytes)} in one message, more than the ${formatBytes(limit)} aish reads over stdio; nothing of it was kept, the server stays connected`;
  return {
    status: 'error',
    content: `[aish] tool result too large: ${line}. Ask for less (a narrower range, a filter, a page).`,
    display: `result too large: ${formatBytes(bytes)}`,
    notices: [],
    alert: `tool result too large: ${line}`,
  };
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
export function base64Bytes(data: string): number {
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

/** One line of a link's or resource's name and description, '' when it has neither. */
function about(name: unknown, description: unknown): string {
  const words = [name, description].filter((w): w is string => typeof w === 'string' && w.trim() !== '').map((w) => w.replace(/\s*\n\s*/g, ' ').trim());
  return words.length ? ` ${words.join(': ')}` : '';
}

/**
 * What the model reads for a block: text as is; a resource link as one line with its URI, name
 * and description; an embedded text resource as a header line and its text; anything binary as one
 * summary line. `summary` marks the blocks that lost their body (a one-time notice names them).
 * Prompt messages (`prompts/get`) carry the same blocks and are flattened the same way.
 */
export function flattenBlock(block: Block): { text: string; summary: boolean } {
  switch (block.type) {
    case 'text':
      return { text: block.text, summary: false };
    case 'image':
    case 'audio':
      return { text: `[${block.type} ${block.mimeType || 'unknown type'}, ${formatBytes(base64Bytes(block.data))}]`, summary: true };
    case 'resource': {
      const { resource } = block;
      const mime = resource.mimeType ? ` (${resource.mimeType})` : '';
      if ('text' in resource && typeof resource.text === 'string') return { text: `[resource ${resource.uri}${mime}]\n${resource.text}`, summary: false };
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? `, ${formatBytes(base64Bytes(resource.blob))}` : '';
      return { text: `[resource ${resource.uri}${mime}${blob}]`, summary: true };
    }
    case 'resource_link':
      return { text: `[resource_link ${block.uri}]${about(block.name, block.description)}`, summary: false };
    default:
      return { text: `[${String((block as { type?: unknown }).type)} block]`, summary: true };
  }
}

/** Equal JSON values, whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** What the text blocks say as values: each text as it is and, when it is JSON, parsed. */
function textValues(blocks: readonly Block[]): unknown[] {
  const values: unknown[] = [];
  for (const b of blocks) {
    if (b.type !== 'text') continue;
    values.push(b.text);
    try {
      values.push(JSON.parse(b.text));
    } catch {
      // Not JSON: only the text itself can match.
    }
  }
  return values;
}

/**
 * The part of `structured` the content blocks do not already carry, or undefined when they carry
 * all of it. Servers on the SDK must answer an object, so they wrap what their text says: the
 * spec's backward-compatible copy (a text block that is the same JSON), server-filesystem's
 * `{content: <the text>}` (or `{content: <the blocks>}`), server-memory's array beside
 * `{entities: [...]}`. A top-level value equal to a text block (or its JSON, or the content
 * blocks themselves) is left out; what remains is sent, so nothing is lost.
 */
export function structuredRemainder(blocks: readonly Block[], structured: unknown): unknown {
  const said = textValues(blocks);
  if (said.some((v) => sameJson(v, structured))) return undefined;
  if (typeof structured !== 'object' || structured === null || Array.isArray(structured)) return structured;
  const carried = (value: unknown) => said.some((v) => sameJson(v, value)) || sameJson(value, blocks) || blocks.some((b) => sameJson(value, b));
  const rest = Object.fromEntries(Object.entries(structured).filter(([, value]) => !carried(value)));
  return Object.keys(rest).length === 0 ? undefined : rest;
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
 * Flattens a `tools/call` result into what the model reads: text blocks joined by `\n`; resource
 * links as `[resource_link <uri>] <name>: <description>`; embedded text resources as
 * `[resource <uri> (<mime>)]` and their text; binary blocks as one line (`[image image/png, 5 KB]`)
 * plus one notice per kind. `structuredContent` (already checked against the tool's
 * `outputSchema` by the SDK) follows as `[structured content] <json>`, without what the blocks
 * already say (`structuredRemainder`), so a file read is sent once and cut in one place. Over
 * `maxResultChars` the text is cut (see `capText`). `isError` is passed
 * through, the status stays `ok`.
 */
export function outcomeFromResult(result: CallToolResult, maxResultChars = DEFAULT_MAX_RESULT_CHARS): ToolOutcome {
  const parts: string[] = [];
  const kinds = new Set<string>();
  const blocks = result.content ?? [];
  for (const block of blocks) {
    const { text, summary } = flattenBlock(block);
    parts.push(text);
    if (summary) kinds.add(block.type);
  }
  const structured = result.structuredContent === undefined ? undefined : structuredRemainder(blocks, result.structuredContent);
  if (structured !== undefined) {
    parts.push(parts.length === 0 ? JSON.stringify(structured) : `[structured content] ${JSON.stringify(structured)}`);
  }
  const content = parts.join('\n');
  const capped = capText(content, maxResultChars);
  const isError = result.isError === true;
  const notices = [...kinds].map((k) => `${k} blocks in tool results reach the model as one-line summaries`);
  if (capped.length !== content.length) notices.push(`a tool result over ${maxResultChars} characters was cut (mcp.max_result_chars)`);
  const display = isError ? `tool reported an error: ${displayLine(content)}` : displayLine(content);
  return { status: 'ok', content: capped, display, isError, notices };
}
