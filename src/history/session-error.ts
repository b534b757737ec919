// The error of the history module: a session file that cannot be found or used. Its message
// names the file and what is wrong with it.

import { AishError } from '../errors.js';

/** A session that cannot be resolved, read or loaded. */
export class SessionError extends AishError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('history', message, options);
  }
}
