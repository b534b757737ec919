// Draws a turn as the core reports it: a spinner while waiting, the streaming reply (reasoning dim,
// `CMD:` lines bold cyan, markdown when colour is on), tool frames, status and error lines, and the
// stats line of `ui.show_stats`. The REPL, one-shot and Norris all see turns through this view; on
// a pipe the spinner stays silent and the reply is plain text.

import { progressText, type ToolOutcome } from '../tool-call.js';
import type { TurnEvent, TurnObserver } from '../turn/types.js';
import { ReplyRenderer } from './reply.js';
import type { Renderer } from './renderer.js';
import { Spinner } from './spinner.js';

export interface TurnViewOptions {
  /** `ui.show_stats`: a `812 → 64 tokens · 1 tool call · 2.3 s` line after each reply. */
  showStats: boolean;
}

/** Figures of one request, for the stats line. */
export interface TurnStats {
  started: number;
  promptTokens: number;
  completionTokens: number;
  usageSeen: boolean;
  toolCalls: number;
}

/** An observer that draws every TurnEvent on `render`. */
export function createTurnView(render: Renderer, options: TurnViewOptions): TurnObserver {
  const spinner = new Spinner(render.io, (s) => render.style.dim(s));
  // Notices are said once per session (seed 000: "one-time status"), however many calls carry them.
  const noticed = new Set<string>();
  let reply = new ReplyRenderer(render);
  let stats = freshStats();
  // The reply's text may still be held for output (Renderer.stream): out before a spinner draws.
  const startSpinner = (label: string) => {
    render.flush();
    spinner.start(label);
  };
  const endReply = () => {
    spinner.stop();
    reply.finish();
  };
  // Background lines wait while reply text streams (a line in the middle would break it).
  let streaming = false;
  const waiting: string[] = [];
  const notice = (message: string) => {
    if (!spinner.active) return render.status(message);
    const label = spinner.label;
    spinner.stop();
    render.status(message);
    startSpinner(label);
  };
  return (e: TurnEvent) => {
    switch (e.type) {
      case 'request-start':
        if (e.depth === 0) stats = freshStats();
        reply = new ReplyRenderer(render);
        streaming = true;
        startSpinner(e.depth === 0 ? 'thinking' : 'thinking (tool results sent)');
        return;
      case 'text':
        spinner.stop();
        reply.text(e.text);
        return;
      case 'reasoning':
        spinner.stop();
        reply.reasoning(e.text);
        return;
      case 'tool-call-preparing':
        startSpinner(`preparing a call to ${e.name}`);
        return;
      case 'usage':
        stats.usageSeen = true;
        stats.promptTokens += e.usage.prompt_tokens ?? 0;
        stats.completionTokens += e.usage.completion_tokens ?? 0;
        return;
      case 'request-end':
        endReply();
        streaming = false;
        for (const message of waiting.splice(0)) render.status(message);
        return;
      case 'hold':
        render.flush();
        spinner.stop();
        return;
      case 'notice':
        // While waiting for the first token the spinner is redrawn under the line; once text flows, it waits.
        if (streaming && !spinner.active) waiting.push(e.message);
        else notice(e.message);
        return;
      case 'tool-begin':
        stats.toolCalls++;
        render.toolBegin(e.call.name, e.args === undefined ? e.call.arguments : JSON.stringify(e.args));
        startSpinner(`running ${e.call.name}`);
        return;
      case 'tool-progress':
        // The spinner's line, replaced in place; the frame's end line takes its place when the call ends.
        startSpinner(`running ${e.call.name} · ${progressText(e.progress)}`);
        return;
      case 'tool-end':
        spinner.stop();
        drawToolEnd(render, e.outcome, e.durationMs, noticed);
        return;
      case 'tool-declined':
        // Its status line says so; a call that never ran has no frame.
        return;
      case 'status':
        endReply();
        render.status(e.message);
        return;
      case 'context':
        endReply();
        render.context(e.message);
        return;
      case 'error':
        endReply();
        render.error(e.message);
        return;
      case 'answered':
        if (options.showStats) render.status(formatStats(stats));
        return;
    }
  };
}

function freshStats(): TurnStats {
  return { started: Date.now(), promptTokens: 0, completionTokens: 0, usageSeen: false, toolCalls: 0 };
}

function drawToolEnd(render: Renderer, outcome: ToolOutcome, ms: number, noticed: Set<string>): void {
  render.toolBody(outcome.display ?? shorten(outcome.content));
  const ok = outcome.status === 'ok' && !outcome.isError;
  render.toolEnd(`${outcome.isError ? 'error (reported by the tool)' : outcome.status} · ${ms} ms`, ok);
  drawToolAlerts(render, outcome, noticed);
}

/** A call's alert (every time) and its notices (once each, kept in `noticed`) as status lines. */
export function drawToolAlerts(render: Renderer, outcome: ToolOutcome, noticed: Set<string>): void {
  if (outcome.alert) render.error(outcome.alert);
  for (const notice of outcome.notices ?? []) {
    if (noticed.has(notice)) continue;
    noticed.add(notice);
    render.status(notice);
  }
}

/** The one-line summary after a reply: `812 → 64 tokens · 1 tool call · 2.3 s`. */
export function formatStats(stats: TurnStats, now = Date.now()): string {
  const parts: string[] = [];
  if (stats.usageSeen) parts.push(`${stats.promptTokens} → ${stats.completionTokens} tokens`);
  parts.push(`${stats.toolCalls} tool call${stats.toolCalls === 1 ? '' : 's'}`);
  parts.push(`${((now - stats.started) / 1000).toFixed(1)} s`);
  return parts.join(' · ');
}

/** At most a few lines of a tool result for the frame; the model gets all of it. */
function shorten(text: string, maxLines = 8, maxChars = 800): string {
  let out = text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
  const lines = out.split('\n');
  if (lines.length > maxLines) out = `${lines.slice(0, maxLines).join('\n')}\n… (${lines.length - maxLines} more lines)`;
  return out;
}
