import { randomBytes, randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { verifyEmailPath, type PublicUser } from '@adloom/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import {
  createPgDb,
  createPgliteDb,
  createPgPool,
  openPglite,
  runMigrations,
  type Db,
} from '../src/db/index.ts';
import type { Mailer } from '../src/services/mailer.ts';
import type { AttemptStoreFactory } from '../src/services/rate-limit.ts';
import { createPostgresDatabase } from './postgres.ts';

/** Password every `signUp` account gets. */
export const TEST_PASSWORD = 'correct horse battery';

/** An answer of `TestApp.request`. */
export interface TestResponse {
  status: number;
  // Parsed JSON, or the text when the answer is not JSON. `any` keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

/** Options of one request: a body (objects go as JSON, strings as they are), a token, headers. */
export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** A running app on a fresh database. */
export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /**
   * Signs up (and signs in) a new account; `verified` also opens the verification link mailed to
   * it, so the tools its address grants are usable (`user` is then the verified user).
   */
  signUp(
    email?: string,
    options?: { verified?: boolean },
  ): Promise<{ token: string; user: PublicUser; email: string; password: string }>;
  /** Opens the newest verification link mailed to `email` (from the outbox: no SMTP_URL). */
  verifyEmail(email: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a test waits for a mail the server sends after its answer. */
const MAIL_WAIT_MS = 10_000;

/**
 * The newest address verification link mailed to `email` by a server without SMTP_URL (in
 * `dataDir/outbox`), waiting for it up to MAIL_WAIT_MS: the mail leaves after the answer.
 */
export async function readOutboxVerifyLink(
  dataDir: string,
  email: string,
  appUrl: string,
): Promise<URL> {
  const outbox = join(dataDir, 'outbox');
  const linkPattern = new RegExp(
    `${appUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/verify-email/[A-Za-z0-9_-]+`,
  );
  const deadline = Date.now() + MAIL_WAIT_MS;
  for (;;) {
    const links = (existsSync(outbox) ? readdirSync(outbox) : [])
      .map((name) => join(outbox, name))
      .map((file) => ({ file, text: readFileSync(file, 'utf8'), at: statSync(file).mtimeMs }))
      .filter(({ text }) => text.toLowerCase().includes(`\r\nto: ${email.toLowerCase()}\r\n`))
      .map(({ text, at }) => ({ at, link: linkPattern.exec(text)?.[0] }))
      .filter((entry): entry is { at: number; link: string } => entry.link !== undefined)
      .sort((a, b) => a.at - b.at);
    const newest = links.at(-1);
    if (newest) return new URL(newest.link);
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Level of the test apps' logs: everything they log is scanned for secrets after the run. */
export const TEST_LOG_LEVEL = 'debug';

/**
 * Configuration for tests: a fixed secret, debug logs (startTestApp writes them to the run's log
 * folder), a scratch DATA_DIR, no web app.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: randomBytes(32).toString('base64url'),
    DATA_DIR: join(tmpdir(), `adloom-test-data-${randomUUID()}`),
    LOG_LEVEL: TEST_LOG_LEVEL,
    WEB_DIST: join(tmpdir(), 'adloom-no-web-dist'),
    APP_URL: 'http://adloom.test',
    // Suites sign up many users from one address; the limits' own tests set them low again.
    REGISTER_LIMIT_PER_IP: '100000',
    WAITING_LIST_LIMIT_PER_IP: '100000',
    FEEDBACK_LIMIT_PER_USER: '100000',
  });
  return { ...base, ...overrides };
}

let logFileCount = 0;

/**
 * A new log file in the run's log folder (test/global-setup.ts scans them all at the end),
 * named after the test file: `<test file>-<pid>-<n>.log`. Lines are written synchronously, so
 * none is lost when the worker ends.
 */
export function openTestLog(label = 'app'): { write(line: string): void; close(): void } {
  const testPath = expect.getState().testPath;
  logFileCount += 1;
  const name = `${testPath ? basename(testPath) : label}-${label}-${process.pid}-${logFileCount}.log`;
  const fd = openSync(join(inject('adloomLogDir'), name), 'a', 0o600);
  let isClosed = false;
  return {
    write(line) {
      if (!isClosed) writeSync(fd, line);
    },
    close() {
      if (isClosed) return;
      isClosed = true;
      closeSync(fd);
    },
  };
}

/** Which database the suite runs on (ADLOOM_TEST_DB); the database-free run has none to give. */
export function testDbKind(): 'pglite' | 'postgres' {
  const kind = inject('adloomTestDb');
  if (kind === 'none')
    throw new Error(
      'This file opens a database, so it runs on each database: take it off DATABASE_FREE in apps/server/vitest.config.ts.',
    );
  return kind === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * An empty database of this run's kind, not migrated (for tests of a migration over data made
 * before it); a PostgreSQL one is dropped on close.
 */
export async function openEmptyDatabase(): Promise<Db> {
  if (testDbKind() !== 'postgres') return createPgliteDb(await openPglite());
  const database = await createPostgresDatabase(
    inject('adloomPostgresUrl'),
    `adloom_test_${randomUUID().replaceAll('-', '')}`,
  );
  const inner = createPgDb(createPgPool(database.url));
  return {
    ...inner,
    async close() {
      await inner.close();
      await database.drop();
    },
  };
}

/** A fresh, migrated database of the kind this run uses. */
export async function openTestDatabase(): Promise<Db> {
  if (testDbKind() === 'postgres') {
    const spare = sparePostgres.pop();
    const database =
      spare ??
      (await createPostgresDatabase(
        inject('adloomPostgresUrl'),
        `adloom_test_${randomUUID().replaceAll('-', '')}`,
        { template: inject('adloomPostgresTemplate') },
      ));
    const inner = createPgDb(createPgPool(database.url));
    if (!spare) migratedSchema ??= await schemaDigest(inner);
    return {
      ...inner,
      async close() {
        await inner.close();
        await givePostgresBack(database);
      },
    };
  }
  const pglite = spareEmbedded.pop() ?? (await openSnapshot());
  const db = createPgliteDb(pglite);
  return { ...db, close: () => giveBack(pglite) };
}

/**
 * Test databases that tests closed, emptied for the next `openTestDatabase` of this worker:
 * opening an embedded one from the run's snapshot costs about a CPU-second (its WebAssembly heap
 * and data folder), copying a PostgreSQL one from its template and dropping it about half a
 * second; emptying one takes 20 to 80 ms. One whose schema a test changed, or that does not
 * answer, is closed (dropped) instead.
 */
const spareEmbedded: PGlite[] = [];
const sparePostgres: PostgresDatabase[] = [];
/** At most this many wait: one at a time is the common case, a test with several opens more. */
const SPARE_MAX = 2;
/** How long emptying may take before the database is closed instead (a transaction left open). */
const GIVE_BACK_WAIT_MS = 5_000;
/** The migrated schema's fingerprint, read from the first database opened fresh. */
let migratedSchema: string | undefined;

type PostgresDatabase = Awaited<ReturnType<typeof createPostgresDatabase>>;

/**
 * Tables, columns, constraints and indexes of the public schema as one digest: a database
 * whose digest differs from a freshly migrated one's is not given to another test.
 */
const SCHEMA_DIGEST_SQL = `select md5(coalesce((select string_agg(table_name || '.' || column_name || ':' || data_type || ':' || is_nullable || ':' || coalesce(column_default, ''), ',' order by table_name, column_name) from information_schema.columns where table_schema = 'public'), '')
  || coalesce((select string_agg(conrelid::regclass::text || ':' || conname || ':' || pg_get_constraintdef(oid), ',' order by conrelid::regclass::text, conname) from pg_constraint where connamespace = 'public'::regnamespace), '')
  || coalesce((select string_agg(indexdef, ',' order by indexdef) from pg_indexes where schemaname = 'public'), '')
  || coalesce((select string_agg(name, ',' order by name) from schema_migrations), '')) as digest`;

/** The schema digest of a database (`SCHEMA_DIGEST_SQL`). */
async function schemaDigest(db: Db): Promise<string> {
  const rows = await db.query<{ digest: string }>(SCHEMA_DIGEST_SQL);
  return rows[0]?.digest ?? '';
}

/** One query on a database being emptied: its rows. */
type EmptyingQuery = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * Empties a database a test closed, for the next test: true when it has the migrated schema
 * (read from a database opened fresh) and every table but the migrations' own is emptied, its
 * sequences restarted; false (close it) otherwise, or when emptying does not end in time.
 */
async function emptyForReuse(query: EmptyingQuery): Promise<boolean> {
  const emptied = (async () => {
    const digest = String((await query(SCHEMA_DIGEST_SQL))[0]?.digest ?? '');
    if (migratedSchema === undefined || digest !== migratedSchema) return false;
    const tables = await query(
      `select quote_ident(tablename) as name from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations'`,
    );
    await query(
      `truncate ${tables.map((t) => String(t.name)).join(', ')} restart identity cascade`,
    );
    return true;
  })().catch(() => false);
  let timer: NodeJS.Timeout | undefined;
  const isEmptied = await Promise.race([
    emptied,
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), GIVE_BACK_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  return isEmptied;
}

/** A migrated database from the run's snapshot (test/global-setup.ts). */
async function openSnapshot(): Promise<PGlite> {
  const snapshot = inject('adloomPgliteSnapshot');
  const pglite = await openPglite({ loadDataDir: new Blob([readFileSync(snapshot)]) });
  const db = createPgliteDb(pglite);
  await runMigrations(db);
  migratedSchema ??= await schemaDigest(db);
  return pglite;
}

/** Empties a closed test's embedded database for the next test, or closes it. */
async function giveBack(pglite: PGlite): Promise<void> {
  if (pglite.closed) return;
  const isKept =
    spareEmbedded.length < SPARE_MAX &&
    (await emptyForReuse(async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows));
  // Session settings go with the session: the embedded database has only one.
  if (
    isKept &&
    (await pglite.exec('discard all').then(
      () => true,
      () => false,
    ))
  )
    spareEmbedded.push(pglite);
  else void pglite.close().catch(() => {});
}

/**
 * Empties a closed test's PostgreSQL database for the next test, or drops it. Its connections
 * ended with the test's pool, and their session settings with them.
 */
async function givePostgresBack(database: PostgresDatabase): Promise<void> {
  let isKept = false;
  if (sparePostgres.length < SPARE_MAX) {
    const client = new pg.Client({ connectionString: database.url });
    try {
      await client.connect();
      isKept = await emptyForReuse(async (sql) => (await client.query(sql)).rows);
    } catch {
      isKept = false;
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (isKept) sparePostgres.push(database);
  else await database.drop();
}

/** Starts the app in-process (requests go through `app.inject`) on a fresh database. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  options: {
    mailer?: Mailer;
    db?: Db;
    logStream?: { write(line: string): void };
    attemptStores?: AttemptStoreFactory;
  } = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  const db = options.db ?? (await openTestDatabase());
  // Every line goes to the run's log folder, and to the test's own stream when it has one.
  const logFile = openTestLog();
  const ownStream = options.logStream;
  const app = await buildApp({
    config,
    db,
    ...(options.attemptStores ? { attemptStores: options.attemptStores } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    logStream: {
      write(line) {
        logFile.write(line);
        ownStream?.write(line);
      },
    },
  });
  await app.ready();

  const request: TestApp['request'] = async (method, path, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (requestOptions.token) headers.authorization = `Bearer ${requestOptions.token}`;
    let payload: string | undefined;
    if (typeof requestOptions.body === 'string') {
      payload = requestOptions.body;
    } else if (requestOptions.body !== undefined) {
      payload = JSON.stringify(requestOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await app.inject({
      method: method as 'GET',
      url: path,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const contentType = String(response.headers['content-type'] ?? '');
    const body: unknown =
      contentType.includes('json') && response.body ? JSON.parse(response.body) : response.body;
    return { status: response.statusCode, body, headers: response.headers };
  };

  const verifyEmail: TestApp['verifyEmail'] = async (email) => {
    const link = await readOutboxVerifyLink(config.dataDir, email, config.appUrl);
    const token = link.pathname.split('/').at(-1) ?? '';
    const response = await request('POST', verifyEmailPath(token));
    if (response.status !== 200)
      throw new Error(`verification failed: ${response.status} ${JSON.stringify(response.body)}`);
  };

  return {
    app,
    db,
    config,
    request,
    async signUp(email = `user-${randomUUID()}@example.com`, signUpOptions = {}) {
      const response = await request('POST', '/api/users/register', {
        body: {
          email,
          password: TEST_PASSWORD,
          'password-confirm': TEST_PASSWORD,
          recaptchaToken: '',
        },
      });
      if (response.status !== 201)
        throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
      const token = response.body.token as string;
      let user = response.body.user as PublicUser;
      if (signUpOptions.verified) {
        await verifyEmail(email);
        user = (await request('GET', '/api/users/me', { token })).body.user as PublicUser;
      }
      return { token, user, email, password: TEST_PASSWORD };
    },
    verifyEmail,
    async close() {
      await app.close();
      await db.close();
      logFile.close();
      // The scratch DATA_DIR (its outbox, when a mail was written there), unless the test gave its own.
      if (overrides.dataDir === undefined) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export { createPostgresDatabase };
