// What the server's one-shot commands (geo:load, backup, restore, db:export, db:import) share:
// failing with one line, the settings, paths typed by the person, and the database they use.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { makeDataDirPrivate } from './data-dir.ts';
import { openDatabase, type Db } from './db/index.ts';
import { DataDirLockedError, acquireDataDirLock } from './lockfile.ts';

/** Writes `adloom <name>: message` to stderr and ends the process with exit code 1. */
export function commandFailer(name: string): (message: string) => never {
  return (message) => {
    process.stderr.write(`adloom ${name}: ${message}\n`);
    process.exit(1);
  };
}

/** What went wrong, as one sentence. */
export const describeError = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

/** The settings; a bad one ends the command with its message. */
export function loadCommandConfig(fail: (message: string) => never): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** npm runs the scripts inside apps/server: a relative path counts from where it was typed. */
export const typedPath = (value: string) => resolve(process.env.INIT_CWD ?? process.cwd(), value);

/**
 * Runs `work` on the configured database; on the embedded one only while no server holds
 * DATA_DIR (else `whenLocked` runs instead). The lock is released and DATA_DIR made private
 * however `work` ends.
 */
export async function withCommandDatabase<T>(
  config: Config,
  work: (db: Db) => Promise<T>,
  whenLocked: (error: DataDirLockedError) => Promise<T>,
): Promise<T> {
  let releaseLock = () => {};
  if (!config.databaseUrl) {
    try {
      mkdirSync(config.dataDir, { recursive: true });
      releaseLock = acquireDataDirLock(config.dataDir);
    } catch (error) {
      if (error instanceof DataDirLockedError) return whenLocked(error);
      throw error;
    }
  }
  try {
    const db = await openDatabase(config);
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  } finally {
    if (!config.databaseUrl) makeDataDirPrivate(config.dataDir);
    releaseLock();
  }
}
