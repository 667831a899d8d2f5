// Runs in a worker thread: the server's embedded database (PGlite, PostgreSQL in WebAssembly).
// Its statements run here, so a long one (a feed's 50 MB insert, a big read) never holds the
// server's event loop: `/api/ready`, health checks and work that needs no database go on
// meanwhile. db/pglite-worker-db.ts starts it and speaks its messages:
//   { id, op: 'ready' | 'query' | 'exec' | 'begin' | 'end' | 'dump' | 'close', tx?, sql?, params?,
//     copy?: ArrayBuffer, commit? }
// answered { id, result } or { id, error: { name, message, code?, constraint? } } (the caller
// sanitises it: nothing here is logged). A transaction is begun by 'begin' (answered with its
// number once BEGIN ran), its statements carry `tx`, and 'end' commits or rolls it back.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const INT8_OID = 20;

/** int8 as a number (as the pg driver's parser in db/index.ts), a string beyond 2^53. */
function parseInt8(text) {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

const pglite = new PGlite({
  dataDir: workerData.dataDir,
  parsers: { [INT8_OID]: parseInt8, [types.NUMERIC]: (text) => text },
  postgresqlconf: workerData.postgresqlconf,
  extensions: { pg_trgm },
});

/** Open transactions by number: the PGlite transaction and how to end it. */
const transactions = new Map();
let lastTransaction = 0;
/** Thrown out of a transaction's callback to roll it back (not an error of the database). */
const ROLLBACK = Symbol('rollback');

function answer(id, result, transfer) {
  parentPort.postMessage({ id, result }, transfer ?? []);
}

function fail(id, error) {
  const isError = error instanceof Error;
  const code = error?.code;
  const constraint = error?.constraint;
  parentPort.postMessage({
    id,
    error: {
      name: isError ? error.name : typeof error,
      message: isError ? error.message : String(error),
      code: typeof code === 'string' ? code : undefined,
      constraint: typeof constraint === 'string' ? constraint : undefined,
    },
  });
}

/** The COPY input PGlite reads as '/dev/blob': it only calls arrayBuffer() (no copy made). */
function copyInput(buffer) {
  return { size: buffer.byteLength, arrayBuffer: () => Promise.resolve(buffer) };
}

/** Where a statement runs: its transaction, or the database. */
function target(message) {
  if (message.tx === undefined) return pglite;
  const open = transactions.get(message.tx);
  if (!open) throw new Error('the transaction has ended');
  return open.tx;
}

function begin(id) {
  const number = (lastTransaction += 1);
  let started = false;
  let end;
  const ending = new Promise((resolve) => (end = resolve));
  const open = { tx: undefined, end, endId: undefined };
  pglite
    .transaction(async (tx) => {
      open.tx = tx;
      transactions.set(number, open);
      started = true;
      answer(id, number);
      const commit = await ending;
      if (!commit) throw ROLLBACK;
    })
    .then(
      () => answer(open.endId, null),
      (error) => {
        if (!started) fail(id, error);
        else if (error === ROLLBACK) answer(open.endId, null);
        else fail(open.endId, error);
      },
    )
    .finally(() => transactions.delete(number));
}

async function run(message) {
  switch (message.op) {
    case 'ready':
      await pglite.waitReady;
      return null;
    case 'query': {
      const options = message.copy ? { blob: copyInput(message.copy) } : undefined;
      const result = await target(message).query(message.sql, message.params, options);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    }
    case 'exec':
      await target(message).exec(message.sql);
      return null;
    case 'dump': {
      // The checkpoint writes the data files, leaving little write-ahead log to replay. Every
      // statement, and a transaction whole, holds the exclusive lock (dumpDataDir alone takes
      // only the per-statement one): no transaction is half done in the files it copies.
      await pglite.exec('checkpoint');
      const blob = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir('gzip'));
      return blob.arrayBuffer();
    }
    case 'close':
      if (!pglite.closed) await pglite.close();
      return null;
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  if (message.op === 'begin') {
    begin(message.id);
    return;
  }
  if (message.op === 'end') {
    const open = transactions.get(message.tx);
    if (!open) {
      fail(message.id, new Error('the transaction has ended'));
      return;
    }
    open.endId = message.id;
    open.end(message.commit === true);
    return;
  }
  run(message).then(
    (result) => answer(message.id, result, result instanceof ArrayBuffer ? [result] : undefined),
    (error) => fail(message.id, error),
  );
});
