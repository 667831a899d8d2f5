import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDataDirLock, parseLock, readProcStat } from './lockfile.ts';

const hasProc = readProcStat('self') !== undefined;

/** Waits, a bounded number of times, until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('acquireDataDirLock', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'adloom-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes this pid and removes the file on release', () => {
    const dir = scratch();
    const release = acquireDataDirLock(dir);
    const lock = parseLock(readFileSync(join(dir, 'server.lock'), 'utf8'));
    expect(lock.pid).toBe(process.pid);
    // Beside the pid, where /proc has it, this process's start time.
    expect(lock.startTime).toBe(readProcStat('self')?.startTime);
    release();
    expect(existsSync(join(dir, 'server.lock'))).toBe(false);
  });

  it('refuses a folder held by another live process', async () => {
    const dir = scratch();
    const holder = spawn('sleep', ['30']);
    try {
      writeFileSync(join(dir, 'server.lock'), `${holder.pid}\n`);
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(
        `Another Adloom server (pid ${holder.pid}) is already using DATA_DIR ${dir}`,
      );
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.on('exit', resolve));
    }
    // Now the holder is dead: its stale lock is taken over.
    const release = acquireDataDirLock(dir);
    expect(parseLock(readFileSync(join(dir, 'server.lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it.skipIf(!hasProc)(
    'is not blocked by a killed holder its parent has not reaped (a zombie)',
    async () => {
      const dir = scratch();
      // sh starts the holder in the background, prints its pid, then becomes `sleep`, which never
      // reaps it: once killed, the holder stays a zombie that kill(pid, 0) still reports.
      const parent = spawn('sh', ['-c', 'sleep 300 & echo $!; exec sleep 300'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        let out = '';
        parent.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        await until(() => /\d+\n/.test(out), 'the holder pid');
        const holder = Number(out.trim());
        const stat = readProcStat(holder);
        expect(stat?.state).toMatch(/^[RS]$/);
        writeFileSync(join(dir, 'server.lock'), `${holder} ${stat?.startTime}\n`);
        expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);

        process.kill(holder, 'SIGKILL');
        await until(() => readProcStat(holder)?.state === 'Z', 'the zombie');
        // The old check (kill(pid, 0)) still thinks it alive.
        expect(() => process.kill(holder, 0)).not.toThrow();
        const release = acquireDataDirLock(dir);
        expect(parseLock(readFileSync(join(dir, 'server.lock'), 'utf8')).pid).toBe(process.pid);
        release();
      } finally {
        parent.kill('SIGKILL');
        await new Promise((resolve) => parent.on('exit', resolve));
      }
    },
  );

  it.skipIf(!hasProc)('tells a live holder from a later process with the same pid', async () => {
    const dir = scratch();
    const live = spawn('sleep', ['30']);
    try {
      const pid = live.pid ?? 0;
      const startTime = readProcStat(pid)?.startTime ?? '';
      // The lock names this pid with its start time, or with no start time (older servers): refused.
      writeFileSync(join(dir, 'server.lock'), `${pid} ${startTime}\n`);
      expect(() => acquireDataDirLock(dir)).toThrow(`(pid ${pid})`);
      writeFileSync(join(dir, 'server.lock'), `${pid}\n`);
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      // Another start time: the process that wrote the lock is gone and its pid was reused.
      writeFileSync(join(dir, 'server.lock'), `${pid} ${Number(startTime) - 1}\n`);
      acquireDataDirLock(dir)();
    } finally {
      live.kill('SIGKILL');
      await new Promise((resolve) => live.on('exit', resolve));
    }
  });

  it('takes over a lock with garbage or with its own pid', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'server.lock'), 'not a pid');
    acquireDataDirLock(dir)();
    writeFileSync(join(dir, 'server.lock'), String(process.pid));
    acquireDataDirLock(dir)();
    expect(existsSync(join(dir, 'server.lock'))).toBe(false);
  });
});
