import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Modes of everything under DATA_DIR: the server's user alone may read or write it. */
export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;
/** The umask that gives new folders DATA_DIR_MODE and new files DATA_FILE_MODE. */
export const DATA_UMASK = 0o077;

/**
 * Makes DATA_DIR and everything in it private (folders 0700, files 0600): a folder written by
 * an older server has 0666 database files any local user could read (password hashes in the
 * write-ahead log) or write. Symbolic links are left alone. Answers how many entries changed,
 * so after the first repair it changes nothing.
 */
export function makeDataDirPrivate(dataDir: string): number {
  let changed = 0;
  const visit = (path: string) => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      // The database removes files of its own while it runs (old write-ahead log segments).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (stat.isSymbolicLink()) return;
    const mode = stat.isDirectory() ? DATA_DIR_MODE : DATA_FILE_MODE;
    if ((stat.mode & 0o7777) !== mode) {
      try {
        chmodSync(path, mode);
        changed += 1;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) visit(join(path, name));
  };
  visit(dataDir);
  return changed;
}

/** How often a running server makes the files the embedded database created since private. */
export const DATA_DIR_REPAIR_INTERVAL_MS = 60_000;

/**
 * Makes DATA_DIR private again every `intervalMs` while the server runs (the timer does not keep
 * the process alive); a failure is reported to `warn` and tried again next time. Returns the stop
 * function.
 */
export function keepDataDirPrivate(
  dataDir: string,
  warn: (message: string) => void,
  intervalMs = DATA_DIR_REPAIR_INTERVAL_MS,
): () => void {
  const timer = setInterval(() => {
    try {
      makeDataDirPrivate(dataDir);
    } catch (error) {
      warn(
        `could not make DATA_DIR private (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
