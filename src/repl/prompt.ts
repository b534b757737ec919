// The prompt (SPEC §2): `[aish:<model>]> ` with ` ↻` while routing is on, ` ⚡` while Norris
// runs and ` private` while `:private on` keeps command output from the model, or the `shell.prompt` template with its `{name}` fields (`formatPrompt`, pure), or with
// `shell.prompt_from_shell` the shell's own rendered prompt followed by aish's sign
// (`shellPromptLine`), from the session's facts as they are when it is shown (`promptOf`).

import path from 'node:path';
import { neutralize } from '../render/sanitize.js';
import { shellPromptText } from '../render/shell-prompt.js';

export interface PromptFacts {
  model: string;
  routing: boolean;
  norris: boolean;
  /** `:private on`. */
  private?: boolean;
  cwd: string;
  home: string | undefined;
  ctxUsed: number;
  ctxMax: number;
  turn: number;
  lastStatus: number;
}

/** The prompt text; `bold` styles the default prompt's bracket. Unknown `{fields}` stay as typed. */
export function formatPrompt(template: string | undefined, f: PromptFacts, bold: (s: string) => string): string {
  const marks = `${f.routing ? ' ↻' : ''}${f.norris ? ' ⚡' : ''}${f.private ? ' private' : ''}`;
  if (!template) return `${bold(`[aish:${f.model}${marks}]`)}> `;
  const { home, cwd } = f;
  const values: Record<string, string> = {
    model: f.model,
    cwd,
    cwd_short: home && (cwd === home || cwd.startsWith(home + path.sep)) ? `~${cwd.slice(home.length)}` : cwd,
    ctx_used: String(f.ctxUsed),
    ctx_max: String(f.ctxMax),
    turn: String(f.turn),
    last_status: String(f.lastStatus),
    mode: f.norris ? 'norris' : f.routing ? 'route' : '',
    private: f.private ? 'private' : '',
  };
  // A directory name is text from outside too.
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (values[key] === undefined ? whole : neutralize(values[key])));
}

/**
 * The shell's own prompt (made safe: render/shell-prompt.ts) with aish's marks and sign
 * after it: `me@box:~/src$ > `, `me@box:~/src$ ↻> `, `me@box:~/src$ [private]> `. The reader turns the last `>` into the route
 * sign, so it is always aish's own and always at the same place, whatever the person's prompt
 * ends with (`$`, `#`, `%`, starship's `❯`).
 */
export function shellPromptLine(rendered: string, f: Pick<PromptFacts, 'routing' | 'norris' | 'private'>): string {
  return `${rendered}${f.routing ? '↻' : ''}${f.norris ? '⚡' : ''}${f.private ? '[private]' : ''}> `;
}

/** Where the prompt's facts are read when it is shown. */
export interface PromptSources {
  template: string | undefined;
  conversation: { readonly activeModel: string; readonly turn: number };
  core: { readonly routing: { auto: boolean }; readonly context: { estimateTokens(): number; readonly tokenBudget: number } };
  norris: { readonly running: boolean };
  /** The session's blocks: `:private on` shows. */
  blocks?: { readonly privateMode: boolean };
  shell: { readonly cwd: string; readonly env: Record<string, string | undefined>; readonly lastStatus: number; readonly lastRenderedPrompt?: string | null };
  /** `shell.prompt_from_shell`: the shell's prompt when it has answered, aish's until then. */
  fromShell?: boolean;
  bold: (s: string) => string;
}

/** The prompt as it reads now. */
export function promptOf(s: PromptSources): () => string {
  return () => {
    const raw = s.fromShell ? s.shell.lastRenderedPrompt : null;
    const rendered = raw ? shellPromptText(raw) : null;
    if (rendered) return shellPromptLine(rendered, { routing: s.core.routing.auto, norris: s.norris.running, private: s.blocks?.privateMode ?? false });
    return formatPrompt(
      s.template,
      {
        model: s.conversation.activeModel,
        routing: s.core.routing.auto,
        norris: s.norris.running,
        private: s.blocks?.privateMode ?? false,
        cwd: s.shell.cwd,
        home: s.shell.env.HOME,
        ctxUsed: s.core.context.estimateTokens(),
        ctxMax: s.core.context.tokenBudget,
        turn: s.conversation.turn,
        lastStatus: s.shell.lastStatus,
      },
      s.bold,
    );
  };
}
