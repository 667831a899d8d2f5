/**
 * Issue 37, finding 2: the embedded database's memory stayed near 900 MB after big saves
 * (PGlite's WebAssembly memory only grows). The server reopens it once quiet (main.ts); the
 * reopening must lose nothing and make no call fail.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import {
  createRecyclablePgliteDb,
  openPglite,
  openPgliteWorkerDb,
  type Db,
} from '../src/db/index.ts';
import { testDbKind } from './helpers.ts';

describe.runIf(testDbKind() === 'pglite')('the embedded database, reopened', () => {
  let dir: string | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    db = undefined;
    dir = undefined;
  });

  async function openFromSnapshot(): Promise<Db> {
    dir = mkdtempSync(join(tmpdir(), 'adloom-recycle-'));
    const dataDir = join(dir, 'pglite');
    const snapshot = new Blob([readFileSync(inject('adloomPgliteSnapshot'))]);
    // The folder made from the snapshot, then opened as the server opens it (in its worker).
    const pglite = await openPglite({ dataDir, loadDataDir: snapshot });
    await pglite.close();
    const open = () => openPgliteWorkerDb(dataDir);
    return createRecyclablePgliteDb(await open(), open);
  }

  it('waits for a running transaction, holds the calls that arrive meanwhile, and loses nothing', async () => {
    db = await openFromSnapshot();
    await db.exec('create table recycled (n int primary key, doc jsonb)');
    await db.query('insert into recycled values (1, $1)', [{ rows: ['a', 'b'] }]);
    const backendBefore = await db.query<{ started: Date }>(
      'select pg_postmaster_start_time() as started',
    );

    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let inTransaction = () => {};
    const started = new Promise<void>((resolve) => (inTransaction = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('insert into recycled values (2, $1)', [{ rows: ['c'] }]);
      inTransaction();
      await released;
      await tx.query('insert into recycled values (3, $1)', [{ rows: ['d'] }]);
    });
    await started;
    let isRecycled = false;
    const recycle = db.recycle!().then(() => (isRecycled = true));
    // A call made while the recycle waits: answered after it, by the reopened database.
    const during = db.query<{ n: number }>('select n from recycled order by n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const wasRecycledBeforeTheTransactionEnded = isRecycled;
    release();
    await transaction;
    await recycle;

    expect(wasRecycledBeforeTheTransactionEnded).toBe(false);
    expect((await during).map((row) => row.n)).toEqual([1, 2, 3]);
    expect(await db.query('select n, doc from recycled order by n')).toEqual([
      { n: 1, doc: { rows: ['a', 'b'] } },
      { n: 2, doc: { rows: ['c'] } },
      { n: 3, doc: { rows: ['d'] } },
    ]);
    // Another instance answers: it was reopened, not left as it was.
    const backendAfter = await db.query<{ started: Date }>(
      'select pg_postmaster_start_time() as started',
    );
    expect(backendAfter[0]!.started.getTime()).toBeGreaterThan(backendBefore[0]!.started.getTime());
  });
});
