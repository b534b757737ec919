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

/** Tokens, clients and discovery per server URL; reads and writes the file synchronously. */
export class OAuthStore {
  readonly #file: string | undefined;
  #records: Record<string, OAuthRecord> = {};
  #onError: (message: string) => void;

  /** `stateDir` undefined keeps everything in memory. `onError` hears a file that cannot be used. */
  constructor(stateDir: string | undefined, onError: (message: string) => void = () => {}) {
    this.#file = stateDir ? path.join(stateDir, OAUTH_FILE) : undefined;
    this.#onError = onError;
    this.#load();
  }

  /** Where the tokens live, or undefined when they stay in memory. */
  get file(): string | undefined {
    return this.#file;
  }

  #load(): void {
    if (!this.#file) return;
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch {
      return;
    }
    try {
      const data: unknown = JSON.parse(text);
      if (isRecord(data) && isRecord(data.servers)) this.#records = data.servers as Record<string, OAuthRecord>;
    } catch {
      this.#onError(`${this.#file} is not valid JSON; OAuth logins start afresh`);
    }
  }

  #save(): void {
    if (!this.#file) return;
    try {
      writePrivateFile(this.#file, `${JSON.stringify({ version: 1, servers: this.#records }, null, 2)}\n`);
    } catch (err) {
      this.#onError(`cannot write ${this.#file} (${fileWriteProblem(err)}); OAuth tokens kept for this session only`);
    }
  }

  /** The record for `serverUrl` (empty when there is none). */
  get(serverUrl: string): OAuthRecord {
    return this.#records[serverUrl] ?? {};
  }

  /** Merges `patch` into the record of `serverUrl` (a key set to undefined is removed) and saves. */
  update(serverUrl: string, patch: Partial<OAuthRecord>): void {
    const next: OAuthRecord = { ...this.get(serverUrl), ...patch };
    for (const key of Object.keys(next) as Array<keyof OAuthRecord>) if (next[key] === undefined) delete next[key];
    this.#records[serverUrl] = next;
    this.#save();
  }

  /** Forgets everything about `serverUrl`; false when nothing was kept. */
  forget(serverUrl: string): boolean {
    if (!(serverUrl in this.#records)) return false;
    delete this.#records[serverUrl];
    this.#save();
    return true;
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
