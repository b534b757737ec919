import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShell } from '../../src/shell/run-shell.js';

const base = { cwd: '/tmp', env: { PATH: process.env.PATH, HOME: '/tmp' }, program: '/bin/bash', captureMaxChars: 16000, detached: true };

describe('runShell', () => {
  it('streams and captures stdout and stderr in order', async () => {
    const live: string[] = [];
    const r = await runShell('echo one; echo two >&2; echo three', { ...base, onOutput: (t) => live.push(t) });
    expect(r).toMatchObject({ exitCode: 0, signal: null, output: 'one\ntwo\nthree' });
    expect(live.join('')).toBe('one\ntwo\nthree\n');
  });

  it('runs behind a wrapper argv (a sandbox), whose own stderr is captured too', async () => {
    const r = await runShell('echo "$0 ran"; echo err >&2', { ...base, wrap: ['/usr/bin/env', 'WRAPPED=1'] });
    expect(r).toMatchObject({ exitCode: 0, output: '/bin/bash ran\nerr' });
    const failed = await runShell('true', { ...base, wrap: ['/bin/sh', '-c', 'echo "wrapper: no box" >&2; exit 1', 'sh'] });
    expect(failed).toMatchObject({ exitCode: 1, output: 'wrapper: no box' });
    const missing = await runShell('true', { ...base, wrap: ['/nonexistent/bwrap'] });
    expect(missing).toMatchObject({ exitCode: 127, error: 'program not found: /nonexistent/bwrap' });
  });

  it('reports the exit code', async () => {
    expect((await runShell('exit 3', base)).exitCode).toBe(3);
  });

  it('reports 128+N for a command killed by a signal', async () => {
    const r = await runShell('kill -TERM $$', base);
    expect(r.exitCode).toBe(143);
    expect(r.signal).toBe('SIGTERM');
  });

  it('runs in the given cwd and environment', async () => {
    const r = await runShell('pwd; echo $FOO', { ...base, cwd: '/', env: { ...base.env, FOO: 'bar' } });
    expect(r.output).toBe('/\nbar');
  });

  it('aborting interrupts the whole process group', async () => {
    const controller = new AbortController();
    const started = runShell('sleep 30 | cat; echo after', {
      ...base,
      signal: controller.signal,
      onOutput: () => {},
    });
    setTimeout(() => controller.abort(), 100);
    const r = await started;
    expect(r.exitCode).toBe(130);
    expect(r.signal).toBe('SIGINT');
    expect(r.output).not.toContain('after');
  });

  it('escalates to SIGKILL when SIGINT and SIGTERM are ignored', async () => {
    const controller = new AbortController();
    const started = runShell("trap '' INT TERM; echo ready; sleep 30", {
      ...base,
      signal: controller.signal,
      killDelays: [50, 50],
      onOutput: (t) => t.includes('ready') && controller.abort(),
    });
    const r = await started;
    expect(r.signal).toBe('SIGKILL');
    expect(r.exitCode).toBe(137);
  });

  it('turns a missing shell into exit 127 with a reason, without rejecting', async () => {
    const r = await runShell('true', { ...base, program: '/no/such/shell' });
    expect(r.exitCode).toBe(127);
    expect(r.error).toMatch(/not found|no longer exists/);
  });

  it('normalises CR LF and strips ANSI in the capture only', async () => {
    const live: string[] = [];
    const r = await runShell("printf '\\033[32mgreen\\033[0m\\r\\n'", { ...base, onOutput: (t) => live.push(t) });
    expect(r.output).toBe('green');
    expect(live.join('')).toContain('\x1b[32m');
  });

  it('flags binary output', async () => {
    const r = await runShell("printf 'a\\000b'", base);
    expect(r.binary).toBe(true);
  });
});

describe('runShell start failures', () => {
  it('names a working directory that was removed', async () => {
    const r = await runShell('true', { ...base, cwd: '/definitely/not/here' });
    expect(r.exitCode).toBe(127);
    expect(r.error).toBe('working directory no longer exists: /definitely/not/here');
  });
});

// Termination in a shared process group reaches the caller too (here the test runner), so only
// detached runs are driven here; test/e2e/orphans.test.ts covers aish on a terminal.
describe('runShell termination (aish is ending)', () => {
  /** Runs `command` and terminates it once it has printed "ready". */
  const terminatedWhenReady = (command: string) => {
    const terminate = new AbortController();
    return runShell(command, { ...base, terminate: terminate.signal, onOutput: (t) => t.includes('ready') && terminate.abort() });
  };

  it('ends the whole process group, even a command that ignores SIGINT', async () => {
    const r = await terminatedWhenReady("trap '' INT; echo ready; sleep 30 | cat; echo after");
    expect(r).toMatchObject({ exitCode: 129, signal: 'SIGHUP' });
    expect(r.output).not.toContain('after');
  });

  it('escalates to SIGKILL when SIGHUP and SIGTERM are ignored', async () => {
    expect(await terminatedWhenReady("trap '' HUP TERM; echo ready; sleep 30")).toMatchObject({ exitCode: 137, signal: 'SIGKILL' });
  });

  it('starts nothing once terminated', async () => {
    const terminate = new AbortController();
    terminate.abort();
    const marker = path.join(tmpdir(), `aish-not-started-${process.pid}`);
    const r = await runShell(`touch ${marker}`, { ...base, terminate: terminate.signal });
    expect(r).toMatchObject({ exitCode: 129, signal: 'SIGHUP' });
    expect(existsSync(marker)).toBe(false);
  });
});
