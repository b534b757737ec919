// The config schema (zod) and the resolved Config type every part reads. Unknown keys are errors,
// every problem is reported by dotted path (SPEC §10). Defaults live here, next to their keys.
// Written with zod/mini: the same checks and messages as classic zod at a twentieth of the code,
// which every start-up with a config file loads (docs/performance.md).

import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { BUILTIN_TOOL_NAMES, DEFAULT_INTERACTIVE, DEFAULT_KNOWN_COMMANDS } from './defaults.js';
import type { ConfigIssue } from '../errors.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected a URL (http:// or https://)' });
const nonEmpty = (error?: string) => z.string().check(z.minLength(1, error));
const positiveInt = z.number({ error: 'expected a number' }).check(z.int('expected a whole number'), z.positive('expected a number > 0'));
const stringList = z.array(nonEmpty('expected a non-empty string'), { error: 'expected a list of strings' });
const optional = z.optional;
const withDefault = z._default;
/** A section of the config: absent means every key takes its default. */
const section = <S extends z.core.$ZodLooseShape>(shape: S) => {
  const object = z.strictObject(shape);
  // Every key of a section is optional, so {} is a valid input; TypeScript cannot see that here.
  return z.prefault(object, {} as z.input<typeof object>);
};

/** A list that replaces the built-in one, or `{ add, remove }` that edits it. */
const editableList = z.union(
  [
    stringList,
    z.strictObject({ add: withDefault(stringList, []), remove: withDefault(stringList, []) }),
  ],
  { error: 'expected a list of strings or { add: [...], remove: [...] }' },
);

export const modelSchema = z.strictObject({
  endpoint: httpUrl,
  model: z.string({ error: 'expected the model name the server knows' }).check(z.minLength(1, 'expected a non-empty string')),
  key_env: optional(nonEmpty()),
  temperature: withDefault(z.number().check(z.gte(0), z.lte(2)), 0.2),
  max_tokens: optional(positiveInt),
  timeout_ms: withDefault(positiveInt, 60_000),
  headers: withDefault(z.record(z.string(), z.string()), {}),
  /** Price per million prompt tokens (`:cost`); unset counts as 0 (a local server). */
  price_in: optional(z.number().check(z.gte(0))),
  /** Price per million completion tokens. */
  price_out: optional(z.number().check(z.gte(0))),
  // Sent as is with requests that carry tools: "auto", "none", "required" or one function.
  tool_choice: optional(
    z.union([z.enum(['auto', 'none', 'required']), z.strictObject({ type: z.literal('function'), function: z.strictObject({ name: nonEmpty() }) })], {
      error: 'expected "auto", "none", "required" or { type: "function", function: { name } }',
    }),
  ),
});

/** OAuth 2.1 for an HTTP server (docs/mcp.md "OAuth"); every key is optional. */
const mcpOAuthSchema = z.strictObject({
  /** A pre-registered client; without it aish uses `client_metadata_url` or registers itself. */
  client_id: optional(nonEmpty()),
  /** The variable holding the pre-registered client's secret. */
  client_secret_env: optional(nonEmpty()),
  /** An https URL of a client-ID metadata document, used when the server supports them. */
  client_metadata_url: optional(httpUrl),
  /** Scopes to ask for when the server names none. */
  scopes: optional(z.array(nonEmpty())),
  grant: withDefault(z.enum(['authorization_code', 'client_credentials']), 'authorization_code'),
  /** The variable holding a PEM private key: the client authenticates with private_key_jwt. */
  private_key_env: optional(nonEmpty()),
});

const mcpServerSchema = z
  .strictObject({
    url: optional(httpUrl),
    transport: optional(z.enum(['http', 'sse'])),
    auth_token: optional(nonEmpty()),
    auth_env: optional(nonEmpty()),
    oauth: optional(mcpOAuthSchema),
    command: optional(nonEmpty()),
    args: withDefault(z.array(z.string()), []),
    env: withDefault(z.record(z.string(), z.string()), {}),
    cwd: optional(z.string()),
    // Per call to this server; overrides mcp.call_timeout_ms.
    timeout_ms: optional(positiveInt),
  })
  .check(
    z.refine((s) => (s.url === undefined) !== (s.command === undefined), {
      error: 'expected exactly one of `url` (HTTP) or `command` (stdio)',
    }),
    z.refine((s) => s.oauth === undefined || s.url !== undefined, { error: '`oauth` applies to HTTP servers (`url`)', path: ['oauth'] }),
    z.refine((s) => s.oauth?.grant !== 'client_credentials' || s.oauth.client_id !== undefined, {
      error: 'the client_credentials grant needs `client_id`',
      path: ['oauth', 'client_id'],
    }),
  );

export const rawConfigSchema = z
  .strictObject({
    models: optional(z.record(z.string().check(z.regex(/^[\w.-]+$/, 'preset names use letters, digits, _ . -')), modelSchema)),
    default_model: optional(nonEmpty()),
    shell: section({
      program: optional(nonEmpty()),
      known_commands: optional(editableList),
      confirm_cmd: withDefault(z.boolean(), true),
      capture_max_chars: withDefault(positiveInt, 16_000),
      interactive: optional(editableList),
      prompt: optional(z.string()),
    }),
    context: section({
      max_turns: withDefault(positiveInt, 40),
      token_budget: withDefault(positiveInt, 4096),
      use_tool_role: withDefault(z.boolean(), true),
      summarize_on_evict: withDefault(z.boolean(), false),
      summarizer_model: optional(nonEmpty()),
      max_summary_chars: withDefault(positiveInt, 2000),
      project: section({
        max_chars: withDefault(positiveInt, 2000),
      }),
    }),
    history: section({
      dir: optional(nonEmpty()),
      input_history_size: withDefault(positiveInt, 1000),
    }),
    mcp: section({
      servers: withDefault(z.record(z.string().check(z.regex(/^[a-zA-Z0-9_-]+$/, 'aliases use letters, digits, _ and -')), mcpServerSchema), {}),
      // A list of names, or the seed's map `{ "alias__tool": true }` (false entries are ignored).
      auto_approve: withDefault(
        z.union([stringList, z.record(nonEmpty(), z.boolean())], { error: 'expected a list of tool names or a map of tool name → true' }),
        [],
      ),
      max_tool_depth: withDefault(positiveInt, 8),
      call_timeout_ms: withDefault(positiveInt, 60_000),
      max_result_chars: withDefault(positiveInt, 16_000),
      // Group name → tool names or `alias__*` patterns, for `:tools enable|disable <group>`.
      groups: withDefault(z.record(z.string().check(z.regex(/^[\w.-]+$/, 'group names use letters, digits, _ . -')), stringList), {}),
      // Most tools sent in one request; past it the likeliest are sent, with aish__find_tools.
      max_tools: withDefault(positiveInt, 32),
      // A server's questions (elicitation) when nobody is at a terminal: refuse, or accept its defaults.
      elicitation: withDefault(z.enum(['decline', 'defaults']), 'decline'),
      // A server's requests for a model answer (sampling) when nobody can confirm them.
      sampling: withDefault(z.enum(['deny', 'allow']), 'deny'),
      // Directories offered as roots besides the current one (`~` is the home directory).
      roots: withDefault(stringList, []),
    }),
    tools: section({
      // true: every built-in on; false: none; a list: those.
      builtin: withDefault(
        z.union([z.boolean(), z.array(z.enum(BUILTIN_TOOL_NAMES), { error: `expected true, false or a list of ${BUILTIN_TOOL_NAMES.join(', ')}` })]),
        true,
      ),
    }),
    routing: section({
      auto: withDefault(z.boolean(), false),
      // Unset: seed 002's defaults (code → deep, reasoning → cloud, when those presets exist).
      classes: optional(z.partialRecord(z.enum(['code', 'reasoning', 'default']), nonEmpty())),
      cloud_fallback: withDefault(z.boolean(), false),
      fallback_model: optional(nonEmpty()),
    }),
    norris: section({
      max_steps: withDefault(positiveInt, 20),
      second_opinion: withDefault(z.boolean(), false),
    }),
    memory: section({
      enabled: withDefault(z.boolean(), true),
      max_inject_chars: withDefault(positiveInt, 2000),
    }),
    ui: section({
      show_stats: withDefault(z.boolean(), false),
    }),
    permissions: section({
      allow: withDefault(stringList, []),
      confirm: withDefault(stringList, []),
      deny: withDefault(stringList, []),
    }),
  })
  .check(
    z.superRefine((cfg, ctx) => {
      for (const [alias] of Object.entries(cfg.mcp.servers)) {
        if (alias.includes('__')) {
          ctx.addIssue({ code: 'custom', path: ['mcp', 'servers', alias], message: 'aliases may not contain "__"' });
        }
        if (alias === 'aish') ctx.addIssue({ code: 'custom', path: ['mcp', 'servers', alias], message: "the alias aish is reserved for aish's built-in tools" });
      }
    }),
  );

/** English messages for this parse only (zod/mini sets no locale; nothing global is changed). */
const englishMessages = en().localeError;

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

/** Turns zod issues into `path: message` lines, naming unknown keys one by one. */
export function toConfigIssues(error: z.core.$ZodError): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: path ? `${path}.${key}` : key, message: 'unknown key' });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      issues.push({ path, message: 'required' });
    } else {
      issues.push({ path, message: issue.message.replace(/^Invalid input: /, '') });
    }
  }
  return issues;
}

/**
 * Validates raw config data and resolves it: presets default to `builtinModels` when the file
 * names none, `default_model` to `fast` (or the first preset). Returns issues instead of throwing.
 */
export function resolveConfig(
  data: unknown,
  builtinModels: Record<string, ModelConfig>,
): { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] } {
  const parsed = rawConfigSchema.safeParse(data ?? {}, { reportInput: true, error: englishMessages });
  if (!parsed.success) return { ok: false, issues: toConfigIssues(parsed.error) };
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
