// The line framing of a stdio MCP server's output, with a cap on one message. The SDK's own
// buffer throws past 10 MiB and its transport then closes, so one large tool result looked like a
// dead server. Here a message over the cap is skipped as it streams (only a few hundred bytes of
// its head and tail are kept, to find its JSON-RPC id), so the server stays connected and the call
// it answered can be told why. Pure: bytes in, lines and skipped messages out.

/** The SDK's cap on one stdio message (`STDIO_DEFAULT_MAX_BUFFER_SIZE`), kept here too. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;
/** The JSON-RPC error code the transport answers a call with when its result was skipped (one of the codes left to implementations). */
export const MESSAGE_TOO_LARGE_CODE = -32099;
/** How much of a skipped message's start and end is kept to find its id. */
const EDGE_BYTES = 512;

export type StdioRead =
  /** One whole line, `\r` removed, not yet parsed. */
  | { type: 'line'; line: string }
  /** A message longer than the cap, skipped: its size, and its JSON-RPC id when it could be found. */
  | { type: 'too-large'; bytes: number; id: string | number | undefined };

interface Skipping {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

export class StdioLines {
  readonly #max: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #skipping: Skipping | null = null;

  constructor(maxBytes = MAX_STDIO_MESSAGE_BYTES) {
    this.#max = maxBytes;
  }

  /** Takes a chunk of the server's output; returns what it completed, in order. */
  push(chunk: Buffer): StdioRead[] {
    const out: StdioRead[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (this.#skipping) this.#skip(piece);
      else if (this.#size + piece.length > this.#max) this.#startSkipping(piece);
      else if (piece.length > 0) {
        this.#chunks.push(piece);
        this.#size += piece.length;
      }
      if (nl === -1) break;
      out.push(this.#end());
      start = nl + 1;
    }
    return out.filter((r) => r.type !== 'line' || r.line !== '');
  }

  /** Drops anything held (the server went away). */
  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#skipping = null;
  }

  #startSkipping(piece: Buffer): void {
    const held = this.#chunks;
    this.#skipping = { bytes: this.#size, head: edge([...held, piece], 'head'), tail: edge(held, 'tail') };
    this.#chunks = [];
    this.#size = 0;
    this.#skip(piece);
  }

  #skip(piece: Buffer): void {
    const s = this.#skipping!;
    s.bytes += piece.length;
    s.tail = piece.length >= EDGE_BYTES ? Buffer.from(piece.subarray(piece.length - EDGE_BYTES)) : Buffer.concat([s.tail, piece]).subarray(-EDGE_BYTES);
  }

  #end(): StdioRead {
    const s = this.#skipping;
    if (s) {
      this.#skipping = null;
      return { type: 'too-large', bytes: s.bytes, id: messageId(s.head.toString('utf8'), s.tail.toString('utf8')) };
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#size = 0;
    return { type: 'line', line };
  }
}

/** The first or last EDGE_BYTES of some chunks, copied. */
function edge(chunks: readonly Buffer[], end: 'head' | 'tail'): Buffer {
  const parts: Buffer[] = [];
  let n = 0;
  for (let i = 0; i < chunks.length && n < EDGE_BYTES; i++) {
    const c = chunks[end === 'head' ? i : chunks.length - 1 - i]!;
    const part = end === 'head' ? c.subarray(0, EDGE_BYTES - n) : c.subarray(Math.max(0, c.length - (EDGE_BYTES - n)));
    if (end === 'head') parts.push(part);
    else parts.unshift(part);
    n += part.length;
  }
  return Buffer.from(Buffer.concat(parts));
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `"id"` as the first member (Python's SDK writes `jsonrpc`, then `id`). */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** `"id"` as the last member of the outer object (the TypeScript SDK writes it last). */
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/** The byte count in the data of a MESSAGE_TOO_LARGE_CODE error (0 when it is not there). */
export function tooLargeBytes(data: unknown): number {
  const bytes = data !== null && typeof data === 'object' ? (data as { bytes?: unknown }).bytes : undefined;
  return typeof bytes === 'number' && Number.isFinite(bytes) ? bytes : 0;
}

/** The JSON-RPC id of a message known only by its first and last bytes, when it shows. */
export function messageId(head: string, tail: string): string | number | undefined {
  const found = HEAD_ID.exec(head)?.[1] ?? TAIL_ID.exec(tail.replace(/\r$/, ''))?.[1];
  if (found === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(found);
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
