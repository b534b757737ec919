// One line typed on the terminal before the line editor exists (the start-up question): the
// terminal is in its own line mode (echo, erase), so a chunk ends with the line. What follows the
// line stays in the stream for the REPL, which is left paused.

/** Writes `question` and reads one line from `input`; null when the input ends first. */
export function readAnswer(input: NodeJS.ReadableStream, output: { write(text: string): unknown }, question: string): Promise<string | null> {
  output.write(question);
  return new Promise((resolve) => {
    let got = '';
    const onData = (chunk: Buffer | string) => {
      got += String(chunk);
      const end = got.indexOf('\n');
      if (end < 0) return;
      input.pause();
      const rest = got.slice(end + 1);
      if (rest !== '') input.unshift(Buffer.from(rest));
      done(got.slice(0, end));
    };
    const onEnd = () => done(got === '' ? null : got);
    const done = (answer: string | null) => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      resolve(answer);
    };
    input.on('data', onData);
    input.once('end', onEnd);
    input.resume();
  });
}
