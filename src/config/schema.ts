// The config schema (zod) and the resolved Config type every part reads. Unknown keys are errors,
// every problem is reported by dotted path (SPEC §10). Defaults live here, next to their keys.

import { z } from 'zod';
import { BUILTIN_TOOL_NAMES, DEFAULT_INTERACTIVE, DEFAULT_KNOWN_COMMANDS } from './defaults.js';
import type { ConfigIssue } from '../errors.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected a URL (http:// or https://)' });
const positiveInt = z.number({ error: 'expected a number' }).int('expected a whole number').positive('expected a number > 0');
const stringList = z.array(z.string().min(1, 'expected a non-empty string'), { error: 'expected a list of strings' });

/** A list that replaces the built-in one, or `{ add, remove }` that edits it. */
const editableList = z.union(
  [
    stringList,
    z.strictObject({ add: stringList.default([]), remove: stringList.default([]) }),
  ],
  { error: 'expected a list of strings or { add: [...], remove: [...] }' },
);

export const modelSchema = z.strictObject({
  endpoint: httpUrl,
  model: z.string({ error: 'expected the model name the server knows' }).min(1, 'expected a non-empty string'),
  key_env: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).default(0.2),
  max_tokens: positiveInt.optional(),
  timeout_ms: positiveInt.default(60_000),
  headers: z.record(z.string(), z.string()).default({}),
  // Sent as is with requests that carry tools: "auto", "none", "required" or one function.
  tool_choice: z
    .union([z.enum(['auto', 'none', 'required']), z.strictObject({ type: z.literal('function'), function: z.strictObject({ name: z.string().min(1) }) })], {
      error: 'expected "auto", "none", "required" or { type: "function", function: { name } }',
    })
    .optional(),
});

const mcpServerSchema = z
  .strictObject({
    url: httpUrl.optional(),
    transport: z.enum(['http', 'sse']).optional(),
    auth_token: z.string().min(1).optional(),
    auth_env: z.string().min(1).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    // Per call to this server; overrides mcp.call_timeout_ms.
    timeout_ms: positiveInt.optional(),
  })
  .refine((s) => (s.url === undefined) !== (s.command === undefined), {
    error: 'expected exactly one of `url` (HTTP) or `command` (stdio)',
  });

export const rawConfigSchema = z
  .strictObject({
    models: z.record(z.string().regex(/^[\w.-]+$/, 'preset names use letters, digits, _ . -'), modelSchema).optional(),
    default_model: z.string().min(1).optional(),
    shell: z
      .strictObject({
        program: z.string().min(1).optional(),
        known_commands: editableList.optional(),
        confirm_cmd: z.boolean().default(true),
        capture_max_chars: positiveInt.default(16_000),
        interactive: editableList.optional(),
        prompt: z.string().optional(),
      })
      .prefault({}),
    context: z
      .strictObject({
        max_turns: positiveInt.default(40),
        token_budget: positiveInt.default(4096),
        use_tool_role: z.boolean().default(true),
        summarize_on_evict: z.boolean().default(false),
        summarizer_model: z.string().min(1).optional(),
        max_summary_chars: positiveInt.default(2000),
      })
      .prefault({}),
    history: z
      .strictObject({
        dir: z.string().min(1).optional(),
        input_history_size: positiveInt.default(1000),
      })
      .prefault({}),
    mcp: z
      .strictObject({
        servers: z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/, 'aliases use letters, digits, _ and -'), mcpServerSchema).default({}),
        auto_approve: stringList.default([]),
        max_tool_depth: positiveInt.default(8),
        call_timeout_ms: positiveInt.default(60_000),
        max_result_chars: positiveInt.default(16_000),
        // Group name → tool names or `alias__*` patterns, for `:tools enable|disable <group>`.
        groups: z.record(z.string().regex(/^[\w.-]+$/, 'group names use letters, digits, _ . -'), stringList).default({}),
        // Most tools sent in one request; past it the likeliest are sent, with aish__find_tools.
        max_tools: positiveInt.default(32),
      })
      .prefault({}),
    tools: z
      .strictObject({
        // true: every built-in on; false: none; a list: those.
        builtin: z
          .union([z.boolean(), z.array(z.enum(BUILTIN_TOOL_NAMES), { error: `expected true, false or a list of ${BUILTIN_TOOL_NAMES.join(', ')}` })])
          .default(true),
      })
      .prefault({}),
    routing: z
      .strictObject({
        auto: z.boolean().default(false),
        classes: z.partialRecord(z.enum(['code', 'reasoning', 'default']), z.string().min(1)).default({}),
        cloud_fallback: z.boolean().default(false),
        fallback_model: z.string().min(1).optional(),
      })
      .prefault({}),
    norris: z
      .strictObject({
        max_steps: positiveInt.default(20),
        second_opinion: z.boolean().default(false),
      })
      .prefault({}),
    memory: z
      .strictObject({
        enabled: z.boolean().default(true),
        max_inject_chars: positiveInt.default(2000),
      })
      .prefault({}),
    ui: z
      .strictObject({
        show_stats: z.boolean().default(false),
      })
      .prefault({}),
    permissions: z
      .strictObject({
        allow: stringList.default([]),
        confirm: stringList.default([]),
        deny: stringList.default([]),
      })
      .prefault({}),
  })
  .superRefine((cfg, ctx) => {
    for (const [alias] of Object.entries(cfg.mcp.servers)) {
      if (alias.includes('__')) {
        ctx.addIssue({ code: 'custom', path: ['mcp', 'servers', alias], message: 'aliases may not contain "__"' });
      }
      if (alias === 'aish') ctx.addIssue({ code: 'custom', path: ['mcp', 'servers', alias], message: "the alias aish is reserved for aish's built-in tools" });
    }
  });

export type ModelConfig = z.output<typeof modelSchema>;
export type RawConfig = z.output<typeof rawConfigSchema>;
export type McpServerConfig = RawConfig['mcp']['servers'][string];

/** The config every part reads: lists resolved, presets filled in, names cross-checked. */
export interface Config extends Omit<RawConfig, 'models' | 'default_model' | 'shell'> {
  models: Record<string, ModelConfig>;
  default_model: string;
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
export function toConfigIssues(error: z.ZodError): ConfigIssue[] {
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
  const parsed = rawConfigSchema.safeParse(data ?? {}, { reportInput: true });
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
  for (const [cls, preset] of Object.entries(raw.routing.classes)) mustBePreset(`routing.classes.${cls}`, preset);
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    config: {
      ...raw,
      models,
      default_model: defaultModel,
      shell: {
        ...raw.shell,
        known_commands: applyEdit(DEFAULT_KNOWN_COMMANDS, raw.shell.known_commands),
        interactive: applyEdit(DEFAULT_INTERACTIVE, raw.shell.interactive),
      },
    },
  };
}
