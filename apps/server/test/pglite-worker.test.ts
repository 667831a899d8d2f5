/**
 * Issue 37: `/api/ready` waited seconds on the embedded database, whose statements ran on the
 * event loop (PGlite's WebAssembly). The server now runs it in a worker thread
 * (db/pglite-worker.mjs); the same calls must give the same answers, and a long statement must
 * leave the event loop free.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createPgliteDb,
  DatabaseQueryError,
  openPglite,
  openPgliteWorkerDb,
  sqlArray,
  type Db,
} from '../src/db/index.ts';
import { testDbKind } from './helpers.ts';

/** A statement that keeps PGlite busy for a while (a few hundred milliseconds here). */
const LONG_STATEMENT =
  'select count(*) as n from generate_series(1, 1000000) a where a % 7 = 3 or md5(a::text) < $1';

/** How many turns the event loop took while `work` ran (a turn each time it was free). */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let isRunning = true;
  const turn = (): void => {
    if (!isRunning) return;
    turns += 1;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    isRunning = false;
  }
  return turns;
}

describe.runIf(testDbKind() === 'pglite')('the embedded database in its worker', () => {
  let dir: string;
  let db: Db;
  /** A data folder made from the run's migrated snapshot. */
  async function folderFromSnapshot(name: string): Promise<string> {
    const dataDir = join(dir, name);
    const snapshot = new Blob([readFileSync(inject('adloomPgliteSnapshot'))]);
    await (await openPglite({ dataDir, loadDataDir: snapshot })).close();
    return dataDir;
  }
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adloom-worker-db-'));
    db = await openPgliteWorkerDb(await folderFromSnapshot('pglite'));
    await db.exec(
      'create table probe (id int primary key, big int8, doc jsonb, at timestamptz, amount numeric, tags text[], bytes bytea)',
    );
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers as in-process: int8 as numbers, numeric as text, dates, JSON, arrays and bytes', async () => {
    const at = new Date('2026-12-07T10:00:00.000Z');
    await db.query('insert into probe values ($1, $2, $3, $4, $5, $6, $7)', [
      1,
      9_007_199_254_740_991,
      { rows: [['a', 'ü "quoted"']] },
      at,
      '12.50',
      sqlArray(['x', 'y']),
      new Uint8Array([0, 255, 7]),
    ]);
    const [row] = await db.query<Record<string, unknown>>('select * from probe where id = 1');
    expect(row).toEqual({
      id: 1,
      big: 9_007_199_254_740_991,
      doc: { rows: [['a', 'ü "quoted"']] },
      at,
      amount: '12.50',
      tags: ['x', 'y'],
      bytes: new Uint8Array([0, 255, 7]),
    });
    const [count] = await db.query<{ n: number }>('select count(*) as n from probe');
    expect(count?.n).toBe(1);
  });

  it('commits a transaction, rolls one back on a throw (the error passes through), and joins a nested one', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into probe (id) values (10)');
      await tx.transaction(async (inner) => inner.query('insert into probe (id) values (11)'));
    });
    const thrown = new Error('changed my mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into probe (id) values (12)');
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    const ids = await db.query<{ id: number }>('select id from probe where id >= 10 order by id');
    expect(ids.map((r) => r.id)).toEqual([10, 11]);
    // The rolled-back transaction left nothing open: the next one runs.
    await db.transaction((tx) => tx.query('delete from probe where id = 11'));
    expect(await db.query('select id from probe where id = 11')).toEqual([]);
  });

  it('fails as a sanitised query error: the code and the statement, no value', async () => {
    const error = await db
      .query('insert into probe (id, doc) values ($1, $2)', [10, { secret: 'hunter2' }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseQueryError);
    expect(error).toMatchObject({ code: '23505', statement: 'insert probe' });
    expect(JSON.stringify(error) + String(error)).not.toContain('hunter2');
  });

  it('copies: a whole buffer is moved to the worker, a part of one copied', async () => {
    const text = (ids: number[]) => ids.map((id) => `${id}\t${id * 2}\n`).join('');
    const whole = new TextEncoder().encode(text([20, 21, 22]));
    expect(await db.copyFrom('copy probe (id, big) from stdin', whole)).toBe(3);
    expect(whole.byteLength).toBe(0);
    const buffer = new TextEncoder().encode(`xx${text([23])}`);
    const part = buffer.subarray(2);
    expect(await db.copyFrom('copy probe (id, big) from stdin', part)).toBe(1);
    expect(part.byteLength).toBe(buffer.byteLength - 2);
    // A small Buffer lives in Node's shared pool: copied, and the pool's other bytes stay out.
    const pooled = Buffer.from(text([24]));
    expect(pooled.byteOffset > 0 || pooled.buffer.byteLength > pooled.byteLength).toBe(true);
    expect(await db.copyFrom('copy probe (id, big) from stdin', pooled)).toBe(1);
    expect(pooled.toString()).toBe(text([24]));
    const rows = await db.query<{ id: number; big: number }>(
      'select id, big from probe where id between 20 and 24 order by id',
    );
    expect(rows).toEqual([20, 21, 22, 23, 24].map((id) => ({ id, big: id * 2 })));
  });

  it('keeps the event loop free while a long statement runs (in-process, it is held)', async () => {
    const inWorker = await turnsDuring(() => db.query(LONG_STATEMENT, ['0']));
    const pglite = await openPglite({
      loadDataDir: new Blob([readFileSync(inject('adloomPgliteSnapshot'))]),
    });
    try {
      const inProcess = await turnsDuring(() =>
        createPgliteDb(pglite).query(LONG_STATEMENT, ['0']),
      );
      // The same statement: in the worker the loop turned many times, in-process hardly ever.
      expect(inProcess).toBeLessThan(5);
      expect(inWorker).toBeGreaterThan(10 * Math.max(1, inProcess));
    } finally {
      await pglite.close();
    }
  });

  it('answers a ping while another statement runs, after it', async () => {
    const order: string[] = [];
    await Promise.all([
      db.query(LONG_STATEMENT, ['0']).then(() => order.push('long')),
      db.ping().then(() => order.push('ping')),
    ]);
    expect(order).toEqual(['long', 'ping']);
  });

  it('dumps its folder as a tarball the embedded database opens', async () => {
    const dump = await db.dumpDataDir!();
    const copy = await openPglite({ loadDataDir: dump });
    try {
      const rows = await createPgliteDb(copy).query<{ id: number }>(
        'select id from probe where id between 20 and 24 order by id',
      );
      expect(rows.map((r) => r.id)).toEqual([20, 21, 22, 23, 24]);
    } finally {
      await copy.close();
    }
  });

  it('refuses calls once closed', async () => {
    const closed = await openPgliteWorkerDb(await folderFromSnapshot('closed'));
    await closed.query('select 1');
    await closed.close();
    await expect(closed.query('select 1')).rejects.toBeInstanceOf(DatabaseQueryError);
  });
});
