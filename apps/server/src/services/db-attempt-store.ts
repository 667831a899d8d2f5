/**
 * The AttemptStore in the database: every server process on one database counts the same
 * attempts, and counts outlive a restart. Each change runs in one transaction holding the key's
 * advisory lock, so a check and its count cannot interleave with another process's.
 */
import {
  deleteAttempts,
  insertAttempt,
  listAttemptTimes,
  lockAttemptKey,
  pruneAttempts,
  trimAttempts,
} from '../db/attempts.ts';
import type { Db } from '../db/index.ts';
import {
  ATTEMPT_KEY_CHARS,
  countAttempts,
  type AttemptCount,
  type AttemptKey,
  type AttemptStore,
  type AttemptStoreFactory,
  type HitResult,
  type WindowLimit,
} from './rate-limit.ts';

export class DbAttemptStore implements AttemptStore {
  private lastPrune = 0;
  private longestWindowMs = 0;

  constructor(
    private readonly db: Db,
    private readonly scope: string,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: AttemptKey, rule: WindowLimit): Promise<HitResult> {
    const now = this.begin(key, rule.windowMs);
    const result = await this.db.transaction(async (tx) => {
      await lockAttemptKey(tx, this.scope, key);
      const times = await listAttemptTimes(tx, this.scope, key, now - rule.windowMs);
      if (times.length >= rule.limit) {
        await trimAttempts(tx, this.scope, key, rule.limit);
        const oldest = times[times.length - rule.limit] ?? now;
        return { isCounted: false, retryAfterMs: Math.max(1, oldest + rule.windowMs - now) };
      }
      await insertAttempt(tx, this.scope, key, now);
      return { isCounted: true, retryAfterMs: 0 };
    });
    await this.prune(now);
    return result;
  }

  async note(key: AttemptKey, rule: WindowLimit): Promise<void> {
    const now = this.begin(key, rule.windowMs);
    await this.db.transaction(async (tx) => {
      await lockAttemptKey(tx, this.scope, key);
      await listAttemptTimes(tx, this.scope, key, now - rule.windowMs);
      await insertAttempt(tx, this.scope, key, now);
      await trimAttempts(tx, this.scope, key, rule.limit);
    });
    await this.prune(now);
  }

  async count(key: AttemptKey, windowMs: number): Promise<AttemptCount> {
    const now = this.begin(key, windowMs);
    const times = await this.db.transaction(async (tx) => {
      await lockAttemptKey(tx, this.scope, key);
      return listAttemptTimes(tx, this.scope, key, now - windowMs);
    });
    return countAttempts(times, now);
  }

  async reset(key: AttemptKey): Promise<void> {
    await deleteAttempts(this.db, this.scope, key);
  }

  /** The time of a call on `key`; refuses a key that is not a digest. */
  private begin(key: AttemptKey, windowMs: number): number {
    if (key.length !== ATTEMPT_KEY_CHARS)
      throw new Error('AttemptStore keys come from attemptKey()');
    this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
    return this.now();
  }

  /** Drops attempts older than the longest window used, at most once per that window. */
  private async prune(now: number): Promise<void> {
    if (now - this.lastPrune < this.longestWindowMs) return;
    this.lastPrune = now;
    await pruneAttempts(this.db, this.scope, now - this.longestWindowMs);
  }
}

/** A factory of database stores, one per scope, on one database and clock. */
export function createDbAttemptStores(db: Db, now: () => number = Date.now): AttemptStoreFactory {
  return (scope) => new DbAttemptStore(db, scope, now);
}
