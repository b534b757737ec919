// What aish answers when a server asks something of it (MCP client features): elicitation (a form
// the person fills in, or a URL they may open), sampling (a model answer on aish's active preset,
// after the gate's confirm) and roots (each server's `roots` setting, else `mcp.roots`). With nobody at a
// terminal, `mcp.elicitation` and `mcp.sampling` decide. Every server string reaches the person
// through `ask` and `status`, which sanitize; nothing here writes to the terminal itself.

import { realpathSync } from 'node:fs';
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Root } from '@modelcontextprotocol/sdk/types.js';
import type { ChatMessage } from '../broker/types.js';
import type { McpClientRequests, McpRootsSetting } from '../mcp/session-types.js';
import { keysFromLine, plainQuestion, type AskKeyFn } from '../safety/confirm.js';
import type { ApprovalGate } from '../safety/gate.js';
import { offeredRoots } from './roots.js';

export interface ServerRequestDeps {
  /** `mcp.elicitation`: what a form gets when nobody can answer. */
  elicitation: 'decline' | 'defaults';
  /** `mcp.sampling`: whether a sampling request runs when nobody can confirm it. */
  sampling: 'deny' | 'allow';
  /** Asks the person one line (sanitized); null when nobody can answer. Resolves null on Ctrl-C. */
  ask: ((question: string) => Promise<string | null>) | null;
  /** Asks a question answered by one key (a terminal); without it the choices are asked as a line. */
  askKey?: AskKeyFn | null;
  /** A dim status line. */
  status: (message: string) => void;
  gate: Pick<ApprovalGate, 'sampling'>;
  /** Opens a URL in the browser (or prints it). */
  openUrl: (url: string) => Promise<void>;
  /** One answer of the active preset, at most `maxTokens` long. */
  complete: (messages: ChatMessage[], maxTokens: number, signal: AbortSignal) => Promise<{ text: string; model: string }>;
  /** The current directory. */
  cwd: () => string;
  /** `mcp.roots`: the roots of a server without a `roots` setting of its own. */
  roots: McpRootsSetting;
  home: string | undefined;
}

/** How many times a field is asked again after an answer that does not fit. */
const FIELD_TRIES = 3;

type FormSchema = Extract<ElicitRequest['params'], { requestedSchema: unknown }>['requestedSchema'];
type FieldSchema = FormSchema['properties'][string];

export function serverRequests(deps: ServerRequestDeps): McpClientRequests {
  // One line per aish session, the first time a directory is withheld, whichever server asked.
  let toldWithheld = false;
  const roots = (setting: 'cwd' | readonly string[]) => (): Root[] => {
    const offered = offeredRoots(setting, { cwd: deps.cwd(), home: deps.home, realpath: resolveLinks });
    if (offered.withheld.length > 0 && !toldWithheld) {
      toldWithheld = true;
      const shown = offered.withheld.map((dir) => (dir === deps.home ? '~' : dir)).join(', ');
      deps.status(`mcp: ${shown} withheld from the servers' roots (the home folder, the folders above it and / are never offered)`);
    }
    return offered.roots;
  };
  return {
    elicit: (alias, params, signal) => elicit(deps, alias, params, signal),
    sample: (alias, params, signal) => sample(deps, alias, params, signal),
    roots: (_alias, own) => {
      const setting = own ?? deps.roots;
      return setting === false ? undefined : roots(setting);
    },
  };
}

/** The directory with its symlinks resolved, as server-filesystem resolves a root; itself when it does not exist. */
function resolveLinks(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** The schema's defaults for every field that has one. */
function defaults(schema: FormSchema): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.properties).flatMap(([name, field]) => ('default' in field && field.default !== undefined ? [[name, field.default]] : [])));
}

async function elicit(deps: ServerRequestDeps, alias: string, params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
  const { ask } = deps;
  const askKey = deps.askKey ?? (ask ? keysFromLine(ask) : null);
  if (params.mode === 'url') {
    if (!askKey) return { action: 'decline' };
    deps.status(`mcp ${alias} asks you to open ${params.url}: ${params.message}`);
    const answer = await askKey(plainQuestion('open it? [y/N/c] ', 'ync', 'n'));
    if (answer === null || signal.aborted || answer === 'c') return { action: 'cancel' };
    if (answer !== 'y') return { action: 'decline' };
    await deps.openUrl(params.url);
    return { action: 'accept' };
  }
  const schema = params.requestedSchema;
  const required = new Set(schema.required ?? []);
  if (!ask || !askKey) {
    const content = defaults(schema);
    const complete = [...required].every((name) => name in content);
    if (deps.elicitation === 'defaults' && complete) {
      deps.status(`mcp ${alias} asked: ${params.message} (accepted with its defaults: mcp.elicitation)`);
      return { action: 'accept', content: content as ElicitResult['content'] };
    }
    deps.status(`mcp ${alias} asked: ${params.message} (declined: nobody can answer; mcp.elicitation)`);
    return { action: 'decline' };
  }
  deps.status(`mcp ${alias} asks: ${params.message}`);
  const choice = await askKey(plainQuestion('answer it? [y/N/c] (y fills in the form, N declines, c cancels) ', 'ync', 'n'));
  if (choice === null || signal.aborted || choice === 'c') return { action: 'cancel' };
  if (choice !== 'y') return { action: 'decline' };
  const content: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = await askField({ ask, askKey: deps.askKey ?? null, status: deps.status }, name, field, required.has(name));
    if (value === CANCELLED || signal.aborted) return { action: 'cancel' };
    if (value !== undefined) content[name] = value;
  }
  return { action: 'accept', content: content as ElicitResult['content'] };
}

const CANCELLED = Symbol('cancelled');

/** The choices of an enum field: `enum`, titled `oneOf`/`anyOf` consts, or an array of either. */
function choicesOf(field: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum.map(String);
  const titled = (field.oneOf ?? field.anyOf) as unknown;
  if (Array.isArray(titled)) return titled.flatMap((c) => (c && typeof c === 'object' && 'const' in c ? [String((c as { const: unknown }).const)] : []));
  return undefined;
}

/** `number`, `one of a|b`, `several of a|b (comma-separated)`. */
function describeField(field: Record<string, unknown>): string {
  if (field.type === 'array') {
    const items = (field.items ?? {}) as Record<string, unknown>;
    return `several of ${(choicesOf(items) ?? []).join('|')}, comma-separated`;
  }
  const choices = choicesOf(field);
  if (choices) return `one of ${choices.join('|')}`;
  return field.type === 'boolean' ? 'y/n' : String(field.type ?? 'string');
}

/** Parses one answer for `field`; an error text when it does not fit. */
export function parseField(field: Record<string, unknown>, text: string): { value: unknown } | { error: string } {
  const answer = text.trim();
  if (field.type === 'array') {
    const allowed = choicesOf((field.items ?? {}) as Record<string, unknown>) ?? [];
    const picked = answer.split(',').map((s) => s.trim()).filter(Boolean);
    const wrong = picked.filter((p) => !allowed.includes(p));
    if (wrong.length) return { error: `not a choice: ${wrong.join(', ')}` };
    if (typeof field.minItems === 'number' && picked.length < field.minItems) return { error: `pick at least ${field.minItems}` };
    if (typeof field.maxItems === 'number' && picked.length > field.maxItems) return { error: `pick at most ${field.maxItems}` };
    return { value: picked };
  }
  const choices = choicesOf(field);
  if (choices) return choices.includes(answer) ? { value: answer } : { error: `answer one of ${choices.join(', ')}` };
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(answer)) return { value: true };
      if (/^(n|no|false)$/i.test(answer)) return { value: false };
      return { error: 'answer y or n' };
    case 'integer':
    case 'number': {
      const n = Number(answer);
      if (answer === '' || !Number.isFinite(n)) return { error: 'not a number' };
      if (field.type === 'integer' && !Number.isInteger(n)) return { error: 'not a whole number' };
      if (typeof field.minimum === 'number' && n < field.minimum) return { error: `at least ${field.minimum}` };
      if (typeof field.maximum === 'number' && n > field.maximum) return { error: `at most ${field.maximum}` };
      return { value: n };
    }
    default:
      if (typeof field.minLength === 'number' && answer.length < field.minLength) return { error: `at least ${field.minLength} characters` };
      if (typeof field.maxLength === 'number' && answer.length > field.maxLength) return { error: `at most ${field.maxLength} characters` };
      return { value: answer };
  }
}

interface FieldAsker {
  ask: NonNullable<ServerRequestDeps['ask']>;
  /** The one-key reader of a terminal; null where questions are lines (then y/n is typed as a line). */
  askKey: AskKeyFn | null;
  status: (message: string) => void;
}

/**
 * Asks one field: Enter takes the default (or leaves an optional field out); Ctrl-C cancels the
 * form. A yes/no field is one key on a terminal, as every other question there.
 */
async function askField({ ask, askKey, status }: FieldAsker, name: string, schema: FieldSchema, required: boolean): Promise<unknown> {
  const field = schema as Record<string, unknown>;
  const title = typeof field.title === 'string' && field.title !== name ? ` "${field.title}"` : '';
  if (typeof field.description === 'string' && field.description !== '') status(`  ${name}: ${field.description}`);
  const hasDefault = 'default' in field && field.default !== undefined;
  const shownDefault = hasDefault ? `, Enter for ${JSON.stringify(field.default)}` : required ? '' : ', Enter to leave out';
  const question = `  ${name}${title}${required ? ' (required)' : ''} [${describeField(field)}${shownDefault}]: `;
  // Enter on a yes/no key question: the default's key, or '' (no key: left out, or asked again).
  const fallback = field.default === true ? 'y' : field.default === false ? 'n' : '';
  for (let tries = 0; tries < FIELD_TRIES; tries++) {
    const answer = field.type === 'boolean' && askKey ? await askKey(plainQuestion(question, 'yn', fallback)) : await ask(question);
    if (answer === null) return CANCELLED;
    if (answer.trim() === '') {
      if (hasDefault) return field.default;
      if (!required) return undefined;
      status(`  ${name} is required`);
      continue;
    }
    const parsed = parseField(field, answer);
    if ('value' in parsed) return parsed.value;
    status(`  ${name}: ${parsed.error}`);
  }
  return CANCELLED;
}

/** The text of a sampling message's content (one block or several); other media as a placeholder. */
function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => {
      const block = b as { type?: string; text?: string };
      return block.type === 'text' ? (block.text ?? '') : `[${block.type ?? 'unknown'} content not supported]`;
    })
    .join('\n');
}

async function sample(deps: ServerRequestDeps, alias: string, params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult> {
  const messages: ChatMessage[] = [];
  if (params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
  for (const m of params.messages) messages.push({ role: m.role, content: contentText(m.content) });
  const shown = messages.map((m) => `${m.role}: ${m.content}`).join('\n');
  const prompt = `mcp ${alias} asks the model (at most ${params.maxTokens} tokens):\n${shown}`;
  const last = params.messages.at(-1);
  const question = last ? contentText(last.content) : '';
  const decision = await deps.gate.sampling(alias, prompt, question, deps.sampling, signal);
  if (!decision.approved) {
    deps.status(`mcp ${alias}: sampling request ${decision.by === 'policy' ? 'denied (mcp.sampling)' : 'declined'}`);
    throw await mcpError(-1, 'User rejected sampling request');
  }
  if (decision.by === 'policy') deps.status(`mcp ${alias} asked the model (allowed by mcp.sampling)`);
  try {
    const { text, model } = await deps.complete(messages, params.maxTokens, signal);
    return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
  } catch (err) {
    throw await mcpError(INTERNAL_ERROR, `the model request failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** JSON-RPC's internal error code (the SDK's `ErrorCode.InternalError`). */
const INTERNAL_ERROR = -32603;

/**
 * The SDK's McpError, which the client sends back as the request's error. Loaded here, not at the
 * top: the SDK's types module builds hundreds of zod schemas when it loads, and the app imports
 * this file at every start; when a server asks, the SDK is loaded already.
 */
async function mcpError(code: number, message: string): Promise<Error> {
  const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
  return new McpError(code, message);
}
