// The command life of the session shell (docs/shell.md "Ctrl-C and keys typed ahead") on a fake
// clock: each row is events at given milliseconds in, and what the machine did (bytes typed into
// the shell, runs and queries resolved, output passed on) at the millisecond it did it. Timers fire
// at their due time, before an event of the same millisecond. The races that real shells show only
// now and then (a Ctrl-C the instant a line is typed, one that lands in the prompt hooks, typing
// the shell swallowed) are rows here, the same every run.

import { describe, expect, it } from 'vitest';
import { KILL_LINE, QUERY_KEY, step, typing, type LifeEffect, type LifeEvent, type LifeState, type TimerId } from '../../src/shell/command-life.js';
import { pipedLine } from '../../src/shell/launch.js';

const SECRET = 'f00dcafe';

/**
 * Plays `events` from `from` and returns what the machine did, as `<ms> <what>`, and where it ended.
 * `holdsTerminal` is what the facade finds when the machine would ask for an end: whether the shell
 * (not a program of the line) holds its terminal.
 */
function play(events: [number, LifeEvent][], from: LifeState = { type: 'idle' }, until = 5000, holdsTerminal = false): { did: string[]; state: LifeState } {
  let state = from;
  let now = 0;
  const timers = new Map<TimerId, number>();
  const did: string[] = [];
  const apply = (event: LifeEvent) => {
    const next = step(state, event, SECRET);
    state = next.state;
    for (const effect of next.effects) {
      if (effect.type === 'schedule') timers.set(effect.id, now + effect.ms);
      else if (effect.type === 'cancel') timers.delete(effect.id);
      else if (effect.type === 'ask-end') {
        if (holdsTerminal) apply({ type: 'end-asked' });
      } else {
        const shown = show(effect);
        if (shown) did.push(`${now} ${shown}`);
      }
    }
  };
  const fireUntil = (t: number) => {
    for (;;) {
      let first: [TimerId, number] | null = null;
      for (const [id, due] of timers) if (due <= t && (!first || due < first[1])) first = [id, due];
      if (!first) return;
      timers.delete(first[0]);
      now = first[1];
      apply({ type: 'timer', id: first[0] });
    }
  };
  for (const [t, event] of events) {
    fireUntil(t);
    now = t;
    apply(event);
  }
  fireUntil(until);
  return { did, state };
}

function show(effect: LifeEffect): string | null {
  switch (effect.type) {
    case 'write':
      if (effect.data === '\x03') return '^C';
      if (effect.data.startsWith(KILL_LINE) && effect.data.endsWith('\r')) return `type ${effect.data.slice(KILL_LINE.length + 6, -7)}`;
      if (effect.data.startsWith(KILL_LINE)) return `ask ${effect.data.slice(KILL_LINE.length + 6, -(6 + QUERY_KEY.length)).trimEnd()}`;
      return `keys ${JSON.stringify(effect.data)}`;
    case 'output':
      return `output ${JSON.stringify(effect.text)}`;
    case 'resolve-run': {
      const { exitCode, typedAhead, incomplete, shellEnded, moved } = effect.run;
      const movedText = moved ? ` moved ${moved.map((m) => `${m.stream}>${m.to}`).join(',')}` : '';
      return `run ${exitCode}${typedAhead.length ? ` typed ${typedAhead.join('|')}` : ''}${incomplete ? ' incomplete' : ''}${shellEnded ? ` shell ${shellEnded.reason}${shellEnded.byExit ? ' by exit' : ''}` : ''}${movedText}`;
    }
    case 'resolve-query':
      return `answer ${effect.payload}`;
    case 'ready':
      return `ready ${JSON.stringify(effect.startOutput)}`;
    case 'ended':
      return `ended ${effect.during}`;
    case 'ask-jobs':
      return 'ask jobs';
    default:
      // The prompt, the directory and what the shell printed at its prompt are the facade's.
      return null;
  }
}

const run = (command: string, inputEnds = false): LifeEvent => ({ type: 'run', command, line: inputEnds ? pipedLine('bash', command) : command, inputEnds });
const C: LifeEvent = { type: 'marker', kind: 'C', fields: [] };
const R: LifeEvent = { type: 'marker', kind: 'R', fields: [] };
const P: LifeEvent = { type: 'marker', kind: 'P', fields: [] };
const D = (status: string, typed = ''): LifeEvent => ({ type: 'marker', kind: 'D', fields: [status, '/home', typed] });
/** The end given at aish's question (field 5 'late'), and one that says where the line moved the shell's streams. */
const lateD = (status: string): LifeEvent => ({ type: 'marker', kind: 'D', fields: [status, '/home', '', '', 'late'] });
const movedD = (status: string, moved: string): LifeEvent => ({ type: 'marker', kind: 'D', fields: [status, '/home', '', moved] });
const Q = (id: string, payload: string): LifeEvent => ({ type: 'marker', kind: 'Q', fields: [id, payload] });
const key = (data: string): LifeEvent => ({ type: 'key', data });
const out = (text: string): LifeEvent => ({ type: 'output', text });
const abort: LifeEvent = { type: 'abort' };
const exit = (exitCode: number, signal?: number): LifeEvent => ({ type: 'exit', exitCode, ...(signal ? { signal } : {}), hungUp: false });
const query = (id: string, op: string, timeoutMs = 2000): LifeEvent => ({ type: 'query', id, op, arg: '', timeoutMs });
/** What the end hook reads when aish's typing of a command lands in it (zsh, an interrupt pending). */
const swallowed = (line: string) => `${KILL_LINE}\x1b[200~${line}\x1b[201~\x1f`;
const PIPED = (command: string) => `{ ${command}\n} </dev/null`;

type Row = [string, [number, LifeEvent][], string[]];

describe('a command, start to end', () => {
  it.each<Row>([
    ['runs and ends with its status', [[0, run('ls')], [5, C], [6, out('a b\r\n')], [7, D('0')], [8, R]], ['0 type ls', '6 output "a b\\r\\n"', '7 run 0']],
    ['a signal status says its signal', [[0, run('sleep 9')], [5, C], [7, D('137')]], ['0 type sleep 9', '7 run 137']],
    ['a piped command reads from /dev/null, a leading space kept first', [[0, run(' ls', true)], [5, C], [7, D('0')]], [`0 type  ${PIPED('ls')}`, '7 run 0']],
    ['a syntax error: what the shell said after the echo is its output', [[0, run('echo )')], [3, out('echo )\x1b[?2004l\rbash: syntax error near `)\'\r\n')], [4, D('2')]], ['0 type echo )', '4 output "bash: syntax error near `)\'\\r\\n"', '4 run 2']],
    ['a comment never starts: the line ends with no output', [[0, run('# hi')], [3, out('# hi\x1b[?2004l\r')], [4, D('0')]], ['0 type # hi', '4 run 0']],
    ['lines the end hook read back are typed ahead', [[0, run('sleep 1')], [5, C], [900, D('0', 'ls\x1fpwd\x1f')]], ['0 type sleep 1', '900 run 0 typed ls|pwd']],
    ['a line that may start a job asks for the jobs after it', [[0, run('sleep 9 &')], [5, C], [6, D('0')]], ['0 type sleep 9 &', '6 run 0', '6 ask jobs']],
    ['Ctrl-Z (148) asks for the jobs too', [[0, run('vim')], [5, C], [60, D('148')]], ['0 type vim', '60 run 148', '60 ask jobs']],
    ['the secret is masked in the output', [[0, run('set')], [5, C], [6, out(`k=${SECRET}\r\n`)], [7, D('0')]], ['0 type set', '6 output "k=[aish-secret]\\r\\n"', '7 run 0']],
    ['a prompt while running, with no Ctrl-C, is another shell\'s: the command goes on', [[0, run('bash')], [5, C], [50, R], [900, D('0')]], ['0 type bash', '900 run 0']],
  ])('%s', (_name, events, did) => {
    expect(play(events).did).toEqual(did);
  });
});

describe('keys typed ahead', () => {
  it.each<Row>([
    ['keys typed before the start go to the command 50 ms after it', [[0, run('read x')], [2, key('hi\r')], [10, C], [200, D('0')]], ['0 type read x', '60 keys "hi\\r"', '200 run 0']],
    ['keys typed once it has started go at once', [[0, run('read x')], [10, C], [100, key('hi\r')], [200, D('0')]], ['0 type read x', '100 keys "hi\\r"', '200 run 0']],
    ['keys held for a command over within 50 ms come back as typed lines, never typed', [[0, run('true')], [2, key('echo next\r')], [10, C], [20, D('0')]], ['0 type true', '20 run 0 typed echo next']],
    ['held keys a command never started for (a syntax error) come back as typed lines', [[0, run('echo )')], [2, key('ls\rhalf')], [4, D('2')]], ['0 type echo )', '4 run 2 typed ls']],
    ['keys typed while held keys wait go after them', [[0, run('cat')], [2, key('a')], [10, C], [30, key('b')], [200, D('0')]], ['0 type cat', '60 keys "ab"', '200 run 0']],
  ])('%s', (_name, events, did) => {
    expect(play(events).did).toEqual(did);
  });
});

describe('Ctrl-C', () => {
  it.each<Row>([
    ['once started, it is typed at once', [[0, run('sleep 30')], [5, C], [300, key('\x03')], [310, D('130')]], ['0 type sleep 30', '300 ^C', '310 run 130']],
    ['the instant the line is typed: it waits for the start and goes 50 ms after it', [[0, run('sleep 30')], [1, key('\x03')], [300, C], [360, D('130')]], ['0 type sleep 30', '350 ^C', '360 run 130']],
    ['before a start that never comes: typed after a second', [[0, run('sleep 30')], [1, key('\x03')], [1500, D('130')]], ['0 type sleep 30', '1001 ^C', '1500 run 130']],
    ['before a start that comes after the wait: the command is one aish interrupted', [[0, run('sleep 30')], [1, key('\x03')], [1200, C], [1300, R]], ['0 type sleep 30', '1001 ^C', '1300 run 130']],
    ['waiting for the start of a line that never starts one: never typed, the next command never gets it', [[0, run('echo )')], [1, key('\x03')], [4, D('2')], [10, R], [20, run('sleep 1.5')], [30, C], [1600, D('0')]], ['0 type echo )', '4 run 2', '20 type sleep 1.5', '1600 run 0']],
    ['a comment, with a Ctrl-C waiting for its start: never typed, the next command never gets it', [[0, run('# hi')], [1, key('\x03')], [4, D('0')], [10, R], [20, run('sleep 1.5')], [30, C], [1600, D('0')]], ['0 type # hi', '4 run 0', '20 type sleep 1.5', '1600 run 0']],
    ['an empty line, with a Ctrl-C waiting for its start: never typed, the next command never gets it', [[0, run(' ')], [1, key('\x03')], [4, D('0')], [10, R], [20, run('sleep 1.5')], [30, C], [1600, D('0')]], ['0 type  ', '4 run 0', '20 type sleep 1.5', '1600 run 0']],
    ['deferred to the start of a command over within 50 ms: never typed (the zsh race)', [[0, run(':')], [1, key('\x03')], [10, C], [20, D('0')], [30, R], [40, run('sleep 1.5')], [50, C], [1600, D('0')]], ['0 type :', '20 run 0', '40 type sleep 1.5', '1600 run 0']],
    ['keys typed ahead, then Ctrl-C, before the start: the keys go, as a terminal drops them', [[0, run('sleep 30')], [1, key('echo typed-ahead\r')], [2, key('\x03')], [300, C], [360, D('130')]], ['0 type sleep 30', '350 ^C', '360 run 130']],
    ['keys typed after a Ctrl-C that waits for the start go after it', [[0, run('sleep 30')], [1, key('\x03')], [2, key('ls\r')], [300, C], [360, D('130', 'ls\x1f')]], ['0 type sleep 30', '350 keys "\\u0003ls\\r"', '360 run 130 typed ls']],
    ['keys typed after a Ctrl-C held for a command over within 50 ms come back as typed lines', [[0, run('true')], [1, key('\x03')], [2, key('ls\r')], [10, C], [20, D('0')]], ['0 type true', '20 run 0 typed ls']],
    ['keys typed after the Ctrl-C went before any start come back at the end', [[0, run('sleep 30')], [1, key('\x03')], [1100, key('ls\r')], [1200, C], [1300, R]], ['0 type sleep 30', '1001 ^C', '1300 run 130 typed ls']],
    ['with held keys waiting after the start: the keys go, the Ctrl-C at once', [[0, run('cat')], [2, key('abc\r')], [10, C], [20, key('\x03')], [30, D('130')]], ['0 type cat', '20 ^C', '30 run 130']],
    ['in the prompt hooks after the command ended: a prompt without D ends the line as 130', [[0, run('echo ended-now')], [5, C], [6, out('ended-now\r\n')], [7, key('\x03')], [2000, R]], ['0 type echo ended-now', '6 output "ended-now\\r\\n"', '7 ^C', '2000 run 130']],
    ['an aborted line on a terminal: one Ctrl-C, never again', [[0, run('python3')], [5, C], [100, abort], [3000, D('0')]], ['0 type python3', '100 ^C', '3000 run 0']],
    ['an aborted piped line: Ctrl-C every half second until it ends', [[0, run('trap "" INT; sleep 9', true)], [5, C], [100, abort], [1300, D('0')]], [`0 type ${PIPED('trap "" INT; sleep 9')}`, '100 ^C', '600 ^C', '1100 ^C', '1300 run 0']],
    ['a piped line aborted the instant it is typed: the Ctrl-C waits for the start, then repeats', [[0, run('sleep 30', true)], [1, abort], [200, C], [700, D('130')]], [`0 type ${PIPED('sleep 30')}`, '250 ^C', '501 ^C', '700 run 130']],
    ['an abort after the run ended does nothing', [[0, run('ls')], [5, C], [6, D('0')], [7, abort]], ['0 type ls', '6 run 0']],
  ])('%s', (_name, events, did) => {
    expect(play(events).did).toEqual(did);
  });
});

describe('lines the shell does not run as typed', () => {
  it.each<Row>([
    ['an incomplete line: Ctrl-C at once and each second until the shell gives it up', [[0, run('echo "x')], [10, P], [2100, D('130')]], ['0 type echo "x', '10 ^C', '1010 ^C', '2010 ^C', '2100 run 130 incomplete']],
    ['an incomplete line keeps the lines typed ahead', [[0, run('for x')], [2, key('ls\r')], [10, P], [20, D('130')]], ['0 type for x', '10 ^C', '20 run 130 typed ls incomplete']],
    ['typing the end hook read as lines typed ahead is typed again at the next prompt', [[0, run('echo next-ran')], [10, D('0', swallowed('echo next-ran'))], [20, R], [30, C], [31, out('next-ran\r\n')], [32, D('0')]], ['0 type echo next-ran', '20 type echo next-ran', '31 output "next-ran\\r\\n"', '32 run 0']],
    ['typing swallowed after zle ran its kill-line key (the paste alone read back): typed again too', [[0, run('echo next-ran')], [10, D('130', '\x1b[200~echo next-ran\x1b[201~\x1f')], [20, R], [30, C], [32, D('0')]], ['0 type echo next-ran', '20 type echo next-ran', '32 run 0']],
    [
      'typed again three times at most; then it ends with what the shell said',
      [[0, run('x')], [10, D('0', swallowed('x'))], [20, R], [30, D('0', swallowed('x'))], [40, R], [50, D('0', swallowed('x'))], [60, R], [70, D('0', 'ls\x1f')]].map(([t, e]) => [t, e] as [number, LifeEvent]),
      ['0 type x', '20 type x', '40 type x', '60 type x', '70 run 0 typed ls'],
    ],
    ['Ctrl-C while it waits to be typed again: it never ran, it ends 130 and is not typed again', [[0, run('sleep 5')], [10, D('0', swallowed('sleep 5'))], [15, key('\x03')], [20, R]], ['0 type sleep 5', '15 run 130']],
    ['swallowed while a Ctrl-C waited for its start: it ends 130', [[0, run('sleep 5')], [1, key('\x03')], [10, D('0', swallowed('sleep 5'))], [20, R]], ['0 type sleep 5', '10 run 130']],
  ])('%s', (_name, events, did) => {
    expect(play(events).did).toEqual(did);
  });
});

describe('an end the prompt hook did not give (docs/shell.md "What aish keeps in place")', () => {
  it.each<Row>([
    [
      'a prompt without the end (the hook removed): the end is asked for; the late end ends the line, the question\'s echo dropped',
      [[0, run('unset PROMPT_COMMAND')], [5, C], [10, R], [12, out('end end')], [15, lateD('0')]],
      ['0 type unset PROMPT_COMMAND', '10 ask end end', '15 run 0'],
    ],
    [
      'a prompt marker the command printed: what follows is held, and shown when its own end comes',
      [[0, run('print $PS1; echo after; false')], [5, C], [6, R], [7, out('after\r\n')], [20, D('1')]],
      ['0 type print $PS1; echo after; false', '6 ask end end', '20 output "after\\r\\n"', '20 run 1'],
    ],
    ['asked once per line, however many prompts come', [[0, run('x')], [5, C], [10, R], [20, R], [30, lateD('0')]], ['0 type x', '10 ask end end', '30 run 0']],
    [
      'an abort asks too (a line that also took the prompt marker away), and the prompt then ends it as 130',
      [[0, run('unset PROMPT_COMMAND; PS1="$ "')], [5, C], [10, out('$ ')], [100, abort], [110, R]],
      ['0 type unset PROMPT_COMMAND; PS1="$ "', '10 output "$ "', '100 ^C', '100 ask end end', '110 run 130'],
    ],
    [
      'an abort asked for the end, and the late end came first: still 130, not the status zsh set as Ctrl-C met its prompt',
      [[0, run('precmd_functions=(); PS1="$ "')], [5, C], [10, out('$ ')], [100, abort], [110, lateD('1')]],
      ['0 type precmd_functions=(); PS1="$ "', '10 output "$ "', '100 ^C', '100 ask end end', '110 run 130'],
    ],
    [
      'a late end after the line ended otherwise is not the next line\'s end',
      [[0, run('sleep 9')], [5, C], [10, abort], [20, R], [30, run('echo next')], [35, C], [36, lateD('0')], [37, out('next')], [38, D('0')]],
      ['0 type sleep 9', '10 ^C', '10 ask end end', '20 run 130', '30 type echo next', '37 output "next"', '38 run 0'],
    ],
    ['a late end nothing asked for is dropped', [[0, run('sleep 1')], [5, C], [6, lateD('0')], [900, D('0')]], ['0 type sleep 1', '900 run 0']],
    ['the end says where the line moved the shell\'s output', [[0, run('exec >log')], [5, C], [6, movedD('0', '0 closed\n1 /home/log')]], ['0 type exec >log', '6 run 0 moved input>null,output>/home/log']],
  ])('%s', (_name, events, did) => {
    expect(play(events, { type: 'idle' }, 5000, true).did).toEqual(did);
  });

  it('nothing is asked while a program of the line holds the terminal (a shell it started draws prompts): its output goes on', () => {
    const events: [number, LifeEvent][] = [[0, run('zsh')], [5, C], [10, R], [20, out('x')], [900, D('0')]];
    expect(play(events, { type: 'idle' }, 5000, false).did).toEqual(['0 type zsh', '20 output "x"', '900 run 0']);
  });

  it('after a late end the shell is at the prompt it drew: the next line need not wait for another', () => {
    const next = step({ type: 'running', typed: { command: 'x', line: 'x', inputEnds: false }, keys: '', held: '' }, lateD('0'), SECRET);
    expect(next.state).toEqual({ type: 'idle' });
    const types = next.effects.map((e) => e.type);
    expect(types.indexOf('prompt')).toBeGreaterThan(types.indexOf('resolve-run'));
  });
});

describe('the shell\'s own life', () => {
  it.each<Row>([
    ['the rc files print, then the first prompt: ready', [[0, { type: 'spawned' }], [5, out('hello\r\n')], [9, out(`k=${SECRET}`)], [10, R]], ['10 ready "hello\\r\\nk=[aish-secret]"']],
    ['ended while reading the rc files', [[0, { type: 'spawned' }], [10, exit(1)]], ['10 ended start']],
    ['killed during a command: the run says so, a new shell comes', [[0, run('sleep 9')], [5, C], [10, exit(0, 9)]], ['0 type sleep 9', '10 run 137 shell killed by SIGKILL', '10 ended command']],
    ['`exit` typed: the shell ended for good', [[0, run('exit 3')], [5, C], [10, exit(3)]], ['0 type exit 3', '10 run 3 shell exit 3 by exit', '10 ended command']],
    ['dying before the command started, with a Ctrl-C waiting: no Ctrl-C, the run ends', [[0, run('ls')], [1, key('\x03')], [10, exit(1)]], ['0 type ls', '10 run 1 shell exit 1', '10 ended command']],
    ['dying while idle', [[10, exit(0, 15)]], ['10 ended idle']],
    ['dying during a query: no answer', [[0, query('q1', 'env')], [10, exit(1)]], ['0 ask q1 env', '10 answer null', '10 ended idle']],
  ])('%s', (_name, events, did) => {
    expect(play(events).did).toEqual(did);
  });
});

describe('questions to the shell', () => {
  it.each<Row>([
    ['answered, the secret masked', [[0, query('q1', 'prompt')], [5, Q('q1', `me ${SECRET} $`)]], ['0 ask q1 prompt', `5 answer me [aish-secret] $`]],
    ['no answer in time: null, and a late answer is dropped', [[0, query('q1', 'kind', 100)], [150, Q('q1', 'alias')]], ['0 ask q1 kind', '100 answer null']],
    [
      'timed out while a command waits behind it: the command goes, the late answer is not its start',
      [[0, query('q1', 'env', 100)], [100, run('echo hi')], [120, Q('q1', 'X=1')], [130, C], [131, out('hi\r\n')], [132, D('0')]],
      ['0 ask q1 env', '100 answer null', '100 type echo hi', '131 output "hi\\r\\n"', '132 run 0'],
    ],
    ['asked while a command runs: null at once', [[0, run('sleep 1')], [5, C], [10, query('q1', 'kind')], [900, D('0')]], ['0 type sleep 1', '10 answer null', '900 run 0']],
    ['a command asked for while the shell is starting: refused', [[0, { type: 'spawned' }], [5, run('ls')]], ['5 run 127']],
  ])('%s', (_name, events, did) => {
    expect(play(events).did).toEqual(did);
  });
});

it('what aish types for a command: the line cleared, a bracketed paste, Enter', () => {
  expect(typing('ls')).toBe('\x1b[9901~\x1b[200~ls\x1b[201~\r');
});
