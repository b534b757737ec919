// Norris mode in a session: starts the loop of run.ts on the session's turn core and shell, keeps
// the one-at-a-time rule and the `⚡` state the prompt shows, caches the second opinion, and says
// how the run ended in one `[Norris] ...` line.

import { ASK_ONCE_TIMEOUT_MS } from '../broker/ask-once.js';
import type { Config } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { ApprovalGate } from '../safety/gate.js';
import type { CommandRunner, TurnCore } from '../turn/core.js';
import type { Checkpointer } from '../undo/checkpoints.js';
import type { BoxAvailability } from './box.js';
import { boxTreeOf } from './box-tree.js';
import { runNorris, type NorrisEnd, type NorrisHost, type StepPreview } from './run.js';
import { createSecondOpinion } from './second-opinion.js';

export interface NorrisModeParts {
  config: Config;
  core: TurnCore;
  /** Runs the commands Norris decides on as typed shell lines, where no sandbox can be built. */
  commands: CommandRunner;
  /** The sandbox (box.ts): whether one can be built, and a step run in it, writing only in `tree`. */
  box: {
    availability(): Promise<BoxAvailability>;
    run(command: string, tree: string, signal: AbortSignal): Promise<void>;
  };
  /** Takes a checkpoint of the step's tree around each step (`:undo norris`). */
  checkpoint: Checkpointer;
  /** The session shell's directory now: where a run starts. */
  cwd: () => string;
  /** The one approval gate (HALT asks through it; with nobody to ask it aborts). */
  gate: ApprovalGate;
  status: (message: string) => void;
  /** Previews (src/preview/) for `norris.preview`: whether they run here, and one step's. */
  preview?: {
    availability(): Promise<{ available: true } | { available: false; why: string }>;
    /** `tree`: the run's tree, which the box would let the step write. */
    step(command: string, signal: AbortSignal, tree: string): Promise<StepPreview>;
  };
}

/** What the model is told of the box with its goal. */
const BOX_RULES = (network: boolean) =>
  `Each command runs in a sandbox, in a fresh shell started in the session's directory: a \`cd\`, variables or functions do not carry over to the next command. Writes are allowed only inside the project's tree, the same for the whole run (not its .git or .gitmodules), and /tmp${network ? '' : '; there is no network'}; credentials (~/.ssh, ~/.aws, ...) cannot be read, and the person's agents (ssh, gpg, a password manager, the session bus) cannot be reached.`;

export class NorrisMode {
  readonly #parts: NorrisModeParts;
  #running = false;
  #secondOpinion: ((command: string, signal: AbortSignal) => Promise<boolean>) | null = null;

  constructor(parts: NorrisModeParts) {
    this.#parts = parts;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Runs toward `goal` on preset `model` until the loop ends; Ctrl-C (the signal) halts it. */
  async run(goal: string, model: string, signal: AbortSignal): Promise<NorrisEnd> {
    if (this.#running) throw new UsageError('Norris is already running');
    const { config, core, commands, gate, status, box } = this.#parts;
    this.#running = true;
    try {
      const start = this.#parts.cwd();
      // Names this run's checkpoints, so `:undo norris` finds all its steps.
      const run = `${new Date().toISOString()}-${Math.random().toString(36).slice(2, 8)}`;
      const availability = await box.availability();
      const where = availability.available ? 'boxed' : config.norris.unsandboxed;
      if (!availability.available) {
        const then = where === 'ask' ? 'each command asks first' : 'commands run without asking (norris.unsandboxed: allow)';
        status(`[Norris] no sandbox here (${availability.why}): ${then}`);
      }
      // Where every boxed step of this run may write, decided now from the folders (issue 32):
      // nothing a step does, and no `cd`, moves it.
      const tree = boxTreeOf(start);
      const preview = await this.#previews(tree);
      const end = await runNorris(
        goal,
        {
          request: (content, gate, norrisSuffix, s) => core.request(content, model, s, { gate, maxDepth: 1, norrisSuffix }),
          runCommand: (command, s, step) =>
            this.#parts.checkpoint({ command, origin: 'norris', norris: { run, step } }, this.#parts.cwd(), () =>
              where === 'boxed' ? box.run(command, tree, s) : commands.run(command, s),
            ),
          box: where,
          boxRules: BOX_RULES(config.norris.network),
          note: (text) => core.pending.note(text),
          gate,
          status,
          setSummarizing: (enabled) => core.context.setSummarizing(enabled),
          maxSteps: config.norris.max_steps,
          ...(config.norris.second_opinion ? { secondOpinion: this.#secondOpinionFn() } : {}),
          ...(preview ? { preview } : {}),
        },
        signal,
      );
      const words: Record<NorrisEnd, string> = {
        done: 'done: GOAL: complete',
        stalled: 'stalled: a reply with no action and no goal line',
        aborted: 'aborted',
        halted: 'halted',
        budget: `stopped: norris.max_steps (${config.norris.max_steps}) spent`,
        error: 'stopped by a model error',
      };
      status(`[Norris] ${words[end]}`);
      return end;
    } finally {
      this.#running = false;
    }
  }

  /** `norris.preview`: each step's preview, or where there is none, a HALT for each (said once). */
  async #previews(tree: string): Promise<NorrisHost['preview']> {
    const { config, preview, status } = this.#parts;
    if (!config.norris.preview) return undefined;
    const availability = preview ? await preview.availability() : { available: false as const, why: 'no previews here' };
    if (preview && availability.available) return (command, signal) => preview.step(command, signal, tree);
    const why = availability.available ? 'no previews here' : availability.why;
    status(`[Norris] norris.preview is on, but a preview needs Linux user namespaces (${why}): every step HALTs first`);
    return async () => ({ type: 'none', why });
  }

  /** The `deep` preset's opinion (else the default preset's), cached for the session. */
  #secondOpinionFn(): (command: string, signal: AbortSignal) => Promise<boolean> {
    const { config, core } = this.#parts;
    const name = config.models.deep ? 'deep' : config.default_model;
    this.#secondOpinion ??= createSecondOpinion((messages, signal) =>
      core.askOnce(name, messages, { maxTokens: 5, timeoutMs: ASK_ONCE_TIMEOUT_MS, signal, purpose: 'second-opinion' }),
    );
    return this.#secondOpinion;
  }
}
