// Server log messages (MCP `notifications/message`): when a server can log, the client asks for
// `warning` and above (`logging/setLevel`), and each message at or above it becomes one line for
// the person: `mcp <alias> <level>: <text>`. A chatty server cannot flood the terminal: past
// LOG_LINES_PER_MINUTE in a minute, one line says so and the rest of that minute is dropped.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/** RFC 5424 severities as MCP names them, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
/** The least severe level shown (and asked for). */
export const SHOWN_FROM = 'warning';
export const LOG_LINES_PER_MINUTE = 10;
const MAX_LINE_CHARS = 300;

/** The line for one log message, or null below `warning` (a server may ignore the level asked for). */
export function logLine(alias: string, params: { level: string; logger?: string | undefined; data?: unknown }): string | null {
  const rank = LOG_LEVELS.indexOf(params.level as (typeof LOG_LEVELS)[number]);
  if (rank < LOG_LEVELS.indexOf(SHOWN_FROM)) return null;
  const raw = typeof params.data === 'string' ? params.data : JSON.stringify(params.data) ?? String(params.data);
  let text = raw.replace(/\s*\n\s*/g, ' ').trim();
  if (text.length > MAX_LINE_CHARS) text = `${text.slice(0, MAX_LINE_CHARS - 1)}…`;
  const logger = typeof params.logger === 'string' && params.logger !== '' ? ` (${params.logger.slice(0, 40)})` : '';
  return `mcp ${alias} ${params.level}${logger}: ${text}`;
}

/** Lets through at most `perMinute` lines a minute; the first line over says the rest are dropped. */
export function logBudget(alias: string, perMinute = LOG_LINES_PER_MINUTE, now: () => number = Date.now): (line: string) => string | null {
  let windowStart = -Infinity;
  let shown = 0;
  return (line) => {
    const t = now();
    if (t - windowStart >= 60_000) {
      windowStart = t;
      shown = 0;
    }
    shown++;
    if (shown <= perMinute) return line;
    return shown === perMinute + 1 ? `mcp ${alias}: more than ${perMinute} log messages this minute; the rest of the minute's are not shown` : null;
  };
}

/** Shows `client`'s log messages through `show`, and asks the server for `warning` and above. */
export function watchServerLog(client: Client, alias: string, show: (line: string) => void): void {
  const budget = logBudget(alias);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const line = logLine(alias, notification.params);
    const allowed = line === null ? null : budget(line);
    if (allowed !== null) show(allowed);
  });
  // Best effort: a server that refuses the level still has its messages filtered here.
  if (client.getServerCapabilities()?.logging) client.setLoggingLevel(SHOWN_FROM).catch(() => {});
}
