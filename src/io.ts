// The streams and terminal facts every part receives instead of touching `process`.

export interface Io {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  /** `cork`/`uncork` (every Node Writable has them) let the renderer batch a streamed reply's writes. */
  output: NodeJS.WritableStream & { cork?(): void; uncork?(): void };
  errors: NodeJS.WritableStream;
  /** True when input and output are a terminal: prompts, line editing, colour. */
  isTTY: boolean;
  /**
   * True when output is a terminal, whatever input is (`printf … | aish` on a terminal); unset:
   * as `isTTY`. When it is not, aish's frames go to `errors` and output keeps the plain lines.
   */
  outputIsTTY?: boolean;
  /** Current terminal width (80 when unknown). */
  columns(): number;
  /** Current terminal height (24 when unknown). */
  rows?(): number;
  /** Calls `listener` when the terminal is resized, until the returned function is called. */
  onResize?(listener: () => void): () => void;
}

/** Whether output is a terminal (input may be a pipe): what is laid out for its width and frames. */
export function outputIsTerminal(io: Pick<Io, 'isTTY' | 'outputIsTTY'>): boolean {
  return io.outputIsTTY ?? io.isTTY;
}
