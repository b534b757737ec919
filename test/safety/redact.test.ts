// Which values are secrets, and that the redactor replaces them in plain and in JSON-escaped text.

import { describe, expect, it } from 'vitest';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig, type Config } from '../../src/config/schema.js';
import { findSecrets, Redactor } from '../../src/safety/redact.js';

function config(data: Record<string, unknown> = {}): Config {
  const r = resolveConfig(data, defaultModels({}));
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.config;
}

describe('findSecrets', () => {
  it.each<[string, Record<string, string>, string[]]>([
    ['a *KEY* variable', { OPENAI_API_KEY: 'sk-abcdefgh1234' }, ['OPENAI_API_KEY']],
    ['*TOKEN*, *SECRET*, *PASSWORD*, *PASSWD*, *CREDENTIAL*', { GH_TOKEN: 'ghp_12345678', APP_SECRET: 'secret-value-1', DB_PASSWORD: 'hunter2hunter2', MY_PASSWD: 'p4ssw0rd-long', AWS_CREDENTIALS: 'creds-creds-1' }, ['APP_SECRET', 'AWS_CREDENTIALS', 'DB_PASSWORD', 'GH_TOKEN', 'MY_PASSWD']],
    ['case-insensitive names', { api_key: 'abcdefgh12' }, ['api_key']],
    ['values under 8 characters are left alone', { SHORT_TOKEN: '1234567' }, []],
    ['names that do not look secret are left alone', { HOME: '/home/someone-long', PATH: '/usr/bin:/bin' }, []],
  ])('%s', (_name, env, names) => {
    expect(findSecrets(env, config()).map((s) => s.name).sort()).toEqual(names);
  });

  it("takes models' key_env and MCP auth_env whatever their names, and auth_token and stdio env tokens from the config", () => {
    const cfg = config({
      models: { m: { endpoint: 'http://127.0.0.1:1/v1', model: 'x', key_env: 'LLM_AUTH' } },
      mcp: {
        servers: {
          web: { url: 'http://127.0.0.1:2/mcp', auth_env: 'WEB_BEARER' },
          fs: { url: 'http://127.0.0.1:3/mcp', auth_token: 'literal-token-1' },
          gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_inconfig99' } },
        },
      },
    });
    const secrets = findSecrets({ LLM_AUTH: 'llm-auth-value', WEB_BEARER: 'bearer-value-9' }, cfg);
    expect(Object.fromEntries(secrets.map((s) => [s.name, s.value]))).toEqual({
      LLM_AUTH: 'llm-auth-value',
      WEB_BEARER: 'bearer-value-9',
      'mcp.servers.fs.auth_token': 'literal-token-1',
      'mcp.servers.gh.env.GITHUB_TOKEN': 'ghp_inconfig99',
    });
  });
});

describe('Redactor', () => {
  it('replaces every occurrence, longest secret first, plain and JSON-escaped', () => {
    const env: Record<string, string> = { A_TOKEN: 'abc"def\\ghi', B_KEY: 'abcdefgh', C_KEY: 'abcdefgh-longer' };
    const { redact } = Redactor.forEnv(() => env, config());
    expect(redact('x abcdefgh-longer y abcdefgh z abcdefgh')).toBe('x [redacted:C_KEY] y [redacted:B_KEY] z [redacted:B_KEY]');
    expect(redact(JSON.stringify({ content: 'key=abc"def\\ghi' }))).toBe('{"content":"key=[redacted:A_TOKEN]"}');
    expect(JSON.parse(redact(JSON.stringify({ content: 'key=abc"def\\ghi' })))).toEqual({ content: 'key=[redacted:A_TOKEN]' });
  });

  it('reads the environment on every call, so a secret exported later is covered', () => {
    const env: Record<string, string> = {};
    const { redact } = Redactor.forEnv(() => env, config());
    expect(redact('new-secret-value')).toBe('new-secret-value');
    env.LATE_TOKEN = 'new-secret-value';
    expect(redact('new-secret-value')).toBe('[redacted:LATE_TOKEN]');
  });
});

describe('secret-looking assignments in any text', () => {
  const { redact } = Redactor.forEnv(() => ({}), config());
  it.each<[string, string]>([
    ['export OPENAI_API_KEY=sk-live-123456789', 'export OPENAI_API_KEY=[redacted:OPENAI_API_KEY]'],
    ["GH_TOKEN='ghp_abcdefgh12' gh pr list", "GH_TOKEN='[redacted:GH_TOKEN]' gh pr list"],
    ['db_password=hunter2hunter2 ./run', 'db_password=[redacted:db_password] ./run'],
    ['API_KEY=short ok', 'API_KEY=short ok'],
    ['PATH=/usr/local/bin:/usr/bin', 'PATH=/usr/local/bin:/usr/bin'],
  ])('%j', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('keeps a JSON body valid around a redacted assignment', () => {
    const body = JSON.stringify({ content: 'run: export MY_SECRET=abcdefghijkl"quoted"\nnext' });
    const out = redact(body);
    expect(out).not.toContain('abcdefghijkl');
    expect(JSON.parse(out).content).toBe('run: export MY_SECRET=[redacted:MY_SECRET]"quoted"\nnext');
  });
});
