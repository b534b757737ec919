// The OAuth store says nothing itself (it is made before the renderer): a file it cannot read is its
// `problem`, one it cannot write is what `update` and `forget` return, and the registry reports both.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { OAUTH_FILE, OAuthStore } from '../../src/mcp/oauth-store.js';
import { McpRegistry } from '../../src/mcp/registry.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aish-oauth-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

it('a file that is not JSON is its problem, reported once by the registry that uses it', () => {
  writeFileSync(path.join(dir, OAUTH_FILE), '{ torn');
  const store = new OAuthStore(dir);
  expect(store.problem).toBe(`${path.join(dir, OAUTH_FILE)} is not valid JSON; OAuth logins start afresh`);
  const said: string[] = [];
  new McpRegistry({ env: {}, clientVersion: 't', onStatus: (m) => said.push(m), oauth: { store, openUrl: async () => {} } });
  expect(said).toEqual([store.problem]);
});

it('saves tokens and returns null; a state dir it cannot write keeps them for the session and says why', () => {
  const store = new OAuthStore(dir);
  expect(store.problem).toBeNull();
  expect(store.update('https://s/', { tokens: { access_token: 'tok-1', token_type: 'bearer' } })).toBeNull();
  expect(JSON.parse(readFileSync(path.join(dir, OAUTH_FILE), 'utf8')).servers['https://s/'].tokens.access_token).toBe('tok-1');
  // A state dir that is a file: nothing can be written under it, even by root.
  const notDir = path.join(dir, 'not-a-dir');
  writeFileSync(notDir, '');
  const stuck = new OAuthStore(notDir);
  expect(stuck.problem).toBeNull();
  const problem = stuck.update('https://s/', { tokens: { access_token: 'tok-2', token_type: 'bearer' } });
  expect(problem).toMatch(/^cannot write .*not-a-dir\/mcp-oauth\.json \(.+\); OAuth tokens kept for this session only$/);
  expect(stuck.secrets()).toEqual(['tok-2']);
  expect(stuck.forget('https://s/').forgot).toBe(true);
  expect(stuck.forget('https://s/')).toEqual({ forgot: false, problem: null });
});
