// Start-up connection behind the prompt: BackgroundConnect against a real refused port and a real
// stdio fixture. Failures are reported once, to the first caller after the attempts end; a wait
// says so on the busy line and ends early when its signal aborts.

import { describe, expect, it } from 'vitest';
import { defaultModels } from '../../src/config/default-models.js';
import { resolveConfig, type Config } from '../../src/config/schema.js';
import { OAuthStore } from '../../src/mcp/oauth-store.js';
import { BackgroundConnect, createRegistry, type StartupView } from '../../src/mcp/startup.js';
import { fixtureStdio, httpServer, refusedUrl } from '../support/mcp-servers.js';

function configWith(servers: Record<string, unknown>): Config {
  const resolved = resolveConfig({ mcp: { servers } }, defaultModels({}));
  if (!resolved.ok) throw new Error(JSON.stringify(resolved.issues));
  return resolved.config;
}

function recordingView() {
  const seen = { busy: [] as string[], stopped: 0, errors: [] as string[] };
  const view: StartupView = {
    busy: (label) => {
      seen.busy.push(label);
      return () => seen.stopped++;
    },
    error: (message) => seen.errors.push(message),
    status: () => {},
  };
  return { seen, view };
}

describe('BackgroundConnect', () => {
  it('reports nothing before the attempts end, then each failure once', async () => {
    const config = configWith({ dead: httpServer(await refusedUrl()), live: fixtureStdio() });
    const { seen, view } = recordingView();
    const registry = createRegistry(config, { PATH: process.env.PATH }, 'test', view, { store: new OAuthStore(undefined), isTTY: false });
    const start = new BackgroundConnect(registry, config);
    try {
      start.report(view);
      expect(seen.errors).toEqual([]);
      await start.ready(view, new AbortController().signal);
      expect(seen.busy).toEqual(['waiting for 2 MCP servers to connect']);
      expect(seen.stopped).toBeGreaterThan(0);
      expect(seen.errors).toHaveLength(1);
      expect(seen.errors[0]).toMatch(/^mcp dead: /);
      expect(registry.toolDefinitions().map((t) => t.function.name)).toContain('live__echo');
      start.report(view);
      await start.ready(view, new AbortController().signal);
      expect(seen.errors).toHaveLength(1);
      expect(seen.busy).toHaveLength(1);
    } finally {
      await start.stop();
      await registry.closeAll();
    }
  });

  it('an aborted wait returns at once and leaves the failures for later', async () => {
    const config = configWith({ dead: httpServer(await refusedUrl()) });
    const { seen, view } = recordingView();
    const registry = createRegistry(config, { PATH: process.env.PATH }, 'test', view, { store: new OAuthStore(undefined), isTTY: false });
    const start = new BackgroundConnect(registry, config);
    const aborted = new AbortController();
    aborted.abort();
    await start.ready(view, aborted.signal);
    expect(seen.errors).toEqual([]);
    await start.stop();
    start.report(view);
    expect(seen.errors).toHaveLength(1);
    await registry.closeAll();
  });
});
