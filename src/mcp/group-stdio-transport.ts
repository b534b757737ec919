// The stdio transport of an MCP server that runs in a process group of its own: the terminal's
// Ctrl-C (SIGINT to aish's foreground group) never reaches it, and closing ends the whole group,
// so a server that a wrapper started (npx's grandchild) is gone with it. The SDK's own transport
// spawns in aish's group and signals only its direct child; this one speaks the same protocol,
// with the SDK's message (de)serialization and a line framing of its own (`stdio-lines.ts`): a
// message over 10 MiB is skipped and the call it answered fails with "result too large", where
// the SDK's buffer gave up and closed the connection.

import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_STDIO_MESSAGE_BYTES, MESSAGE_TOO_LARGE_CODE, StdioLines } from './stdio-lines.js';
import type { ProcessGroups } from './process-groups.js';

/** How long a server may take to exit on its own once its stdin is closed (the MCP spec's first step). */
const EOF_GRACE_MS = 200;
/** How long the group has after SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 500;
const GROUP_POLL_MS = 25;

export interface GroupStdioParams {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  /** Every chunk the server writes to stderr, from its first byte on. */
  onStderr: (chunk: string) => void;
  /** Where the group is listed while it may be alive, so an exit that cannot wait still ends it. */
  groups?: ProcessGroups;
}

// Windows has no process groups to signal; there the direct child is what can be ended.
const GROUPS = process.platform !== 'win32';

/**
 * A `Transport` over a child process started as the leader of its own process group (a session
 * of its own, with no controlling terminal). `close` closes stdin, then sends SIGTERM to the whole
 * group and SIGKILL after a short grace: it resolves within a second, never rejects, and is
 * idempotent. `onclose` is called once, when the server's output ends or `close` is done.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #params: GroupStdioParams;
  readonly #lines = new StdioLines();
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closed = false;

  constructor(params: GroupStdioParams) {
    this.#params = params;
  }

  /** The server's pid, which is also its process group's id (undefined before the start). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child) return Promise.reject(new Error('the stdio transport was started already'));
    const { command, args, env, cwd, onStderr } = this.#params;
    const child = spawn(command, [...args], {
      env,
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: GROUPS,
      windowsHide: true,
    });
    this.#child = child;
    if (GROUPS && child.pid !== undefined) this.#params.groups?.add(child.pid);
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => onStderr(chunk));
    child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
    child.stdout?.on('error', (err) => this.onerror?.(err));
    child.stdin?.on('error', (err) => this.onerror?.(err));
    // Output ends when every process holding the pipe is gone, not when the leader exits.
    child.once('close', () => this.#finish());
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing || this.#closed) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#endGroup().finally(() => {
      const pid = this.#child?.pid;
      if (pid !== undefined) this.#params.groups?.delete(pid);
      this.#finish();
    });
    return this.#closing;
  }

  #read(chunk: Buffer): void {
    for (const read of this.#lines.push(chunk)) {
      if (read.type === 'too-large') {
        this.#tooLarge(read.bytes, read.id);
        continue;
      }
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(read.line);
      } catch (err) {
        this.onerror?.(err as Error);
        continue;
      }
      this.onmessage?.(message);
    }
  }

  /**
   * A message too large to read was skipped. When its id shows, the request it answered gets an
   * error saying so (the server stays connected); otherwise only the error handler hears of it.
   */
  #tooLarge(bytes: number, id: string | number | undefined): void {
    const message = `the server sent a message of ${bytes} bytes, more than the ${MAX_STDIO_MESSAGE_BYTES} bytes aish reads over stdio; it was skipped`;
    if (id === undefined) {
      this.onerror?.(new Error(message));
      return;
    }
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: MESSAGE_TOO_LARGE_CODE, message, data: { bytes, limit: MAX_STDIO_MESSAGE_BYTES } } });
  }

  /** EOF first (a polite server exits), then SIGTERM to the group, then SIGKILL to what is left. */
  async #endGroup(): Promise<void> {
    const child = this.#child;
    const pid = child?.pid;
    if (!child || pid === undefined) return;
    try {
      child.stdin?.end();
    } catch {
      // Already closed.
    }
    if (child.exitCode === null && child.signalCode === null) await within(this.#exited!, EOF_GRACE_MS);
    // The leader may have exited on EOF while a process it started still runs in the group.
    if (!this.#signal(pid, 'SIGTERM')) return;
    if (await this.#groupGoneWithin(pid, TERM_GRACE_MS)) return;
    this.#signal(pid, 'SIGKILL');
  }

  /** Sends `sig` to the server's group (its process on Windows); false when nothing was left. */
  #signal(pid: number, sig: NodeJS.Signals | 0): boolean {
    if (!GROUPS) {
      const child = this.#child;
      const alive = child !== undefined && child.exitCode === null && child.signalCode === null;
      if (alive && sig !== 0) child.kill(sig);
      return alive;
    }
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false;
    }
  }

  async #groupGoneWithin(pid: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (!this.#signal(pid, 0)) return true;
      // Not unref'd: once the leader is gone nothing else may keep Node running, and an exit
      // mid-poll would lose the caller's exit code (`aish -p` ended 0 after a model error).
      await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
    }
    return !this.#signal(pid, 0);
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#lines.clear();
    this.onclose?.();
  }
}

/** Resolves when `promise` does or after `ms`, whichever is first. */
function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref()))]).finally(() => clearTimeout(timer));
}
