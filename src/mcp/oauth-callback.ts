// The loopback redirect of an OAuth login (RFC 8252 §7.3): a one-shot HTTP listener on 127.0.0.1
// that waits for the browser to come back to `/callback` with the authorization code, answers it
// with a short page and closes. A request whose `state` does not match is refused and ignored.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>\n`;

/** An OAuth error the authorization server sent back through the browser. */
export class AuthorizationDenied extends Error {}

/** A listener on 127.0.0.1 for one authorization code. */
export class LoopbackCallback {
  readonly redirectUrl: string;
  #server: Server;
  #state: string | undefined;
  #result: Promise<string>;
  #settle!: { resolve: (code: string) => void; reject: (err: Error) => void };

  private constructor(server: Server) {
    this.#server = server;
    const { port } = server.address() as AddressInfo;
    this.redirectUrl = `http://127.0.0.1:${port}/callback`;
    this.#result = new Promise<string>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.#result.catch(() => {});
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', this.redirectUrl);
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      if (this.#state !== undefined && url.searchParams.get('state') !== this.#state) {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE('aish: not this login', 'This answer does not belong to the login aish is waiting for.'));
        return;
      }
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error');
      res.setHeader('connection', 'close');
      if (code) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE('aish: signed in', 'You can close this tab and go back to the terminal.'));
        this.#settle.resolve(code);
      } else {
        const reason = (error ?? 'no authorization code').slice(0, 100);
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE('aish: sign-in failed', 'The server did not grant access; the terminal says why.'));
        this.#settle.reject(new AuthorizationDenied(`the authorization server answered: ${reason.replace(/[^\w .:-]/g, '?')}`));
      }
      this.close();
    });
  }

  /** Listens on 127.0.0.1 at `port` (0: any free port). Rejects when the port is taken. */
  static listen(port = 0): Promise<LoopbackCallback> {
    const server = createServer();
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve(new LoopbackCallback(server));
      });
    });
  }

  /** The `state` the answer must carry. */
  expectState(state: string | undefined): void {
    this.#state = state;
  }

  /** The code, once the browser comes back; rejects on an OAuth error or when `signal` aborts. */
  async code(signal?: AbortSignal): Promise<string> {
    if (!signal) return this.#result;
    signal.throwIfAborted();
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        this.#result,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /** Stops listening; idempotent. A pending `code()` rejects. */
  close(): void {
    this.#settle.reject(new Error('the login listener closed'));
    this.#server.close();
    // The answering socket closes itself (`connection: close`) once the page is out.
    this.#server.closeIdleConnections();
  }
}
