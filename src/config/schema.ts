// The config schema (valibot) and the resolved Config type every part reads. Unknown keys are
// errors, every problem is reported by dotted path (SPEC §10). Defaults live here, next to their
// keys. valibot, not zod: every start validates the config, and valibot builds its schemas as
// plain objects and bundles only the functions used. zod/mini in its place (the same messages)
// cost each start 4-5 ms more CPU before the first prompt, over the 2 ms issue 28 allowed
// (docs/performance.md "The config schema: zod/mini measured against valibot").

import * as v from 'valibot';
import { BUILTIN_TOOL_NAMES, DEFAULT_INTERACTIVE, DEFAULT_KNOWN_COMMANDS, DEFAULT_PRIVATE_COMMANDS } from './defaults.js';
import type { ConfigIssue } from '../errors.js';

const URL_MESSAGE = 'expected a URL (http:// or https://)';
const isHttpUrl = (s: string) => {
  try {
    return /^https?:$/.test(new URL(s).protocol);
  } catch {
    return false;
  }
};
const httpUrl = v.pipe(v.string(URL_MESSAGE), v.check(isHttpUrl, URL_MESSAGE));
const nonEmpty = (message = 'expected a non-empty string') => v.pipe(v.string(), v.minLength(1, message));
const positiveInt = v.pipe(v.number('expected a number'), v.integer('expected a whole number'), v.gtValue(0, 'expected a number > 0'));
const nonNegative = v.pipe(v.number(), v.minValue(0, 'expected a number >= 0'));
const wholeBetween = (min: number, max: number) =>
  v.pipe(v.number('expected a number'), v.integer('expected a whole number'), v.minValue(min, `expected a number from ${min} to ${max}`), v.maxValue(max, `expected a number from ${min} to ${max}`));
const stringList = v.array(nonEmpty(), 'expected a list of strings');
const optional = v.optional;
/**
 * An object whose every unknown key is an error of its own (`strictObject` stops at the first):
 * the rest of the keys must be `never`. Typed as the strict object it checks.
 */
const strict = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(
    // valibot's object schemas take an array as an object (`"mcp": []` would pass as no keys).
    v.custom<Record<string, unknown>>(
      (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
      (issue) => `expected object, received ${kindOf(issue.input)}`,
    ),
    v.objectWithRest(entries, v.never('unknown key')),
  ) as unknown as v.StrictObjectSchema<E, undefined>;
/** A section of the config: absent means every key takes its default. */
const section = <E extends v.ObjectEntries>(entries: E) => {
  const object = strict(entries);
  // Every key of a section is optional, so {} is a valid input; TypeScript cannot see that here.
  return v.optional(object, {} as v.InferInput<typeof object>);
};

/** A list that replaces the built-in one, or `{ add, remove }` that edits it. */
const editableList = v.union(
  [stringList, strict({ add: optional(stringList, []), remove: optional(stringList, []) })],
  'expected a list of strings or { add: [...], remove: [...] }',
);

export const modelSchema = strict({
  endpoint: httpUrl,
  model: v.pipe(v.string('expected the model name the server knows'), v.minLength(1, 'expected a non-empty string')),
  key_env: optional(nonEmpty()),
  temperature: optional(v.pipe(v.number(), v.minValue(0, 'expected a number from 0 to 2'), v.maxValue(2, 'expected a number from 0 to 2')), 0.2),
  max_tokens: optional(positiveInt),
  timeout_ms: optional(positiveInt, 60_000),
  headers: optional(v.record(v.string(), v.string()), {}),
  /** Price per million prompt tokens (`:cost`); unset counts as 0 (a local server). */
  price_in: optional(nonNegative),
  /** Price per million completion tokens. */
  price_out: optional(nonNegative),
  // Sent as is with requests that carry tools: "auto", "none", "required" or one function.
  tool_choice: optional(
    v.union(
      [v.picklist(['auto', 'none', 'required']), strict({ type: v.literal('function'), function: strict({ name: nonEmpty() }) })],
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
  scopes: optional(v.array(nonEmpty())),
  grant: optional(v.picklist(['authorization_code', 'client_credentials']), 'authorization_code'),
  /** The variable holding a PEM private key: the client authenticates with private_key_jwt. */
  private_key_env: optional(nonEmpty()),
});

/**
 * The directories offered to a server as its roots (docs/mcp.md "Roots"): "cwd" follows the shell's
 * directory, false offers none (the client does not announce roots), a list offers those
 * (`~` is the home folder, a relative path is taken from the current directory).
 */
const rootsSetting = v.union([v.literal('cwd'), v.literal(false), stringList], 'expected "cwd", false or a list of directories');

const mcpServerSchema = v.pipe(
  strict({
    url: optional(httpUrl),
    transport: optional(v.picklist(['http', 'sse'])),
    auth_token: optional(nonEmpty()),
    auth_env: optional(nonEmpty()),
    oauth: optional(mcpOAuthSchema),
    command: optional(nonEmpty()),
    args: optional(v.array(v.string()), []),
    env: optional(v.record(v.string(), v.string()), {}),
    cwd: optional(v.string()),
    // Per call to this server; overrides mcp.call_timeout_ms.
    timeout_ms: optional(positiveInt),
    // One connect of this server (start, handshake, tool list); unset: 60 s for npx, uvx,
    // pnpm dlx and bunx, which may download the server first, else 10 s.
    connect_timeout_ms: optional(positiveInt),
    // This server's roots; unset: mcp.roots.
    roots: optional(rootsSetting),
  }),
  v.check((s) => (s.url === undefined) !== (s.command === undefined), 'expected exactly one of `url` (HTTP) or `command` (stdio)'),
  v.forward(
    v.check((s) => s.oauth === undefined || s.url !== undefined, '`oauth` applies to HTTP servers (`url`)'),
    ['oauth'],
  ),
  v.forward(
    v.check((s) => s.oauth?.grant !== 'client_credentials' || s.oauth.client_id !== undefined, 'the client_credentials grant needs `client_id`'),
    ['oauth', 'client_id'],
  ),
);

/** An MCP server's alias: it prefixes its tools' names (`alias__tool`), so `__` cannot be in it. */
const mcpAlias = v.pipe(
  v.string(),
  v.regex(/^[a-zA-Z0-9_-]+$/, 'aliases use letters, digits, _ and -'),
  v.check((alias) => !alias.includes('__'), 'aliases may not contain "__"'),
  v.check((alias) => alias !== 'aish', "the alias aish is reserved for aish's built-in tools"),
);

export const rawConfigSchema = strict({
  models: optional(v.record(v.pipe(v.string(), v.regex(/^[\w.-]+$/, 'preset names use letters, digits, _ . -')), modelSchema)),
  default_model: optional(nonEmpty()),
  shell: section({
    program: optional(nonEmpty()),
    known_commands: optional(editableList),
    confirm_cmd: optional(v.boolean(), true),
    capture_max_chars: optional(positiveInt, 16_000),
    interactive: optional(editableList),
    prompt: optional(v.string()),
    prompt_from_shell: optional(v.boolean(), false),
    session: optional(v.boolean(), true),
    start_timeout_ms: optional(positiveInt, 8000),
    // A command's frame: "full" (both rules), "compact" (one line when it failed or took over a second), "none".
    frame: optional(v.picklist(['full', 'compact', 'none'], 'expected "full", "compact" or "none"'), 'full'),
  }),
  context: section({
    max_turns: optional(positiveInt, 40),
    // Unset: what the preset's server says of its context, else 16 384 (docs/usage.md "The context").
    token_budget: optional(positiveInt),
    use_tool_role: optional(v.boolean(), true),
    summarize_on_evict: optional(v.boolean(), false),
    summarizer_model: optional(nonEmpty()),
    max_summary_chars: optional(positiveInt, 2000),
    project: section({
      max_chars: optional(positiveInt, 2000),
    }),
  }),
  broker: section({
    // The most text (and tool-call arguments) read of one reply; past it aish stops reading.
    max_reply_chars: optional(positiveInt, 4_000_000),
    // The most tool calls of one reply that run; the rest are answered as not run.
    max_tool_calls: optional(positiveInt, 128),
  }),
  history: section({
    dir: optional(nonEmpty()),
    input_history_size: optional(positiveInt, 1000),
  }),
  mcp: section({
    servers: optional(v.record(mcpAlias, mcpServerSchema), {}),
    // A list of names, or the seed's map `{ "alias__tool": true }` (false entries are ignored).
    auto_approve: optional(v.union([stringList, v.record(nonEmpty(), v.boolean())], 'expected a list of tool names or a map of tool name → true'), []),
    max_tool_depth: optional(positiveInt, 8),
    call_timeout_ms: optional(positiveInt, 60_000),
    max_result_chars: optional(positiveInt, 16_000),
    // Group name → tool names or `alias__*` patterns, for `:tools enable|disable <group>`.
    groups: optional(v.record(v.pipe(v.string(), v.regex(/^[\w.-]+$/, 'group names use letters, digits, _ . -')), stringList), {}),
    // Most tools sent in one request; past it the likeliest are sent, with aish__find_tools.
    max_tools: optional(positiveInt, 32),
    // A server's questions (elicitation) when nobody is at a terminal: refuse, or accept its defaults.
    elicitation: optional(v.picklist(['decline', 'defaults']), 'decline'),
    // A server's requests for a model answer (sampling) when nobody can confirm them.
    sampling: optional(v.picklist(['deny', 'allow']), 'deny'),
    // The roots of every server without its own `roots`: none by default, so a server keeps the
    // directories it was configured with (server-filesystem replaces them by the roots).
    roots: optional(rootsSetting, false),
  }),
  tools: section({
    // true: every built-in on; false: none; a list: those.
    builtin: optional(
      v.union([v.boolean(), v.array(v.picklist(BUILTIN_TOOL_NAMES))], `expected true, false or a list of ${BUILTIN_TOOL_NAMES.join(', ')}`),
      true,
    ),
  }),
  routing: section({
    auto: optional(v.boolean(), false),
    // Unset: seed 002's defaults (code → deep, reasoning → cloud, when those presets exist).
    classes: optional(strict({ code: optional(nonEmpty()), reasoning: optional(nonEmpty()), default: optional(nonEmpty()) })),
    cloud_fallback: optional(v.boolean(), false),
    fallback_model: optional(nonEmpty()),
  }),
  norris: section({
    max_steps: optional(positiveInt, 20),
    second_opinion: optional(v.boolean(), false),
    /** "auto": each step runs in a sandbox when one can be built; "off": as if none could be. */
    sandbox: optional(v.picklist(['auto', 'off'], 'expected "auto" or "off"'), 'auto'),
    /** Whether a sandboxed step may reach the network. */
    network: optional(v.boolean(), false),
    /** More files and folders a sandboxed step cannot read (`~/` is the home folder). */
    hidden_paths: optional(stringList, []),
    /** Without a sandbox: "ask" before every step, or "allow" them as before. */
    unsandboxed: optional(v.picklist(['ask', 'allow'], 'expected "ask" or "allow"'), 'ask'),
    /** Each step runs in a preview first; one that would delete or change a file that existed HALTs. */
    preview: optional(v.boolean(), false),
  }),
  memory: section({
    enabled: optional(v.boolean(), true),
    max_inject_chars: optional(positiveInt, 2000),
    /** The preset `:memory summarize` asks (seed 002); defaults to `context.summarizer_model`. */
    summarizer_model: optional(nonEmpty()),
  }),
  // Checkpoints before aish runs something for you, and :undo (docs/undo.md).
  undo: section({
    enabled: optional(v.boolean(), true),
    // Checkpoints before the lines you type yourself too, not only CMD: lines and Norris steps.
    typed: optional(v.boolean(), false),
    // Checkpoints kept per tree; older ones are pruned.
    keep: optional(positiveInt, 50),
    // A tree with more files gets no checkpoint.
    max_files: optional(positiveInt, 20_000),
    // Files larger than this are left out of checkpoints.
    max_file_bytes: optional(positiveInt, 10 * 1024 * 1024),
    /** How long a preview (`p` at `execute …?`) may run before it is stopped. */
    preview_timeout_ms: optional(positiveInt, 10_000),
  }),
  ui: section({
    show_stats: optional(v.boolean(), false),
  }),
  // What aish tells the terminal it runs in (docs/usage.md "Terminal integration").
  terminal: section({
    // OSC 133 marks around the prompt and each command, OSC 7 with the directory; false: none of it, no title either.
    integration: optional(v.boolean(), true),
    // The window title: the directory at the prompt, the command while it runs.
    title: optional(v.boolean(), true),
  }),
  // Suggestions from a model after a pause in typing (docs/usage.md "The line editor").
  suggest: section({
    // false: none; true: the preset lines go to (`:model`); a name: that preset.
    model: optional(v.union([v.boolean(), nonEmpty()], 'expected true, false or a preset name'), false),
    // How long no key is pressed before the model is asked.
    idle_ms: optional(wholeBetween(50, 10_000), 400),
  }),
  // Output kept from the model, the session log and every file (docs/security.md "Private output").
  privacy: section({
    // Glob patterns on the command line, as permissions read them; a list replaces the default.
    private_commands: optional(stringList, [...DEFAULT_PRIVATE_COMMANDS]),
  }),
  permissions: section({
    allow: optional(stringList, []),
    confirm: optional(stringList, []),
    deny: optional(stringList, []),
  }),
});

export type ModelConfig = v.InferOutput<typeof modelSchema>;
export type RawConfig = v.InferOutput<typeof rawConfigSchema>;
export type McpServerConfig = RawConfig['mcp']['servers'][string];
export type McpOAuthConfig = NonNullable<McpServerConfig['oauth']>;

/** The config every part reads: lists resolved, presets filled in, names cross-checked. */
export interface Config extends Omit<RawConfig, 'models' | 'default_model' | 'shell' | 'mcp' | 'routing'> {
  models: Record<string, ModelConfig>;
  /** The presets came from the config file's `models`, not the built-in ones (OPENAI_BASE_URL...). */
  presets_from_file?: boolean;
  default_model: string;
  mcp: Omit<RawConfig['mcp'], 'auto_approve'> & { auto_approve: string[] };
  routing: Omit<RawConfig['routing'], 'classes'> & { classes: Partial<Record<'code' | 'reasoning' | 'default', string>> };
  shell: Omit<RawConfig['shell'], 'known_commands' | 'interactive'> & {
    known_commands: string[];
    interactive: string[];
  };
}

/** What a config file may contain (the input side of the schema), for `defineConfig`. */
export type UserConfig = v.InferInput<typeof rawConfigSchema>;

function applyEdit(base: readonly string[], edit: v.InferOutput<typeof editableList> | undefined): string[] {
  if (edit === undefined) return [...base];
  if (Array.isArray(edit)) return [...edit];
  const removed = new Set(edit.remove);
  return [...base.filter((c) => !removed.has(c)), ...edit.add];
}

/** What a value is, in the words of a type mismatch: `expected boolean, received string`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The message of an issue whose schema gives none: a type mismatch, said the way zod said it. */
function defaultMessage(issue: v.BaseIssue<unknown>): string {
  // A choice: `expected one of "deny", "allow"` (valibot's expectation reads `("deny" | "allow")`).
  if (issue.type === 'picklist') return `expected one of ${(issue.expected ?? '').replace(/^\(|\)$/g, '').split(' | ').join(', ')}`;
  const expected = issue.expected === 'Object' ? 'object' : issue.expected === 'Array' ? 'array' : (issue.expected ?? 'something else');
  return `expected ${expected}, received ${kindOf(issue.input)}`;
}

/** Keys valibot passes over without a word, as they could pollute a prototype. */
const PASSED_OVER_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/** Each such key anywhere in the data, as an unknown key (a preset or server named so included). */
function passedOverKeys(data: unknown, path: string[] = []): ConfigIssue[] {
  if (typeof data !== 'object' || data === null) return [];
  return Object.keys(data).flatMap((key) => [
    ...(PASSED_OVER_KEYS.has(key) && !Array.isArray(data) ? [{ path: [...path, key].join('.'), message: 'unknown key' }] : []),
    ...passedOverKeys((data as Record<string, unknown>)[key], [...path, key]),
  ]);
}

/** Turns valibot issues into `path: message` lines: a key that is missing is "required". */
export function toConfigIssues(issues: readonly v.BaseIssue<unknown>[]): ConfigIssue[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
    const last = issue.path?.at(-1);
    if (last?.origin === 'key' && issue.input === undefined) return { path, message: 'required' };
    return { path, message: issue.message };
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
  const parsed = v.safeParse(rawConfigSchema, data ?? {}, { message: defaultMessage });
  const passedOver = passedOverKeys(data ?? {});
  if (!parsed.success) return { ok: false, issues: [...toConfigIssues(parsed.issues), ...passedOver] };
  if (passedOver.length > 0) return { ok: false, issues: passedOver };
  const raw = parsed.output;
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
  mustBePreset('memory.summarizer_model', raw.memory.summarizer_model);
  mustBePreset('routing.fallback_model', raw.routing.fallback_model);
  if (typeof raw.suggest.model === 'string') mustBePreset('suggest.model', raw.suggest.model);
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
      ...(models === builtinModels ? {} : { presets_from_file: true }),
      default_model: defaultModel,
      context: { ...raw.context, summarizer_model: summarizerModel },
      memory: { ...raw.memory, summarizer_model: raw.memory.summarizer_model ?? summarizerModel },
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
