// The broker: one streamed chat-completions request over undici, its events delivered as they
// arrive and its result returned at the end (SPEC §5). Failures are BrokerErrors with the
// contract strings; a cancelled request rejects with the signal's reason, never a BrokerError.

import type { ModelConfig } from '../config/schema.js';
import { BrokerError, httpError, retryAfterMs, timeoutError, transportError } from './errors.js';
import { ReplyBuilder } from './reply.js';
import { buildChatRequest, DEFAULT_TIMEOUT_MS } from './request.js';
import type { TextBuffer } from '../text-buffer.js';
import type { BrokerEvent, ChatMessage, ChatResult, ToolDefinition } from './types.js';

/** How much of an error body is read for the `HTTP <status>: <snippet>` line. */
const ERROR_BODY_BYTES = 4096;
/** How long the end of the body may take after `[DONE]` before the connection is dropped instead. */
const DRAIN_GRACE_MS = 1000;

export interface ChatOptions {
  /** Where `key_env` is looked up. */
  env: Record<string, string | undefined>;
  /** Offered to the model; omitted from the request when empty. */
  tools?: ToolDefinition[];
  /** Cancels the request; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra body fields (`stream_options`, `tool_choice`, ...), merged over the defaults. */
  extraBody?: Record<string, unknown>;
  /** Applied to the serialized body before it is sent (secrets become `[redacted:NAME]`). */
  redact?: (text: string) => string;
  /**
   * The most text and tool-call arguments kept of the reply (`broker.max_reply_chars`): past it
   * the body is not read further and the result is `capped`. Default: no cap.
   */
  maxReplyChars?: number;
  /**
   * Where the reply's text is collected as it arrives, so the caller has the partial text of a
   * request that fails or is cancelled without keeping a second copy; `result.text` is its
   * contents. Emptied when the request starts: a retry never carries an earlier attempt's text.
   */
  text?: TextBuffer;
}

type Undici = typeof import('undici');
type Dispatcher = import('undici').Dispatcher;
type Interceptor = import('undici').Dispatcher.DispatcherComposeInterceptor;
type ResponseData = Awaited<ReturnType<Undici['request']>>;

/**
 * Streams one reply from `model`. `onEvent` gets text, reasoning, tool-call starts, usage and
 * warnings synchronously as they arrive; the promise resolves with the whole result. Rejects with
 * a BrokerError (`transport:`, `decode:`, `api:`, `broker:`; config problems before any I/O),
 * with the signal's reason when cancelled, or with whatever `onEvent` threw. `timeout_ms` bounds
 * the wait for the connection and first byte and every gap between chunks, not the whole reply.
 */
export async function chatStream(
  model: ModelConfig,
  messages: ChatMessage[],
  onEvent: (e: BrokerEvent) => void,
  opts: ChatOptions,
): Promise<ChatResult> {
  opts.text?.clear();
  opts.signal?.throwIfAborted();
  const req = buildChatRequest(model, messages, opts);
  const [{ request, getGlobalDispatcher }, { ReplyReader }] = await Promise.all([import('undici'), import('./sse.js')]);
  opts.signal?.throwIfAborted();
  const debug = Boolean(opts.env.AISH_DEBUG);
  const emit = guardCallback((e) => {
    if (e.type !== 'debug' || debug) onEvent(e);
  });
  const reply = new ReplyBuilder(emit, opts.text, opts.maxReplyChars);
  const guard = new RequestGuard(model.timeout_ms ?? DEFAULT_TIMEOUT_MS, opts.signal);
  let res: ResponseData | undefined;
  try {
    res = await request(req.url, {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      signal: guard.signal,
      // Tells a server that took the connection and then said nothing from one never reached.
      ...connectionWatch(getGlobalDispatcher(), () => guard.connected()),
      // The guard's idle timer is the one timeout; undici's own would cap it at 300 s.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    guard.responded();
    if (res.statusCode < 200 || res.statusCode > 299) throw await readHttpError(res, guard);
    const reader = new ReplyReader(mediaType(res.headers['content-type']), reply, emit);
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      guard.touch();
      if (!reader.push(chunk)) continue;
      // Past the size cap the body is dropped (the connection with it): reading on costs memory.
      if (reply.capped) break;
      // After [DONE] the rest of the body is read (and ignored) so the connection can be reused.
      guard.drain();
    }
    reader.end();
  } catch (err) {
    // A complete reply whose body did not end in time is still a complete reply.
    if (!guard.drainExpired) throw guard.translate(err, reply.receivedDelta);
  } finally {
    guard.dispose();
    if (res && !res.body.destroyed) res.body.destroy();
  }
  return settle(reply);
}

/** The result; its last warning goes through `onEvent` too, whose errors come back unchanged. */
function settle(reply: ReplyBuilder): ChatResult {
  try {
    return reply.result();
  } catch (err) {
    throw err instanceof CallbackFailure ? err.error : err;
  }
}

/**
 * `chatStream` without live events: resolves with the whole reply (summaries, one-shot asks).
 * Warnings are dropped; failures are the same.
 */
export function chat(model: ModelConfig, messages: ChatMessage[], opts: ChatOptions): Promise<ChatResult> {
  return chatStream(model, messages, () => {}, opts);
}

/**
 * Loads the HTTP client and the SSE parser ahead of the first request (they cost tens of
 * milliseconds); call it once the prompt is up. Never rejects.
 */
export async function preloadBroker(): Promise<void> {
  await Promise.all([import('undici'), import('./sse.js')]).catch(() => undefined);
}

/** An error thrown by the caller's `onEvent`, carried through untouched. */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

function guardCallback(onEvent: (e: BrokerEvent) => void): (e: BrokerEvent) => void {
  return (e) => {
    try {
      onEvent(e);
    } catch (error) {
      throw new CallbackFailure(error);
    }
  };
}

/**
 * One request's cancellation and idle timeout. The caller's signal and the timer both abort one
 * internal controller; `translate` turns whatever was thrown into what `chatStream` rejects with.
 */
class RequestGuard {
  readonly #controller = new AbortController();
  readonly #userSignal: AbortSignal | undefined;
  #timer: NodeJS.Timeout;
  #timedOut = false;
  #connected = false;
  #responseStarted = false;
  #draining = false;
  #drainExpired = false;

  constructor(
    private readonly timeoutMs: number,
    userSignal: AbortSignal | undefined,
  ) {
    this.#userSignal = userSignal;
    this.#timer = setTimeout(this.#onTimeout, timeoutMs);
    userSignal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** True when the body did not end within the grace period after a complete reply. */
  get drainExpired(): boolean {
    return this.#drainExpired && !this.#userSignal?.aborted;
  }

  /** The reply is complete: the rest of the body gets a short grace period, not the full timeout. */
  drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#onTimeout, Math.min(this.timeoutMs, DRAIN_GRACE_MS));
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The connection is up and the request goes out on it. */
  connected(): void {
    this.#connected = true;
  }

  /** Headers arrived: the idle clock restarts for the body. */
  responded(): void {
    this.#responseStarted = true;
    this.touch();
  }

  /** Data arrived: the idle clock restarts. */
  touch(): void {
    this.#timer.refresh();
  }

  translate(err: unknown, receivedDelta: boolean): unknown {
    if (err instanceof CallbackFailure) return err.error;
    if (this.#userSignal?.aborted) return this.#userSignal.reason ?? err;
    const broker =
      err instanceof BrokerError ? err : this.#timedOut ? timeoutError() : transportError(err, this.#responseStarted);
    broker.receivedDelta = receivedDelta;
    if (this.#timedOut && this.#responseStarted) broker.stalled = true;
    else if (this.#timedOut && this.#connected) broker.unanswered = true;
    return broker;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#userSignal?.removeEventListener('abort', this.#onAbort);
  }

  readonly #onTimeout = (): void => {
    if (this.#draining) this.#drainExpired = true;
    else this.#timedOut = true;
    this.#controller.abort(timeoutError());
  };

  readonly #onAbort = (): void => {
    this.#controller.abort(this.#userSignal?.reason);
  };
}

/** The dispatcher option that reports the connection, when the global dispatcher can be composed. */
function connectionWatch(dispatcher: Dispatcher, onConnected: () => void): { dispatcher?: Dispatcher } {
  return typeof dispatcher.compose === 'function' ? { dispatcher: dispatcher.compose(watchConnection(onConnected)) } : {};
}

/**
 * An undici interceptor that calls `onConnected` once the request has a connected socket (undici
 * starts a request on its socket only then); the handler is otherwise passed through untouched.
 * The global dispatcher may be Node's own undici (its fetch installs it), whose handlers still
 * speak the older interface: the hook is `onConnect` there, `onRequestStart` here.
 */
function watchConnection(onConnected: () => void): Interceptor {
  return (dispatch) => (options, handler) => {
    const hook = 'onRequestStart' in handler ? 'onRequestStart' : 'onConnect';
    const watched = new Proxy(handler, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (key !== hook) return value.bind(target);
        return (...args: unknown[]) => {
          onConnected();
          return value.apply(target, args);
        };
      },
    });
    return dispatch(options, watched);
  };
}

/** Reads at most ERROR_BODY_BYTES of a non-2xx body into `transport: HTTP <status>: <snippet>`. */
async function readHttpError(res: ResponseData, guard: RequestGuard): Promise<BrokerError> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      guard.touch();
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ERROR_BODY_BYTES) break;
    }
  } catch (err) {
    // A body cut short still leaves a status worth reporting; a cancel is a cancel.
    if (guard.signal.aborted && !(guard.signal.reason instanceof BrokerError)) throw err;
  }
  const body = Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString('utf8');
  const { STATUS_CODES } = await import('node:http');
  return httpError(res.statusCode, body, STATUS_CODES[res.statusCode] ?? '', retryAfterMs(res.headers['retry-after']));
}

function mediaType(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}
