// `npm run bench`: every benchmark, each printing its figure, the baseline measured in the same run
// and the ratio, with the target of issue 17 and docs/performance.md. Figures, not assertions:
// these machines are shared and noisy. `npm run bench -- startup stream` runs only those groups
// (startup, shell, longline, stream, inprocess, mcp, resume, cap, redact, preview, undo, line).

import { fixtureStdio } from '../test/support/mcp-servers.js';
import { benchStartup } from './startup.js';

const row = (name: string, figure: string, baseline: string, ratio: string, target: string) =>
  console.log(`${name.padEnd(44)} ${figure.padStart(11)} | ${baseline.padEnd(36)} | ratio ${ratio.padStart(5)} | target ${target}`);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const only = new Set(process.argv.slice(2));
const want = (group: string) => only.size === 0 || only.has(group);

const START_TARGETS: Record<string, string> = {
  '--version, launch to exit': '<= 1.1',
  '--help, launch to exit': '<= 1.1',
  'piped, empty stdin: launch to exit': '<= 1.5',
  'piped, empty stdin, --config: launch to exit': '<= 1.5',
  'piped, one line (echo hi): launch to exit': '- (the program loaded, a shell run)',
  'pty, launch to first prompt': '<= 1.3',
  'pty, launch to first key echoed': '- (the line editor taking keys)',
  'pty, 3 MCP servers: launch to first prompt': 'prompt before they connect',
};
if (want('startup')) {
  const mcpServers = { one: fixtureStdio(), two: fixtureStdio(), three: fixtureStdio() };
  const startRows = (figures: Awaited<ReturnType<typeof benchStartup>>, version: string) => {
    for (const f of figures) {
      row(`${f.name} [${version}]`, ms(f.ms), `node -e 0${f.bare === 'pty' ? ' on a pty' : ''} ${ms(f.bareMs)} (median of 21)`, f.ratio.toFixed(2), START_TARGETS[f.name] ?? '');
    }
  };
  startRows(await benchStartup(21, mcpServers), process.version);
  // The same on the other maintained Node lines (docs/performance.md "On each Node").
  const { otherNodes, nodeVersion } = await import('./nodes.js');
  for (const other of otherNodes()) {
    if (!other.path) {
      console.log(`start-up on Node ${other.major}: not measured (${other.why})`);
      continue;
    }
    startRows(await benchStartup(21, mcpServers, other.path), nodeVersion(other.path));
  }
}

if (want('shell')) {
  const { benchShell } = await import('./shell.js');
  for (const f of await benchShell()) {
    row(f.name, `${f.perLineMs.toFixed(2)} ms`, `bash -c true spawned ${f.spawnMs.toFixed(2)} ms (median)`, f.ratio.toFixed(2), f.name.endsWith('session') ? '<= 0.5' : '- (the first version\'s runner)');
  }
}
if (want('longline')) {
  const { benchLongLine } = await import('./long-line.js');
  for (const f of await benchLongLine()) {
    row(`piped, one line of ${f.megabytes} MB: launch to exit`, ms(f.lineMs), `the same bytes in lines of 100 ${ms(f.linesMs)}`, f.ratio.toFixed(2), '<= 1.5 (issue 32)');
  }
}
if (want('stream')) await streamEndToEnd();
if (want('inprocess')) await streamInProcess();
if (want('mcp')) await mcpFigures();
if (want('resume')) await resumeFigures();
if (want('redact')) await redactFigures();
if (want('cap')) await replyCapFigures();
if (want('preview')) {
  const { benchPreview } = await import('./preview.js');
  const figures = await benchPreview();
  if (typeof figures === 'string') console.log(figures);
  else for (const f of figures) row(f.name, ms(f.ms), `the same in the Norris box ${ms(f.baselineMs)} (median)`, (f.ms / f.baselineMs).toFixed(2), '- (docs/preview.md)');
}

if (want('undo')) await undoFigures();
if (want('line')) await lineEditorFigures();

async function replyCapFigures(): Promise<void> {
  const { benchReplyCap } = await import('./reply-cap.js');
  const f = await benchReplyCap();
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
  row(`peak RSS, ${f.replyChars / 1024 / 1024} MB reply, default cap`, mb(f.cappedKb), `the same reply read whole ${mb(f.uncappedKb)}`, (f.cappedKb / f.uncappedKb).toFixed(2), `- (broker.max_reply_chars; idle ${mb(f.idleKb)})`);
}

async function streamEndToEnd(): Promise<void> {
  const { benchStreamE2e, HEAP_RUNS } = await import('./stream-e2e.js');
  const e2e = await benchStreamE2e();
  for (const f of e2e.figures) {
    const what = f.mode === 'piped' ? 'piped' : 'tty, markdown';
    row(`stream CPU, 100 000 deltas, ${what}`, ms(f.aishMs), `bare-client.mjs ${ms(f.bareMs)}`, f.ratio.toFixed(2), f.mode === 'piped' ? '<= 1.3' : '<= 2.0');
    row(
      `stream CPU, 100 000 deltas, REPL, ${what}`,
      ms(f.replMs),
      `bare-client.mjs ${ms(f.bareMs)}`,
      (f.replMs / f.bareMs).toFixed(2),
      f.mode === 'piped' ? '<= 1.3 (a question piped to the REPL)' : '<= 2.0 (typed at the prompt, Ctrl-D after the reply; as -p on a tty)',
    );
  }
  // The reply's own size: its text as V8 holds it, one byte a character for this (Latin-1) text.
  for (const f of e2e.figures) {
    const above = (f.peakKb - f.idleKb) * 1024;
    row(
      `peak RSS above idle, 100 000 deltas, ${f.mode}`,
      `${(above / 1e6).toFixed(1)} MB`,
      `reply text ${(e2e.replyChars / 1e6).toFixed(2)} MB`,
      (above / e2e.replyChars).toFixed(2),
      `<= 1.5 (peak ${(f.peakKb / 1024).toFixed(1)} MB, idle ${(f.idleKb / 1024).toFixed(1)} MB; ${(above / e2e.wireBytes).toFixed(2)}x the ${(e2e.wireBytes / 1e6).toFixed(1)} MB on the wire)`,
    );
  }
  // For scale: the bare client keeps nothing, so what it gains above its own idle is the cost of
  // streaming at all (young generation, JIT code, buffers, GC threads).
  for (const f of e2e.figures) {
    const above = (f.barePeakKb - f.bareIdleKb) * 1024;
    row(
      `peak RSS above idle, bare client, ${f.mode}`,
      `${(above / 1e6).toFixed(1)} MB`,
      `reply text ${(e2e.replyChars / 1e6).toFixed(2)} MB`,
      (above / e2e.replyChars).toFixed(2),
      `- (peak ${(f.barePeakKb / 1024).toFixed(1)} MB, idle ${(f.bareIdleKb / 1024).toFixed(1)} MB; keeps no text)`,
    );
  }
  // What is kept: the live heap after a full GC once the whole response has arrived (the reply
  // still held), above the one-delta run. The text itself is the least it can be.
  for (const f of e2e.figures) {
    const above = f.heap.aish.reply - f.heap.aishIdle.reply;
    const atExit = f.heap.aish.exit - f.heap.aishIdle.exit;
    row(
      `heap kept above idle, 100 000 deltas, ${f.mode}`,
      `${(above / 1e6).toFixed(2)} MB`,
      `reply text ${(e2e.replyChars / 1e6).toFixed(2)} MB`,
      (above / e2e.replyChars).toFixed(2),
      `<= 1.5 (live heap after a full GC at the end of the reply, ${(f.heap.aish.reply / 1e6).toFixed(2)} against ${(f.heap.aishIdle.reply / 1e6).toFixed(2)} MB; at exit ${(atExit / 1e6).toFixed(2)} MB above; median of ${HEAP_RUNS})`,
    );
  }
  // What grows with the reply: the heap kept for the whole reply above that for the half reply,
  // per character between them. Fixed costs (JIT, highlight.js on a tty) cancel out.
  for (const f of e2e.figures) {
    const perChar = (f.heap.aish.reply - f.heap.aishHalf.reply) / (e2e.replyChars - e2e.halfChars);
    row(
      `heap kept per further character, ${f.mode}`,
      `${perChar.toFixed(2)} B`,
      `1 B a character of text`,
      perChar.toFixed(2),
      `<= 1.5 (100 000 against 50 000 deltas: ${(f.heap.aish.reply / 1e6).toFixed(2)} against ${(f.heap.aishHalf.reply / 1e6).toFixed(2)} MB; median of ${HEAP_RUNS})`,
    );
  }
  for (const f of e2e.figures) {
    const above = f.heap.bare.reply - f.heap.bareIdle.reply;
    row(
      `heap kept above idle, bare client, ${f.mode}`,
      `${(above / 1e6).toFixed(2)} MB`,
      `reply text ${(e2e.replyChars / 1e6).toFixed(2)} MB`,
      (above / e2e.replyChars).toFixed(2),
      `- (${(f.heap.bare.reply / 1e6).toFixed(2)} against ${(f.heap.bareIdle.reply / 1e6).toFixed(2)} MB; keeps no text: JIT code and feedback)`,
    );
  }
  for (const f of e2e.figures) {
    const perChar = ((f.peakKb - f.halfKb) * 1024) / (e2e.replyChars - e2e.halfChars);
    row(
      `peak RSS per further character, ${f.mode}`,
      `${perChar.toFixed(1)} B`,
      `1 B a character of text`,
      perChar.toFixed(2),
      `(100 000 against 50 000 deltas: peak ${(f.peakKb / 1024).toFixed(1)} MB against ${(f.halfKb / 1024).toFixed(1)} MB)`,
    );
  }
}

async function streamInProcess(): Promise<void> {
  const { benchStream } = await import('./stream.js');
  const stream = await benchStream();
  // Colour on, so the reply goes through the markdown renderer: compare with the tty row.
  row('stream CPU in-process, 20 000 deltas, markdown', ms(stream.brokerMs), `bare parser loop ${ms(stream.bareMs)}`, stream.ratio.toFixed(2), '- (as tty: <= 2.0)');
  row('first byte to first character written', `${stream.firstByteToFirstCharMs.toFixed(2)} ms`, '(median of 51)', '-', '< 2 ms');
}

async function mcpFigures(): Promise<void> {
  const { benchMcp } = await import('./mcp.js');
  const mcp = await benchMcp();
  row('mcp callTool round trip', `${mcp.sessionMs.toFixed(2)} ms`, `raw SDK client ${mcp.rawMs.toFixed(2)} ms`, mcp.ratio.toFixed(2), '<= 1.1');
  row('mcp resources/read round trip', `${mcp.readSessionMs.toFixed(2)} ms`, `raw SDK client ${mcp.readRawMs.toFixed(2)} ms`, (mcp.readSessionMs / mcp.readRawMs).toFixed(2), '<= 1.1');
  row('mcp: three servers connected in parallel', `${mcp.startupThreeMs.toFixed(0)} ms`, `slowest single ${mcp.slowestSingleMs.toFixed(0)} ms, sum ${mcp.sumSingleMs.toFixed(0)} ms`, (mcp.startupThreeMs / mcp.slowestSingleMs).toFixed(2), 'close to the slowest single');
}

async function resumeFigures(): Promise<void> {
  const { benchResume } = await import('./resume.js');
  for (const r of await benchResume()) {
    row(
      `resume ${r.lines} lines (${r.keptTurns} turns kept, heap ${r.heapMb.toFixed(1)} MB)`,
      ms(r.loadMs),
      `readline+JSON.parse ${ms(r.bareMs)}`,
      (r.loadMs / r.bareMs).toFixed(2),
      'linear, 100 000 lines < 1 s',
    );
  }
}

async function redactFigures(): Promise<void> {
  const { benchRedact } = await import('./redact.js');
  const r = await benchRedact();
  const mb = `${(r.chars / 1e6).toFixed(2)} MB`;
  row(`redact ${mb} output, names + shapes`, ms(r.oneMs), `names only (before) ${ms(r.envOnlyMs)}`, (r.oneMs / r.envOnlyMs).toFixed(2), `- (${r.secretsFound} secrets found; JSON.stringify of it ${ms(r.stringifyMs)}, a UTF-8 copy ${ms(r.copyMs)})`);
  row(`redact ${mb} output as a request body`, ms(r.oneJsonMs), `names only (before) ${ms(r.envOnlyJsonMs)}`, (r.oneJsonMs / r.envOnlyJsonMs).toFixed(2), '- (once per request while the output is in the context)');
  row('first redaction: shape rules loaded + first scan', ms(r.firstUseMs), `(fresh process, code cache; median of 11)`, '-', '- (once per session, at the first text redacted)');
}

async function undoFigures(): Promise<void> {
  const { benchUndo } = await import('./undo.js');
  const u = await benchUndo();
  const of = `${u.files} files, median of ${u.rounds}`;
  row('CMD: true, checkpoints added, first time', ms(u.first.on - u.first.off), `off ${ms(u.first.off)}, on ${ms(u.first.on)} (${of})`, '-', '<= 100 ms (a new store, a model answering at once)');
  row(`CMD: true, checkpoints added, first, model ${u.modelMs} ms`, ms(u.firstSlowModel.on - u.firstSlowModel.off), `off ${ms(u.firstSlowModel.off)}, on ${ms(u.firstSlowModel.on)} (${of})`, '-', '<= 100 ms (first snapshot made while the model thinks)');
  row('CMD: true, checkpoints added, second time', ms(u.second.on - u.second.off), `off ${ms(u.second.off)}, on ${ms(u.second.on)} (${of})`, '-', '<= 30 ms (the stat cache: one walk)');
  row('checkpoint around nothing, in process, first', ms(u.inProcess.first), `(${of})`, '-', '- (both snapshots, a new store)');
  row('checkpoint, in process, again: before the command', ms(u.inProcess.secondBefore), `git ls-files walk ${ms(u.walkMs)} (${of})`, (u.inProcess.secondBefore / u.walkMs).toFixed(2), '- (what a command waits for: one walk)');
  row('checkpoint, in process, again: both snapshots', ms(u.inProcess.second), `git ls-files walk ${ms(u.walkMs)} (${of})`, (u.inProcess.second / u.walkMs).toFixed(2), '- (the one after runs behind the prompt)');
}

async function lineEditorFigures(): Promise<void> {
  const { percentile } = await import('./stats.js');
  const { benchKeyEcho, benchSuggestion } = await import('./key-echo.js');
  const { benchLineEditor } = await import('./line-editor.js');
  const quantiles = [
    ['p50', 0.5],
    ['p90', 0.9],
    ['p99', 0.99],
  ] as const;
  const ms2 = (x: number) => `${x.toFixed(2)} ms`;
  const echo = await benchKeyEcho();
  for (const [name, q] of quantiles) {
    const [a, b] = [percentile(echo.aish, q), percentile(echo.bash, q)];
    row(`pty key to echo, idle prompt, ${name}`, ms2(a), `bash readline ${ms2(b)} (${echo.bash.length} keys)`, (a / b).toFixed(2), '- (issue 33)');
  }
  const s = await benchSuggestion();
  const lines = s.fileLines.toLocaleString('en').replace(',', ' ');
  const cases = [
    [`1000 of ${lines} lines`, s.aishDefault, 'default history size'],
    [`all ${lines} lines`, s.aishAll, 'history.input_history_size'],
  ] as const;
  for (const [loaded, samples, why] of cases) {
    for (const [name, q] of quantiles) {
      const [a, b] = [percentile(samples, q), percentile(s.bash, q)];
      row(`pty key to suggestion, ${loaded}, ${name}`, ms2(a), `bash echo ${ms2(b)} (${s.bash.length} keys)`, (a / b).toFixed(2), `- (${why}; '${s.typed}', the oldest loaded)`);
    }
  }
  // In process: the key's figure against one bare startsWith pass over the history (its p50).
  const e = benchLineEditor();
  const h = `${e.historyLines.toLocaleString('en').replace(',', ' ')} lines`;
  const usRow = (what: string, f: { p50: number; p99: number; keys: number }, scan: number) => {
    for (const name of ['p50', 'p99'] as const) {
      row(`${what}, ${name}`, `${f[name].toFixed(1)} µs`, `startsWith over the history ${scan.toFixed(1)} µs`, (f[name] / scan).toFixed(2), `- (${f.keys} keys)`);
    }
  };
  usRow(`editor per key, 60 chars, ${h}`, e.typing, e.typingScan.p50);
  usRow(`editor per Up, empty line, ${h}`, e.upAll, e.typingScan.p50);
  usRow(`editor per Up, 'git c', ${h}`, e.upPrefix, e.typingScan.p50);
  usRow(`editor, Up from 'kube' to the oldest`, e.upOldest, e.upOldestScan.p50);
}
