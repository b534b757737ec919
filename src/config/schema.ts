// The config schema (zod/mini) and the resolved Config type every part reads. Unknown keys are
// errors, every problem is reported by dotted path (SPEC §10). Defaults live here, next to their
// keys. zod/mini, not classic zod: every start with a config file validates it, and zod/mini's
// functions bundle only what is used into the start-up file (docs/performance.md).

import * as z from 'zod/mini';
import { BUILTIN_TOOL_NAMES, DEFAULT_INTERACTIVE, DEFAULT_KNOWN_COMMANDS } from './defaults.js';
import type { ConfigIssue } from '../errors.js';

const URL_MESSAGE = 'expected a URL (http:// or https://)';
const isHttpUrl = (s: string) => {
  try {
    return /^https?:$/.test(new URL(s).protocol);
  } catch {
    return false;
  }
};
const httpUrl = z.string(URL_MESSAGE).check(z.refine(isHttpUrl, URL_MESSAGE));
// A refinement, not z.minLength: that one also runs on a list given where a string belongs.
const filled = (message: string) => z.refine<string>((s) => s !== '', message);
const nonEmpty = (message = 'expected a non-empty string') => z.string().check(filled(message));
const positiveInt = z.number('expected a number').check(z.refine(Number.isInteger, 'expected a whole number'), z.gt(0, 'expected a number > 0'));
const nonNegative = z.number().check(z.gte(0, 'expected a number >= 0'));
const stringList = z.array(nonEmpty(), 'expected a list of strings');
/** A key that may be left out; with `fallback`, that value is validated in its place. */
function optional<T extends z.ZodMiniType>(schema: T): z.ZodMiniOptional<T>;
function optional<T extends z.ZodMiniType>(schema: T, fallback: z.input<T>): z.ZodMiniPrefault<T>;
function optional<T extends z.ZodMiniType>(schema: T, fallback?: z.input<T>) {
  return fallback === undefined ? z.optional(schema) : z.prefault(schema, fallback);
}
/** What an unknown key's value meets: an error that stops the checks of the object it is in. */
const unknownKey = z.pipe(z.unknown(), z.never('unknown key'));
/**
 * An object whose every unknown key is an error of its own (`strictObject` reports them as one
 * issue, which lets the object's checks run): the rest of the keys must be `never`. Typed as the
 * strict object it checks.
 */
const strict = <E extends z.core.$ZodLooseShape>(entries: E) =>
  z.catchall(z.object(entries), unknownKey) as unknown as z.ZodMiniObject<E, z.core.$strict>;
/** A section of the config: absent means every key takes its default. */
const section = <E extends z.core.$ZodLooseShape>(entries: E) => {
  const object = strict(entries);
  // Every key of a section is optional, so {} is a valid input; TypeScript cannot see that here.
  return optional(object, {} as z.input<typeof object>);
};
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * A record whose keys must pass `key`. zod's record would report a bad key and skip its value;
 * here the value is checked too, and each key's problems come before its value's, in key order.
 */
const keyedRecord = <V extends z.ZodMiniType>(key: z.ZodMiniType<string>, value: V) =>
  z.record(z.string(), value).check(
    z.check<Record<string, unknown>>(
      (payload) => {
        const names = Object.keys(payload.value);
        const order = new Map(names.map((name, i) => [name, i]));
        for (const [i, name] of names.entries()) {
          const bad = z.safeParse(key, name, { error: defaultMessage }).error?.issues ?? [];
          if (bad.length === 0) continue;
          // The record reported its values key by key: this key's go before the first at or after it.
          const at = payload.issues.findIndex((issue) => (order.get(String(issue.path?.[0])) ?? -1) >= i);
          const issues = bad.map((issue) => ({ code: 'custom' as const, message: issue.message, path: [name], input: name, continue: true }));
          payload.issues.splice(at === -1 ? payload.issues.length : at, 0, ...issues);
        }
      },
      // Also when a value failed; not when the record is not an object (its own issue says so).
      { when: (payload) => isPlainObject(payload.value) },
    ),
  );

/** A list that replaces the built-in one, or `{ add, remove }` that edits it. */
const editableList = z.union(
  [stringList, strict({ add: optional(stringList, []), remove: optional(stringList, []) })],
  'expected a list of strings or { add: [...], remove: [...] }',
);

export const modelSchema = strict({
  endpoint: httpUrl,
  model: z.string('expected the model name the server knows').check(filled('expected a non-empty string')),
  key_env: optional(nonEmpty()),
  temperature: optional(z.number().check(z.gte(0, 'expected a number from 0 to 2'), z.lte(2, 'expected a number from 0 to 2')), 0.2),
  max_tokens: optional(positiveInt),
  timeout_ms: optional(positiveInt, 60_000),
  headers: optional(z.record(z.string(), z.string()), {}),
  /** Price per million prompt tokens (`:cost`); unset counts as 0 (a local server). */
  price_in: optional(nonNegative),
  /** Price per million completion tokens. */
  price_out: optional(nonNegative),
  // Sent as is with requests that carry tools: "auto", "none", "required" or one function.
  tool_choice: optional(
    z.union(
      [z.enum(['auto', 'none', 'required']), strict({ type: z.literal('function'), function: strict({ name: nonEmpty() }) })],
      'expected "auto", "none", "required" or { type: "function", function: { name } }',
    ),
  ),
});

/** OAuth 2.1 for an HTTP server (docs/mcp.md "OAuth"); every key is optional. */
const mcpOAuthSchema = strict({
  /** A pre-registered client; without it aish uses `client_metadata_url` or registers itself. */
  client_id: optional(nonEmpty()),
  /** The variable holding the pre-registered client's secret. */
  client_secret_env: optional(nonEmpty()),
  /** An https URL of a client-ID metadata document, used when the server supports them. */
  client_metadata_url: optional(httpUrl),
  /** Scopes to ask for when the server names none. */
  scopes: optional(z.array(nonEmpty())),
  grant: optional(z.enum(['authorization_code', 'client_credentials']), 'authorization_code'),
  /** The variable holding a PEM private key: the client authenticates with private_key_jwt. */
  private_key_env: optional(nonEmpty()),
});

const mcpServerSchema = strict({
  url: optional(httpUrl),
  transport: optional(z.enum(['http', 'sse'])),
  auth_token: optional(nonEmpty()),
  auth_env: optional(nonEmpty()),
  oauth: optional(mcpOAuthSchema),
  command: optional(nonEmpty()),
  args: optional(z.array(z.string()), []),
  env: optional(z.record(z.string(), z.string()), {}),
  cwd: optional(z.string()),
  // Per call to this server; overrides mcp.call_timeout_ms.
  timeout_ms: optional(positiveInt),
}).check(
  z.refine((s) => (s.url === undefined) !== (s.command === undefined), 'expected exactly one of `url` (HTTP) or `command` (stdio)'),
  z.refine((s) => s.oauth === undefined || s.url !== undefined, { message: '`oauth` applies to HTTP servers (`url`)', path: ['oauth'] }),
  z.refine((s) => s.oauth?.grant !== 'client_credentials' || s.oauth.client_id !== undefined, {
    message: 'the client_credentials grant needs `client_id`',
    path: ['oauth', 'client_id'],
  }),
);

/** An MCP server's alias: it prefixes its tools' names (`alias__tool`), so `__` cannot be in it. */
const mcpAlias = z.string().check(
  z.regex(/^[a-zA-Z0-9_-]+$/, 'aliases use letters, digits, _ and -'),
  z.refine((alias) => !alias.includes('__'), 'aliases may not contain "__"'),
  z.refine((alias) => alias !== 'aish', "the alias aish is reserved for aish's built-in tools"),
);

export const rawConfigSchema = strict({
  models: optional(keyedRecord(z.string().check(z.regex(/^[\w.-]+$/, 'preset names use letters, digits, _ . -')), modelSchema)),
  default_model: optional(nonEmpty()),
  shell: section({
    program: optional(nonEmpty()),
    known_commands: optional(editableList),
    confirm_cmd: optional(z.boolean(), true),
    capture_max_chars: optional(positiveInt, 16_000),
    interactive: optional(editableList),
    prompt: optional(z.string()),
    session: optional(z.boolean(), true),
    start_timeout_ms: optional(positiveInt, 8000),
  }),
  context: section({
    max_turns: optional(positiveInt, 40),
    token_budget: optional(positiveInt, 4096),
    use_tool_role: optional(z.boolean(), true),
    summarize_on_evict: optional(z.boolean(), false),
    summarizer_model: optional(nonEmpty()),
    max_summary_chars: optional(positiveInt, 2000),
    project: section({
      max_chars: optional(positiveInt, 2000),
    }),
  }),
  history: section({
    dir: optional(nonEmpty()),
    input_history_size: optional(positiveInt, 1000),
  }),
  mcp: section({
    servers: optional(keyedRecord(mcpAlias, mcpServerSchema), {}),
    // A list of names, or the seed's map `{ "alias__tool": true }` (false entries are ignored).
    auto_approve: optional(z.union([stringList, keyedRecord(nonEmpty(), z.boolean())], 'expected a list of tool names or a map of tool name → true'), []),
    max_tool_depth: optional(positiveInt, 8),
    call_timeout_ms: optional(positiveInt, 60_000),
    max_result_chars: optional(positiveInt, 16_000),
    // Group name → tool names or `alias__*` patterns, for `:tools enable|disable <group>`.
    groups: optional(keyedRecord(z.string().check(z.regex(/^[\w.-]+$/, 'group names use letters, digits, _ . -')), stringList), {}),
    // Most tools sent in one request; past it the likeliest are sent, with aish__find_tools.
    max_tools: optional(positiveInt, 32),
    // A server's questions (elicitation) when nobody is at a terminal: refuse, or accept its defaults.
    elicitation: optional(z.enum(['decline', 'defaults']), 'decline'),
    // A server's requests for a model answer (sampling) when nobody can confirm them.
    sampling: optional(z.enum(['deny', 'allow']), 'deny'),
    // Directories offered as roots besides the current one (`~` is the home directory).
    roots: optional(stringList, []),
  }),
  tools: section({
    // true: every built-in on; false: none; a list: those.
    builtin: optional(
      z.union([z.boolean(), z.array(z.enum(BUILTIN_TOOL_NAMES))], `expected true, false or a list of ${BUILTIN_TOOL_NAMES.join(', ')}`),
      true,
    ),
  }),
  routing: section({
    auto: optional(z.boolean(), false),
    // Unset: seed 002's defaults (code → deep, reasoning → cloud, when those presets exist).
    classes: optional(strict({ code: optional(nonEmpty()), reasoning: optional(nonEmpty()), default: optional(nonEmpty()) })),
    cloud_fallback: optional(z.boolean(), false),
    fallback_model: optional(nonEmpty()),
  }),
  norris: section({
    max_steps: optional(positiveInt, 20),
    second_opinion: optional(z.boolean(), false),
    /** "auto": each step runs in a sandbox when one can be built; "off": as if none could be. */
    sandbox: optional(z.enum(['auto', 'off'], 'expected "auto" or "off"'), 'auto'),
    /** Whether a sandboxed step may reach the network. */
    network: optional(z.boolean(), false),
    /** More files and folders a sandboxed step cannot read (`~/` is the home folder). */
    hidden_paths: optional(stringList, []),
    /** Without a sandbox: "ask" before every step, or "allow" them as before. */
    unsandboxed: optional(z.enum(['ask', 'allow'], 'expected "ask" or "allow"'), 'ask'),
  }),
  memory: section({
    enabled: optional(z.boolean(), true),
    max_inject_chars: optional(positiveInt, 2000),
  }),
  ui: section({
    show_stats: optional(z.boolean(), false),
  }),
  permissions: section({
    allow: optional(stringList, []),
    confirm: optional(stringList, []),
    deny: optional(stringList, []),
  }),
});

export type ModelConfig = z.output<typeof modelSchema>;
export type RawConfig = z.output<typeof rawConfigSchema>;
export type McpServerConfig = RawConfig['mcp']['servers'][string];
export type McpOAuthConfig = NonNullable<McpServerConfig['oauth']>;

/** The config every part reads: lists resolved, presets filled in, names cross-checked. */
export interface Config extends Omit<RawConfig, 'models' | 'default_model' | 'shell' | 'mcp' | 'routing'> {
  models: Record<string, ModelConfig>;
  default_model: string;
  mcp: Omit<RawConfig['mcp'], 'auto_approve'> & { auto_approve: string[] };
  routing: Omit<RawConfig['routing'], 'classes'> & { classes: Partial<Record<'code' | 'reasoning' | 'default', string>> };
  shell: Omit<RawConfig['shell'], 'known_commands' | 'interactive'> & {
    known_commands: string[];
    interactive: string[];
  };
}

/** What a config file may contain (the input side of the schema), for `defineConfig`. */
export type UserConfig = z.input<typeof rawConfigSchema>;

function applyEdit(base: readonly string[], edit: z.output<typeof editableList> | undefined): string[] {
  if (edit === undefined) return [...base];
  if (Array.isArray(edit)) return [...edit];
  const removed = new Set(edit.remove);
  return [...base.filter((c) => !removed.has(c)), ...edit.add];
}

/** What a value is, in the words of a type mismatch: `expected boolean, received string`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  // zod's numbers are finite: a JS config's Infinity is refused, and said so.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The message of an issue whose schema gives none: a type mismatch, or the choices. */
function defaultMessage(issue: z.core.$ZodRawIssue): string {
  // A choice: `expected one of "deny", "allow"` (the one literal, `type: "function"`, is in a union
  // with a message of its own).
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  if (issue.code === 'invalid_type') return `expected ${issue.expected === 'record' ? 'object' : issue.expected}, received ${kindOf(issue.input)}`;
  return `expected something else, received ${kindOf(issue.input)}`;
}

/** Turns zod issues into `path: message` lines: a key that is missing is "required". */
export function toConfigIssues(issues: readonly z.core.$ZodIssue[]): ConfigIssue[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    // An object's key left out (a list's or an unknown key's undefined keeps its message).
    const missing = issue.code === 'invalid_type' && issue.input === undefined && issue.expected !== 'never' && typeof issue.path.at(-1) === 'string';
    return { path, message: missing ? 'required' : issue.message };
  });
}

/**
 * Validates raw config data and resolves it: presets default to `builtinModels` when the file
 * names none, `default_model` to `fast` (or the first preset). Returns issues instead of throwing.
 */
export function resolveConfig(
  data: unknown,
  builtinModels: Record<string, ModelConfig>,
): { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] } {
  // jitless: one parse per start, so compiling a parser for each object would not pay off; the
  // input is kept on each issue to tell a missing key.
  const parsed = z.safeParse(rawConfigSchema, data ?? {}, { error: defaultMessage, reportInput: true, jitless: true });
  if (!parsed.success) return { ok: false, issues: toConfigIssues(parsed.error.issues) };
  const raw = parsed.data;
  const models = raw.models && Object.keys(raw.models).length > 0 ? raw.models : builtinModels;
  const names = Object.keys(models);
  const defaultModel = raw.default_model ?? (models.fast ? 'fast' : names[0]!);
  const issues: ConfigIssue[] = [];
  const mustBePreset = (path: string, name: string | undefined) => {
    if (name !== undefined && !models[name]) {
      issues.push({ path, message: `no preset named "${name}" (presets: ${names.join(', ')})` });
    }
  };
  mustBePreset('default_model', defaultModel);
  mustBePreset('context.summarizer_model', raw.context.summarizer_model);
  mustBePreset('routing.fallback_model', raw.routing.fallback_model);
  for (const [cls, preset] of Object.entries(raw.routing.classes ?? {})) mustBePreset(`routing.classes.${cls}`, preset);
  if (issues.length > 0) return { ok: false, issues };
  // Seed 002's defaults, each only when the preset it names exists.
  const when = (name: string) => (models[name] ? name : undefined);
  const classes = raw.routing.classes ?? { ...(when('deep') ? { code: 'deep' } : {}), ...(when('cloud') ? { reasoning: 'cloud' } : {}) };
  const fallbackModel = raw.routing.fallback_model ?? when('cloud');
  const summarizerModel = raw.context.summarizer_model ?? when('fast') ?? defaultModel;
  const autoApprove = Array.isArray(raw.mcp.auto_approve)
    ? raw.mcp.auto_approve
    : Object.entries(raw.mcp.auto_approve)
        .filter(([, on]) => on)
        .map(([name]) => name);
  return {
    ok: true,
    config: {
      ...raw,
      models,
      default_model: defaultModel,
      context: { ...raw.context, summarizer_model: summarizerModel },
      mcp: { ...raw.mcp, auto_approve: autoApprove },
      routing: { ...raw.routing, classes, ...(fallbackModel ? { fallback_model: fallbackModel } : {}) },
      shell: {
        ...raw.shell,
        known_commands: applyEdit(DEFAULT_KNOWN_COMMANDS, raw.shell.known_commands),
        interactive: applyEdit(DEFAULT_INTERACTIVE, raw.shell.interactive),
      },
    },
  };
}
