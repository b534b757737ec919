// Secrets by shape through the real program: a command that prints a credentials file, secrets
// typed on a line (an Authorization header, `mysql -p…`, a URL's password, `export DB_URL=…`), a
// memory item the model proposed and an error body that echoes a token. The person's terminal
// shows their command's output as it was; the model's requests, the session log, the input history
// and memory.jsonl hold `[redacted:KIND]` and never the value. So do the files a person keeps
// tokens in (`~/.netrc`, docker's config.json, a kubeconfig), passwords on the command line of a
// program that is not installed (the line goes to the model), and a value exported under a secret
// name and echoed later. The secrets are fake, built at run time (test/support/fake-secrets.ts).

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { fakeCredentialsFile, fakeSecrets } from '../support/fake-secrets.js';
import { loopbackHome } from '../support/loopback-home.js';
import { textReply } from '../support/model-server.js';
import { KEY } from '../support/pty.js';
import { runAish } from '../support/run-aish.js';

const setup = loopbackHome();

const PROMPT = /\[aish:fast\]> $/;
const secret = (name: string) => fakeSecrets().find((s) => s.name === name)!;

function sessionText(): string {
  const dir = path.join(setup.home.stateDir, 'sessions');
  return readdirSync(dir)
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('');
}

it('on a terminal: the output shows as printed, and what leaves for the model or reaches a file is redacted', async () => {
  const { home: h, server } = setup;
  const creds = fakeCredentialsFile();
  mkdirSync(path.join(h.home, '.aws'));
  writeFileSync(path.join(h.home, '.aws', 'credentials'), creds.text);
  const bearer = secret('Authorization: Bearer header');
  const mysql = secret('mysql -p<password>');
  const url = secret('URL with user:password@');
  const db = secret('export DB_URL=postgres://user:password@');
  const typed = [bearer, mysql, url, db];
  const proposed = secret('GitHub fine-grained token');
  server.enqueue(textReply(['Those are credentials.']), textReply(['mysql is not installed here.']), textReply([`(fact): the deploy token is ${proposed.value}\n`]));

  const t = setup.pty({ cols: 400 });
  await t.waitFor(PROMPT);
  let mark = t.mark();
  t.line('cat ~/.aws/credentials');
  const shown = await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> $/, { from: mark });
  // The person's own output, as the program wrote it.
  for (const s of creds.secrets) expect(shown).toContain(s.value);

  mark = t.mark();
  t.line('what are these?');
  await t.waitFor(/Those are credentials\.[\s\S]*\[aish:fast\]> $/, { from: mark });

  // Typed lines with secrets: a curl with a header and an echoed URL (shell), an export (shell),
  // and mysql, which is not installed, so it goes to the model.
  for (const line of [`echo curl -H "Authorization: Bearer ${bearer.value}"`, `echo ${url.text}`, db.text]) {
    mark = t.mark();
    t.line(line);
    await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> $/, { from: mark });
  }
  mark = t.mark();
  t.line(mysql.text);
  await t.waitFor(/mysql is not installed here\.[\s\S]*\[aish:fast\]> $/, { from: mark });

  // A memory item the model proposes, kept with `y`.
  mark = t.mark();
  t.line(':memory summarize');
  await t.waitFor('[y/N/e]', { from: mark });
  mark = t.mark();
  t.write('y');
  await t.waitFor(/remembered 1 of 1[\s\S]*\[aish:fast\]> $/, { from: mark });
  t.write(KEY.ctrlD);
  await t.exited;

  const bodies = server.requests.map((r) => JSON.stringify(r.body));
  const everything = [...bodies, sessionText(), readFileSync(path.join(h.stateDir, 'input_history'), 'utf8'), readFileSync(path.join(h.stateDir, 'memory.jsonl'), 'utf8')];
  for (const text of everything) {
    for (const s of [...creds.secrets, ...typed, proposed]) expect(text).not.toContain(s.value);
  }
  // The command's output reached the model with each secret named by its kind.
  for (const s of creds.secrets) expect(bodies[0]).toContain(s.redacted);
  expect(bodies[1]).toContain(mysql.redacted);
  expect(bodies[1]).toContain(url.redacted);
  expect(bodies[1]).toContain(bearer.redacted);
  const history = readFileSync(path.join(h.stateDir, 'input_history'), 'utf8');
  expect(history).toContain('export DB_URL=postgres://app:[redacted:database-password]@db.internal:5432/app');
  expect(history).toContain('mysql -u root -p[redacted:password] shop');
  expect(history).toContain('Authorization: Bearer [redacted:bearer-token]');
  expect(sessionText()).toContain('[redacted:aws-secret-key]');
  expect(readFileSync(path.join(h.stateDir, 'memory.jsonl'), 'utf8')).toContain('the deploy token is [redacted:github-token]');
});

it('piped: :remember, a line for the model and an error body that echoes a token are redacted', async () => {
  const { home: h, server } = setup;
  const ghp = secret('GitHub classic token');
  const openai = secret('OpenAI project key');
  server.enqueue({ type: 'raw', status: 401, body: `{"error":{"message":"invalid token ${ghp.value}"}}` }, textReply(['ok']));
  const r = await runAish({
    cwd: h.cwd,
    env: h.env,
    stdin: `:remember my key is ${openai.value}\nwhy does ${ghp.value} fail?\nand now?\n`,
  });
  expect(r.stderr).toContain('[redacted:github-token]');
  expect(r.stdout + r.stderr).not.toContain(ghp.value);
  expect(r.stdout + r.stderr).not.toContain(openai.value);
  const memory = readFileSync(path.join(h.stateDir, 'memory.jsonl'), 'utf8');
  expect(memory).toContain('my key is [redacted:openai-key]');
  expect(memory).not.toContain(openai.value);
  for (const req of server.requests) expect(JSON.stringify(req.body)).not.toContain(ghp.value);
  expect(JSON.stringify(server.requests[0]!.body)).toContain('why does [redacted:github-token] fail?');
  expect(sessionText()).not.toContain(ghp.value);
});

it('on a terminal: token files, command-line passwords sent to the model, and an exported secret echoed later', async () => {
  const { home: h, server } = setup;
  const netrc = [secret('.netrc password (lines)'), secret('.netrc password (one line)')];
  const docker = secret('docker config.json auth');
  const kube = [secret('kubeconfig token'), secret('PEM private key in base64 (kubeconfig client-key-data)')];
  const tokens = ['JWT', 'Stripe live secret key', 'Stripe restricted key', 'Stripe test key', 'Google API key', 'GitLab personal access token'].map(secret);
  const typed = ['sshpass -p <password>', 'redis-cli -a <password>', 'smbclient -U user%password'].map(secret);
  const psql = secret('psql postgresql://user:password@');
  // A value with no shape of its own: only its name tells it is a secret.
  const exported = `plain${Date.now().toString(36)}Val${process.pid}`;
  writeFileSync(path.join(h.home, '.netrc'), `${netrc.map((s) => s.text).join('\n')}\n`);
  mkdirSync(path.join(h.home, '.docker'));
  writeFileSync(path.join(h.home, '.docker', 'config.json'), `${docker.text}\n`);
  mkdirSync(path.join(h.home, '.kube'));
  writeFileSync(path.join(h.home, '.kube', 'config'), `${kube[0]!.text}\n${kube[1]!.text}\n`);
  writeFileSync(path.join(h.cwd, 'keys.txt'), `${tokens.map((s) => s.text).join('\n')}\n`);
  server.enqueue(textReply(['Those are token files.']), ...typed.map(() => textReply(['not installed here.'])), textReply(['It printed a value.']));

  const t = setup.pty({ cols: 400 });
  await t.waitFor(PROMPT);
  let mark = t.mark();
  t.line('cat ~/.netrc ~/.docker/config.json ~/.kube/config keys.txt');
  await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> $/, { from: mark });
  mark = t.mark();
  t.line('what are these?');
  await t.waitFor(/Those are token files\.[\s\S]*\[aish:fast\]> $/, { from: mark });
  // sshpass, redis-cli and smbclient are not installed: each line goes to the model.
  for (const s of typed) {
    mark = t.mark();
    t.line(s.text);
    await t.waitFor(/not installed here\.[\s\S]*\[aish:fast\]> $/, { from: mark });
  }
  // Exported under a secret-looking name, then echoed by value on a later line.
  for (const line of [`export STRIPE_KEY=${exported}`, `echo ${exported}`, `echo ${psql.text}`]) {
    mark = t.mark();
    t.line(line);
    await t.waitFor(/exit 0[\s\S]*\[aish:fast\]> $/, { from: mark });
  }
  mark = t.mark();
  t.line('what did that print?');
  await t.waitFor(/It printed a value\.[\s\S]*\[aish:fast\]> $/, { from: mark });
  t.write(KEY.ctrlD);
  await t.exited;

  const bodies = server.requests.map((r) => JSON.stringify(r.body));
  const history = readFileSync(path.join(h.stateDir, 'input_history'), 'utf8');
  const values = [...netrc, docker, ...kube, ...tokens, ...typed, psql].map((s) => s.value);
  for (const [where, text] of [...bodies.map((b, i) => [`request ${i}`, b] as const), ['session log', sessionText()], ['input history', history]] as const) {
    for (const value of [...values, exported]) expect(text, `${where} holds ${value}`).not.toContain(value);
  }
  // The files reached the model with each secret named by its kind.
  for (const s of [...netrc, docker, ...kube, ...tokens]) expect(bodies[0]).toContain(s.redacted);
  typed.forEach((s, i) => expect(bodies[i + 1]).toContain(s.redacted));
  expect(bodies.at(-1)).toContain('[redacted:STRIPE_KEY]');
  expect(history).toContain('export STRIPE_KEY=[redacted:STRIPE_KEY]');
  expect(history).toContain('echo [redacted:STRIPE_KEY]');
  expect(history).toContain('sshpass -p [redacted:password] ssh');
});

it('piped: a value exported under a secret name is redacted by value in what the model and the session log get of a later line', async () => {
  const { home: h, server } = setup;
  const exported = `plain${Date.now().toString(36)}Val${process.pid}`;
  server.enqueue(textReply(['It printed a value.']));
  const r = await runAish({ cwd: h.cwd, env: h.env, stdin: `export PAYMENT_API_KEY=${exported}\necho "the value is ${exported}"\nwhat did that print?\n` });
  expect(r.stdout).toContain('It printed a value.');
  const body = JSON.stringify(server.requests[0]!.body);
  expect(body).toContain('the value is [redacted:PAYMENT_API_KEY]');
  for (const text of [body, sessionText()]) expect(text).not.toContain(exported);
});
