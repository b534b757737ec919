// An append that lands whole or not at all: a JSONL line cut by a full disk is a line no reader
// can use, and the next line would be glued to it. For the session log, memory and input history.

import fs from 'node:fs';

/**
 * Appends `text` to the file open at `fd` (opened for appending) in as few writes as the kernel
 * allows. When a write fails part way (ENOSPC after a short write), the file is cut back to its
 * length before, so what it held stays whole, and the error is thrown.
 */
export function appendWhole(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  const before = fs.fstatSync(fd).size;
  let offset = 0;
  try {
    while (offset < buf.length) offset += fs.writeSync(fd, buf, offset, buf.length - offset);
  } catch (err) {
    try {
      fs.ftruncateSync(fd, before);
    } catch {
      // The write's own error says more than this one.
    }
    throw err;
  }
}
