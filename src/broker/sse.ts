// Reads the body of a 2xx reply, byte chunk by byte chunk: UTF-8 decoding (streaming, invalid
// bytes become U+FFFD), a sniff of the first character to tell SSE from a JSON body or an HTML
// page, SSE framing by eventsource-parser, and JSON per `data:` event into a ReplyBuilder.
// Loaded lazily with the HTTP client, so start-up does not pay for the parser.

import { createParser, type EventSourceMessage, type EventSourceParser, type ParseError } from 'eventsource-parser';
import { apiError, closedError, decodeError, oneLine } from './errors.js';
import { isRecord } from '../is-record.js';
import type { ReplyBuilder } from './reply.js';
import type { BrokerEvent } from './types.js';

/** Beyond this an event or a JSON body is refused rather than buffered further. */
const MAX_BUFFER_CHARS = 64 * 1024 * 1024;
const SSE_START = /^(?:data|event|id|retry)\s*:|^:/;
const SSE_FIELDS = ['data', 'event', 'id', 'retry'];

type Mode = 'sniff' | 'sse' | 'json' | 'done';

/**
 * Feeds body bytes through to `reply`. `push` returns true once the stream is complete (`[DONE]`);
 * later bytes are ignored. `end` must be called at a clean EOF. Both throw BrokerErrors
 * (`decode:`, `api:`, a closed-mid-stream `transport:`) and whatever `emit` throws.
 */
export class ReplyReader {
  #mode: Mode = 'sniff';
  readonly #decoder = new TextDecoder('utf-8');
  readonly #parser: EventSourceParser;
  #head = '';
  #json: string[] = [];
  #jsonChars = 0;
  #validChunks = 0;
  #skipped = 0;
  #atEof = false;

  constructor(
    private readonly contentType: string,
    private readonly reply: ReplyBuilder,
    private readonly emit: (event: BrokerEvent) => void,
  ) {
    this.#parser = createParser({
      onEvent: (e) => this.#onEvent(e),
      onError: (e) => this.#onParseError(e),
      maxBufferSize: MAX_BUFFER_CHARS,
    });
  }

  /** One chunk of body bytes; true once the reply is complete (or at its size cap: see `ReplyBuilder.capped`). */
  push(bytes: Uint8Array): boolean {
    if (this.#mode !== 'done') this.#take(this.#decoder.decode(bytes, { stream: true }));
    return this.#mode === 'done';
  }

  /** The body ended cleanly: flushes what is buffered and checks the reply was a reply. */
  end(): void {
    if (this.#mode !== 'done') this.#take(this.#decoder.decode());
    this.#atEof = true;
    if (this.#mode === 'sniff') this.#endEmpty();
    else if (this.#mode === 'json') this.#endJson();
    else this.#endSse();
  }

  #take(text: string): void {
    if (text === '') return;
    if (this.#mode === 'sniff') this.#sniff(text);
    else if (this.#mode === 'sse') this.#parser.feed(text);
    else if (this.#mode === 'json') this.#bufferJson(text);
  }

  /** Decides from the first non-blank character what the body is. */
  #sniff(text: string): void {
    this.#head += text;
    const start = this.#head.trimStart();
    if (start === '') return;
    const head = this.#head;
    this.#head = '';
    if (start[0] === '{' || start[0] === '[') {
      this.#mode = 'json';
      this.#bufferJson(head);
    } else if (this.contentType === 'text/event-stream' || SSE_START.test(start)) {
      this.#mode = 'sse';
      this.#parser.feed(head);
    } else if (couldStartSse(start)) {
      this.#head = head;
    } else {
      throw decodeError(`expected an event stream, got ${this.contentType || 'no content-type'}`);
    }
  }

  #onEvent(event: EventSourceMessage): void {
    if (this.#mode === 'done') return;
    const data = event.data.trim();
    if (data === '[DONE]') {
      this.#mode = 'done';
      this.reply.markEnded();
      return;
    }
    const parsed = parseJson(data);
    if (event.event === 'error') throw apiError(errorOf(parsed) ?? data);
    if (!isRecord(parsed)) return this.#skip(data);
    this.#validChunks++;
    this.reply.applyChunk(parsed);
    // Past the reply's size cap nothing more is read: the reply ends here.
    if (this.reply.capped) this.#mode = 'done';
  }

  /** A data line that is not a JSON object: skipped, with one warning per reply. */
  #skip(data: string): void {
    // A last event that is half a JSON object: the server went away mid-event.
    if (this.#atEof && data.trimStart().startsWith('{')) throw closedError(true);
    if (this.#skipped++ === 0) this.emit({ type: 'warning', message: `skipped stream data that is not JSON: ${oneLine(data, 80)}` });
  }

  #onParseError(error: ParseError): void {
    if (error.type === 'max-buffer-size-exceeded') throw decodeError('an event larger than 64 MiB');
    // llama.cpp reports failures as an `error:` field rather than `data:`.
    if (error.type === 'unknown-field' && error.field === 'error') {
      throw apiError(errorOf(parseJson(error.value ?? '')) ?? error.value);
    }
    if (error.type === 'unknown-field') this.#skip(error.line ?? '');
  }

  #endSse(): void {
    // A last event without its blank line still counts.
    if (this.#mode === 'sse') this.#parser.feed('\n\n');
    if (this.#validChunks === 0 && (this.#mode !== 'done' || this.#skipped > 0)) throw decodeError('no valid chunks in stream');
  }

  #endEmpty(): void {
    if (this.contentType === 'text/event-stream') throw decodeError('no valid chunks in stream');
    throw decodeError(`expected an event stream, got ${this.contentType || 'no content-type'}`);
  }

  #bufferJson(text: string): void {
    this.#jsonChars += text.length;
    if (this.#jsonChars > MAX_BUFFER_CHARS) throw decodeError('a JSON reply larger than 64 MiB');
    this.#json.push(text);
  }

  #endJson(): void {
    const text = this.#json.join('');
    this.#json = [];
    const parsed = parseJson(text);
    if (!isRecord(parsed) || (parsed.error == null && !Array.isArray(parsed.choices))) {
      throw decodeError(`expected an event stream, got JSON that is not a completion: ${oneLine(text, 80)}`);
    }
    this.reply.applyCompletion(parsed);
    this.reply.markEnded();
  }
}

/** Whether text too short to judge (`da`, `retr`) may still turn out to be an SSE field. */
function couldStartSse(start: string): boolean {
  const word = start.trimEnd();
  return word === start && SSE_FIELDS.some((field) => field.startsWith(word));
}

/** The error inside an envelope (`{error: ...}`), or the parsed value itself. */
function errorOf(parsed: unknown): unknown {
  return isRecord(parsed) && parsed.error != null ? parsed.error : parsed;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
