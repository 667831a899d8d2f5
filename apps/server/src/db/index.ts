import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { DB_POOL_SIZE, type Config } from '../config.ts';
import { DatabaseBusyError, isDatabaseUnavailable } from '../errors.ts';

/**
 * The thin database interface every query function takes as its first argument. The same
 * parameterised SQL ($1, $2 ...) runs on PGlite and on PostgreSQL.
 *
 * Parameters: plain objects and arrays are sent as JSON text (for jsonb columns); wrap an
 * array in `sqlArray()` to send it as a PostgreSQL array (e.g. `unnest($1::text[])`).
 * Results: int8 arrives as a number (as a string only beyond 2^53), timestamptz as Date,
 * jsonb as JS values, on both databases.
 */
export interface Db {
  kind: 'embedded' | 'postgres';
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction; a nested call joins the outer transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs a `COPY table FROM STDIN ...` statement with `data` as its input; answers the rows
   * copied. (PGlite reads the input as '/dev/blob': the statement is rewritten for it.)
   */
  copyFrom(sql: string, data: Uint8Array): Promise<number>;
  /**
   * Checks the database answers, without queueing behind the requests' work where it can: on
   * PostgreSQL over a connection of its own, outside the pool. Fails when it cannot be reached.
   */
  ping(): Promise<void>;
  /**
   * The embedded database only: a consistent copy of its data folder, a gzipped tarball
   * PGlite can start from (`loadDataDir`), taken between transactions after a checkpoint.
   */
  dumpDataDir?(): Promise<Blob>;
  /**
   * The embedded database only: closes and reopens it from its folder, once no call is running
   * (calls that arrive meanwhile wait), which gives back the memory its WebAssembly heap grew to.
   */
  recycle?(): Promise<void>;
  close(): Promise<void>;
}

/** Marks an array to be sent as a PostgreSQL array rather than as JSON. */
export class SqlArray {
  constructor(readonly values: readonly unknown[]) {}
}

/** Sends `values` as a PostgreSQL array parameter (e.g. `= any($1::uuid[])`). */
export function sqlArray(values: readonly unknown[]): SqlArray {
  return new SqlArray(values);
}

function prepareParams(params: unknown[] | undefined): unknown[] | undefined {
  if (!params) return params;
  return params.map((value) => {
    if (value instanceof SqlArray) return [...value.values];
    if (value === null || value === undefined) return null;
    if (value instanceof Date || value instanceof Uint8Array) return value;
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'object') return JSON.stringify(value);
    return value;
  });
}

const INT8_OID = 20;

/**
 * A failed query, stripped of everything that could hold user data. The drivers' own errors
 * carry the SQL parameters (PGlite attaches `params` and the query), `detail` ("Key (email)=(…)
 * already exists") and messages that quote values ("invalid input syntax for type uuid: …");
 * this one keeps only the statement's name and PostgreSQL's SQLSTATE code (or the driver's
 * connection error code), so it can be logged whole.
 */
export class DatabaseQueryError extends Error {
  override name = 'DatabaseQueryError';
  /** SQLSTATE (e.g. '23505'), or a connection error code (e.g. 'ECONNREFUSED'); undefined when neither is known. */
  readonly code: string | undefined;
  /** The statement's name: its verb and first table, e.g. 'insert users'. */
  readonly statement: string;
  /** The violated constraint's name (a schema name, never a value), when PostgreSQL gives one. */
  readonly constraint: string | undefined;

  constructor(statement: string, code: string | undefined, constraint?: string, reason?: string) {
    const what = code ? `SQLSTATE ${code}` : 'no SQLSTATE';
    super(
      `query "${statement}" failed (${what}${constraint ? `, constraint ${constraint}` : ''})` +
        (reason ? `: ${reason}` : ''),
    );
    this.code = code;
    this.statement = statement;
    this.constraint = constraint;
  }
}

const SQL_NAME = /^[a-z_][a-z0-9_$.]*$/i;

/** A statement's log name: its verb and first table ('insert users', 'select clients', 'begin'). */
export function nameStatement(sql: string): string {
  const text = sql.replace(/--[^\n]*/g, ' ').trim();
  const verb = /^[a-z]+/i.exec(text)?.[0]?.toLowerCase() ?? 'statement';
  const table =
    /\b(?:from|into|update|join|copy|table(?:\s+if\s+(?:not\s+)?exists)?)\s+([a-z_][a-z0-9_$.]*)/i.exec(
      text,
    )?.[1];
  return table && SQL_NAME.test(table) ? `${verb} ${table.toLowerCase()}` : verb;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
// SQLSTATE connection_failure: what a lost connection without a code of its own is reported as.
const CONNECTION_FAILURE = '08006';

function readCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Za-z_]{1,32}$/.test(code) ? code : undefined;
}

/**
 * The sanitised form of anything a driver threw for `sql`: the SQLSTATE code, or for a
 * connection failure its errno-style code (08006 when it has none), so that
 * `isDatabaseUnavailable` still recognises it.
 */
export function sanitizeDatabaseError(error: unknown, sql: string): DatabaseQueryError {
  if (error instanceof DatabaseQueryError) return error;
  const statement = nameStatement(sql);
  const code = readCode(error);
  if (code && SQLSTATE.test(code)) {
    const constraint = (error as { constraint?: unknown }).constraint;
    return new DatabaseQueryError(
      statement,
      code,
      typeof constraint === 'string' && SQL_NAME.test(constraint) ? constraint : undefined,
    );
  }
  if (isDatabaseUnavailable(error)) {
    const inner =
      error instanceof AggregateError ? error.errors.map(readCode).find(Boolean) : undefined;
    return new DatabaseQueryError(
      statement,
      code ?? inner ?? CONNECTION_FAILURE,
      undefined,
      'the database cannot be reached',
    );
  }
  const kind = error instanceof Error ? error.name : typeof error;
  return new DatabaseQueryError(statement, undefined, undefined, `driver error (${kind})`);
}

/** Runs one driver call; a failure leaves as a DatabaseQueryError naming `sql`'s statement. */
async function guard<T>(sql: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw sanitizeDatabaseError(error, sql);
  }
}

const FROM_STDIN = /\bfrom\s+stdin\b/i;

/** The ArrayBuffer `data` fills exactly (it can be handed over whole), else undefined. */
function wholeBufferOf(data: Uint8Array): ArrayBuffer | undefined {
  const buffer = data.buffer;
  return buffer instanceof ArrayBuffer &&
    data.byteOffset === 0 &&
    data.byteLength === buffer.byteLength
    ? buffer
    : undefined;
}

/**
 * The `blob` a PGlite COPY reads. PGlite only ever calls `arrayBuffer()` on it: bytes that fill
 * their whole ArrayBuffer (a body read into a buffer of its own size, a file read whole) are
 * handed over as they are. A Blob would cost two copies of a 30 MB build record (the Blob's own,
 * and arrayBuffer()'s).
 */
function pgliteCopyInput(data: Uint8Array): Blob {
  const buffer = wholeBufferOf(data);
  if (buffer) {
    const whole = { size: data.byteLength, arrayBuffer: () => Promise.resolve(buffer) };
    return whole as unknown as Blob;
  }
  return new Blob([data]);
}

/** PGlite has no COPY sub-protocol: its COPY reads the query's blob as the file '/dev/blob'. */
function pgliteCopySql(sql: string): string {
  if (!FROM_STDIN.test(sql)) throw new Error('copyFrom takes a COPY ... FROM STDIN statement');
  return sql.replace(FROM_STDIN, "from '/dev/blob'");
}

// pg-copy-streams sends each chunk as one CopyData message.
const COPY_CHUNK_BYTES = 1 << 20;

/** Streams `data` into a COPY FROM STDIN on `client`; answers the rows copied. */
async function copyThroughClient(
  client: pg.PoolClient,
  sql: string,
  data: Uint8Array,
): Promise<number> {
  const stream = client.query(copyFromStdin(sql));
  function* chunks(): Generator<Uint8Array> {
    for (let start = 0; start < data.length; start += COPY_CHUNK_BYTES)
      yield data.subarray(start, start + COPY_CHUNK_BYTES);
  }
  await pipeline(Readable.from(chunks()), stream);
  return stream.rowCount;
}

function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/** Wraps a PGlite instance (or one of its transactions). */
export function createPgliteDb(pglite: PGlite): Db {
  type Tx = Parameters<Parameters<PGlite['transaction']>[0]>[0];
  const wrapTx = (tx: Tx): Db => ({
    kind: 'embedded',
    async query<T>(sql: string, params?: unknown[]) {
      const result = await guard(sql, () => tx.query<T>(sql, prepareParams(params)));
      return result.rows;
    },
    transaction: (fn) => fn(wrapTx(tx)),
    async exec(sql) {
      await guard(sql, () => tx.exec(sql));
    },
    async copyFrom(sql, data) {
      const result = await guard(sql, () =>
        tx.query(pgliteCopySql(sql), [], { blob: pgliteCopyInput(data) }),
      );
      return result.affectedRows ?? 0;
    },
    async ping() {
      await guard('select 1', () => tx.query('select 1'));
    },
    close: () => Promise.reject(new Error('close() is not available inside a transaction')),
  });
  return {
    kind: 'embedded',
    async ping() {
      // In-process: it answers once the statement or transaction running now is done.
      await guard('select 1', () => pglite.query('select 1'));
    },
    async query<T>(sql: string, params?: unknown[]) {
      const result = await guard(sql, () => pglite.query<T>(sql, prepareParams(params)));
      return result.rows;
    },
    async transaction(fn) {
      // What fn throws passes through (its queries are already guarded); a failed BEGIN,
      // COMMIT or ROLLBACK is sanitised like any query.
      let fnError: { error: unknown } | undefined;
      try {
        return await pglite.transaction(async (tx) => {
          try {
            return await fn(wrapTx(tx));
          } catch (error) {
            fnError = { error };
            throw error;
          }
        });
      } catch (error) {
        if (fnError) throw fnError.error;
        throw sanitizeDatabaseError(error, 'commit');
      }
    },
    async exec(sql) {
      await guard(sql, () => pglite.exec(sql));
    },
    async copyFrom(sql, data) {
      const result = await guard(sql, () =>
        pglite.query(pgliteCopySql(sql), [], { blob: pgliteCopyInput(data) }),
      );
      return result.affectedRows ?? 0;
    },
    async dumpDataDir() {
      // The checkpoint writes the data files, leaving little write-ahead log to replay.
      await guard('checkpoint', () => pglite.exec('checkpoint'));
      // Every statement, and a transaction whole, holds this lock (dumpDataDir alone takes only
      // the per-statement one): no transaction is half done in the files it copies.
      return pglite._runExclusiveTransaction(() => pglite.dumpDataDir('gzip'));
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * The embedded database, reopened by `recycle()`: PGlite's WebAssembly memory only grows (a 30 MB
 * jsonb document takes it up by ~150 MB, several saves by ~450 MB) and is given back only when
 * the instance (its worker) is dropped. `open` opens it again from its folder. Every call counts
 * as running until it ends (a transaction as one call); a recycle waits for none to run, holds
 * new calls, closes, reopens and lets them go. Nothing is lost: the closed instance has written
 * everything to the folder. A lost worker (`isLost`) is replaced the same way before the next
 * call.
 */
export function createRecyclablePgliteDb(
  first: Db & { isLost?(): boolean },
  open: () => Promise<Db & { isLost?(): boolean }>,
): Db {
  let current = first;
  let running = 0;
  let onIdle: (() => void) | undefined;
  let recycling: Promise<void> | undefined;
  async function run<T>(call: (db: Db) => Promise<T>): Promise<T> {
    while (recycling) await recycling;
    if (current.isLost?.()) await recycle();
    running += 1;
    try {
      return await call(current);
    } finally {
      running -= 1;
      if (running === 0) onIdle?.();
    }
  }
  async function reopen(): Promise<void> {
    if (running > 0) await new Promise<void>((resolve) => (onIdle = resolve));
    onIdle = undefined;
    await current.close();
    current = await open();
  }
  function recycle(): Promise<void> {
    if (recycling) return recycling;
    recycling = reopen().finally(() => {
      recycling = undefined;
    });
    return recycling;
  }
  return {
    kind: 'embedded',
    query: (sql, params) => run((db) => db.query(sql, params)),
    transaction: (fn) => run((db) => db.transaction(fn)),
    exec: (sql) => run((db) => db.exec(sql)),
    copyFrom: (sql, data) => run((db) => db.copyFrom(sql, data)),
    ping: () => run((db) => db.ping()),
    dumpDataDir: () => run((db) => db.dumpDataDir!()),
    recycle,
    async close() {
      while (recycling) await recycling;
      await current.close();
    },
  };
}

/** Options for a PGlite database. */
export interface PgliteOptions {
  /** Folder to persist in; omit for an in-memory database. */
  dataDir?: string;
  /** A `dumpDataDir()` snapshot to start from. */
  loadDataDir?: Blob | File;
}

/** Shared buffers of the embedded database. */
export const PGLITE_SHARED_BUFFERS_MB = 32;
const PGLITE_CONF = [`shared_buffers = ${PGLITE_SHARED_BUFFERS_MB}MB`];

/** Opens PGlite with the int8 parser that matches the pg driver. */
export async function openPglite(options: PgliteOptions = {}): Promise<PGlite> {
  if (options.dataDir) mkdirSync(dirname(options.dataDir), { recursive: true });
  const pglite = new PGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers: { [INT8_OID]: parseInt8, [pgliteTypes.NUMERIC]: (text: string) => text },
    // PostgreSQL's default 128 MB of shared buffers lives inside PGlite's WebAssembly memory;
    // 32 MB is plenty for one user's workspace and saves ~100 MB of resident memory.
    postgresqlconf: PGLITE_CONF,
    // The geo targets' name search uses a trigram index (migration 0007).
    extensions: { pg_trgm },
  });
  await pglite.waitReady;
  return pglite;
}

/** Creates a new PGlite data folder in a worker thread, so initdb's memory is returned when it ends. */
export async function initPgliteDataDir(dataDir: string): Promise<void> {
  mkdirSync(dirname(dataDir), { recursive: true });
  const worker = new Worker(new URL('./pglite-initdb.mjs', import.meta.url), {
    workerData: { dataDir, postgresqlconf: PGLITE_CONF },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`PGlite initdb worker exited with ${code}`)),
    );
  });
}

/** What the embedded database's worker answers to one message (pglite-worker.mjs). */
interface WorkerAnswer {
  id: number;
  result?: unknown;
  error?: { name: string; message: string; code?: string; constraint?: string };
}

/** The driver error a worker's answer stands for (sanitised by `guard` as any driver error). */
function workerError(error: NonNullable<WorkerAnswer['error']>): Error {
  return Object.assign(new Error(error.message), {
    name: error.name,
    code: error.code,
    constraint: error.constraint,
  });
}

/**
 * The embedded database in `dataDir`, run in a worker thread (db/pglite-worker.mjs): its
 * statements never hold the event loop (a 50 MB insert takes PGlite over a second), so
 * `/api/ready` and what needs no database answer meanwhile. Statements queue in PGlite as they
 * would in-process: one at a time, a transaction whole. Bytes given to `copyFrom` are moved to
 * the worker when they fill their buffer (the caller's view is empty afterwards), else copied.
 * The worker keeps the process alive only while a call waits on it. When it is lost (it
 * crashed, or ran out of memory), every waiting and later call fails as a driver error, and
 * `isLost` says so (createRecyclablePgliteDb then opens a new one from the folder).
 */
export async function openPgliteWorkerDb(dataDir: string): Promise<Db & { isLost(): boolean }> {
  mkdirSync(dirname(dataDir), { recursive: true });
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir, postgresqlconf: PGLITE_CONF },
  });
  worker.unref();
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let lastId = 0;
  let lost: Error | undefined;
  let isClosed = false;
  const loseAll = (error: Error): void => {
    lost ??= error;
    for (const call of waiting.values()) call.reject(lost);
    waiting.clear();
    worker.unref();
  };
  worker.on('message', (answer: WorkerAnswer) => {
    const call = waiting.get(answer.id);
    if (!call) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if (answer.error) call.reject(workerError(answer.error));
    else call.resolve(answer.result);
  });
  worker.on('error', (error) => loseAll(error));
  worker.on('exit', (code) =>
    loseAll(new Error(`the embedded database's worker ended (exit code ${code})`)),
  );
  function call<T>(message: Record<string, unknown>, copy?: Uint8Array): Promise<T> {
    if (lost) return Promise.reject(lost);
    const id = (lastId += 1);
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (waiting.size === 1) worker.ref();
      if (!copy) {
        worker.postMessage({ id, ...message });
        return;
      }
      const buffer = wholeBufferOf(copy);
      if (buffer) {
        try {
          worker.postMessage({ id, ...message, copy: buffer }, [buffer]);
          return;
        } catch {
          // Not transferable (a Buffer of Node's shared pool): copied below.
        }
      }
      // A part of a buffer, or one that cannot move: a copy goes. (Not `copy.slice()`: a
      // Buffer's slice is a view of the same memory.)
      const copied = new Uint8Array(copy.byteLength);
      copied.set(copy);
      worker.postMessage({ id, ...message, copy: copied.buffer }, [copied.buffer]);
    });
  }
  const statements = (tx: number | undefined): Db => ({
    kind: 'embedded',
    async query<T>(sql: string, params?: unknown[]) {
      const result = await guard(sql, () =>
        call<{ rows: T[] }>({ op: 'query', tx, sql, params: prepareParams(params) }),
      );
      return result.rows;
    },
    transaction: (fn) =>
      tx === undefined
        ? transaction(fn)
        : // A nested call joins the outer transaction.
          fn(statements(tx)),
    async exec(sql) {
      await guard(sql, () => call({ op: 'exec', tx, sql }));
    },
    async copyFrom(sql, data) {
      const copySql = pgliteCopySql(sql);
      const result = await guard(sql, () =>
        call<{ affectedRows: number }>({ op: 'query', tx, sql: copySql, params: [] }, data),
      );
      return result.affectedRows;
    },
    async ping() {
      await guard('select 1', () => call({ op: 'query', tx, sql: 'select 1' }));
    },
    close: () => Promise.reject(new Error('close() is not available inside a transaction')),
  });
  async function transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    // A failed BEGIN, COMMIT or ROLLBACK is sanitised like any query; what fn throws passes
    // through (its queries are already guarded), after the rollback.
    const tx = await guard('begin', () => call<number>({ op: 'begin' }));
    let result: T;
    try {
      result = await fn(statements(tx));
    } catch (error) {
      await call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await guard('commit', () => call({ op: 'end', tx, commit: true }));
    return result;
  }
  const db: Db & { isLost(): boolean } = {
    ...statements(undefined),
    isLost: () => lost !== undefined && !isClosed,
    async dumpDataDir() {
      const bytes = await guard('checkpoint', () => call<ArrayBuffer>({ op: 'dump' }));
      return new Blob([bytes]);
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      if (!lost) await call({ op: 'close' }).catch(() => undefined);
      await worker.terminate();
    },
  };
  try {
    await call({ op: 'ready' });
  } catch (error) {
    await worker.terminate();
    throw sanitizeDatabaseError(error, 'open');
  }
  return db;
}

/** Wraps a pg Pool. The pool reconnects by itself once PostgreSQL is back. */
export function createPgDb(pool: pg.Pool): Db {
  const wrapClient = (client: pg.PoolClient): Db => ({
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      const result = await guard(sql, () => client.query(sql, prepareParams(params)));
      return result.rows as T[];
    },
    transaction: (fn) => fn(wrapClient(client)),
    async exec(sql) {
      await guard(sql, () => client.query(sql));
    },
    copyFrom: (sql, data) => guard(sql, () => copyThroughClient(client, sql, data)),
    async ping() {
      await guard('select 1', () => client.query('select 1'));
    },
    close: () => Promise.reject(new Error('close() is not available inside a transaction')),
  });
  const poolSize = pool.options.max ?? DB_POOL_SIZE;
  /**
   * Runs a call that takes a pool connection. When every connection was in use, the call waited
   * in the pool's queue: its timeout then means busy (DatabaseBusyError), not unreachable.
   */
  const loop = watchEventLoop();
  async function fromPool<T>(sql: string, run: () => Promise<T>): Promise<T> {
    const mustWait = pool.totalCount >= poolSize && pool.idleCount === 0;
    const startedAt = performance.now();
    try {
      return await run();
    } catch (error) {
      const waitedMs = Math.round(performance.now() - startedAt);
      const message = error instanceof Error ? error.message : '';
      if (mustWait && POOL_WAIT_TIMEOUT.test(message))
        throw new DatabaseBusyError(
          nameStatement(sql),
          `waited ${waitedMs} ms while all ${poolSize} of the pool's connections were in use`,
        );
      // A new connection's handshake timed out while this process's event loop was blocked:
      // the server was too busy to read the database's answer in time, not cut off from it.
      const blockedMs = loop.longestBlockSince(startedAt);
      if (CONNECT_TIMEOUT.test(message) && blockedMs >= BLOCKED_LOOP_MS)
        throw new DatabaseBusyError(
          nameStatement(sql),
          `connecting timed out after ${waitedMs} ms while this server's event loop was blocked for ${blockedMs} ms`,
        );
      throw sanitizeDatabaseError(error, sql);
    }
  }
  // The readiness check's own connection, so it never waits behind a busy pool.
  let pinger: pg.Client | undefined;
  async function ping(): Promise<void> {
    if (!pinger) {
      const client = new pg.Client({
        ...pool.options,
        connectionTimeoutMillis: PING_CONNECT_TIMEOUT_MS,
      });
      client.on('error', () => {
        if (pinger === client) pinger = undefined;
      });
      await guard('connect', () => client.connect());
      pinger = client;
    }
    const client = pinger;
    try {
      await guard('select 1', () => client.query('select 1'));
    } catch (error) {
      if (pinger === client) pinger = undefined;
      void client.end().catch(() => {});
      throw error;
    }
  }
  let isClosed = false;
  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      const result = await fromPool(sql, () => pool.query(sql, prepareParams(params)));
      return result.rows as T[];
    },
    ping,
    async transaction(fn) {
      const client = await fromPool('begin', () => pool.connect());
      let isBroken = false;
      try {
        await guard('begin', () => client.query('BEGIN'));
        const value = await fn(wrapClient(client));
        await guard('commit', () => client.query('COMMIT'));
        return value;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          isBroken = true;
        }
        throw error;
      } finally {
        // A client whose connection broke is destroyed rather than returned to the pool.
        client.release(isBroken ? true : undefined);
      }
    },
    async exec(sql) {
      await fromPool(sql, () => pool.query(sql));
    },
    async copyFrom(sql, data) {
      const client = await fromPool(sql, () => pool.connect());
      let isBroken = false;
      try {
        return await guard(sql, () => copyThroughClient(client, sql, data));
      } catch (error) {
        isBroken = true;
        throw error;
      } finally {
        client.release(isBroken ? true : undefined);
      }
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      loop.stop();
      await pinger?.end().catch(() => {});
      await pool.end();
    },
  };
}

/** pg-pool's error when a new connection was not made within connectionTimeoutMillis. */
const CONNECT_TIMEOUT = /^Connection terminated due to connection timeout$/;
/** An event loop this late on a tick was blocked (a large body being parsed, on a loaded machine). */
const BLOCKED_LOOP_MS = 1000;
const LOOP_TICK_MS = 100;

/** Watches this process's event loop: the longest block seen since a given time. */
function watchEventLoop(): { longestBlockSince(since: number): number; stop(): void } {
  // Blocks of the last minute, as [when it ended, how long], oldest first.
  const blocks: [number, number][] = [];
  let expected = performance.now() + LOOP_TICK_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    const lateMs = now - expected;
    expected = now + LOOP_TICK_MS;
    if (lateMs >= BLOCKED_LOOP_MS) blocks.push([now, Math.round(lateMs)]);
    while (blocks.length > 0 && blocks[0]![0] < now - 60_000) blocks.shift();
  }, LOOP_TICK_MS);
  timer.unref();
  return {
    longestBlockSince(since) {
      // A block that ended after `since` overlapped the call.
      return Math.max(0, ...blocks.filter(([end]) => end >= since).map(([, ms]) => ms));
    },
    stop: () => clearInterval(timer),
  };
}

/** pg-pool's error when no connection became free within connectionTimeoutMillis. */
const POOL_WAIT_TIMEOUT = /^timeout exceeded when trying to connect$/;
/** The readiness check's connection must be made within this time. */
const PING_CONNECT_TIMEOUT_MS = 2000;
/** Default longest wait for a pool connection (then busy or unreachable). */
export const POOL_CONNECT_TIMEOUT_MS = 5000;

/** A pg Pool whose type parsers agree with PGlite's (int8 as number, numeric as text). */
export function createPgPool(
  connectionString: string,
  onError: (error: Error) => void = () => {},
  options: { max?: number; connectionTimeoutMillis?: number } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? DB_POOL_SIZE,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? POOL_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? parseInt8
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection (database restarted) must not crash the process.
  pool.on('error', onError);
  // Nor a checked-out one between two queries (inside a transaction while the server works):
  // the pool listens only to idle clients. The next query on it fails and reports the loss.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Folder of the SQL migrations. */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Migration files in the order they apply. */
export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

// Any fixed number: serialises concurrent migrators on one PostgreSQL database.
const MIGRATION_LOCK_KEY = 740_312_101;

/** Applies every migration not yet recorded in schema_migrations, each in its own transaction. */
export async function runMigrations(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  // Under the lock too: servers starting at once on an empty database would race to create it.
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`);
  });
  const applied: string[] = [];
  for (const migration of listMigrations(dir)) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('select 1 from schema_migrations where name = $1', [
        migration.name,
      ]);
      if (done.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (name) values ($1)', [migration.name]);
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return applied;
}

/** Opens the configured database (PGlite under DATA_DIR, or PostgreSQL on DATABASE_URL) and migrates it. */
export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  onPoolError?: (error: Error) => void,
): Promise<Db> {
  let db: Db;
  if (config.databaseUrl) {
    db = createPgDb(createPgPool(config.databaseUrl, onPoolError));
  } else {
    const dataDir = join(config.dataDir, 'pglite');
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await initPgliteDataDir(dataDir);
    const open = () => openPgliteWorkerDb(dataDir);
    db = createRecyclablePgliteDb(await open(), open);
  }
  try {
    await runMigrations(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}
