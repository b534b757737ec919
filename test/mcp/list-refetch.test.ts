// Coalesced list refetches (issue 32): a burst of notices costs one fetch in flight and one queued,
// the list ends as the server published it last, a failed fetch does not stop the next, and a
// session that is gone drops what was queued. ListRefetch alone with a counting fetch, and
// ServerLists with a fake client that counts resources/list and prompts/list.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ListRefetch, MAX_WAIT_MS } from '../../src/mcp/list-refetch.js';
import { ServerLists } from '../../src/mcp/server-lists.js';

const BURST = 1000;

/** A list on a server: each notice is a new version; a fetch answers the version it arrived at, a turn later. */
function fakeList(failing: Set<number> = new Set()) {
  const state = { version: 0, fetches: 0, seen: 0 };
  const fetch = async (): Promise<void> => {
    state.fetches++;
    const answer = state.version;
    await new Promise((resolve) => setImmediate(resolve));
    if (failing.has(state.fetches)) throw new Error(`fetch ${state.fetches} failed`);
    state.seen = answer;
  };
  return { state, fetch };
}

describe('ListRefetch', () => {
  it(`a burst of ${BURST} notices: one fetch in flight, one queued, and the last version`, async () => {
    const { state, fetch } = fakeList();
    const errors: unknown[] = [];
    let fetched = 0;
    const refetch = new ListRefetch(fetch, { onError: (e) => errors.push(e), onFetched: () => fetched++ });
    for (let i = 0; i < BURST; i++) {
      state.version++;
      refetch.request();
    }
    await refetch.ready();
    expect(state.fetches).toBe(2);
    expect(fetched).toBe(2);
    expect(state.seen).toBe(BURST);
    expect(errors).toEqual([]);
  });

  it('notices a millisecond apart for over a second: about one fetch per MAX_WAIT_MS, the last after the last notice', async () => {
    const { state, fetch } = fakeList();
    const refetch = new ListRefetch(fetch, { onError: () => {} });
    const start = performance.now();
    while (performance.now() - start < 1.5 * MAX_WAIT_MS) {
      state.version++;
      refetch.request();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const flooding = performance.now() - start;
    await refetch.ready();
    expect(state.seen).toBe(state.version);
    expect(state.fetches).toBeGreaterThanOrEqual(2);
    expect(state.fetches).toBeLessThanOrEqual(2 + Math.ceil(flooding / MAX_WAIT_MS));
  });

  it('a notice after the list settled fetches again (QUIET_MS after the last fetch started, at the soonest)', async () => {
    const { state, fetch } = fakeList();
    const refetch = new ListRefetch(fetch, { onError: () => {} });
    state.version++;
    refetch.request();
    await refetch.ready();
    state.version++;
    refetch.request();
    await refetch.ready();
    expect(state).toMatchObject({ fetches: 2, seen: 2 });
  });

  it('a fetch that fails is reported and the queued one still runs; later notices still fetch', async () => {
    const { state, fetch } = fakeList(new Set([1, 3]));
    const errors: string[] = [];
    const refetch = new ListRefetch(fetch, { onError: (e) => errors.push((e as Error).message) });
    for (let i = 0; i < BURST; i++) {
      state.version++;
      refetch.request();
    }
    await refetch.ready();
    expect(errors).toEqual(['fetch 1 failed']);
    expect(state).toMatchObject({ fetches: 2, seen: BURST });
    // The last fetch of a burst fails this time: the queue is empty again, not stuck.
    state.version++;
    refetch.request();
    state.version++;
    refetch.request();
    await refetch.ready();
    expect(errors).toEqual(['fetch 1 failed', 'fetch 3 failed']);
    expect(state).toMatchObject({ fetches: 3, seen: BURST });
    state.version++;
    refetch.request();
    await refetch.ready();
    expect(state).toMatchObject({ fetches: 4, seen: BURST + 3 });
  });

  it('drops the queued fetch once the session is gone', async () => {
    const { state, fetch } = fakeList();
    let active = true;
    const refetch = new ListRefetch(fetch, { onError: () => {}, active: () => active });
    refetch.request();
    refetch.request();
    active = false;
    await refetch.ready();
    expect(state.fetches).toBe(1);
  });
});

/** A client whose resources/list, resources/templates/list and prompts/list are counted. */
function fakeClient() {
  const handlers = new Map<unknown, () => void>();
  const versions = { resources: 0, prompts: 0 };
  const asked = { resources: 0, templates: 0, prompts: 0 };
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const client = {
    setNotificationHandler: (schema: unknown, handler: () => void) => void handlers.set(schema, handler),
    listResources: async () => {
      asked.resources++;
      const v = versions.resources;
      await turn();
      return { resources: [{ uri: `fake://v${v}`, name: `v${v}` }] };
    },
    listResourceTemplates: async () => {
      asked.templates++;
      await turn();
      return { resourceTemplates: [] };
    },
    listPrompts: async () => {
      asked.prompts++;
      const v = versions.prompts;
      await turn();
      return { prompts: [{ name: `p${v}` }] };
    },
  };
  const notify = (kind: 'resources' | 'prompts') => {
    versions[kind]++;
    handlers.get(kind === 'resources' ? ResourceListChangedNotificationSchema : PromptListChangedNotificationSchema)!();
  };
  return { client: client as unknown as Client, asked, notify };
}

describe('ServerLists under a list_changed flood', () => {
  it(`${BURST} notices of each list: two list requests per list, and the lists the server has now`, async () => {
    const { client, asked, notify } = fakeClient();
    const reports: string[] = [];
    const lists = new ServerLists(client, { resources: { listChanged: true }, prompts: { listChanged: true } }, {
      timeout: 1000,
      report: (what) => reports.push(what),
    });
    for (let i = 0; i < BURST; i++) {
      notify('resources');
      notify('prompts');
    }
    await lists.ready();
    expect(asked).toEqual({ resources: 2, templates: 2, prompts: 2 });
    expect(lists.resources.map((r) => r.uri)).toEqual([`fake://v${BURST}`]);
    expect(lists.prompts.map((p) => p.name)).toEqual([`p${BURST}`]);
    expect(reports).toEqual([]);
  });
});
