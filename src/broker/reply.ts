// Turns parsed chat-completions chunks (or one non-streamed completion) into broker events and a
// ChatResult. Lenient about shape: anything unexpected is ignored rather than thrown; an `error`
// object is the one thing that ends the reply (`api: ...`). Pure apart from calling `emit`.

import { ToolCallAccumulator } from './accumulator.js';
import { apiError } from './errors.js';
import { isRecord } from '../is-record.js';
import { TextBuffer } from '../text-buffer.js';
import type { BrokerEvent, ChatResult, TokenUsage } from './types.js';

/** Builds one reply from its chunks; `emit` receives events synchronously, in arrival order. */
export class ReplyBuilder {
  /** The reply's text: a streamed reply is 100 000 deltas or more, kept compact (TextBuffer). */
  readonly #text: TextBuffer;
  #finishReason: string | null = null;
  #usage: TokenUsage | undefined;
  #receivedDelta = false;
  /** `[DONE]` arrived, or the body was one whole completion. */
  #ended = false;
  readonly #tools = new ToolCallAccumulator();
  readonly #maxChars: number;
  /** Chars kept so far: text and tool-call arguments. */
  #chars = 0;
  #capped = false;
  #toldMissingIndex = false;

  /**
   * `text`: where the reply's text is collected (the caller's, so it keeps the partial text of a
   * request that fails, without a second copy); it must be empty. A new buffer by default.
   * `maxChars`: the most text and tool-call arguments kept; what comes after is dropped and the
   * reply is `capped` (the reader stops there).
   */
  constructor(
    private readonly emit: (event: BrokerEvent) => void,
    text: TextBuffer = new TextBuffer(),
    maxChars = Infinity,
  ) {
    this.#text = text;
    this.#maxChars = maxChars;
  }

  /** Whether the reply reached `maxChars`: nothing more is taken, the reader may stop. */
  get capped(): boolean {
    return this.#capped;
  }

  /** Whether text or tool-call data has arrived. */
  get receivedDelta(): boolean {
    return this.#receivedDelta;
  }

  /** One streamed chunk (`chat.completion.chunk`). Throws `api: ...` for an error object. */
  applyChunk(chunk: Record<string, unknown>): void {
    if (chunk.error !== undefined && chunk.error !== null) throw apiError(chunk.error);
    this.#readUsage(chunk);
    const choice = firstChoice(chunk);
    if (!choice) return;
    if (isRecord(choice.delta)) this.#applyMessage(choice.delta);
    this.#readFinish(choice);
  }

  /** A whole non-streamed completion (a proxy that ignored `stream: true`). */
  applyCompletion(completion: Record<string, unknown>): void {
    if (completion.error !== undefined && completion.error !== null) throw apiError(completion.error);
    this.#readUsage(completion);
    const choice = firstChoice(completion);
    if (!choice) return;
    if (isRecord(choice.message)) this.#applyMessage(choice.message);
    this.#readFinish(choice);
  }

  /** The server said the reply is over (`[DONE]`, or a whole non-streamed completion). */
  markEnded(): void {
    this.#ended = true;
  }

  /** The reply so far, as a result. */
  result(): ChatResult {
    const { calls, unnamed } = this.#tools.calls();
    if (unnamed > 0) this.emit({ type: 'warning', message: `ignored ${unnamed} tool call${unnamed === 1 ? '' : 's'} without a name` });
    const result: ChatResult = { text: this.#text.toString(), toolCalls: calls, finishReason: this.#finishReason, receivedDelta: this.#receivedDelta };
    if (this.#usage) result.usage = this.#usage;
    // Neither a finish_reason nor [DONE]: the connection was cut, the text may stop mid-sentence.
    if (this.#capped) result.capped = this.#maxChars;
    else if (!this.#ended && this.#finishReason === null && this.#receivedDelta) result.cut = true;
    return result;
  }

  #applyMessage(message: Record<string, unknown>): void {
    if (this.#capped) return;
    const reasoning = firstString(message.reasoning_content, message.reasoning);
    if (reasoning) this.emit({ type: 'reasoning', text: reasoning });
    const { text, thinking } = readContent(message.content);
    if (thinking) this.emit({ type: 'reasoning', text: thinking });
    this.#appendText(text);
    if (typeof message.refusal === 'string') this.#appendText(message.refusal);
    this.#applyToolCalls(message);
  }

  #appendText(text: string): void {
    if (text === '' || this.#capped) return;
    const room = this.#maxChars - this.#chars;
    if (text.length > room) {
      this.#capped = true;
      text = text.slice(0, room);
      if (text === '') return;
    }
    this.#chars += text.length;
    this.#text.push(text);
    this.#receivedDelta = true;
    this.emit({ type: 'text', text });
  }

  #applyToolCalls(message: Record<string, unknown>): void {
    let toolCalls = message.tool_calls;
    // The pre-tools `function_call` shape, still sent by a few servers.
    if (toolCalls === undefined && isRecord(message.function_call)) toolCalls = [{ index: 0, function: message.function_call }];
    if (!Array.isArray(toolCalls) || toolCalls.length === 0 || this.#capped) return;
    this.#receivedDelta = true;
    for (const started of this.#tools.add(toolCalls)) this.emit({ type: 'tool_call', ...started });
    // Arguments count with the text: a reply of ten thousand calls is as long as its arguments.
    this.#chars = this.#text.length + this.#tools.argumentChars;
    if (this.#chars > this.#maxChars) this.#capped = true;
    if (this.#tools.sawMissingIndex && !this.#toldMissingIndex) {
      this.#toldMissingIndex = true;
      // Seed 000 §5: a one-shot debug status, the first time per stream.
      this.emit({ type: 'debug', message: 'tool-call delta without "index": placed by its position in the delta (index 0 for a single call)' });
    }
  }

  #readFinish(choice: Record<string, unknown>): void {
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.#finishReason = choice.finish_reason;
  }

  #readUsage(chunk: Record<string, unknown>): void {
    // Groq reports usage under `x_groq` on its last chunk.
    const raw = isRecord(chunk.usage) ? chunk.usage : isRecord(chunk.x_groq) && isRecord(chunk.x_groq.usage) ? chunk.x_groq.usage : undefined;
    if (!raw) return;
    const usage: TokenUsage = {};
    for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const) {
      if (typeof raw[key] === 'number') usage[key] = raw[key];
    }
    if (Object.keys(usage).length === 0) return;
    this.#usage = usage;
    this.emit({ type: 'usage', usage });
  }
}

function firstChoice(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!Array.isArray(chunk.choices)) return undefined;
  const choice: unknown = chunk.choices[0];
  return isRecord(choice) ? choice : undefined;
}

function firstString(...xs: unknown[]): string {
  for (const x of xs) if (typeof x === 'string' && x !== '') return x;
  return '';
}

/**
 * `content` is a string on nearly every server; Mistral's reasoning models send a list of parts
 * (`{type:'text', text}`, `{type:'thinking', thinking:[...]}`). Anything else counts as empty.
 */
function readContent(content: unknown): { text: string; thinking: string } {
  if (typeof content === 'string') return { text: content, thinking: '' };
  if (!Array.isArray(content)) return { text: '', thinking: '' };
  let text = '';
  let thinking = '';
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') text += part.text;
    else if (part.type === 'thinking') thinking += readContent(part.thinking).text;
  }
  return { text, thinking };
}
