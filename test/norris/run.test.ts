// runNorris as a table: a scripted model (one RequestResult per step), the real policy and gate
// with scripted answers, and what ran, what the model was told and how the run ended.
import { describe, expect, it } from 'vitest';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig } from '../../src/config/schema.js';
import { runNorris, SKIPPED_CMD, type NorrisEnd, type NorrisHost } from '../../src/norris/run.js';
import { ApprovalGate } from '../../src/safety/gate.js';
import { policyFromConfig } from '../../src/safety/policy.js';
import type { RequestResult } from '../../src/turn/tool-loop.js';

const done = (text: string, extra: Partial<{ toolCalls: number; cut: boolean }> = {}): RequestResult => ({ outcome: 'done', text, toolCalls: 0, ...extra });

interface Case {
  name: string;
  replies: RequestResult[];
  /** Keys typed at the questions, in order; null: nobody to ask. */
  keys?: (string | null)[] | null;
  box?: NorrisHost['box'];
  maxSteps?: number;
  secondOpinion?: (command: string) => boolean;
  end: NorrisEnd;
  ran: string[];
  /** Lines the model was told (the pending notes), when the case is about them. */
  notes?: string[];
  asked?: number;
  /** The user turns of the requests after the first (null: continue after tools). */
  contents?: (string | null)[];
}

const cases: Case[] = [
  { name: 'runs a safe command and ends on GOAL: complete', replies: [done('CMD: echo a\nGOAL: complete')], end: 'done', ran: ['echo a'] },
  { name: 'a reply with no action and no goal line stalls', replies: [done('I am thinking about it.')], end: 'stalled', ran: [] },
  {
    name: 'spends the step budget',
    replies: [done('CMD: echo a'), done('CMD: echo b'), done('CMD: echo c')],
    maxSteps: 2,
    end: 'budget',
    ran: ['echo a', 'echo b'],
    contents: ['[Norris] step 1 done; continue toward the goal.'],
  },
  { name: 'a destructive command asks (HALT); proceed runs it', replies: [done('CMD: rm -rf build\nGOAL: complete')], keys: ['p'], end: 'done', ran: ['rm -rf build'], asked: 1 },
  { name: 'HALT answered abort ends the run, nothing runs', replies: [done('CMD: rm -rf build')], keys: ['a'], end: 'aborted', ran: [] },
  { name: 'HALT with nobody to ask aborts', replies: [done('CMD: rm -rf build')], keys: null, end: 'aborted', ran: [] },
  {
    name: 'a skipped command is told to the model and the run goes on',
    replies: [done('CMD: rm -rf build\nCMD: echo after'), done('GOAL: complete')],
    keys: ['s'],
    end: 'done',
    ran: ['echo after'],
    notes: [`${SKIPPED_CMD}: rm -rf build`],
  },
  {
    name: 'three skips in a row ask whether to carry on; no ends it',
    replies: [done('CMD: rm -rf a\nCMD: rm -rf b\nCMD: rm -rf c'), done('never asked')],
    keys: ['s', 's', 's', 'a'],
    end: 'aborted',
    ran: [],
    asked: 4,
  },
  {
    name: 'a command the policy denies is not run and the model is told why',
    replies: [done('CMD: echo a\x1b[2J\nCMD: echo ok\nGOAL: complete')],
    end: 'done',
    ran: ['echo ok'],
  },
  {
    name: 'a cut reply runs none of its commands and the model is asked again',
    replies: [done('CMD: echo half', { cut: true }), done('CMD: echo whole\nGOAL: complete')],
    end: 'done',
    ran: ['echo whole'],
    contents: ['[Norris] step 1: your reply was cut off before it finished; say again what to do.'],
  },
  {
    name: 'a second opinion that disagrees turns an allowed command into a HALT',
    replies: [done('CMD: ./cleanup.sh\nGOAL: complete')],
    secondOpinion: (c) => c === './cleanup.sh',
    keys: ['s'],
    end: 'done',
    ran: [],
    asked: 1,
  },
  {
    name: 'without a sandbox (ask), each command asks; a asks no more',
    replies: [done('CMD: echo a\nCMD: echo b'), done('CMD: echo c\nGOAL: complete')],
    box: 'ask',
    keys: ['a'],
    end: 'done',
    ran: ['echo a', 'echo b', 'echo c'],
    asked: 1,
  },
  { name: 'without a sandbox and nobody to ask, nothing runs', replies: [done('CMD: echo a')], box: 'ask', keys: null, end: 'aborted', ran: [] },
  { name: 'tool calls alone continue with no user turn', replies: [done('', { toolCalls: 1 }), done('GOAL: complete')], end: 'done', ran: [], contents: [null] },
  { name: 'a failed request ends the run as an error', replies: [{ outcome: 'failed', error: new Error('down'), userTurnRemoved: true }], end: 'error', ran: [] },
  { name: 'a cancelled request ends it as halted', replies: [{ outcome: 'cancelled', text: '' }], end: 'halted', ran: [] },
];

function config() {
  const r = resolveConfig({}, defaultModels({}));
  if (!r.ok) throw new Error('config');
  return r.config;
}

describe('runNorris', () => {
  it.each(cases)('$name', async (c) => {
    const replies = [...c.replies];
    const keys = c.keys === null ? null : [...(c.keys ?? [])];
    const ran: string[] = [];
    const notes: string[] = [];
    const contents: (string | null)[] = [];
    let asked = 0;
    const summarizing: boolean[] = [];
    const gate = new ApprovalGate({
      policy: policyFromConfig(config()),
      ask: null,
      askKey: keys === null ? null : async () => (asked++, keys.shift() ?? null),
      show: () => {},
    });
    const host: NorrisHost = {
      request: async (content) => {
        contents.push(content);
        const next = replies.shift();
        if (!next) throw new Error('more requests than the case scripted');
        return next;
      },
      runCommand: async (command) => void ran.push(command),
      note: (text) => void notes.push(text),
      gate,
      status: () => {},
      setSummarizing: (on) => void summarizing.push(on),
      maxSteps: c.maxSteps ?? 10,
      box: c.box ?? 'boxed',
      ...(c.secondOpinion ? { secondOpinion: async (command: string) => c.secondOpinion!(command) } : {}),
    };
    const end = await runNorris('tidy up', host, new AbortController().signal);
    expect(end).toBe(c.end);
    expect(ran).toEqual(c.ran);
    expect(contents[0]).toBe('[Norris] goal: tidy up');
    if (c.contents) expect(contents.slice(1, 1 + c.contents.length)).toEqual(c.contents);
    if (c.notes) expect(notes).toEqual(c.notes);
    if (c.asked !== undefined) expect(asked).toBe(c.asked);
    // Summaries are off for the run and back on after it, however it ended.
    expect(summarizing).toEqual([false, true]);
  });

  it('Ctrl-C before a step ends the run as halted without a request', async () => {
    const controller = new AbortController();
    controller.abort();
    let requests = 0;
    const host = {
      request: async () => (requests++, done('CMD: echo a')),
      runCommand: async () => {},
      note: () => {},
      gate: new ApprovalGate({ policy: policyFromConfig(config()), ask: null, show: () => {} }),
      status: () => {},
      setSummarizing: () => {},
      maxSteps: 3,
      box: 'boxed',
    } satisfies NorrisHost;
    expect(await runNorris('x', host, controller.signal)).toBe('halted');
    expect(requests).toBe(0);
  });
});
