// The JSON a script reads from `aish -p --output json|jsonl`, fed turn events directly: whole
// lines, text of one job as one event and before what follows it, the last line once, nothing
// after stdout is lost, the terminal's redaction on the terminal's fields, and the hostile corpus
// escaped on stdout and sanitized on stderr.

import { describe, expect, it } from 'vitest';
import { Renderer } from '../../src/render/renderer.js';
import { ScriptOutput, createStatusView, scriptErrorLine, type ScriptAnswer } from '../../src/render/script-output.js';
import { createStyle } from '../../src/render/style.js';
import type { ToolOutcome } from '../../src/tool-call.js';
import type { TurnEvent } from '../../src/turn/types.js';
import { captureIo } from '../support/capture-io.js';
import { HOSTILE, RAW_CONTROL } from '../support/hostile.js';

function sink() {
  const written: string[] = [];
  const out = { destroyed: false, write: (text: string) => written.push(text) };
  return { out, written, lines: () => written.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

const redact = (text: string) => text.split('sk-live-123456').join('[redacted:KEY]');
const call = { id: 'c1', name: 'srv__echo', arguments: '{"m":"sk-live-123456"}' };
const ok: ToolOutcome = { status: 'ok', content: 'echo sk-live-123456' };
const answer: ScriptAnswer = { reply: 'done', cmd_lines: [], model: 'fast', usage: { prompt_tokens: 1, completion_tokens: 2, estimated: false }, session: null };
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('jsonl', () => {
  it('the deltas of one job are one text event, written before the event that follows them', async () => {
    const s = sink();
    const script = new ScriptOutput('jsonl', s.out, redact);
    script.observer({ type: 'text', text: 'Hel' });
    script.observer({ type: 'text', text: 'lo' });
    script.observer({ type: 'reasoning', text: 'hm' });
    script.observer({ type: 'tool-begin', call, args: { m: 'sk-live-123456' } });
    script.observer({ type: 'tool-end', call, outcome: ok, durationMs: 3 });
    script.observer({ type: 'text', text: 'after' });
    await tick();
    script.observer({ type: 'text', text: ' more' });
    await tick();
    expect(s.lines()).toEqual([
      { type: 'text', text: 'Hel' + 'lo' },
      { type: 'reasoning', text: 'hm' },
      { type: 'tool_call', id: 'c1', name: 'srv__echo', arguments: { m: '[redacted:KEY]' } },
      { type: 'tool_result', id: 'c1', name: 'srv__echo', status: 'ok', result: 'echo [redacted:KEY]' },
      { type: 'text', text: 'after' },
      { type: 'text', text: ' more' },
    ]);
    expect(s.written.every((w) => w.endsWith('\n') && w.split('\n').length === 2)).toBe(true);
  });

  it('status lines are redacted events; done closes the stream and nothing follows it', () => {
    const s = sink();
    const script = new ScriptOutput('jsonl', s.out, redact);
    script.observer({ type: 'status', message: 'token sk-live-123456' });
    script.observer({ type: 'text', text: 'held' });
    script.answer(answer);
    script.fail({ kind: 'internal', message: 'late' });
    script.observer({ type: 'status', message: 'late' });
    expect(s.lines()).toEqual([{ type: 'status', message: 'token [redacted:KEY]' }, { type: 'text', text: 'held' }, { type: 'done', ...answer, tool_calls: [] }]);
    expect(script.finished).toBe(true);
  });

  it('a model failure ends with the line the person saw, with its kind', () => {
    const s = sink();
    const script = new ScriptOutput('jsonl', s.out, redact);
    script.observer({ type: 'error', message: 'transport: Connection refused (fast at http://x: is the server running?)' });
    script.fail({ kind: 'transport', message: 'transport: Connection refused' }, true);
    expect(s.lines()).toEqual([{ type: 'error', kind: 'transport', message: 'transport: Connection refused (fast at http://x: is the server running?)' }]);
  });

  it('once stdout is lost (destroyed), nothing more is written', () => {
    const s = sink();
    const script = new ScriptOutput('jsonl', s.out, redact);
    script.observer({ type: 'status', message: 'one' });
    s.out.destroyed = true;
    script.observer({ type: 'status', message: 'two' });
    script.answer(answer);
    expect(s.lines()).toEqual([{ type: 'status', message: 'one' }]);
  });
});

describe('json', () => {
  it('one object at the end, with every tool call and its status (a declined one too)', () => {
    const s = sink();
    const script = new ScriptOutput('json', s.out, redact);
    script.observer({ type: 'text', text: 'x' });
    script.observer({ type: 'tool-begin', call, args: undefined });
    script.observer({ type: 'tool-end', call, outcome: { status: 'error', content: 'bad' }, durationMs: 1 });
    const declined = { ...call, id: 'c2' };
    script.observer({ type: 'tool-declined', call: declined, args: { m: 'x' }, outcome: { status: 'needs_approval', content: 'no' } });
    expect(s.written).toEqual([]);
    expect(script.toolDenied).toBe(true);
    script.answer(answer);
    expect(s.written).toHaveLength(1);
    expect(s.lines()).toEqual([
      {
        ...answer,
        tool_calls: [
          { name: 'srv__echo', arguments: '{"m":"[redacted:KEY]"}', status: 'error', result: 'bad' },
          { name: 'srv__echo', arguments: { m: 'x' }, status: 'needs_approval', result: 'no' },
        ],
      },
    ]);
  });

  it('an error is the one object; the answer after it is not written', () => {
    const s = sink();
    const script = new ScriptOutput('json', s.out, redact);
    script.fail({ kind: 'interrupted', message: 'interrupted' });
    script.answer(answer);
    expect(s.lines()).toEqual([{ error: { kind: 'interrupted', message: 'interrupted' } }]);
    expect(scriptErrorLine('json', { kind: 'config', message: 'm' })).toBe('{"error":{"kind":"config","message":"m"}}\n');
    expect(scriptErrorLine('jsonl', { kind: 'config', message: 'm' })).toBe('{"type":"error","kind":"config","message":"m"}\n');
  });
});

it('text (plain -p) writes nothing and keeps the tally', () => {
  const s = sink();
  const script = new ScriptOutput('text', s.out, redact);
  script.observer({ type: 'text', text: 'x' });
  script.observer({ type: 'tool-begin', call, args: {} });
  script.observer({ type: 'tool-end', call, outcome: ok, durationMs: 1 });
  expect(script.toolDenied).toBe(false);
  script.answer(answer);
  expect(s.written).toEqual([]);
});

describe.each(HOSTILE)('%s', (_name, bad) => {
  it('is escaped on stdout and shown, not obeyed, on stderr', async () => {
    const s = sink();
    const cap = captureIo();
    const render = new Renderer({ ...cap.io, output: cap.io.errors }, createStyle(0));
    const script = new ScriptOutput('jsonl', s.out, (t) => t);
    const status = createStatusView(render);
    const events: TurnEvent[] = [
      { type: 'text', text: `reply ${bad}` },
      { type: 'tool-begin', call: { id: 'c', name: `n${bad}`, arguments: '{}' }, args: { a: bad } },
      { type: 'tool-end', call: { id: 'c', name: `n${bad}`, arguments: '{}' }, outcome: { status: 'ok', content: bad, alert: `alert ${bad}` }, durationMs: 1 },
      { type: 'status', message: `status ${bad}` },
      { type: 'notice', message: `notice ${bad}` },
      { type: 'context', message: `context ${bad}` },
      { type: 'error', message: `error ${bad}` },
    ];
    for (const e of events) {
      status(e);
      script.observer(e);
    }
    script.fail({ kind: 'transport', message: bad }, true);
    await tick();
    const stdout = s.written.join('');
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(s.lines().at(-1)).toEqual({ type: 'error', kind: 'transport', message: `error ${bad}` });
    expect(s.lines()[0]).toEqual({ type: 'text', text: `reply ${bad}` });
    expect(cap.stdout).toBe('');
    expect(cap.stderr).not.toMatch(RAW_CONTROL);
    expect(cap.stderr).not.toContain('reply');
    expect(cap.stderr).toContain('[aish] status ');
  });
});
