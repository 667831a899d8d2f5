import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPgliteDb, openPglite, runMigrations } from '../src/db/index.ts';
import { startEmbeddedPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** 'pglite' or 'postgres' (from ADLOOM_TEST_DB). */
    adloomTestDb: string;
    /** A migrated PGlite data folder dump that each test database starts from. */
    adloomPgliteSnapshot: string;
    /** Admin connection string of the PostgreSQL server started for this run. */
    adloomPostgresUrl: string;
  }
}

/** Prepares the database of the whole run: one PGlite snapshot, or one real PostgreSQL server. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = process.env.ADLOOM_TEST_DB ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres')
    throw new Error(`ADLOOM_TEST_DB must be pglite or postgres, not ${kind}`);
  project.provide('adloomTestDb', kind);
  const workDir = mkdtempSync(join(tmpdir(), 'adloom-test-'));
  project.provide('adloomPgliteSnapshot', '');
  project.provide('adloomPostgresUrl', '');

  if (kind === 'postgres') {
    const server = await startEmbeddedPostgres(join(workDir, 'pg'));
    project.provide('adloomPostgresUrl', server.adminUrl);
    return async () => {
      await server.stop();
      rmSync(workDir, { recursive: true, force: true });
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
  };
}
