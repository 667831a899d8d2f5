/**
 * Rate-limit attempts in the database (migration 0008): the queries of DbAttemptStore. Keys are
 * digests, never user data, so nothing here is scoped by user.
 */
import type { Db } from './index.ts';

/** Holds the (scope, key) pair's lock until the transaction ends: its counts change one at a time. */
export async function lockAttemptKey(tx: Db, scope: string, key: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${scope}\u001f${key}`]);
}

/** The key's attempt times after `since` (ms), oldest first, after dropping the older ones. */
export async function listAttemptTimes(
  tx: Db,
  scope: string,
  key: string,
  since: number,
): Promise<number[]> {
  await tx.query(`delete from attempts where scope = $1 and key = $2 and at_ms <= $3`, [
    scope,
    key,
    since,
  ]);
  const rows = await tx.query<{ at_ms: number }>(
    `select at_ms from attempts where scope = $1 and key = $2 order by at_ms, id`,
    [scope, key],
  );
  return rows.map((row) => Number(row.at_ms));
}

/** Counts an attempt at `at` (ms). */
export async function insertAttempt(tx: Db, scope: string, key: string, at: number): Promise<void> {
  await tx.query(`insert into attempts (scope, key, at_ms) values ($1, $2, $3)`, [scope, key, at]);
}

/** Keeps the newest `keep` attempts of the key. */
export async function trimAttempts(
  tx: Db,
  scope: string,
  key: string,
  keep: number,
): Promise<void> {
  await tx.query(
    `delete from attempts where scope = $1 and key = $2 and id not in (
       select id from attempts where scope = $1 and key = $2 order by at_ms desc, id desc limit $3)`,
    [scope, key, keep],
  );
}

/** Forgets every attempt of the key. */
export async function deleteAttempts(db: Db, scope: string, key: string): Promise<void> {
  await db.query(`delete from attempts where scope = $1 and key = $2`, [scope, key]);
}

/** Drops the scope's attempts at or before `before` (ms): keys nobody tries again. */
export async function pruneAttempts(db: Db, scope: string, before: number): Promise<void> {
  await db.query(`delete from attempts where scope = $1 and at_ms <= $2`, [scope, before]);
}
