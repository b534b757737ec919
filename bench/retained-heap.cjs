// Preloaded by the stream bench only (`node --expose-gc --require bench/retained-heap.cjs ...`),
// never by aish itself. It measures the live heap (`used_heap_size` after a full GC) twice: when
// the model's response has been received in full (undici's `undici:request:trailers` channel, for
// aish's undici and for Node's fetch alike), while the reply is still held, and at exit. Both are
// written to $AISH_BENCH_HEAP_FILE as JSON `{ "reply": bytes, "exit": bytes }`.
'use strict';
const diagnosticsChannel = require('node:diagnostics_channel');
const { writeFileSync } = require('node:fs');
const { getHeapStatistics } = require('node:v8');

const file = process.env.AISH_BENCH_HEAP_FILE;
const gc = globalThis.gc;
if (file && typeof gc === 'function') {
  const live = () => {
    gc();
    return getHeapStatistics().used_heap_size;
  };
  let reply = null;
  diagnosticsChannel.subscribe('undici:request:trailers', () => {
    reply = live();
  });
  process.on('exit', () => writeFileSync(file, JSON.stringify({ reply, exit: live() })));
}
