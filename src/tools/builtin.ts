// aish's own tools, in the same registry as MCP tools and named `aish__…` (an alias no server may
// take): the date and time, and read-only looks at files under the current directory. They reach
// the model through the same ToolHost, the same validation and the same gate as any tool; `call`
// never rejects. `aish__find_tools` lives with the tool budget (budget.ts).

import type { ToolHost } from '../turn/types.js';
import { schemaMismatchOutcome, unknownToolOutcome, type ToolOutcome } from '../tool-call.js';
import { listDir, readFileCapped } from './builtin-files.js';
import { lazyValidator } from './lazy-validator.js';

export interface BuiltinOptions {
  /** The built-ins to offer, by name (`tools.builtin`); `aish__find_tools` belongs to the budget. */
  enabled: readonly string[];
  /** The shell's current directory, which follows `cd`. */
  cwd: () => string;
  now: () => Date;
  /**
   * IANA name of the local time zone, or how to get it when the tool runs: the first
   * `Intl.DateTimeFormat` costs about 40 ms (ICU's time zone data), too much for every start.
   */
  timeZone: string | (() => string);
  /** Longest text a read returns (`mcp.max_result_chars`). */
  maxChars: number;
}

type Args = Record<string, unknown>;
type ToolDefinition = ReturnType<ToolHost['definitions']>[number];
interface Builtin {
  definition: ToolDefinition;
  run(args: Args, signal: AbortSignal): Promise<ToolOutcome>;
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required, additionalProperties: false });
const tool = (name: string, description: string, parameters: Record<string, unknown>): ToolDefinition => ({ type: 'function', function: { name, description, parameters } });

/** The built-in tools as a ToolHost (read-only, annotated so). */
export function builtinToolHost(opts: BuiltinOptions): ToolHost {
  const all: Record<string, Builtin> = {
    aish__current_date: {
      definition: tool(
        'aish__current_date',
        "The current date and time, in the user's time zone or the one given",
        object({ timezone: { type: 'string', description: 'IANA time zone name such as Europe/Berlin or America/New_York; default: the user\'s own' } }),
      ),
      run: async (args) => {
        const own = typeof opts.timeZone === 'string' ? opts.timeZone : opts.timeZone();
        const asked = typeof args.timezone === 'string' && args.timezone.trim() !== '' ? args.timezone.trim() : undefined;
        if (asked !== undefined && !isTimeZone(asked)) return unknownTimeZone(asked);
        return ok(describeNow(opts.now(), asked ?? own));
      },
    },
    aish__read_file: {
      definition: tool(
        'aish__read_file',
        `Reads a text file under the current directory (at most ${opts.maxChars} characters)`,
        object({ path: { type: 'string', description: 'Path relative to the current directory' } }, ['path']),
      ),
      run: (args, signal) => readFileCapped(opts.cwd(), String(args.path), opts.maxChars, signal),
    },
    aish__list_dir: {
      definition: tool(
        'aish__list_dir',
        'Lists a directory under the current directory (folders end in /)',
        object({ path: { type: 'string', description: 'Path relative to the current directory; default "."' } }),
      ),
      run: (args) => listDir(opts.cwd(), typeof args.path === 'string' ? args.path : '.'),
    },
  };
  const tools = new Map<string, Builtin>();
  for (const name of opts.enabled) if (all[name]) tools.set(name, all[name]);
  const validator = lazyValidator();

  return {
    definitions: () => [...tools.values()].map((t) => t.definition),
    has: (name) => tools.has(name),
    validate: (name, args) => {
      const t = tools.get(name);
      return t ? validator.check(t.definition.function.parameters, args) : [];
    },
    annotations: (name) => (tools.has(name) ? { readOnlyHint: true } : undefined),
    async call(name, args, { signal }) {
      const t = tools.get(name);
      if (!t) return unknownToolOutcome(name);
      try {
        const problems = await validator.checkNow(t.definition.function.parameters, args);
        if (problems.length > 0) return schemaMismatchOutcome(problems);
        return await t.run(args, signal);
      } catch (err) {
        return { status: 'error', content: `[aish] ${name} failed: ${err instanceof Error ? err.message : String(err)}` };
      }
    },
  };
}

/** Whether `name` is a time zone `Intl` knows (IANA names, `UTC`, `Etc/GMT+5`, ...). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function unknownTimeZone(name: string): ToolOutcome {
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return { status: 'error', content: `[aish] aish__current_date: unknown time zone ${JSON.stringify(shown)}; give an IANA name such as Europe/Berlin, America/New_York or UTC` };
}

function ok(content: string): ToolOutcome {
  return { status: 'ok', content };
}

/** Date, time and zone as a person would read them, plus UTC for arithmetic. */
export function describeNow(now: Date, timeZone: string): string {
  const parts = (options: Intl.DateTimeFormatOptions) =>
    Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, ...options }).formatToParts(now).map((p) => [p.type, p.value]));
  const d = parts({ year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'long', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const offset = parts({ timeZoneName: 'longOffset' }).timeZoneName ?? 'GMT';
  return [
    `date: ${d.year}-${d.month}-${d.day} (${d.weekday})`,
    `time: ${d.hour}:${d.minute}:${d.second}`,
    `time zone: ${timeZone} (${offset === 'GMT' ? 'GMT+00:00' : offset})`,
    `utc: ${now.toISOString().replace(/\.\d+Z$/, 'Z')}`,
  ].join('\n');
}
