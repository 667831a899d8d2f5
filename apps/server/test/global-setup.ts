import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  createPgDb,
  createPgliteDb,
  createPgPool,
  openPglite,
  runMigrations,
} from '../src/db/index.ts';
import { createPostgresDatabase, POSTGRES_TEMPLATE } from './postgres.ts';
import { describeLogFindings, findSecretsInLogDir } from './log-scan.ts';
import { startEmbeddedPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** 'pglite', 'postgres' or 'none' (from ADLOOM_TEST_DB). */
    adloomTestDb: string;
    /** A migrated PGlite data folder dump that each test database starts from. */
    adloomPgliteSnapshot: string;
    /** Admin connection string of the PostgreSQL server started for this run. */
    adloomPostgresUrl: string;
    /** A migrated database on that server that each test database is copied from. */
    adloomPostgresTemplate: string;
    /** Folder every test app and server process writes its log to; scanned for secrets at the end. */
    adloomLogDir: string;
  }
}

/**
 * After the run: fails it when any log line holds a password hash, a token or a reset link
 * (the report names the file, line and kind, never the secret). The logs stay for a look when
 * it fails.
 */
function checkLogs(logDir: string): void {
  const { files, findings } = findSecretsInLogDir(logDir);
  if (findings.length > 0) {
    // Vitest reports an error thrown here but still exits 0 (and PGlite's runtime resets
    // process.exitCode on its way out): fail the exit code last thing.
    process.once('exit', () => {
      process.exitCode = 1;
    });
    throw new Error(`${describeLogFindings(findings)}\n(logs kept in ${logDir})`);
  }
  if (process.env.ADLOOM_TEST_LOGS_KEEP !== '1') rmSync(logDir, { recursive: true, force: true });
  else process.stdout.write(`adloom: ${files} test logs, no secrets, kept in ${logDir}\n`);
}

/**
 * Prepares the whole run: the log folder, and the database: one PGlite snapshot, or one real
 * PostgreSQL server.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = process.env.ADLOOM_TEST_DB ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres' && kind !== 'none')
    throw new Error(`ADLOOM_TEST_DB must be pglite, postgres or none, not ${kind}`);
  project.provide('adloomTestDb', kind);
  const workDir = mkdtempSync(join(tmpdir(), 'adloom-test-'));
  const logDir = mkdtempSync(join(tmpdir(), 'adloom-test-logs-'));
  project.provide('adloomLogDir', logDir);
  project.provide('adloomPgliteSnapshot', '');
  project.provide('adloomPostgresUrl', '');
  project.provide('adloomPostgresTemplate', '');

  if (kind === 'none')
    return async () => {
      rmSync(workDir, { recursive: true, force: true });
      checkLogs(logDir);
    };

  if (kind === 'postgres') {
    const server = await startEmbeddedPostgres(join(workDir, 'pg'));
    project.provide('adloomPostgresUrl', server.adminUrl);
    // Migrated once: a test database is a copy of it (CREATE DATABASE … TEMPLATE), where running
    // every migration again cost as much as creating the database.
    const template = await createPostgresDatabase(server.adminUrl, POSTGRES_TEMPLATE);
    const templateDb = createPgDb(createPgPool(template.url));
    await runMigrations(templateDb);
    await templateDb.close();
    project.provide('adloomPostgresTemplate', POSTGRES_TEMPLATE);
    return async () => {
      await server.stop();
      rmSync(workDir, { recursive: true, force: true });
      checkLogs(logDir);
    };
  }

  const pglite = await openPglite();
  await runMigrations(createPgliteDb(pglite));
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const snapshot = join(workDir, 'pglite-snapshot.tar');
  writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()));
  project.provide('adloomPgliteSnapshot', snapshot);
  return async () => {
    rmSync(workDir, { recursive: true, force: true });
    checkLogs(logDir);
  };
}
