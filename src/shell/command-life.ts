// The life of a command in the session's shell (docs/shell.md "Ctrl-C and keys typed ahead"), as a
// pure state machine: `step(state, event)` gives the next state and the effects to perform (bytes
// for the pty, timers to set or clear, a run or query to resolve). It does no I/O and has no clock:
// a timer is an effect, and its firing comes back as an event, so every race between keys, markers
// and timers is a row of a table test on a fake clock (test/shell/command-life.test.ts).

import { constants } from 'node:os';
import type { MarkerKind } from './markers.js';

/** How a command ended in the session. */
export interface SessionRun {
  /** The shell's `$?`; 128+N for a signal; the shell's own code when it died. */
  exitCode: number;
  /** The signal name when the status says one ended the command. */
  signal: NodeJS.Signals | null;
  /** Set when the shell itself ended during the command (`exit`, killed, `exec` ended); unless
   * `byExit`, a new shell is starting. */
  shellEnded?: { reason: string; byExit: boolean };
  /** Whole lines typed while the command ran that it did not read: aish runs them next. */
  typedAhead: string[];
  /** The command never started: the shell wanted more input (an unclosed quote or block). */
  incomplete?: boolean;
  /** The command could not be given to a shell (none could start). */
  error?: string;
  /** The line moved the shell's own input, output or error (`exec >file`): where each had gone.
   * The integration has put them back on the terminal. */
  moved?: MovedStream[];
}

/** A command as aish types it: `line` is what goes between the bracketed-paste marks. */
export interface Typed {
  readonly command: string;
  readonly line: string;
  /** Nobody types (a pipe): an abort types Ctrl-C again every `REPEAT_CTRL_C_MS`. */
  readonly inputEnds: boolean;
}

/**
 * Where the shell is. The command states: `typed` (sent, not started: keys are held), `interrupting`
 * (a Ctrl-C waits for the start), `cut` (that Ctrl-C went before any start), `incomplete` (the
 * shell wanted more: Ctrl-C each second until it gives the line up), `retyping` (the shell read
 * aish's typing as lines typed ahead: typed again at its next prompt), `running` (started; `keys`
 * are held keys waiting out `HELD_KEYS_MS`), `interrupted` (running, and aish typed Ctrl-C: a
 * prompt without the end marker ends it; `keys` held before its start come back at its end).
 * `held` in `running` and `interrupted` says the end was asked for (the prompt came back without
 * it, or aish typed Ctrl-C): the output since then, shown if the command's own end follows and
 * dropped if the end comes late (the question's echo).
 */
export type LifeState =
  | { type: 'dead' }
  | { type: 'starting'; output: string }
  | { type: 'idle' }
  | { type: 'querying'; id: string }
  | { type: 'typed'; typed: Typed; keys: string; before: string; swallowed: number }
  | { type: 'interrupting'; typed: Typed; keys: string; before: string; swallowed: number }
  | { type: 'cut'; typed: Typed; keys: string; before: string; swallowed: number }
  | { type: 'incomplete'; typed: Typed; keys: string }
  | { type: 'retyping'; typed: Typed; keys: string; swallowed: number }
  | { type: 'running'; typed: Typed; keys: string; held?: string }
  | { type: 'interrupted'; typed: Typed; keys: string; held?: string };

export type LifeEvent =
  /** A new shell was spawned: it reads its rc files until its first prompt. */
  | { type: 'spawned' }
  | { type: 'marker'; kind: MarkerKind; fields: string[] }
  | { type: 'output'; text: string }
  /** Keys the person typed while a command is in the shell. */
  | { type: 'key'; data: string }
  /** The line was cancelled (its AbortSignal). */
  | { type: 'abort' }
  | { type: 'timer'; id: TimerId }
  /** The facade found the shell holding its terminal after an `ask-end`: the question may go. */
  | { type: 'end-asked' }
  /** The shell's process ended; `hungUp` when aish ended it (closing). */
  | { type: 'exit'; exitCode: number; signal?: number; hungUp: boolean }
  | { type: 'run'; command: string; line: string; inputEnds: boolean }
  | { type: 'query'; id: string; op: string; arg: string; timeoutMs: number };

export type TimerId = 'held-keys' | 'interrupt-wait' | 'incomplete' | 'repeat-ctrl-c' | 'query';

export type LifeEffect =
  | { type: 'write'; data: string }
  | { type: 'schedule'; id: TimerId; ms: number }
  | { type: 'cancel'; id: TimerId }
  /** The command's output, as the terminal gets it, markers removed and the secret masked. */
  | { type: 'output'; text: string }
  | { type: 'resolve-run'; run: SessionRun }
  | { type: 'resolve-query'; payload: string | null }
  /** The first prompt after a start: what the rc files printed before it. */
  | { type: 'ready'; startOutput: string }
  /** The shell shows its prompt (the next line may be typed). */
  | { type: 'prompt' }
  | { type: 'cwd'; cwd: string }
  /** What the shell printed at its prompt, outside any command (a job's `Done`). */
  | { type: 'aside'; text: string }
  /** The line may have started, stopped or ended a job: ask for the jobs. */
  | { type: 'ask-jobs' }
  /** The end may have been lost (a line removed aish's hooks): if the shell holds its terminal
   * (no program of the line could take the question as typing), feed back `end-asked`. */
  | { type: 'ask-end' }
  /** The shell ended: `during` says what it was doing; `byExit` when `exit` was typed or aish hung it up. */
  | { type: 'ended'; during: 'start' | 'command' | 'idle'; reason: string; byExit: boolean };

export interface Step {
  state: LifeState;
  effects: LifeEffect[];
}

/** A key bound to kill-whole-line, typed before a command (anything left on the line is gone). */
export const KILL_LINE = '\x1b[9901~';
export const QUERY_KEY = '\x1b[9902~';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** readline and zle turn bracketed paste off as they hand a line over: the echo ends there. */
const PASTE_OFF = '\x1b[?2004l';
/** How long after its start a command gets the keys typed before it started. */
export const HELD_KEYS_MS = 50;
/** How long a Ctrl-C waits for the command to start before it is typed anyway. */
export const INTERRUPT_WAIT_MS = 1000;
/** How often Ctrl-C is typed for a line the shell found incomplete, until it gives it up. */
export const INCOMPLETE_CTRL_C_MS = 1000;
/** How often a piped line's abort types Ctrl-C again (nobody can press it again). */
export const REPEAT_CTRL_C_MS = 500;
/** How often a command whose typing the shell read as typed-ahead lines is typed again. */
export const SWALLOWED_RETYPES = 3;
/** What is kept of the shell's output between a command being sent and its start. */
const MAX_BEFORE = 64 * 1024;
/** Lines after which the jobs are asked again: they may start, stop, end or disown one. */
const JOB_WORDS = /&|\b(bg|fg|disown|kill|wait|jobs|nohup|setsid)\b/;
const COMMAND_TIMERS: TimerId[] = ['held-keys', 'interrupt-wait', 'incomplete', 'repeat-ctrl-c'];
const INTERRUPTED: SessionRun = { exitCode: 130, signal: 'SIGINT', typedAhead: [] };

/** What aish types for a command: the line cleared, the command as a paste, Enter. */
export function typing(line: string): string {
  return `${KILL_LINE}${PASTE_START}${line}${PASTE_END}\r`;
}

/** The next state and its effects. `secret` is masked in everything the shell says. */
export function step(state: LifeState, event: LifeEvent, secret: string): Step {
  switch (event.type) {
    case 'spawned':
      return { state: { type: 'starting', output: '' }, effects: [] };
    case 'output':
      return output(state, event.text.split(secret).join('[aish-secret]'));
    case 'marker':
      return marker(state, event.kind, event.fields, secret);
    case 'key':
      return key(state, event.data);
    case 'abort': {
      const next = interrupt(state);
      if (!('typed' in state) || !state.typed.inputEnds || next.state.type === 'idle') return next;
      return { state: next.state, effects: [...next.effects, { type: 'schedule', id: 'repeat-ctrl-c', ms: REPEAT_CTRL_C_MS }] };
    }
    case 'timer':
      return timer(state, event.id);
    case 'end-asked':
      return endAsked(state);
    case 'exit':
      return exit(state, event);
    case 'run': {
      if (state.type !== 'idle') return { state, effects: [{ type: 'resolve-run', run: { exitCode: 127, signal: null, typedAhead: [], error: 'the shell is not running' } }] };
      // Nobody types into a piped run: its input is at its end, as before the session. A leading
      // space stays first, where the shell looks for it (`ignorespace`: kept out of its history).
      // `line` is what aish types: for a piped run, the command with its input at its end (launch.ts).
      const { command, line, inputEnds } = event;
      const typed = { command, line, inputEnds };
      return { state: { type: 'typed', typed, keys: '', before: '', swallowed: 0 }, effects: [{ type: 'write', data: typing(line) }] };
    }
    case 'query':
      if (state.type !== 'idle') return { state, effects: [{ type: 'resolve-query', payload: null }] };
      return {
        state: { type: 'querying', id: event.id },
        effects: [
          { type: 'schedule', id: 'query', ms: event.timeoutMs },
          { type: 'write', data: `${KILL_LINE}${PASTE_START}${event.id} ${event.op} ${event.arg}${PASTE_END}${QUERY_KEY}` },
        ],
      };
  }
}

function output(state: LifeState, text: string): Step {
  switch (state.type) {
    case 'starting':
      return { state: { ...state, output: (state.output + text).slice(0, MAX_BEFORE) }, effects: [] };
    case 'idle':
      // Not a query's echo: a job's notice (bash's `Done` as it draws the prompt after a command,
      // zsh's at its prompt), or the line editor drawing its empty prompt.
      return { state, effects: [{ type: 'aside', text }] };
    case 'running':
    case 'interrupted':
      if (state.held !== undefined) return { state: { ...state, held: (state.held + text).slice(0, MAX_BEFORE) }, effects: [] };
      return { state, effects: [{ type: 'output', text }] };
    case 'typed':
    case 'interrupting':
    case 'cut':
      return { state: { ...state, before: (state.before + text).slice(0, MAX_BEFORE) }, effects: [] };
    default:
      return { state, effects: [] };
  }
}

function marker(state: LifeState, kind: MarkerKind, fields: string[], secret: string): Step {
  switch (kind) {
    case 'R':
      return prompt(state);
    case 'C':
      return start(state);
    case 'P':
      // The shell wants more: the line was incomplete. Ctrl-C drops it, and D follows; once more
      // each second if a busy machine lost it.
      if (!notStarted(state)) return { state, effects: [] };
      return {
        state: { type: 'incomplete', typed: state.typed, keys: 'keys' in state ? state.keys : '' },
        effects: [{ type: 'cancel', id: 'interrupt-wait' }, { type: 'write', data: '\x03' }, { type: 'schedule', id: 'incomplete', ms: INCOMPLETE_CTRL_C_MS }],
      };
    case 'D':
      return done(state, fields);
    case 'Q': {
      if (state.type !== 'querying' || fields[0] !== state.id) return { state, effects: [] };
      // An answer made of the person's text (their prompt) could hold the secret too.
      const payload = (fields[1] ?? '').split(secret).join('[aish-secret]');
      return { state: { type: 'idle' }, effects: [{ type: 'cancel', id: 'query' }, { type: 'resolve-query', payload }] };
    }
  }
}

type NotStarted = Extract<LifeState, { type: 'typed' | 'interrupting' | 'cut' | 'incomplete' | 'retyping' }>;

function notStarted(state: LifeState): state is NotStarted {
  return state.type === 'typed' || state.type === 'interrupting' || state.type === 'cut' || state.type === 'incomplete' || state.type === 'retyping';
}

/** The prompt (R). */
function prompt(state: LifeState): Step {
  const atPrompt: LifeEffect = { type: 'prompt' };
  switch (state.type) {
    case 'starting':
      return { state: { type: 'idle' }, effects: [{ type: 'ready', startOutput: state.output }, atPrompt] };
    case 'interrupted': {
      // The prompt, but the started command's end (D) never came: a Ctrl-C landed after the
      // command ended, while the shell ran its prompt hooks (zsh's take 50 ms reading lines typed
      // ahead, and may hold a slow one of the person's), and zsh dropped the rest of them, aish's
      // end marker with them. The line ends here, interrupted. (Without a Ctrl-C, a prompt while
      // the command runs is another shell's that inherited an exported PS1: the command goes on.)
      const ended = done(state, ['130']);
      return { state: ended.state, effects: [...ended.effects, atPrompt] };
    }
    case 'running':
      // The prompt is back without the command's end: the line removed aish's prompt hook
      // (`unset PROMPT_COMMAND`, `precmd_functions=()`), or a program printed the prompt marker
      // (`print ${(%)PS1}`), or a shell it started inherited an exported PS1. Only the first
      // leaves the session's shell holding its terminal, where the end is asked for.
      return { state, effects: [atPrompt, ...askEnd(state)] };
    case 'retyping':
      return { state: { type: 'typed', typed: state.typed, keys: state.keys, before: '', swallowed: state.swallowed }, effects: [atPrompt, { type: 'write', data: typing(state.typed.line) }] };
    default:
      return { state, effects: [atPrompt] };
  }
}

/** The command's start (C). */
function start(state: LifeState): Step {
  switch (state.type) {
    case 'typed':
    case 'cut':
    case 'interrupting': {
      // Held keys go to a command still running a moment after its start (one that may read
      // them); a command over by then never sees them, and they come back as typed lines at its
      // end instead of racing the shell's own prompt. A Ctrl-C that waited for the start is such
      // a key: at the start itself the shell still holds the terminal and would take it instead.
      // Keys typed after it go after it, as in a terminal (the end hook reads them back as lines
      // typed ahead). One typed before the start (`cut`) makes the command one aish interrupted;
      // keys held since come back at its end.
      if (state.type === 'cut') return { state: { type: 'interrupted', typed: state.typed, keys: state.keys }, effects: [] };
      const keys = state.type === 'interrupting' ? `\x03${state.keys}` : state.keys;
      const effects: LifeEffect[] = [{ type: 'cancel', id: 'interrupt-wait' }];
      if (keys) effects.push({ type: 'schedule', id: 'held-keys', ms: HELD_KEYS_MS });
      return { state: { type: 'running', typed: state.typed, keys }, effects };
    }
    default:
      return { state, effects: [] };
  }
}

/** The command's end (D: status, directory, lines typed ahead, streams moved, 'late'). */
function done(state: LifeState, fields: string[]): Step {
  const [status, cwd, typedField = '', movedField = '', late] = fields;
  const effects: LifeEffect[] = cwd ? [{ type: 'cwd', cwd }] : [];
  if (!('typed' in state)) return { state, effects };
  // An end given late is for the line that asked for it: one that came after that line had ended
  // otherwise (its prompt after a Ctrl-C) must not end the next.
  const held = 'held' in state ? state.held : undefined;
  if (late === 'late' && held === undefined) return { state, effects };
  // aish's typing of the command was read by the end hook as lines typed ahead: a Ctrl-C that
  // landed as the last command ended left zsh an interrupt to take at its next prompt, which
  // dropped its line editor and ran the hooks again, whose read took the typing. The command
  // never ran: it is typed again at the prompt that follows (a few times at most), unless the
  // person cancelled it meanwhile. zle may have run the kill-line key before it took the
  // interrupt: then the read has the paste alone (seen once in twenty runs of `:` under load).
  if (notStarted(state) && (typedField.includes(KILL_LINE) || typedField.includes(`${PASTE_START}${state.typed.line.split('\n')[0]}`))) {
    const swallowed = 'swallowed' in state ? state.swallowed : 0;
    if (state.type === 'interrupting' || state.type === 'cut') return end(INTERRUPTED, effects);
    if (swallowed < SWALLOWED_RETYPES) return { state: { type: 'retyping', typed: state.typed, keys: state.keys, swallowed: swallowed + 1 }, effects };
  }
  const exitCode = Number.parseInt(status ?? '', 10);
  // An end given late after aish typed Ctrl-C ends the line as interrupted, as the prompt without
  // its end does (R): the status the shell kept may be its line editor's, not the line's (zsh
  // sets 1 when Ctrl-C meets its own prompt, which the question may find first).
  const code = late === 'late' && state.type === 'interrupted' ? 130 : Number.isFinite(exitCode) ? exitCode : 1;
  // A line that never started (a syntax error): what the shell said after the echo is its output.
  if ('before' in state) {
    const after = state.before.lastIndexOf(PASTE_OFF);
    const said = after === -1 ? '' : state.before.slice(after + PASTE_OFF.length).replace(/^\r/, '');
    if (said) effects.push({ type: 'output', text: said });
  }
  // Held since the end was asked for: the command's own output unless this end is the late one.
  if (held && late !== 'late') effects.push({ type: 'output', text: held });
  const keys = 'keys' in state ? state.keys : '';
  const typedAhead = [...typedField.split('\x1f'), ...typedLines(keys)].filter((line) => line.trim() !== '');
  const moved = movedStreams(movedField);
  const run: SessionRun = { exitCode: code, signal: signalOf(code), typedAhead, ...(state.type === 'incomplete' ? { incomplete: true } : {}), ...(moved.length > 0 ? { moved } : {}) };
  // The jobs to hang up at the end, known before the end: a loaded machine may not leave time to
  // ask then. Asked only after a line that may have started or changed one.
  const after: LifeEffect[] = JOB_WORDS.test(state.typed.command) || code === 148 ? [{ type: 'ask-jobs' }] : [];
  // An end given late, at aish's question, leaves the shell at the prompt it had drawn: no other comes.
  if (late === 'late') after.push({ type: 'prompt' });
  const ended = end(run, effects);
  return { state: ended.state, effects: [...ended.effects, ...after] };
}

/** The end is asked for once per line. */
function askEnd(state: { held?: string }): LifeEffect[] {
  return state.held === undefined ? [{ type: 'ask-end' }] : [];
}

/**
 * The shell holds its terminal: the end its prompt hook did not give is asked for. The integration
 * gives it (D with 'late') only if a command began since its last end, with the status the shell
 * kept, and puts its hooks back. Asked once per line.
 */
function endAsked(state: LifeState): Step {
  if ((state.type !== 'running' && state.type !== 'interrupted') || state.held !== undefined) return { state, effects: [] };
  return { state: { ...state, held: '' }, effects: [{ type: 'write', data: `${KILL_LINE}${PASTE_START}end end${PASTE_END}${QUERY_KEY}` }] };
}

/** The command is over: its timers go, its run resolves, the shell is idle. */
function end(run: SessionRun, effects: LifeEffect[]): Step {
  return { state: { type: 'idle' }, effects: [...effects, ...COMMAND_TIMERS.map((id): LifeEffect => ({ type: 'cancel', id })), { type: 'resolve-run', run }] };
}

/** Keys the person typed while a command is in the shell. */
function key(state: LifeState, data: string): Step {
  switch (state.type) {
    case 'running':
      if (data.includes('\x03')) return { state: { ...state, type: 'interrupted', keys: '' }, effects: [{ type: 'cancel', id: 'held-keys' }, { type: 'write', data }] };
      // Keys still held for the start go first.
      if (state.keys) return { state: { ...state, keys: state.keys + data }, effects: [] };
      return { state, effects: [{ type: 'write', data }] };
    case 'interrupted':
      return { state, effects: [{ type: 'write', data }] };
    default:
      if (!notStarted(state)) return { state, effects: [] };
      if (data === '\x03') return interrupt(state);
      return { state: { ...state, keys: state.keys + data }, effects: [] };
  }
}

/**
 * Ctrl-C for the command: typed at once once it has started. Before that the shell is still
 * taking in the line, and a Ctrl-C there cuts it where the shell has read to: the rest of a
 * multi-line input would then run as lines of their own (seen in CI: `syntax error near
 * unexpected token '}'` from a piped run's `{ …\n} </dev/null`). So it waits for the start,
 * `INTERRUPT_WAIT_MS` at most. As a terminal drops the keys typed ahead on Ctrl-C, the held keys
 * go: sent after it, they would outlive the command and run as the next line.
 */
function interrupt(state: LifeState): Step {
  switch (state.type) {
    case 'running':
    case 'interrupted':
      // A line that left neither an end nor a prompt marker (`unset PROMPT_COMMAND; PS1='$ '`)
      // has the shell at a prompt aish cannot see: asked for the end, the integration puts its
      // hooks back, and the prompt it draws then ends the line (exit 130).
      return { state: { ...state, type: 'interrupted', keys: '' }, effects: [{ type: 'cancel', id: 'held-keys' }, { type: 'write', data: '\x03' }, ...askEnd(state)] };
    case 'typed':
    case 'cut':
      return { state: { type: 'interrupting', typed: state.typed, keys: '', before: state.before, swallowed: state.swallowed }, effects: [{ type: 'schedule', id: 'interrupt-wait', ms: INTERRUPT_WAIT_MS }] };
    case 'incomplete':
      // Ctrl-C goes each second already.
      return { state: { ...state, keys: '' }, effects: [] };
    case 'retyping':
      // The command never ran and is not typed yet: it ends here, and the prompt comes next.
      return end(INTERRUPTED, []);
    default:
      return { state, effects: [] };
  }
}

function timer(state: LifeState, id: TimerId): Step {
  switch (id) {
    case 'held-keys':
      if (state.type !== 'running' || !state.keys) return { state, effects: [] };
      // A Ctrl-C among them (one that waited for the start) asks for no end: typed while a short
      // command's end hook runs, the question would meet zsh's interrupt there.
      return { state: state.keys.includes('\x03') ? { ...state, type: 'interrupted', keys: '' } : { ...state, keys: '' }, effects: [{ type: 'write', data: state.keys }] };
    case 'interrupt-wait':
      if (state.type !== 'interrupting') return { state, effects: [] };
      return { state: { type: 'cut', typed: state.typed, keys: state.keys, before: state.before, swallowed: state.swallowed }, effects: [{ type: 'write', data: '\x03' }] };
    case 'incomplete':
      if (state.type !== 'incomplete') return { state, effects: [] };
      return { state, effects: [{ type: 'write', data: '\x03' }, { type: 'schedule', id: 'incomplete', ms: INCOMPLETE_CTRL_C_MS }] };
    case 'repeat-ctrl-c': {
      if (!('typed' in state)) return { state, effects: [] };
      const next = interrupt(state);
      if (next.state.type === 'idle') return next;
      return { state: next.state, effects: [...next.effects, { type: 'schedule', id: 'repeat-ctrl-c', ms: REPEAT_CTRL_C_MS }] };
    }
    case 'query':
      if (state.type !== 'querying') return { state, effects: [] };
      return { state: { type: 'idle' }, effects: [{ type: 'resolve-query', payload: null }] };
  }
}

function exit(state: LifeState, event: Extract<LifeEvent, { type: 'exit' }>): Step {
  const signal = event.signal ? signalName(event.signal) : null;
  const reason = signal ? `killed by ${signal}` : `exit ${event.exitCode}`;
  const effects: LifeEffect[] = [];
  let during: 'start' | 'command' | 'idle' = 'idle';
  let byExit = event.hungUp;
  if (state.type === 'starting') during = 'start';
  else if (state.type === 'querying') effects.push({ type: 'cancel', id: 'query' }, { type: 'resolve-query', payload: null });
  else if ('typed' in state) {
    during = 'command';
    byExit ||= !signal && /^\s*(exit|logout)(\s|;|$)/.test(state.typed.command);
    const exitCode = event.signal ? 128 + event.signal : event.exitCode;
    effects.push(...end({ exitCode, signal, typedAhead: [], shellEnded: { reason, byExit } }, []).effects);
  }
  return { state: { type: 'dead' }, effects: [...effects, { type: 'ended', during, reason, byExit }] };
}

/**
 * The whole lines in keys typed at a terminal (Enter ends one), edited as a terminal's line
 * discipline would: backspace deletes, escape sequences (arrows) and other controls are dropped,
 * and a last line without Enter is not one.
 */
export function typedLines(keys: string): string[] {
  const lines: string[] = [];
  let line = '';
  // eslint-disable-next-line no-control-regex
  const clean = keys.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[O[]?./g, '');
  for (const ch of clean) {
    if (ch === '\r' || ch === '\n') {
      lines.push(line);
      line = '';
    } else if (ch === '\x7f' || ch === '\b') line = line.slice(0, -1);
    else if (ch === '\x15') line = '';
    else if (ch >= ' ') line += ch;
  }
  return lines;
}

/** A stream of the shell's that a line moved (`exec >file`): where it had gone, null when closed. */
export interface MovedStream {
  stream: 'input' | 'output' | 'error';
  to: string | null;
}

/** The end marker's moved field: the integration's `<fd> <where>` lines (see `__aish_fds`). */
export function movedStreams(field: string): MovedStream[] {
  const names = ['input', 'output', 'error'] as const;
  const moved: MovedStream[] = [];
  for (const line of field.split('\n')) {
    const m = /^([012]) (.*)$/.exec(line);
    if (m) moved.push({ stream: names[Number(m[1])]!, to: m[2] === 'closed' ? null : m[2]! });
  }
  return moved;
}

function signalOf(status: number): NodeJS.Signals | null {
  if (status <= 128 || status > 128 + 64) return null;
  return signalName(status - 128);
}

export function signalName(n: number): NodeJS.Signals | null {
  for (const [name, num] of Object.entries(constants.signals)) if (num === n) return name as NodeJS.Signals;
  return null;
}
