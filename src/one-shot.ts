// `aish -p "<text>"`: one question, the reply streamed to stdout, CMD: lines printed and never
// run, tools only when auto-approved (a call that would need a question does not run:
// `needs_approval`). Piped stdin is prepended as a fenced block, capped head and tail like command
// output; binary input is refused. With `--resume` the question goes on in that session and the
// exchange is appended to its file. `--output json|jsonl` puts JSON on stdout instead of the reply
// (render/script-output.ts), status lines staying on stderr. Exit codes: 0 answered, 1 model or
// broker error, 2 usage (no question, binary input, no such session), 3 a tool call or CMD: line
// the policy denied, 130 interrupted.

import { StringDecoder } from 'node:string_decoder';
import { BrokerError } from './broker/errors.js';
import { buildSession, sessionSecrets, type Secrets } from './build-session.js';
import { extractCmdLines } from './cmd-contract.js';
import type { Config } from './config/schema.js';
import { AishError, UsageError, errorMessage } from './errors.js';
import type { Io } from './io.js';
import type { ProcessGroups } from './mcp/process-groups.js';
import { connectConfiguredServers } from './mcp/startup.js';
import { ScriptOutput, createStatusView, type ScriptError } from './render/script-output.js';
import { createTurnView } from './render/turn-view.js';
import { fenced } from './project/mentions.js';
import { OutputCapture, type CapturedOutput } from './shell/capture.js';
import type { TurnEvent } from './turn/types.js';
import { startingModel } from './turn/model-client.js';

export interface OneShotOptions {
  io: Io;
  config: Config;
  env: Record<string, string | undefined>;
  version: string;
  prompt: string;
  /** What was piped to stdin (read with `readPiped`), if anything. */
  piped?: CapturedOutput | undefined;
  model?: string | undefined;
  /** `--resume NAME|last`: continue that session, appending to its file. */
  resume?: string | undefined;
  /** The directory aish runs in (its git work tree gives the `[project]` block). */
  cwd: string;
  /** Where sessions live (needed with `resume`). */
  historyDir?: string | undefined;
  /** aish's state dir, where OAuth tokens are kept (undefined: none). */
  stateDir?: string | undefined;
  /** `--output`: JSON on stdout for a script; undefined is the plain reply. */
  output?: 'json' | 'jsonl' | undefined;
  signal: AbortSignal;
  /** Where the stdio MCP servers' process groups are listed, for the exit to end what is left. */
  groups?: ProcessGroups;
}

/** The exit codes of `-p` (README, docs/usage.md "Scripting with -p"). */
export const EXIT = { answered: 0, failed: 1, usage: 2, denied: 3, interrupted: 130 } as const;

/** Reads a pipe to its end, keeping at most `maxChars` (head and tail) as command output is kept. */
export async function readPiped(stream: NodeJS.ReadableStream, maxChars: number): Promise<CapturedOutput> {
  const capture = new OutputCapture(maxChars);
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) capture.push(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
  capture.push(decoder.end());
  return capture.finish();
}

/** The user turn: piped input as a fenced block, then the question (or, with no question, stdin alone). */
export function oneShotPrompt(prompt: string, stdinText: string | undefined): string {
  if (stdinText === undefined || stdinText.trim() === '') return prompt;
  // `-p` without a question: stdin is the question.
  if (prompt.trim() === '') return stdinText.replace(/\n+$/, '');
  return `${fenced(stdinText.replace(/\n+$/, ''))}\n\n${prompt}`;
}

/**
 * Asks once and returns the exit code. With `output`, stdout gets the JSON answer or, for any
 * failure (a usage error too, which is then rethrown for its stderr line), the JSON error.
 */
export async function runOneShot(opts: OneShotOptions): Promise<number> {
  const secrets = sessionSecrets({ config: opts.config, env: opts.env, cwd: opts.cwd, stateDir: opts.stateDir });
  const script = new ScriptOutput(opts.output ?? 'text', opts.io.output, secrets.redact);
  try {
    return await askOnce(opts, secrets, script);
  } catch (err) {
    script.fail(scriptError(err));
    throw err;
  }
}

async function askOnce(opts: OneShotOptions, secrets: Secrets, script: ScriptOutput): Promise<number> {
  const { config, env, piped } = opts;
  if (opts.prompt.trim() === '' && (piped?.text ?? '').trim() === '') throw new UsageError('-p needs a question (after it, or on stdin)');
  if (piped?.binary) throw new UsageError(`-p: standard input looks binary (${piped.rawChars} chars with NUL bytes); pipe text (e.g. through strings or xxd)`);
  const model = startingModel(config, opts.model);
  // With JSON on stdout, everything the renderer writes goes to stderr, undecorated: stdout
  // carries nothing but the script's lines.
  const io = opts.output ? { ...opts.io, output: opts.io.errors, isTTY: false } : opts.io;
  // Nobody is asked: tools run only when auto-approved (and a server's questions are answered by
  // mcp.elicitation and mcp.sampling), CMD: lines are printed and never run.
  const session = buildSession({
    secrets,
    io,
    config,
    env,
    cwd: opts.cwd,
    version: opts.version,
    stateDir: opts.stateDir,
    historyDir: opts.historyDir,
    model,
    questions: null,
    view: (render) => {
      const shown = opts.output ? createStatusView(render) : createTurnView(render, { showStats: config.ui.show_stats });
      return (e: TurnEvent) => {
        shown(e);
        script.observer(e);
      };
    },
    holdLogs: false,
    record: opts.resume !== undefined,
    browser: false,
    memory: false,
    ...(opts.groups ? { groups: opts.groups } : {}),
  });
  const { render, status, sessions, core, gate, mcp: registry } = session;
  if (sessions && opts.resume !== undefined) {
    try {
      const resumed = await sessions.continueIn(core.context, opts.resume);
      for (const warning of resumed.warnings) status(`resume: ${warning}`);
    } catch (err) {
      throw new UsageError(`--resume: ${errorMessage(err)}`);
    }
  }
  if (piped?.truncated) status(`piped input capped at ${config.shell.capture_max_chars} chars (head and tail kept; shell.capture_max_chars)`);
  await connectConfiguredServers(registry, config, render);
  const result = await core.ask(oneShotPrompt(opts.prompt, piped?.text), model, opts.signal);
  render.endLine();
  const file = sessions?.file ?? null;
  sessions?.close();
  let code: number;
  switch (result.outcome) {
    case 'failed':
      script.fail(scriptError(result.error), true);
      code = EXIT.failed;
      break;
    case 'cancelled':
      script.fail({ kind: 'interrupted', message: 'interrupted (the request was cancelled)' });
      code = EXIT.interrupted;
      break;
    default: {
      // A cut-off reply offers none of its CMD: lines (TurnCore.ask).
      const cmdLines = result.outcome === 'done' && result.cut ? [] : extractCmdLines(result.text);
      const denied = cmdLines.filter((command) => {
        const decision = gate.judge({ type: 'command', command });
        if (decision.verdict === 'deny') status(`CMD: line ${decision.reason}: ${command}`);
        return decision.verdict === 'deny';
      });
      const total = core.usage.total;
      script.answer({
        reply: result.text,
        cmd_lines: cmdLines,
        model: core.usage.last ?? model,
        usage: { prompt_tokens: total.promptTokens, completion_tokens: total.completionTokens, estimated: total.estimated },
        session: file,
      });
      code = denied.length > 0 || script.toolDenied ? EXIT.denied : EXIT.answered;
    }
  }
  await registry.closeAll();
  return code;
}

/** The JSON error of a failure: a model failure by its kind, else usage, config or internal. */
function scriptError(err: unknown): ScriptError {
  if (err instanceof BrokerError) return { kind: err.kind, message: errorMessage(err) };
  if (err instanceof AishError && (err.code === 'usage' || err.code === 'config')) return { kind: err.code, message: errorMessage(err) };
  return { kind: 'internal', message: `internal error: ${errorMessage(err)}` };
}
