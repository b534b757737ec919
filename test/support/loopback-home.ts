// The setup most end-to-end tests share: a temp home whose config points the preset `fast` at a
// loopback model server, and the pseudo-terminal a test starts, killed after it. Registers its
// own beforeEach and afterEach; read the parts inside a test.

import { afterEach, beforeEach } from 'vitest';
import { makeHome, type AishHome } from './aish-env.js';
import { ModelServer } from './model-server.js';
import { PtySession } from './pty.js';

export interface LoopbackHome {
  readonly home: AishHome;
  readonly server: ModelServer;
  /** aish on a pseudo-terminal in the home, killed after the test. */
  pty(opts?: { cols?: number; rows?: number; args?: string[] }): PtySession;
}

export function loopbackHome(): LoopbackHome {
  let home: AishHome | undefined;
  let server: ModelServer | undefined;
  let term: PtySession | undefined;
  beforeEach(async () => {
    home = makeHome();
    server = await ModelServer.start();
    home.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } } });
  });
  afterEach(async () => {
    term?.kill();
    term = undefined;
    await server?.close();
    home?.cleanup();
  });
  return {
    get home() {
      return home!;
    },
    get server() {
      return server!;
    },
    pty: (opts = {}) => (term = PtySession.start({ cwd: home!.cwd, env: home!.env, ...opts })),
  };
}
