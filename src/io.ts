// The streams and terminal facts every part receives instead of touching `process`.

export interface Io {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  /** `cork`/`uncork` (every Node Writable has them) let the renderer batch a streamed reply's writes. */
  output: NodeJS.WritableStream & { cork?(): void; uncork?(): void };
  errors: NodeJS.WritableStream;
  /** True when input and output are a terminal: prompts, line editing, colour. */
  isTTY: boolean;
  /** Current terminal width (80 when unknown). */
  columns(): number;
}
