// What OAuth leaves behind for MCP servers (SPEC §6, docs/mcp.md "OAuth"): per server URL, the
// registered client, the tokens and the discovery state, in one JSON file (0600, its folder 0700)
// under aish's state dir. Without a state dir everything stays in memory for the session. The
// file is rewritten whole (temp file, then rename), so a crash never leaves half a token behind.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { fileWriteProblem } from '../errors.js';
import { isRecord } from '../is-record.js';
import { writePrivateFile } from '../private-file.js';

/** What is kept for one server. */
export interface OAuthRecord {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since the epoch), to tell whether they expired. */
  savedAt?: number;
  discovery?: OAuthDiscoveryState;
}

/** The file's name under the state dir. */
export const OAUTH_FILE = 'mcp-oauth.json';

/**
 * Tokens, clients and discovery per server URL; reads and writes the file synchronously. It says
 * nothing itself: a file that cannot be read is its `problem`, one that cannot be written is what
 * `update` and `forget` return, for its user to report (it is made before the renderer, whose
 * redactor reads its secrets).
 */
export class OAuthStore {
  readonly #file: string | undefined;
  #records: Record<string, OAuthRecord> = {};
  /** Why the file was not used (not valid JSON), or null. */
  readonly problem: string | null;

  /** `stateDir` undefined keeps everything in memory. */
  constructor(stateDir: string | undefined) {
    this.#file = stateDir ? path.join(stateDir, OAUTH_FILE) : undefined;
    this.problem = this.#load();
  }

  /** Where the tokens live, or undefined when they stay in memory. */
  get file(): string | undefined {
    return this.#file;
  }

  #load(): string | null {
    if (!this.#file) return null;
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch {
      return null;
    }
    try {
      const data: unknown = JSON.parse(text);
      if (isRecord(data) && isRecord(data.servers)) this.#records = data.servers as Record<string, OAuthRecord>;
      return null;
    } catch {
      return `${this.#file} is not valid JSON; OAuth logins start afresh`;
    }
  }

  /** Writes the file; why it could not be written, or null. */
  #save(): string | null {
    if (!this.#file) return null;
    try {
      writePrivateFile(this.#file, `${JSON.stringify({ version: 1, servers: this.#records }, null, 2)}\n`);
      return null;
    } catch (err) {
      return `cannot write ${this.#file} (${fileWriteProblem(err)}); OAuth tokens kept for this session only`;
    }
  }

  /** The record for `serverUrl` (empty when there is none). */
  get(serverUrl: string): OAuthRecord {
    return this.#records[serverUrl] ?? {};
  }

  /**
   * Merges `patch` into the record of `serverUrl` (a key set to undefined is removed) and saves;
   * why the file could not be written (the record is kept for the session), or null.
   */
  update(serverUrl: string, patch: Partial<OAuthRecord>): string | null {
    const next: OAuthRecord = { ...this.get(serverUrl), ...patch };
    for (const key of Object.keys(next) as Array<keyof OAuthRecord>) if (next[key] === undefined) delete next[key];
    this.#records[serverUrl] = next;
    return this.#save();
  }

  /** Forgets everything about `serverUrl`: whether something was kept, and why the file could not be written. */
  forget(serverUrl: string): { forgot: boolean; problem: string | null } {
    if (!(serverUrl in this.#records)) return { forgot: false, problem: null };
    delete this.#records[serverUrl];
    return { forgot: true, problem: this.#save() };
  }

  /** Every token and client secret kept, for redaction. */
  secrets(): string[] {
    const found: string[] = [];
    for (const record of Object.values(this.#records)) {
      if (record.tokens?.access_token) found.push(record.tokens.access_token);
      if (record.tokens?.refresh_token) found.push(record.tokens.refresh_token);
      if (record.tokens?.id_token) found.push(record.tokens.id_token);
      if (record.client && 'client_secret' in record.client && record.client.client_secret) found.push(record.client.client_secret);
    }
    return found;
  }
}
