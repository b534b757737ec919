// No secret leaves: every secret is replaced by `[redacted:KIND]` in what is sent to a model,
// written to disk (sessions, memory, input history, audit) or printed as a status or error line.
// Secrets by name: model keys (`key_env`), MCP tokens (`auth_token`, `auth_env`, the OAuth tokens
// and client secrets aish keeps), the values of environment variables whose names look secret
// (*KEY*, *TOKEN*, *SECRET*, *PASSWORD*, *CREDENTIAL*) with 8 or more characters, and such
// `NAME=value` assignments in any text; the environment is read on every call, so a secret
// exported inside aish is covered from then on. Secrets by shape: whatever secret-shapes.ts finds
// (AWS keys, GitHub and OpenAI tokens, private keys, passwords in URLs and command lines, ...).

import type { Config } from '../config/schema.js';
import { scanView, type SecretSpan, type ShapeScan } from './secret-shapes.js';

export interface Secret {
  /** What the placeholder names: the variable, or the config key. */
  name: string;
  value: string;
}

// Also the short forms as a word of the name: DB_PASS, MYSQL_PWD, GITHUB_PAT, NPM_AUTH (not PWD,
// OLDPWD, PATH, PASSTHROUGH or GIT_AUTHOR_NAME).
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|_(?:PASS|PWD|PAT|AUTH)(?:_|$)/i;
/**
 * `NAME=value` where NAME looks secret, in any text (`export API_KEY=sk-…`, `TOKEN=… cmd`): the
 * value is redacted even before it reaches the environment. Values stop at quotes and backslashes,
 * so the pattern never eats into the JSON a line is embedded in.
 */
const SECRET_ASSIGNMENT = /\b([A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSW(?:OR)?D|CREDENTIAL)[A-Za-z0-9_]*|[A-Za-z0-9_]*_(?:PASS|PWD|PAT|AUTH)(?:_[A-Za-z0-9_]*)?)=(?:'([^'\\\n]{8,})'|([^\s"'\\]{8,}))/dgi;
/** Shorter values are left alone: they would match ordinary words and numbers. */
export const MIN_SECRET_CHARS = 8;

/** The secrets in `env`, `config` and `extra` (OAuth tokens) right now, longest value first. */
export function findSecrets(env: Record<string, string | undefined>, config: Pick<Config, 'models' | 'mcp'>, extra: readonly Secret[] = []): Secret[] {
  const found = new Map<string, string>();
  const add = (name: string, value: string | undefined) => {
    const v = value?.trim();
    if (v && v.length >= MIN_SECRET_CHARS && !found.has(v)) found.set(v, name);
  };
  const named = new Set<string>();
  for (const model of Object.values(config.models)) if (model.key_env) named.add(model.key_env);
  for (const [alias, server] of Object.entries(config.mcp.servers)) {
    if (server.auth_env) named.add(server.auth_env);
    if (server.oauth?.client_secret_env) named.add(server.oauth.client_secret_env);
    if (server.oauth?.private_key_env) named.add(server.oauth.private_key_env);
    add(`mcp.servers.${alias}.auth_token`, server.auth_token);
    for (const [name, value] of Object.entries(server.env)) if (SECRET_NAME.test(name)) add(`mcp.servers.${alias}.env.${name}`, value);
  }
  for (const name of named) add(name, env[name]);
  for (const secret of extra) add(secret.name, secret.value);
  for (const [name, value] of Object.entries(env)) if (SECRET_NAME.test(name)) add(name, value);
  return [...found].map(([value, name]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length);
}

/** What a Redactor knows: the secrets by name right now, and the scan for secrets by shape. */
export interface RedactorSources {
  /** The secrets aish knows by name (the environment, the config), read on every call. */
  secrets: () => readonly Secret[];
  /** Finds secrets by their shape (secret-shapes.ts). */
  shapes: ShapeScan;
}

/** A span to replace, and how sure its name is: a known secret's name wins over a shape's kind. */
interface Found extends SecretSpan {
  rank: number;
}

const BY_NAME = 2;
const BY_ASSIGNMENT = 1;
const BY_SHAPE = 0;

/**
 * The one redactor: replaces every secret in a text with `[redacted:KIND]`, where KIND is the
 * variable or config key a known secret comes from, or the kind of secret its shape shows
 * (`aws-access-key`). Works on plain text and on serialised JSON alike: a known secret's
 * JSON-escaped form is replaced too, and the result stays valid JSON.
 */
export class Redactor {
  readonly #sources: RedactorSources;

  constructor(sources: RedactorSources) {
    this.#sources = sources;
  }

  /**
   * A redactor over the live environment, the config's tokens, `extra` (kept OAuth tokens) and
   * the shapes `shapes` finds.
   */
  static forEnv(opts: {
    env: () => Record<string, string | undefined>;
    config: Pick<Config, 'models' | 'mcp'>;
    extra?: () => readonly Secret[];
    shapes: ShapeScan;
  }): Redactor {
    const extra = opts.extra ?? (() => []);
    return new Redactor({ secrets: () => findSecrets(opts.env(), opts.config, extra()), shapes: opts.shapes });
  }

  /** `text` with every secret replaced. Throws only when the shape rules cannot be loaded (a broken install). */
  redact = (text: string): string => {
    const found: Found[] = [];
    for (const { name, value } of this.#sources.secrets()) {
      addOccurrences(found, text, value, name);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) addOccurrences(found, text, escaped, name);
    }
    const view = scanView(text);
    for (const m of view.matchAll(SECRET_ASSIGNMENT)) {
      const at = m.indices?.[2] ?? m.indices?.[3];
      if (at && m[1]) found.push({ start: at[0], end: at[1], kind: m[1], rank: BY_ASSIGNMENT });
    }
    for (const span of this.#sources.shapes(view)) found.push({ ...span, rank: BY_SHAPE });
    return replaceSpans(text, found);
  };
}

function addOccurrences(found: Found[], text: string, value: string, name: string): void {
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
    found.push({ start: at, end: at + value.length, kind: name, rank: BY_NAME });
  }
}

/** `text` with each span, overlapping ones joined, replaced by `[redacted:KIND]` (the best-ranked kind). */
function replaceSpans(text: string, found: Found[]): string {
  if (found.length === 0) return text;
  found.sort((a, b) => a.start - b.start || b.rank - a.rank || b.end - a.end);
  let out = '';
  let at = 0;
  let i = 0;
  while (i < found.length) {
    const first = found[i]!;
    let { end, kind, rank } = first;
    for (i++; i < found.length && found[i]!.start < end; i++) {
      const next = found[i]!;
      end = Math.max(end, next.end);
      if (next.rank > rank) ({ kind, rank } = next);
    }
    out += `${text.slice(at, first.start)}[redacted:${kind}]`;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * `env` without the variables that hold a secret by the redactor's rules: a name that looks secret
 * (whatever the value's length), or a value that is a secret the config names (`key_env`,
 * `auth_env`, ...). What a Norris step in its sandbox gets of the session's environment.
 */
export function withoutSecrets(env: Record<string, string | undefined>, config: Pick<Config, 'models' | 'mcp'>): Record<string, string> {
  const secrets = new Set(findSecrets(env, config).map((s) => s.value));
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || SECRET_NAME.test(name) || secrets.has(value.trim())) continue;
    kept[name] = value;
  }
  return kept;
}
