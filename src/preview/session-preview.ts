// A preview from the session's point of view: the command runs with the session shell's directory
// and exported environment (read again first), in a fresh shell (so it cannot change the session's
// variables, aliases or directory), over the git work tree's top (else the directory), or for a
// Norris step over the run's tree, with `undo.preview_timeout_ms`. What it did is handed to the view.

import { workTreeOf } from '../project/git.js';
import { realOf } from '../norris/box.js';
import type { StepPreview } from '../norris/run.js';
import type { PreviewAvailability, Previewer, PreviewResult } from './previewer.js';
import { shownPath, stepPreview } from './report.js';

/** The part of the session's shell a preview starts from (ShellRunner). */
export interface PreviewShell {
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  syncEnv(): Promise<void>;
}

/** Where a preview is shown (render/preview-view.ts). */
export interface PreviewView {
  /** The preview starts (it can run here). */
  begin(command: string): void;
  end(result: PreviewResult, show: (file: string) => string): void;
}

export interface SessionPreviewParts {
  previewer: Previewer;
  shell: PreviewShell;
  /** The shell the command runs in: `shell.program`, else `$SHELL`. */
  program: string;
  timeoutMs: number;
  /** aish's environment: HOME, and git's for finding the work tree. */
  env: Record<string, string | undefined>;
  view: PreviewView;
}

export class SessionPreview {
  readonly #parts: SessionPreviewParts;

  constructor(parts: SessionPreviewParts) {
    this.#parts = parts;
  }

  /** Previews `command` and shows the result. Never rejects. */
  async run(command: string, signal: AbortSignal): Promise<PreviewResult> {
    return (await this.#run(command, signal)).result;
  }

  /** Whether previews run here (found out once). */
  availability(): Promise<PreviewAvailability> {
    return this.#parts.previewer.availability();
  }

  /**
   * A Norris step's preview (`norris.preview`) over `tree`, the tree the run's box writes (so
   * the preview shows what the box would let through), shown like any, read for its HALT.
   */
  async step(command: string, signal: AbortSignal, tree: string): Promise<StepPreview> {
    const { result, show } = await this.#run(command, signal, tree);
    return stepPreview(result, show, this.#parts.timeoutMs);
  }

  async #run(command: string, signal: AbortSignal, runTree?: string): Promise<{ result: PreviewResult; show: (file: string) => string }> {
    const { previewer, shell, view, env } = this.#parts;
    const home = env.HOME ? realOf(env.HOME) : undefined;
    const availability = await previewer.availability();
    if (availability.available) view.begin(command);
    await shell.syncEnv();
    const cwd = shell.cwd;
    const real = realOf(cwd);
    const show = (file: string) => shownPath(file, real, home);
    const tree = runTree ?? (await workTreeOf(cwd, env))?.root ?? cwd;
    const result = await previewer.run({ command, cwd, env: shell.env, tree, shell: this.#parts.program, timeoutMs: this.#parts.timeoutMs, signal }, show);
    view.end(result, show);
    return { result, show };
  }
}
