// The cost of the one redactor (names and shapes) on 1 MB of captured command output, as plain
// text (a session line, the input history) and as a serialised request body, against the
// redactor of before (environment values and `NAME=value` only) and against serialising the same
// text. And the one-time cost of the shape rules: the built bundle dist/secret-rules.js required
// with its code cache and its first scan, in a fresh process, against `node -e 0`.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SecretLintRuleCreator } from '@secretlint/types';
import type { Config } from '../src/config/schema.js';
import { Redactor, findSecrets, type Secret } from '../src/safety/redact.js';
import { createShapeScan } from '../src/safety/secret-shapes.js';
import { V8_FLAGS } from '../src/v8-flags.js';
import { fakeCredentialsFile } from '../test/support/fake-secrets.js';
import { median } from './stats.js';

const RUNS = 15;
const MB = 1_000_000;

/** What a session holds: several variables with secret-looking names, as a developer's shell has. */
const ENV: Record<string, string> = {
  HOME: '/home/me',
  PATH: '/usr/local/bin:/usr/bin:/bin',
  OPENAI_API_KEY: 'bench-openai-value-1234567890',
  GITHUB_TOKEN: 'bench-github-value-1234567890',
  NPM_TOKEN: 'bench-npm-value-1234567890',
  DB_PASSWORD: 'bench-db-password-123',
  AWS_SECRET_ACCESS_KEY: 'bench-aws-secret-value-1234567890',
};
const CONFIG = { models: {}, mcp: { servers: {} } } as unknown as Pick<Config, 'models' | 'mcp'>;

/** ~1 MB of what commands print (listings, logs, commit ids, UUIDs, URLs), a credentials file in the middle. */
export function capturedOutput(size = MB): string {
  const lines: string[] = [];
  let n = 0;
  let length = 0;
  const hex = (i: number) => (i * 2654435761 >>> 0).toString(16).padStart(8, '0');
  while (length < size) {
    const i = n++;
    const line = [
      `-rw-r--r--  1 me staff ${(i * 37) % 99_999} Nov 27 10:${String(i % 60).padStart(2, '0')} src/module-${i}.ts`,
      `2026-11-27T10:00:${String(i % 60).padStart(2, '0')}Z INFO request id=${hex(i)}-${hex(i + 1).slice(0, 4)}-4${hex(i + 2).slice(0, 3)}-a${hex(i + 3).slice(0, 3)}-${hex(i + 4)}${hex(i + 5).slice(0, 4)} GET https://api.example.org/v1/items?page=${i} 200 12ms`,
      `commit ${hex(i)}${hex(i + 7)}${hex(i + 9)}${hex(i + 11)}${hex(i + 13)} Merge branch 'feature-${i}'`,
      `    at Object.<anonymous> (/home/me/src/app/node_modules/pkg-${i % 40}/lib/index.js:${i % 300}:${i % 80})`,
    ][i % 4]!;
    lines.push(line);
    length += line.length + 1;
    if (n === 2000) {
      const creds = fakeCredentialsFile().text;
      lines.push(creds);
      length += creds.length + 1;
    }
  }
  return lines.join('\n');
}

/** The redactor of before: each known secret by split/join, then `NAME=value` assignments. */
function envOnlyRedact(secrets: () => readonly Secret[]): (text: string) => string {
  const assignment = /\b([A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSW(?:OR)?D|CREDENTIAL)[A-Za-z0-9_]*)=(?:'([^'\\\n]{8,})'|([^\s"'\\]{8,}))/gi;
  return (text) => {
    let out = text;
    for (const { name, value } of secrets()) {
      const placeholder = `[redacted:${name}]`;
      out = out.split(value).join(placeholder);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) out = out.split(escaped).join(placeholder);
    }
    return out.replace(assignment, (_whole, name: string, quoted?: string) => (quoted === undefined ? `${name}=[redacted:${name}]` : `${name}='[redacted:${name}]'`));
  };
}

function timeMs(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface RedactFigures {
  chars: number;
  /** Median ms per case over the same text, interleaved round by round. */
  copyMs: number;
  stringifyMs: number;
  envOnlyMs: number;
  oneMs: number;
  envOnlyJsonMs: number;
  oneJsonMs: number;
  /** The first redaction in a fresh process: dist/secret-rules.js required and a first scan. */
  firstUseMs: number;
  secretsFound: number;
}

export async function benchRedact(): Promise<RedactFigures> {
  const text = capturedOutput();
  const json = JSON.stringify({ messages: [{ role: 'user', content: `[exec output]\n${text}\n\nwhat failed?` }] });
  const loadRules = () => (createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend') as { rules: SecretLintRuleCreator[] }).rules;
  const one = new Redactor({ secrets: () => findSecrets(ENV, CONFIG), shapes: createShapeScan(loadRules) });
  const before = envOnlyRedact(() => findSecrets(ENV, CONFIG));
  const secretsFound = (one.redact(text).match(/\[redacted:/g) ?? []).length;
  const cases = {
    copy: () => Buffer.from(text, 'utf8').toString('utf8'),
    stringify: () => JSON.stringify(text),
    envOnly: () => before(text),
    one: () => one.redact(text),
    envOnlyJson: () => before(json),
    oneJson: () => one.redact(json),
  };
  const times: Record<keyof typeof cases, number[]> = { copy: [], stringify: [], envOnly: [], one: [], envOnlyJson: [], oneJson: [] };
  for (let round = 0; round <= RUNS; round++) {
    for (const [name, fn] of Object.entries(cases) as [keyof typeof cases, () => unknown][]) {
      const ms = timeMs(fn);
      if (round > 0) times[name].push(ms);
    }
  }
  const first = firstUse();
  return {
    chars: text.length,
    copyMs: median(times.copy),
    stringifyMs: median(times.stringify),
    envOnlyMs: median(times.envOnly),
    oneMs: median(times.one),
    envOnlyJsonMs: median(times.envOnlyJson),
    oneJsonMs: median(times.oneJson),
    firstUseMs: first,
    secretsFound,
  };
}

/**
 * In a fresh `node` with aish's V8 flags (so the build's code cache is accepted): the bundle
 * compiled from its cache and run, then one scan of a short line, as the first redaction of a
 * session does: the time between two clocks in the process, less the same with nothing between.
 */
function firstUse(): number {
  const dist = path.resolve('dist');
  const cache = readdirSync(dist).find((f) => f.startsWith('secret-rules.js.') && f.endsWith('.cache'));
  const script = `
    const v8 = require('node:v8'); for (const f of ${JSON.stringify(V8_FLAGS)}) v8.setFlagsFromString(f);
    const fs = require('node:fs'), vm = require('node:vm');
    const t0 = performance.now();
    if (process.argv[1] === 'load') {
      const file = ${JSON.stringify(path.join(dist, 'secret-rules.js'))};
      const data = ${cache ? `fs.readFileSync(${JSON.stringify(path.join(dist, cache))})` : 'undefined'};
      const s = new vm.Script('(function (exports, require, module, __filename, __dirname) { ' + fs.readFileSync(file, 'utf8') + '\\n});', { filename: file, cachedData: data });
      const m = { exports: {} };
      s.runInThisContext()(m.exports, require, m, file, ${JSON.stringify(dist)});
      const context = { sharedOptions: {}, createTranslator: () => (id, data) => ({ message: id, messageId: id, data }), report: () => {}, ignore: () => {} };
      for (const rule of m.exports.rules) rule.create(context, {}).file?.({ content: 'aish 0.1.0: fast = m at http://127.0.0.1:8080/v1', filePath: undefined, contentType: 'text', ext: '' });
    }
    process.stdout.write(String(performance.now() - t0));
  `;
  const run = (arg: string) => Number(spawnSync(process.execPath, ['-e', script, arg], { encoding: 'utf8' }).stdout);
  const load: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 11; i++) {
    load.push(run('load'));
    bare.push(run('bare'));
  }
  return median(load) - median(bare);
}
