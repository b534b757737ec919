// An Io whose streams collect what was written, for tests of the renderers.

import { PassThrough, Writable } from 'node:stream';
import type { Io } from '../../src/io.js';

export function captureIo(opts: { isTTY?: boolean; columns?: number } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _enc, cb) {
        into.push(String(chunk));
        cb();
      },
    });
  const io: Io = {
    input: new PassThrough(),
    output: sink(out),
    errors: sink(err),
    isTTY: opts.isTTY ?? false,
    columns: () => opts.columns ?? 80,
  };
  return {
    io,
    get stdout() {
      return out.join('');
    },
    get stderr() {
      return err.join('');
    },
  };
}
