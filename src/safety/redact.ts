// No secret leaves: every secret aish knows is replaced by `[redacted:NAME]` in what is sent to a
// model, written to disk (sessions, memory, input history, audit) or printed as a status or error
// line. Secrets are: model keys (`key_env`), MCP tokens (`auth_token`, `auth_env`, the OAuth tokens
// and client secrets aish keeps), and the values of environment variables whose names look secret (*KEY*, *TOKEN*, *SECRET*, *PASSWORD*,
// *CREDENTIAL*) with 8 or more characters. The environment is read on every call, so a secret
// exported inside aish is covered from then on.

import type { Config } from '../config/schema.js';

export interface Secret {
  /** What the placeholder names: the variable, or the config key. */
  name: string;
  value: string;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL/i;
/**
 * `NAME=value` where NAME looks secret, in any text (`export API_KEY=sk-…`, `TOKEN=… cmd`): the
 * value is redacted even before it reaches the environment. Values stop at quotes and backslashes,
 * so the pattern never eats into the JSON a line is embedded in.
 */
const SECRET_ASSIGNMENT = /\b([A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSW(?:OR)?D|CREDENTIAL)[A-Za-z0-9_]*)=(?:'([^'\\\n]{8,})'|([^\s"'\\]{8,}))/gi;
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

/** Replaces every secret in text; also their JSON-escaped forms, so a serialized body is covered. */
export class Redactor {
  readonly #secrets: () => readonly Secret[];

  constructor(secrets: () => readonly Secret[]) {
    this.#secrets = secrets;
  }

  /** A redactor over the live environment, the config's tokens and `extra` (kept OAuth tokens). */
  static forEnv(env: () => Record<string, string | undefined>, config: Pick<Config, 'models' | 'mcp'>, extra: () => readonly Secret[] = () => []): Redactor {
    return new Redactor(() => findSecrets(env(), config, extra()));
  }

  redact = (text: string): string => {
    let out = text;
    for (const { name, value } of this.#secrets()) {
      const placeholder = `[redacted:${name}]`;
      out = out.split(value).join(placeholder);
      const escaped = JSON.stringify(value).slice(1, -1);
      if (escaped !== value) out = out.split(escaped).join(placeholder);
    }
    return out.replace(SECRET_ASSIGNMENT, (whole, name: string, quoted?: string) => (quoted === undefined ? `${name}=[redacted:${name}]` : `${name}='[redacted:${name}]'`));
  };
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
