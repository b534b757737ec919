// A server's resources, resource templates and prompts, cached (issue 27): fetched once after the
// connect, only when the server's capabilities announce them, and again on its
// `notifications/resources/list_changed` or `notifications/prompts/list_changed`, coalesced per list
// (list-refetch.ts). A failed fetch keeps the old list and reports one status line; `ready()` lets
// a reader wait for the fetches in flight or queued.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { ListRefetch } from './list-refetch.js';

/** A server's resource as `:mcp resources` shows it. */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A server's resource template (RFC 6570 URI template). */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A server's prompt and its arguments. */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

/** Pages fetched of one list at most: a server that never stops paging is cut off. */
const MAX_PAGES = 100;

type Kind = 'resources' | 'prompts';

/**
 * The lists of one session. `offersResources` and `offersPrompts` say what the server announced;
 * a list it did not announce stays empty and is never asked for.
 */
export class ServerLists {
  readonly offersResources: boolean;
  readonly offersPrompts: boolean;
  readonly offersCompletions: boolean;
  #resources: McpResource[] = [];
  #templates: McpResourceTemplate[] = [];
  #prompts: McpPrompt[] = [];
  #refetch: Record<Kind, ListRefetch>;
  #client: Client;
  #timeout: number;
  #report: (what: string, err: unknown) => void;

  /**
   * `report` is told when a fetch fails (the session turns it into a status line); `timeout` is
   * the limit of each page; once `active` says false, a queued fetch is dropped.
   */
  constructor(
    client: Client,
    capabilities: ServerCapabilities | undefined,
    opts: { timeout: number; report: (what: string, err: unknown) => void; active?: () => boolean },
  ) {
    this.#client = client;
    this.#timeout = opts.timeout;
    this.#report = opts.report;
    const active = opts.active ?? (() => true);
    this.#refetch = {
      resources: new ListRefetch(() => this.#fetchResources(), { active, onError: (err) => this.#report('the resource list', err) }),
      prompts: new ListRefetch(() => this.#fetchPrompts(), { active, onError: (err) => this.#report('the prompt list', err) }),
    };
    this.offersResources = capabilities?.resources !== undefined;
    this.offersPrompts = capabilities?.prompts !== undefined;
    this.offersCompletions = capabilities?.completions !== undefined;
    if (this.offersResources) client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void this.refresh('resources'));
    if (this.offersPrompts) client.setNotificationHandler(PromptListChangedNotificationSchema, () => void this.refresh('prompts'));
  }

  /** Starts the first fetch of every announced list; never rejects. */
  start(): void {
    if (this.offersResources) void this.refresh('resources');
    if (this.offersPrompts) void this.refresh('prompts');
  }

  /** Resolves when no fetch is in flight or queued (the lists are as fresh as aish knows). Never rejects. */
  async ready(): Promise<void> {
    await Promise.all([this.#refetch.resources.ready(), this.#refetch.prompts.ready()]);
  }

  get resources(): readonly McpResource[] {
    return this.#resources;
  }

  get templates(): readonly McpResourceTemplate[] {
    return this.#templates;
  }

  get prompts(): readonly McpPrompt[] {
    return this.#prompts;
  }

  /**
   * Fetches one list again, as its list_changed notice does: now when no fetch of it is in flight,
   * else once after it. Resolves when none is in flight or queued; never rejects.
   */
  refresh(kind: Kind): Promise<void> {
    this.#refetch[kind].request();
    return this.#refetch[kind].ready();
  }

  async #fetchResources(): Promise<void> {
    const options = { timeout: this.#timeout };
    const resources = await allPages<Resource>(async (cursor) => {
      const r = await this.#client.listResources(cursor === undefined ? undefined : { cursor }, options);
      return { items: r.resources, next: r.nextCursor };
    });
    // A server may announce resources and offer no templates: that list failing is no reason to lose the other.
    let templates: ResourceTemplate[] = [];
    try {
      templates = await allPages<ResourceTemplate>(async (cursor) => {
        const r = await this.#client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, options);
        return { items: r.resourceTemplates, next: r.nextCursor };
      });
    } catch (err) {
      this.#report('the resource template list', err);
    }
    this.#resources = resources.map((r) => ({
      uri: r.uri,
      name: r.name,
      ...optional({ title: r.title, description: r.description, mimeType: r.mimeType, size: r.size }),
    }));
    this.#templates = templates.map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...optional({ title: t.title, description: t.description, mimeType: t.mimeType }),
    }));
  }

  async #fetchPrompts(): Promise<void> {
    const prompts = await allPages<Prompt>(async (cursor) => {
      const r = await this.#client.listPrompts(cursor === undefined ? undefined : { cursor }, { timeout: this.#timeout });
      return { items: r.prompts, next: r.nextCursor };
    });
    this.#prompts = prompts.map((p) => ({
      name: p.name,
      ...optional({ title: p.title, description: p.description }),
      arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...optional({ description: a.description }), required: a.required === true })),
    }));
  }
}

async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next: string | undefined }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const { items, next } = await page(cursor);
    all.push(...items);
    if (!next) break;
    cursor = next;
  }
  return all;
}

/** The entries whose value is set (exactOptionalPropertyTypes). */
function optional<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as never;
}
