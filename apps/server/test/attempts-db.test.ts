/**
 * Rate-limit counts in the database (DbAttemptStore): the same rules as the in-memory store,
 * counted atomically, and shared by every server on one database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/index.ts';
import { DbAttemptStore } from '../src/services/db-attempt-store.ts';
import { attemptKey } from '../src/services/rate-limit.ts';
import { openTestDatabase, startTestApp, testConfig, testDbKind, type TestApp } from './helpers.ts';

const A = attemptKey('a');
const B = attemptKey('b');

describe(`rate-limit counts in the database (${testDbKind()})`, () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('counts `limit` hits per window and frees slots as old hits leave it', async () => {
    let now = 1_000_000;
    const store = new DbAttemptStore(db, 'hits', () => now);
    const rule = { limit: 3, windowMs: 10_000 };
    const counted = [];
    for (let i = 0; i < 3; i += 1) {
      counted.push((await store.hit(A, rule)).isCounted);
      now += 1_000;
    }
    expect(counted).toEqual([true, true, true]);
    now += 1_000;
    expect(await store.hit(A, rule)).toEqual({ isCounted: false, retryAfterMs: 6_000 });
    expect((await store.hit(B, rule)).isCounted).toBe(true);
    // Another scope counts apart.
    expect((await new DbAttemptStore(db, 'other', () => now).hit(A, rule)).isCounted).toBe(true);
    now += 6_000;
    expect((await store.hit(A, rule)).isCounted).toBe(true);
    expect((await store.hit(A, rule)).isCounted).toBe(false);
  });

  it('notes events past the limit by keeping only the newest `limit`, and forgets on reset', async () => {
    let now = 0;
    const store = new DbAttemptStore(db, 'notes', () => now);
    for (let i = 0; i < 12; i += 1) {
      now += 10;
      await store.note(A, { limit: 4, windowMs: 60_000 });
    }
    const rows = await db.query<{ n: number }>(
      `select count(*)::int as n from attempts where scope = 'notes'`,
    );
    expect(rows[0]?.n).toBe(4);
    now += 5;
    expect(await store.count(A, 60_000)).toEqual({ count: 4, oldestAgeMs: 35, newestAgeMs: 5 });
    expect(await store.count(A, 20)).toEqual({ count: 2, oldestAgeMs: 15, newestAgeMs: 5 });
    await store.reset(A);
    expect((await store.count(A, 60_000)).count).toBe(0);
  });

  it('counts parallel hits one at a time: exactly `limit` of 20 are counted', async () => {
    const store = new DbAttemptStore(db, 'parallel');
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => store.hit(A, { limit: 5, windowMs: 60_000 })),
    );
    expect(verdicts.filter((v) => v.isCounted)).toHaveLength(5);
  });

  it('refuses a key that is not a digest (a raw value never becomes a key)', async () => {
    const store = new DbAttemptStore(db, 'raw');
    await expect(
      store.hit('someone@example.com' as never, { limit: 1, windowMs: 1 }),
    ).rejects.toThrow(/attemptKey/);
  });
});

describe(`two servers on one database count login attempts together (${testDbKind()})`, () => {
  let db: Db;
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    db = await openTestDatabase();
    const rateLimit = { ...testConfig().rateLimit, windowMs: 60_000, loginPerIp: 4 };
    one = await startTestApp({ rateLimit }, { db });
    two = await startTestApp({ rateLimit }, { db });
  });
  afterAll(async () => {
    // The second closes the database they share.
    await one.app.close();
    await two.close();
  });

  it('the per-address login limit holds across both', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const server = i % 2 === 0 ? one : two;
      statuses.push(
        (
          await server.request('POST', '/api/users/login', {
            body: { email: `p${i}@example.com`, password: 'wrong password' },
          })
        ).status,
      );
    }
    // Four attempts from this address in all, two through each: the fifth and sixth are refused.
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
  });
});
