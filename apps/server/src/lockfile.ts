import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Thrown when another live server holds DATA_DIR. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Adloom server (pid ${pid}) is already using DATA_DIR ${dataDir}. ` +
        'Stop that server first, or start this one with a different DATA_DIR.',
    );
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes DATA_DIR/server.lock for this process (PGlite itself does not lock its folder).
 * A lock left by a dead process, or by this very pid (a restarted container), is taken over.
 * Returns the release function.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid))
            rmSync(file, { force: true });
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = Number.NaN;
    try {
      holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    } catch {
      // Vanished or unreadable between the two calls: try again.
    }
    if (holder !== process.pid && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
    rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock ${file}`);
}
