// Which values are secrets, and that the redactor replaces them in plain and in JSON-escaped text:
// by name (the environment, the config) and by shape (fake secrets built at run time), and that
// ordinary text that only looks random (commit ids, UUIDs, base64) is left alone.

import { describe, expect, it } from 'vitest';
import { buildChatRequest } from '../../src/broker/request.js';
import type { ChatMessage } from '../../src/broker/types.js';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig, type Config } from '../../src/config/schema.js';
import { findSecrets, Redactor } from '../../src/safety/redact.js';
import { secretShapeScan } from '../../src/secret-rules.js';
import { fakeCredentialsFile, fakeSecrets } from '../support/fake-secrets.js';
import { HOSTILE_SECRETS } from '../support/hostile.js';

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
    ['the short forms as a word of the name: _PASS, _PWD, _PAT, _AUTH', { DB_PASS: 'hunter2hunter2', MYSQL_PWD: 'swordfish-1234', GITHUB_PAT: 'github_pat_1234', NPM_AUTH: 'abcdefgh1234' }, ['DB_PASS', 'GITHUB_PAT', 'MYSQL_PWD', 'NPM_AUTH']],
    ['but not PWD, OLDPWD, LD_LIBRARY_PATH, PASSTHROUGH or GIT_AUTHOR_NAME', { PWD: '/home/someone-long', OLDPWD: '/tmp/elsewhere1', LD_LIBRARY_PATH: '/usr/lib/x86_64', PASSTHROUGH: 'everything-ok', GIT_AUTHOR_NAME: 'Some One Long' }, []],
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

const redactorFor = (env: () => Record<string, string | undefined>, cfg = config()) => Redactor.forEnv({ env, config: cfg, shapes: secretShapeScan() });

describe('Redactor', () => {
  it('replaces every occurrence, longest secret first, plain and JSON-escaped', () => {
    const env: Record<string, string> = { A_TOKEN: 'abc"def\\ghi', B_KEY: 'abcdefgh', C_KEY: 'abcdefgh-longer' };
    const { redact } = redactorFor(() => env);
    expect(redact('x abcdefgh-longer y abcdefgh z abcdefgh')).toBe('x [redacted:C_KEY] y [redacted:B_KEY] z [redacted:B_KEY]');
    expect(redact(JSON.stringify({ content: 'key=abc"def\\ghi' }))).toBe('{"content":"key=[redacted:A_TOKEN]"}');
    expect(JSON.parse(redact(JSON.stringify({ content: 'key=abc"def\\ghi' })))).toEqual({ content: 'key=[redacted:A_TOKEN]' });
  });

  it('reads the environment on every call, so a secret exported later is covered', () => {
    const env: Record<string, string> = {};
    const { redact } = redactorFor(() => env);
    expect(redact('new-secret-value')).toBe('new-secret-value');
    env.LATE_TOKEN = 'new-secret-value';
    expect(redact('new-secret-value')).toBe('[redacted:LATE_TOKEN]');
  });
});

describe('secret-looking assignments in any text', () => {
  const { redact } = redactorFor(() => ({}));
  it.each<[string, string]>([
    ['export OPENAI_API_KEY=sk-live-123456789', 'export OPENAI_API_KEY=[redacted:OPENAI_API_KEY]'],
    ["GH_TOKEN='ghp_abcdefgh12' gh pr list", "GH_TOKEN='[redacted:GH_TOKEN]' gh pr list"],
    ['db_password=hunter2hunter2 ./run', 'db_password=[redacted:db_password] ./run'],
    ['API_KEY=short ok', 'API_KEY=short ok'],
    ['PATH=/usr/local/bin:/usr/bin', 'PATH=/usr/local/bin:/usr/bin'],
    ['MYSQL_PWD=hunter2hunter2 mysql', 'MYSQL_PWD=[redacted:MYSQL_PWD] mysql'],
    ['OLDPWD=/home/someone/long cd -', 'OLDPWD=/home/someone/long cd -'],
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

describe('secrets by shape (secretlint preset and aish own shapes)', () => {
  const { redact } = redactorFor(() => ({}));

  it.each(fakeSecrets().map((s) => [s.name, s] as const))('%s', (_name, secret) => {
    const out = redact(secret.text);
    expect(out).toContain(secret.redacted);
    expect(out).not.toContain(secret.value);
    // Only the secret goes: the words around it stay.
    expect(out.length).toBeGreaterThan(secret.redacted.length - 1);
  });

  it.each(fakeSecrets().map((s) => [s.name, s] as const))('%s, inside a serialised JSON body: found after a \\n, and the body stays valid', (_name, secret) => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: `[exec output]\n${secret.text}\nnext line` }, { role: 'assistant', content: 'ok "quoted" @x' }] });
    const out = redact(body);
    expect(out).not.toContain(secret.value);
    const parsed = JSON.parse(out) as { messages: { content: string }[] };
    expect(parsed.messages[0]!.content).toContain(secret.redacted);
    expect(parsed.messages[1]!.content).toBe('ok "quoted" @x');
  });

  it('keeps the words around a secret: the key name, the URL host, the command', () => {
    const [id, , , , , , , , bearer, mysql, url, db] = fakeSecrets();
    expect(redact(id!.text)).toBe('aws_access_key_id = [redacted:aws-access-key]');
    expect(redact(bearer!.text)).toBe('curl -H "Authorization: Bearer [redacted:bearer-token]" https://api.example.org/v1');
    expect(redact(mysql!.text)).toBe('mysql -u root -p[redacted:password] shop');
    expect(redact(url!.text)).toBe('git clone https://deploy:[redacted:url-password]@git.example.org/app.git');
    expect(redact(db!.text)).toBe('export DB_URL=postgres://app:[redacted:database-password]@db.internal:5432/app');
  });

  it('redacts a whole credentials file, every secret with its kind', () => {
    const { text, secrets } = fakeCredentialsFile();
    const out = redact(text);
    for (const s of secrets) {
      expect(out).not.toContain(s.value);
      expect(out).toContain(s.redacted);
    }
    expect(out).toContain('[default]\naws_access_key_id = [redacted:aws-access-key]\naws_secret_access_key = [redacted:aws-secret-key]\n');
    expect(out).toContain('region = eu-west-1');
  });

  it('a secret known by name keeps its name when its shape is found too', () => {
    const ghp = fakeSecrets().find((s) => s.name === 'GitHub classic token')!.value;
    const named = redactorFor(() => ({ GH_TOKEN: ghp }));
    expect(named.redact(`token ${ghp}`)).toBe('token [redacted:GH_TOKEN]');
    expect(named.redact(`export GITHUB_TOKEN=${ghp}`)).toBe('export GITHUB_TOKEN=[redacted:GH_TOKEN]');
    expect(redact(`export GITHUB_TOKEN=${ghp}`)).toBe('export GITHUB_TOKEN=[redacted:GITHUB_TOKEN]');
  });

  it('ignores a secretlint-disable comment in the text (output is not the person\'s config)', () => {
    const ghp = fakeSecrets().find((s) => s.name === 'GitHub classic token')!.value;
    expect(redact(`// secretlint-disable\n${ghp}\n// secretlint-enable`)).not.toContain(ghp);
  });

  it.each<[string, string]>([
    ['a git commit id', 'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)'],
    ['a short and a long object id', 'a94a8fe5 9c1185a5c5e9fc54612808977ee8f548b2258d31'],
    ['a UUID', 'container 123e4567-e89b-12d3-a456-426614174000 started'],
    ['base64 of ordinary data', `data: ${Buffer.from('The quick brown fox jumps over the lazy dog, again and again and again.').toString('base64')}`],
    ['an npm integrity hash', 'integrity sha512-Rq2V3f3fL7XQGmNVHvq7QZJ0bZqk6Ok2PZ+1p1qPvhBg0jQmW9Jv2W3mX8lXl0w1H0m0Qv9pZ3b9kY3QJbqKqg=='],
    ['a listing', 'drwxr-xr-x  5 me staff  160 Nov 27 10:02 src\n-rw-r--r--  1 me staff 1204 Nov 27 10:02 package.json'],
    ['the AWS documentation example key', 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE'],
    ['an Authorization header from a variable', 'curl -H "Authorization: Bearer $TOKEN" https://api.example.org'],
    ['prose about bearer tokens', 'Bearer authentication sends the token in a header'],
    ['mysql asking for the password', 'mysql -u root -p shop'],
    ['docker login from stdin', 'docker login --password-stdin -u me registry.example.org'],
    ['a URL without credentials', 'see https://example.org/path?a=b and postgres://localhost:5432/app'],
    ['a URL whose password is a variable', 'postgres://app:${DB_PASSWORD}@db:5432/app'],
    ['an email address', 'mail me at someone@example.org'],
    ['an SSH public key', `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG4rT3vTt99Ox5kndS4HmgTrKBT8SKzhK4rhGkEVGlCI me@host`],
    ['a certificate in base64 (a kubeconfig\'s certificate-authority-data)', `    certificate-authority-data: ${Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUFAKE\n-----END CERTIFICATE-----\n').toString('base64')}`],
    ['base64url JSON that is not a token (one part)', `echo ${Buffer.from('{"kind":"Status","apiVersion":"v1"}').toString('base64url')} | base64 -d`],
    ['a dotted name and a version', 'io.k8s.api.core.v1.PodSpec eyes.open.v2 1.22.3-eks.20240101'],
    ['a Stripe publishable key (public by design)', `Stripe(${JSON.stringify(['pk', '_live_'].join('') + 'FAKE1234567890abcdefghij')})`],
    ['a password prompt and prose about .netrc', 'Password for user deploy:\nthe machine has no password set; see the default login password section of netrc(5)'],
    ['a .netrc whose password is a variable', 'machine api.example.org login deploy password $NETRC_PASSWORD'],
    ['docker config without a login', '{"auths": {"ghcr.io": {}}, "credsStore": "desktop", "auth": "required"}'],
    ['YAML whose token and password are placeholders', 'with:\n  token: ${{ secrets.GITLAB_TOKEN }}\n  password: <your password>\n  token: ***'],
    ['sshpass reading the password from the environment, ssh with a port', 'sshpass -e ssh -p 2222 deploy@host.example.org'],
    ['redis-cli and smbclient without a password', 'redis-cli -h cache.internal -p 6379 ping; smbclient -L //fs.internal -U deploy'],
  ])('leaves %s alone', (_name, text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('the hostile corpus of hidden secrets', () => {
  const { redact } = redactorFor(() => ({}));
  const ghp = () => fakeSecrets().find((s) => s.name === 'GitHub classic token')!.value;

  it.each(HOSTILE_SECRETS)('a token %s', (_name, wrap) => {
    const out = redact(wrap(ghp()));
    expect(out).not.toContain(ghp());
    // Named by its shape, or by the secret-looking name it is assigned to (`access_token=`).
    expect(out).toMatch(/\[redacted:(github-token|access_token)\]/);
  });

  const tokens = ['JWT', 'Stripe live secret key', 'Google API key', 'GitLab personal access token'].map((name) => fakeSecrets().find((s) => s.name === name)!);
  it.each(tokens.flatMap((t) => HOSTILE_SECRETS.map(([how, wrap]) => [t.name, how, t, wrap] as const)))('a %s %s', (_name, _how, token, wrap) => {
    const out = redact(wrap(token.value));
    expect(out).not.toContain(token.value);
    expect(out).toMatch(new RegExp(`${token.redacted.replace(/[[\]]/g, '\\$&')}|\\[redacted:access_token\\]`));
  });

  it('a private key block with CRLF line ends, and one inside a JSON body', () => {
    const pem = fakeSecrets().find((s) => s.name === 'PEM private key block')!;
    expect(redact(pem.text.replace(/\n/g, '\r\n'))).toBe('[redacted:private-key]');
    expect(JSON.parse(redact(JSON.stringify({ content: `cat key.pem\n${pem.text}\n` })))).toEqual({ content: 'cat key.pem\n[redacted:private-key]\n' });
  });

  it('a piece of a private key: its head (head -3), its tail, and head and tail around a cut', () => {
    const pem = fakeSecrets().find((s) => s.name === 'PEM private key block')!;
    const lines = pem.text.split('\n');
    const body = lines.slice(1, -1);
    const head = lines.slice(0, 3).join('\n');
    const tail = lines.slice(-3).join('\n');
    for (const text of [head, tail, `${head}\n[... 40 lines cut ...]\n${tail}`, JSON.stringify({ content: head })]) {
      const out = redact(text);
      for (const line of body) if (line.length >= 16) expect(out).not.toContain(line);
      expect(out).toContain('[redacted:private-key]');
    }
    expect(redact(head)).toMatch(/^-----BEGIN RSA [A-Z ]+-----\[redacted:private-key\]$/);
  });
});

describe('a private key in base64', () => {
  const { redact } = redactorFor(() => ({}));
  const pem = () => fakeSecrets().find((s) => s.name === 'PEM private key block')!.text;

  it('wrapped over lines as `base64` writes it, plain and inside a JSON body', () => {
    const wrapped = Buffer.from(pem()).toString('base64').replace(/.{76}/g, '$&\n');
    const lines = wrapped.split('\n');
    expect(redact(`$ base64 id_rsa\n${wrapped}\n$ ls`)).toBe('$ base64 id_rsa\n[redacted:private-key]\n$ ls');
    const body = redact(JSON.stringify({ content: `base64 id_rsa\n${wrapped}\ndone` }));
    for (const line of lines) if (line.length >= 16) expect(body).not.toContain(line);
    expect(JSON.parse(body)).toEqual({ content: 'base64 id_rsa\n[redacted:private-key]\ndone' });
  });

  it('a Kubernetes secret holding a key and its certificate: only the key goes', () => {
    const key = Buffer.from(pem()).toString('base64');
    const cert = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUFAKE\n-----END CERTIFICATE-----\n').toString('base64');
    expect(redact(`data:\n  tls.crt: ${cert}\n  tls.key: ${key}\n`)).toBe(`data:\n  tls.crt: ${cert}\n  tls.key: [redacted:private-key]\n`);
  });
});

describe('the request body the broker sends', () => {
  it('holds no secret from a user turn, exec output or a tool result, and stays valid JSON', () => {
    const { redact } = redactorFor(() => ({}));
    const { text, secrets } = fakeCredentialsFile();
    const model = config().models[config().default_model]!;
    const messages: ChatMessage[] = [
      { role: 'user', content: `[exec output]\n${text}\n\nwhat is this?` },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'fs__read', arguments: '{"path":"~/.aws/credentials"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: text },
    ];
    const { body } = buildChatRequest({ ...model, endpoint: 'http://127.0.0.1:1/v1' }, messages, { env: {}, redact });
    for (const s of secrets) expect(body).not.toContain(s.value);
    const sent = JSON.parse(body) as { messages: { content: string }[] };
    expect(sent.messages[0]!.content).toContain('aws_secret_access_key = [redacted:aws-secret-key]');
    expect(sent.messages[2]!.content).toContain('[redacted:private-key]');
  });
});
