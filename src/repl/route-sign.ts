// Where the line as it stands goes, shown before Enter: the prompt's last sign (`]>` an empty
// line, `]$` the shell, `]?` the model, `]:` a meta command), worked out on every key without
// waiting on the shell. What the session's shell says a first word is comes from its cache; a word
// it was not asked about yet is asked, and the line drawn again when the answer comes. Alt-Enter
// sends a line the other way (line-router.ts `flipRoute`).

import type { Config } from '../config/schema.js';
import { asksShell, classify, type Route, type RouteContext, type WordKind } from '../line-router.js';
import type { RouteSign } from './terminal-reader.js';

/** How long a question about a word waits for a shell still starting. */
const WAIT_FOR_START_MS = 10_000;

/** The prompt's last sign for each route: what Enter would do with the line as it stands. */
const SIGNS: Record<Route['kind'], RouteSign> = { blank: '>', shell: '$', ai: '?', meta: ':' };

/** What the sign needs of the session's shell (ShellRunner). */
export interface WordKinds {
  knownKind(word: string): WordKind | null | undefined;
  wordKind(word: string, waitMs: number): Promise<WordKind | null | undefined>;
  routeContext(): RouteContext;
}

export class RouteSigns {
  /** First words the shell is being asked about. */
  readonly #asking = new Set<string>();

  constructor(
    private readonly config: Pick<Config, 'shell'>,
    private readonly shell: WordKinds,
    /** Draws the line again: an answer came. */
    private readonly refresh: () => void,
  ) {}

  sign(line: string): RouteSign {
    const word = asksShell(line, this.config);
    const context = this.shell.routeContext();
    if (word === null) return SIGNS[classify(line, this.config, undefined, context).kind];
    const kind = this.shell.knownKind(word);
    if (kind === undefined && !this.#asking.has(word)) {
      this.#asking.add(word);
      // A shell still starting is waited for: the answer comes when it can, and the line is drawn again.
      const shown = SIGNS[classify(line, this.config, () => undefined, context).kind];
      void this.shell.wordKind(word, WAIT_FOR_START_MS).then((answer) => {
        this.#asking.delete(word);
        // Drawn again only when the answer changes the sign the line was shown with.
        if (answer !== undefined && SIGNS[classify(line, this.config, (w) => (w === word ? answer : undefined), context).kind] !== shown) this.refresh();
      });
    }
    return SIGNS[classify(line, this.config, (w) => (w === word ? kind : undefined), context).kind];
  }
}
