// The baseline of the end-to-end stream figures: the least a client must do, as its own process.
// `node bench/bare-client.mjs URL` posts one chat request with global fetch, decodes the body as
// UTF-8, feeds eventsource-parser, JSON.parses each event and writes the text to stdout. No shape
// checks, no tool calls, no timeouts, no error mapping, no rendering.
import { createParser } from 'eventsource-parser';

const url = process.argv[2];
const body = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'bench' }], stream: true });
const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body });
const decoder = new TextDecoder();
const parser = createParser({
  onEvent: (e) => {
    if (e.data === '[DONE]') return;
    const content = JSON.parse(e.data).choices[0]?.delta?.content;
    if (typeof content === 'string' && content !== '') process.stdout.write(content);
  },
});
for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }));
process.stdout.write('\n');
