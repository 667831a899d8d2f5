/**
 * The compiled server as `npm start` runs it, for the benchmarks that measure it from outside:
 * starting it and waiting for its first page, and reading its resident memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process, MiB. */
export function rssMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kib / 1024);
}

/** A server started by `startAndWait`. */
export interface Running {
  child: ChildProcess;
  url: string;
  firstPageMs: number;
  stop(): Promise<void>;
}

/** Spawns `command` and waits for `/` to answer 200; the server must listen on `port`. */
export async function startAndWait(
  command: string[],
  cwd: string,
  env: Record<string, string>,
  port: number,
): Promise<Running> {
  const startedAt = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/`);
      await response.text();
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await sleep(20);
  }
  const firstPageMs = Math.round(performance.now() - startedAt);
  return {
    child,
    url,
    firstPageMs,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The whole group: `npm start` runs the server as a grandchild.
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

/** The most resident memory a process has had since `resetPeakRss` (or its start), MiB. */
export function peakRssMiB(pid: number): number {
  const kib = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kib / 1024);
}

/** Starts a new peak for `peakRssMiB` at the process's present resident memory (Linux). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
