// What a project config would change, read from its data before anything of it applies (pure).
// The question `trust <path>?` lists every command it would start, every endpoint it would send
// to and every approval it loosens, one line each, then the other keys it sets. The data is the
// file's as written (not yet validated): a key the schema would refuse is still shown.

import { isRecord } from '../is-record.js';

export interface ConfigEffect {
  /** starts a process, sends data somewhere, loosens an approval, or merely sets something. */
  kind: 'starts' | 'sends' | 'loosens' | 'sets';
  text: string;
}

/** The order the question lists them in: what runs, where data goes, what asks less, the rest. */
const KIND_ORDER: readonly ConfigEffect['kind'][] = ['starts', 'sends', 'loosens', 'sets'];

/** A value as the person should read it: strings as they are, the rest as JSON. */
const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
/** What the Norris settings that open its sandbox mean, said after the key. */
const NORRIS_MEANS: Record<string, string> = {
  'sandbox=off': ': its commands run outside the sandbox',
  'network=true': ': its sandboxed commands reach the network',
  'unsandboxed=allow': ': without a sandbox its commands run without asking',
};
const keysOf = (value: unknown) => (isRecord(value) ? Object.keys(value) : []);
const listOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(show) : isRecord(value) ? Object.entries(value).filter(([, on]) => on === true).map(([name]) => name) : [show(value)];
/** What a `roots` setting offers `to` (MCP servers), or null when it offers nothing. */
const rootsOffered = (value: unknown, to: string): string | null =>
  value === 'cwd'
    ? `the current directory, wherever you cd, is offered to ${to} as a root`
    : value === false || value === undefined
      ? null
      : `these directories are offered to ${to}: ${listOf(value).join(', ')}`;
/** A command line as a shell would read it back: words with spaces or quotes quoted. */
const commandLine = (command: unknown, args: unknown) =>
  [command, ...(Array.isArray(args) ? args : [])].map((w) => {
    const word = show(w);
    return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
  }).join(' ');

/**
 * The effects of config `data`: what it starts, where it sends, what it loosens (each in the order
 * of the file), then one `sets` line naming the other keys. Data that is not an object has one effect saying so.
 */
export function configEffects(data: unknown): ConfigEffect[] {
  if (data === null || data === undefined) return [];
  if (!isRecord(data)) return [{ kind: 'sets', text: 'nothing aish can use (the file is not an object)' }];
  const effects: ConfigEffect[] = [];
  const others: string[] = [];
  const add = (kind: ConfigEffect['kind'], text: string) => effects.push({ kind, text });

  for (const [section, value] of Object.entries(data)) {
    if (section === 'models' && isRecord(value)) {
      for (const [name, preset] of Object.entries(value)) {
        if (!isRecord(preset)) continue;
        const key = typeof preset.key_env === 'string' ? `, with the key in $${preset.key_env}` : '';
        const headers = keysOf(preset.headers).length ? `, with headers ${keysOf(preset.headers).join(', ')}` : '';
        add('sends', `your questions and context, for preset "${name}", to ${show(preset.endpoint)}${key}${headers}`);
      }
    } else if (section === 'mcp' && isRecord(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'servers' && isRecord(item)) {
          for (const [alias, server] of Object.entries(item)) {
            if (!isRecord(server)) continue;
            if (server.command !== undefined) {
              const where = typeof server.cwd === 'string' ? ` in ${server.cwd}` : '';
              const env = keysOf(server.env).length ? ` with ${keysOf(server.env).join(', ')} set` : '';
              add('starts', `MCP server "${alias}": ${commandLine(server.command, server.args)}${where}${env}`);
            }
            if (server.url !== undefined) {
              const secret = [server.auth_env, server.oauth && isRecord(server.oauth) ? server.oauth.client_secret_env : undefined, server.oauth && isRecord(server.oauth) ? server.oauth.private_key_env : undefined]
                .filter((name): name is string => typeof name === 'string')
                .map((name) => `$${name}`);
              const token = server.auth_token !== undefined ? ', with a token written in the file' : '';
              add('sends', `tool calls of MCP server "${alias}" to ${show(server.url)}${secret.length ? `, with ${secret.join(' and ')}` : ''}${token}`);
            }
            const roots = rootsOffered(server.roots, `MCP server "${alias}"`);
            if (roots) add('sends', roots);
          }
        } else if (key === 'auto_approve') add('loosens', `these tools run without asking: ${listOf(item).join(', ') || '(none)'}`);
        else if (key === 'sampling' && item === 'allow') add('loosens', "servers' requests for a model answer are allowed when nobody can confirm (mcp.sampling)");
        else if (key === 'elicitation' && item === 'defaults') add('loosens', "servers' questions are answered with their defaults when nobody can answer (mcp.elicitation)");
        else if (key === 'roots' && item !== false) add('sends', rootsOffered(item, 'MCP servers') ?? `mcp.roots = ${show(item)}`);
        else others.push(`mcp.${key}`);
      }
    } else if (section === 'permissions' && isRecord(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'allow') add('loosens', `commands the model proposes run without asking when they match: ${listOf(item).join('  ') || '(none)'}`);
        else add('loosens', `permissions.${key} replaces your own list with: ${listOf(item).join('  ') || '(none)'}`);
      }
    } else if (section === 'shell' && isRecord(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'program') add('starts', `every shell line with ${show(item)}`);
        else if (key === 'confirm_cmd') add(item === false ? 'loosens' : 'sets', `shell.confirm_cmd = ${show(item)}${item === false ? ": the model's CMD: lines run without asking" : ''}`);
        else others.push(`shell.${key}`);
      }
    } else if (section === 'norris' && isRecord(value)) {
      for (const [key, item] of Object.entries(value)) add('loosens', `Norris (the autonomous mode): norris.${key} = ${show(item)}${NORRIS_MEANS[`${key}=${show(item)}`] ?? ''}`);
    } else if (section === 'history' && isRecord(value) && value.dir !== undefined) {
      add('sends', `sessions and memory are written to ${show(value.dir)}`);
      for (const key of keysOf(value)) if (key !== 'dir') others.push(`history.${key}`);
    } else if (section === 'routing' && isRecord(value) && value.cloud_fallback === true) {
      add('sends', 'questions go to the fallback preset when the local one fails (routing.cloud_fallback)');
      for (const key of keysOf(value)) if (key !== 'cloud_fallback') others.push(`routing.${key}`);
    } else if (section === 'suggest' && isRecord(value) && value.model !== undefined && value.model !== false) {
      const preset = typeof value.model === 'string' ? `preset "${value.model}"` : 'preset your lines go to';
      add('sends', `the line you are typing, at each pause, to the ${preset} for a suggestion (suggest.model)`);
      for (const key of keysOf(value)) if (key !== 'model') others.push(`suggest.${key}`);
    } else if (isRecord(value) && Object.keys(value).length > 0) {
      for (const key of Object.keys(value)) others.push(`${section}.${key}`);
    } else others.push(section);
  }
  if (others.length > 0) add('sets', others.join(', '));
  return effects.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
}
