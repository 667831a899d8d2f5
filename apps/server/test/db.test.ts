import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inspect } from 'node:util';
import {
  createPgPool,
  DatabaseQueryError,
  PGLITE_SHARED_BUFFERS_MB,
  listMigrations,
  openDatabase,
  runMigrations,
  sqlArray,
  type Db,
} from '../src/db/index.ts';
import { listTables } from '../src/services/db-transfer.ts';
import { createPostgresDatabase, openTestDatabase, startTestApp, testDbKind } from './helpers.ts';

/** The repository's folder, without its last slash. */
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

// The same SQL must give the same JS values on PGlite and on PostgreSQL.
describe(`database layer (${testDbKind()})`, () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDatabase();
    await db.exec(
      'create table probe (id uuid primary key default gen_random_uuid(), n int4, big int8, doc jsonb, at timestamptz default now(), amount numeric)',
    );
  });
  afterAll(async () => {
    await db.close();
  });

  it('answers its kind', () => {
    expect(db.kind).toBe(testDbKind() === 'postgres' ? 'postgres' : 'embedded');
  });

  it('returns int8 and counts as numbers, numeric as text, timestamptz as Date, uuid as text', async () => {
    await db.query('insert into probe (n, big, amount) values ($1, $2, $3)', [
      7,
      9_007_199_254_740_991,
      '12.50',
    ]);
    const [row] = await db.query<{ id: string; n: number; big: number; at: Date; amount: string }>(
      'select id, n, big, at, amount from probe',
    );
    expect(row?.n).toBe(7);
    expect(row?.big).toBe(9_007_199_254_740_991);
    expect(row?.amount).toBe('12.50');
    expect(row?.at).toBeInstanceOf(Date);
    expect(row?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const [count] = await db.query<{ n: number }>('select count(*) as n from probe');
    expect(count?.n).toBe(1);
  });

  it('stores objects and arrays as JSON, and sqlArray as a PostgreSQL array', async () => {
    const doc = { rows: [{ root: '00123', mod: 'ü "quoted"' }], empty: [], nested: { flag: true } };
    const [object] = await db.query<{ doc: unknown }>(
      'insert into probe (doc) values ($1) returning doc',
      [doc],
    );
    expect(object?.doc).toEqual(doc);
    const [array] = await db.query<{ doc: unknown }>(
      'insert into probe (doc) values ($1) returning doc',
      [['a', 1, null]],
    );
    expect(array?.doc).toEqual(['a', 1, null]);
    const rows = await db.query<{ v: string }>('select unnest($1::text[]) as v', [
      sqlArray(['x', 'y,z', '{']),
    ]);
    expect(rows.map((row) => row.v)).toEqual(['x', 'y,z', '{']);
  });

  it('rolls a failed transaction back and commits a good one', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into probe (n) values ($1)', [100]);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await db.query('select n from probe where n = 100')).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.query('insert into probe (n) values ($1)', [101]);
      await tx.transaction((inner) => inner.query('insert into probe (n) values ($1)', [102]));
    });
    expect(
      (await db.query<{ n: number }>('select n from probe where n > 100 order by n')).map(
        (row) => row.n,
      ),
    ).toEqual([101, 102]);
  });

  it('keeps other queries out of a running transaction', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = db.transaction(async (inner) => {
      await inner.query('insert into probe (n) values ($1)', [200]);
      await gate;
      throw new Error('roll back');
    });
    const outside = db.query('insert into probe (n) values ($1)', [201]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect(tx).rejects.toThrow('roll back');
    await outside;
    expect(
      (await db.query<{ n: number }>('select n from probe where n >= 200')).map((row) => row.n),
    ).toEqual([201]);
  });

  describe('a failed query', () => {
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
    const email = 'leak-probe@example.com';
    // Everything a log line could print of the error.
    const everything = (error: unknown) =>
      `${inspect(error, { depth: 10, showHidden: true })} ${JSON.stringify(error)} ${String(error)}`;
    const failure = async (run: () => Promise<unknown>): Promise<DatabaseQueryError> => {
      const error = await run().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DatabaseQueryError);
      return error as DatabaseQueryError;
    };

    it('carries the statement name and SQLSTATE, never the parameters or the detail', async () => {
      await db.query('insert into users (email, password_hash) values ($1, $2)', [email, hash]);
      const duplicate = await failure(() =>
        db.query('insert into users (email, password_hash) values ($1, $2)', [email, hash]),
      );
      expect(duplicate.code).toBe('23505');
      expect(duplicate.statement).toBe('insert users');
      expect(duplicate.constraint).toBe('users_email_key');
      expect(duplicate.message).toBe(
        'query "insert users" failed (SQLSTATE 23505, constraint users_email_key)',
      );
      expect(everything(duplicate)).not.toContain(email);
      expect(everything(duplicate)).not.toContain(hash);

      // A message that quotes the value ("invalid input syntax for type uuid: ...").
      const badUuid = await failure(() =>
        db.query('select id from users where id = $1 and password_hash = $2', [hash, hash]),
      );
      expect(badUuid.code).toBe('22P02');
      expect(badUuid.statement).toBe('select users');
      expect(everything(badUuid)).not.toContain('argon2');
    });

    it('is sanitised inside transactions and keeps the code for callers', async () => {
      const rows = Array.from({ length: 5000 }, (_, index) => ({ secret: `${hash}-${index}` }));
      const inTx = await failure(() =>
        db.transaction(async (tx) => {
          await tx.query('insert into probe (n, doc) values ($1, $2)', [1, rows]);
          await tx.query('insert into probe (n, doc) values ($1, $2)', ['not a number', rows]);
        }),
      );
      expect(inTx.code).toBe('22P02');
      expect(inTx.statement).toBe('insert probe');
      // The stack names files by their absolute paths: counted as if the repository sat at `/r`,
      // the length does not depend on where it is checked out.
      expect(everything(inTx).replaceAll(REPO_ROOT, '/r').length).toBeLessThan(2000);
      expect(everything(inTx)).not.toContain('argon2');
      const nested = await failure(() =>
        db.transaction((tx) =>
          tx.transaction((inner) => inner.exec('update no_such_table set n = 1')),
        ),
      );
      expect(nested.code).toBe('42P01');
      expect(nested.statement).toBe('update no_such_table');
      // An error of the caller's own passes through a transaction as it is.
      const own = new Error('mine');
      await expect(
        db.transaction(async () => {
          throw own;
        }),
      ).rejects.toBe(own);
    });
  });

  it.skipIf(testDbKind() === 'postgres')('runs PGlite with small shared buffers', async () => {
    const [row] = await db.query<{ shared_buffers: string }>('show shared_buffers');
    expect(row?.shared_buffers).toBe(`${PGLITE_SHARED_BUFFERS_MB}MB`);
  });

  it('keeps feed rows documents as uncompressed text (no JSON parsing on every save)', async () => {
    const [column] = await db.query<{ type: string; storage: string }>(
      `select format_type(atttypid, atttypmod) as type, attstorage as storage
         from pg_attribute where attrelid = 'feeds'::regclass and attname = 'rows'`,
    );
    expect(column).toEqual({ type: 'text', storage: 'e' });
  });

  it('copies CSV from memory with COPY FROM STDIN, in and out of a transaction', async () => {
    await db.exec('create table copied (id int8 primary key, name text not null, parent int8)');
    const csv = (text: string) => new TextEncoder().encode(text);
    expect(
      await db.copyFrom('copy copied from stdin with (format csv)', csv('1,"a, ""b""",\n')),
    ).toBe(1);
    const big = Array.from({ length: 5000 }, (_, i) => `${i + 2},"n${i}",1\n`).join('');
    expect(
      await db.transaction((tx) =>
        tx.copyFrom('copy copied (id, name, parent) from stdin with (format csv)', csv(big)),
      ),
    ).toBe(5000);
    const rows = await db.query<{ n: number; first: string; parents: number }>(
      `select count(*)::int as n, min(name) filter (where id = 1) as first,
              count(parent)::int as parents from copied`,
    );
    expect(rows).toEqual([{ n: 5001, first: 'a, "b"', parents: 5000 }]);
  });

  it('fails a COPY the database refuses with the statement and SQLSTATE, and stays usable', async () => {
    const csv = (text: string) => new TextEncoder().encode(text);
    const error = await db
      .copyFrom('copy copied from stdin with (format csv)', csv('1,"dup",\n'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseQueryError);
    expect(error).toMatchObject({ statement: 'copy copied', code: '23505' });
    expect(inspect(error)).not.toContain('dup');
    const rolledBack = await db
      .transaction((tx) => tx.copyFrom('copy copied from stdin with (format csv)', csv('x,y,\n')))
      .catch((e: unknown) => e);
    expect(rolledBack).toMatchObject({ statement: 'copy copied', code: '22P02' });
    expect(await db.query('select count(*)::int as n from copied')).toEqual([{ n: 5001 }]);
  });

  it('applies each migration once and records it', async () => {
    expect(await runMigrations(db)).toEqual([]);
    const names = (
      await db.query<{ name: string }>('select name from schema_migrations order by name')
    ).map((row) => row.name);
    expect(names).toEqual(listMigrations().map((migration) => migration.name));
  });
});

// The path a first `npm start` takes: initdb in a worker, then open and migrate under DATA_DIR.
describe.skipIf(testDbKind() === 'postgres')('a fresh embedded database under DATA_DIR', () => {
  it('is created, migrated, and opens again with its data', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'adloom-fresh-'));
    try {
      const first = await openDatabase({ dataDir, databaseUrl: undefined });
      expect(first.kind).toBe('embedded');
      expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      await first.query(
        "insert into users (email, password_hash) values ('kept@example.com', 'x')",
      );
      await first.close();
      const second = await openDatabase({ dataDir, databaseUrl: undefined });
      expect(await second.query('select email from users')).toEqual([
        { email: 'kept@example.com' },
      ]);
      expect(
        (await second.query<{ shared_buffers: string }>('show shared_buffers'))[0]?.shared_buffers,
      ).toBe(`${PGLITE_SHARED_BUFFERS_MB}MB`);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an unexpected error', () => {
  it('answers 500 internal_error without internals', async () => {
    const t = await startTestApp();
    try {
      await t.db.exec('drop table password_reset_tokens; drop table users cascade');
      const response = await t.request('POST', '/api/users/login', {
        body: { email: 'a@example.com', password: 'whatever' },
      });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        error: {
          code: 'internal_error',
          message: 'Something went wrong on our side. Please try again later.',
        },
        type: 'error',
        message: 'Something went wrong on our side. Please try again later.',
      });
      expect(JSON.stringify(response.body)).not.toMatch(/relation|users|stack/);
    } finally {
      await t.close();
    }
  });

  it('is logged with its statement name and SQLSTATE, never its parameters', async () => {
    const lines: string[] = [];
    const t = await startTestApp({}, { logStream: { write: (line) => void lines.push(line) } });
    const email = 'param-probe@example.com';
    try {
      // Every new account now fails on insert, with the email and the password hash as parameters.
      await t.db.exec("alter table users add constraint no_new_users check (email = '') not valid");
      const response = await t.request('POST', '/api/users/register', {
        body: { email, password: 'a password of mine', 'password-confirm': 'a password of mine' },
      });
      expect(response.status).toBe(500);
    } finally {
      await t.close();
    }
    const line = lines.find((candidate) => candidate.includes('unexpected error')) ?? '';
    const logged = JSON.parse(line) as { err: Record<string, unknown> };
    expect(logged.err).toMatchObject({
      type: 'DatabaseQueryError',
      code: '23514',
      statement: 'insert users',
      message: 'query "insert users" failed (SQLSTATE 23514, constraint no_new_users)',
    });
    expect(Object.keys(logged.err).sort()).toEqual(
      ['code', 'message', 'stack', 'statement', 'type'].sort(),
    );
    const all = lines.join('\n');
    expect(all).not.toContain('$argon2');
    expect(all).not.toContain(email);
    expect(all).not.toContain('a password of mine');
  });
});

describe.skipIf(testDbKind() !== 'postgres')('a PostgreSQL connection lost', () => {
  it('does not end the process while a client is checked out between two queries', async () => {
    const database = await createPostgresDatabase(
      inject('adloomPostgresUrl'),
      `adloom_lost_${process.pid}`,
    );
    const pool = createPgPool(database.url);
    try {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      const ended = new Promise((resolve) => client.once('end', resolve));
      // The database ends this connection while the client is out of the pool, between queries
      // (as a transaction is between its statements while the server works).
      const other = await pool.connect();
      await other.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      other.release();
      await ended;
      // The next query on it fails, as a query does in an outage; the process goes on.
      await expect(client.query('select 1')).rejects.toThrow();
      client.release(true);
      expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
      await database.drop();
    }
  });
});

describe(`a test database (${testDbKind()})`, () => {
  /** Rows of every table but the migrations' own, by table. */
  async function rowCounts(db: Db): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const { name } of await listTables(db))
      if (name !== 'schema_migrations')
        counts[name] = (await db.query<{ n: number }>(`select count(*) as n from "${name}"`))[0]!.n;
    return counts;
  }

  it('starts migrated and empty, with its sequences at their start, also after another test used one', async () => {
    const used = await openTestDatabase();
    const migrations = await used.query('select name from schema_migrations order by name');
    const [first] = await used.query<{ id: number }>(
      "insert into attempts (scope, key, at_ms) values ('probe', 'k', 1) returning id",
    );
    await used.query("insert into attempts (scope, key, at_ms) values ('probe', 'k', 2)");
    const setting = "select current_setting('statement_timeout') as t";
    const [timeout] = await used.query<{ t: string }>(setting);
    await used.query("set statement_timeout = '1234s'");
    await used.close();

    const next = await openTestDatabase();
    try {
      expect(await next.query('select name from schema_migrations order by name')).toEqual(
        migrations,
      );
      const counts = await rowCounts(next);
      expect(Object.keys(counts)).toContain('attempts');
      expect(Object.values(counts).every((n) => n === 0)).toBe(true);
      const [again] = await next.query<{ id: number }>(
        "insert into attempts (scope, key, at_ms) values ('probe', 'k', 3) returning id",
      );
      expect(again?.id).toBe(first?.id);
      expect(await next.query<{ t: string }>(setting)).toEqual([timeout]);
    } finally {
      await next.close();
    }
  });

  it('never has a table another test added', async () => {
    const changed = await openTestDatabase();
    await changed.exec('create table added_by_a_test (n int)');
    await changed.close();
    const next = await openTestDatabase();
    try {
      expect(
        await next.query("select tablename from pg_tables where tablename = 'added_by_a_test'"),
      ).toEqual([]);
    } finally {
      await next.close();
    }
  });
});
