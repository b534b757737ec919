// The setup most end-to-end tests of model turns share: per test a fresh HOME and a loopback model
// server, with a config whose `fast` preset points at it (plus any keys the test adds). `mcpE2e`
// builds on it.

import { afterEach, beforeEach } from 'vitest';
import { makeHome, type AishHome } from './aish-env.js';
import { ModelServer } from './model-server.js';

export interface ModelE2e {
  readonly h: AishHome;
  readonly server: ModelServer;
  /** Writes the config again: the `fast` preset on the loopback server, with the keys `config` makes of `extra`. */
  writeConfig(extra?: Record<string, unknown>): void;
}

/** `config` turns what a test adds into the config's other keys (default: as they are). */
export function modelE2e(config: (extra: Record<string, unknown>) => Record<string, unknown> = (extra) => extra): ModelE2e {
  let h: AishHome;
  let server: ModelServer;
  const writeConfig = (extra: Record<string, unknown> = {}) => void h.writeConfig({ models: { fast: { endpoint: server.url, model: 'm' } }, ...config(extra) });
  beforeEach(async () => {
    h = makeHome();
    server = await ModelServer.start();
    writeConfig();
  });
  afterEach(async () => {
    await server.close();
    h.cleanup();
  });
  return {
    get h() {
      return h;
    },
    get server() {
      return server;
    },
    writeConfig,
  };
}
