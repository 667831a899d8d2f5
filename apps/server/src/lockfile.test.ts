import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireDataDirLock } from './lockfile.ts';

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
    expect(readFileSync(join(dir, 'server.lock'), 'utf8').trim()).toBe(String(process.pid));
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
    expect(readFileSync(join(dir, 'server.lock'), 'utf8').trim()).toBe(String(process.pid));
    release();
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
