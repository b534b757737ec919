// Broker failures as values with a kind. The message is one of the contract strings of SPEC §5
// (`transport: ...`, `decode: ...`, `api: ...`, `broker: ...`); fallback (SPEC §9) reads them, so
// they are built only here.

import { AishError } from '../errors.js';
import { isRecord } from '../is-record.js';

export type BrokerErrorKind = 'transport' | 'decode' | 'api' | 'broker';

/** How long a body snippet or API message may be in an error line. */
const SNIPPET_CHARS = 200;
const API_MESSAGE_CHARS = 300;

/**
 * A request to a model that failed. `message` is `<kind>: <detail>`; `status` is the HTTP status
 * when the server answered with one; `receivedDelta` says whether text or tool-call data had
 * already arrived (and been emitted) before the failure.
 */
export class BrokerError extends AishError {
  receivedDelta: boolean;
  readonly status: number | undefined;
  /** How long the server asked to wait (`Retry-After` of a 429 or 503), in ms. */
  readonly retryAfterMs: number | undefined;
  /** The server had answered, then went silent until the idle timeout: it is up, but stuck. */
  stalled = false;
  /** The server accepted the connection but sent no response header within the timeout: up, but not answering. */
  unanswered = false;

  constructor(
    readonly kind: BrokerErrorKind,
    detail: string,
    options: { status?: number; receivedDelta?: boolean; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super('broker', `${kind}: ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.receivedDelta = options.receivedDelta ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0e-\x1f\x7f-\x9f]/g;

/**
 * Text from a server made fit for one status line: escape sequences and control characters
 * removed, whitespace runs collapsed to one space, cut to `max` characters with `…`.
 */
export function oneLine(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(ANSI_SEQUENCE, '').replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let cut = flat.slice(0, max);
  // Do not leave half of a surrogate pair before the ellipsis.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/**
 * `transport: HTTP <status>: <snippet>`. A JSON error body gives its message (and its code, when it
 * has one) instead of raw JSON; an empty body gives the status text.
 */
export function httpError(status: number, body: string, statusText = '', retryAfterMs?: number): BrokerError {
  const snippet = oneLine(errorBodyMessage(body) ?? body) || statusText;
  return new BrokerError('transport', `HTTP ${status}: ${snippet}`, { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
}

/** `{"error":{"message":"...","code":"..."}}`, `{"error":"..."}` or `{"message":"..."}` → `message (code)`. */
function errorBodyMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const error = parsed.error;
  if (typeof error === 'string' && error !== '') return error;
  const source = isRecord(error) ? error : parsed;
  if (typeof source.message !== 'string' || source.message === '') return undefined;
  const code = typeof source.code === 'string' && source.code !== '' && !source.message.includes(source.code) ? ` (${source.code})` : '';
  return `${source.message}${code}`;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `api: <message>` from an error object found in a reply (`{message}`, a string, or anything). */
export function apiError(error: unknown): BrokerError {
  let message: string;
  if (typeof error === 'string') message = error;
  else if (isRecord(error) && typeof error.message === 'string' && error.message !== '') message = error.message;
  else message = JSON.stringify(error) ?? String(error);
  return new BrokerError('api', oneLine(message, API_MESSAGE_CHARS) || 'the server reported an error without a message');
}

export function decodeError(what: string): BrokerError {
  return new BrokerError('decode', what);
}

export function configError(problem: string): BrokerError {
  return new BrokerError('broker', problem);
}

const CODE_MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ENOTFOUND: "Couldn't resolve host",
  EAI_AGAIN: "Couldn't resolve host",
  EAI_NONAME: "Couldn't resolve host",
  EAI_NODATA: "Couldn't resolve host",
  EAI_FAIL: "Couldn't resolve host",
  ETIMEDOUT: 'Timeout was reached',
  UND_ERR_CONNECT_TIMEOUT: 'Timeout was reached',
  UND_ERR_HEADERS_TIMEOUT: 'Timeout was reached',
  UND_ERR_BODY_TIMEOUT: 'Timeout was reached',
  EHOSTUNREACH: 'No route to host',
  ENETUNREACH: 'Network is unreachable',
};

/** Codes of a connection that went away; what they mean depends on whether a response began. */
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The `transport: Timeout was reached` error. */
export function timeoutError(): BrokerError {
  return new BrokerError('transport', CODE_MESSAGES.ETIMEDOUT!);
}

/** The server went away: `transport: connection closed mid-stream` (or before a response). */
export function closedError(responseStarted: boolean, cause?: unknown): BrokerError {
  const detail = responseStarted ? 'connection closed mid-stream' : 'connection closed before a response';
  return new BrokerError('transport', detail, { cause });
}

/**
 * Maps a network error (Node or undici, possibly wrapped in `cause` or an AggregateError) to its
 * contract string. `responseStarted` tells a reset before any response from one mid-stream.
 */
export function transportError(err: unknown, responseStarted: boolean): BrokerError {
  const codes = errorCodes(err);
  for (const code of codes) {
    const known = CODE_MESSAGES[code];
    if (known) return new BrokerError('transport', known, { cause: err });
  }
  if (codes.some((c) => CLOSED_CODES.has(c))) return closedError(responseStarted, err);
  const message = err instanceof Error ? err.message : String(err);
  return new BrokerError('transport', oneLine(message) || 'request failed', { cause: err });
}

function errorCodes(err: unknown, depth = 0): string[] {
  if (!isRecord(err) || depth > 4) return [];
  const own = typeof err.code === 'string' ? [err.code] : [];
  const nested = Array.isArray(err.errors) ? err.errors.flatMap((e) => errorCodes(e, depth + 1)) : [];
  return [...own, ...nested, ...errorCodes(err.cause, depth + 1)];
}

const FALLBACK_DETAILS = /^(?:Connection refused|Couldn't resolve host|Timeout was reached)$/;
const MODEL_NOT_FOUND = /model_not_found|\bmodel\b.{0,160}?\b(?:not found|does not exist|not loaded)/i;

/**
 * SPEC §9: whether a failed request may be retried on the fallback model. Only transport errors
 * before any delta arrived: HTTP 5xx, 408, 404 naming a missing model, connection refused, host
 * not resolved, timeout. Never `api:`, `decode:`, `broker:`, never 400/401/403.
 */
export function isFallbackEligible(err: unknown): boolean {
  if (!(err instanceof BrokerError) || err.kind !== 'transport' || err.receivedDelta) return false;
  const detail = err.message.slice('transport: '.length);
  const status = err.status ?? Number(/^HTTP (\d{3})\b/.exec(detail)?.[1] ?? NaN);
  if (status >= 500 && status <= 599) return true;
  if (status === 408) return true;
  if (status === 404) return MODEL_NOT_FOUND.test(detail);
  if (!Number.isNaN(status)) return false;
  return FALLBACK_DETAILS.test(detail);
}

/**
 * What servers answer when the model behind them takes no `tools`: Ollama with a model without tool
 * support (400 `… does not support tools`), llama.cpp started without `--jinja` (500 `tools param
 * requires --jinja flag`), vLLM without `--enable-auto-tool-choice` (400 `"auto" tool choice
 * requires --enable-auto-tool-choice and --tool-call-parser to be set`), LM Studio refusing the
 * tool choice that goes with them (400 `Invalid tool_choice type: 'object'. Supported string
 * values: none, auto, required`), and the wording of other servers (`… does not support tool
 * use`, `tools are not supported`).
 */
const TOOLS_REFUSED = [
  /does not support tools/i,
  /tools param requires --jinja/i,
  /tool choice requires --enable-auto-tool-choice/i,
  /does not support (tool|function)[ _-]?(use|calling|calls)/i,
  /\btools? (are|is) not supported/i,
  /Invalid tool_choice type/i,
];

/** Whether a failed request was refused for carrying `tools`, before any of a reply came. */
export function refusesTools(err: unknown): boolean {
  if (!(err instanceof BrokerError) || err.receivedDelta) return false;
  if (err.status !== 400 && err.status !== 422 && err.status !== 500) return false;
  return TOOLS_REFUSED.some((re) => re.test(err.message));
}
