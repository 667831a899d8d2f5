import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_KEY_CHARS,
  MemoryAttemptStore,
  addressScope,
  attemptKey,
  type AttemptKey,
} from './rate-limit.ts';

const A = attemptKey('a');
const B = attemptKey('b');

describe('MemoryAttemptStore', () => {
  it('counts `limit` hits per window and frees slots as old hits leave it', async () => {
    let now = 1_000_000;
    const store = new MemoryAttemptStore(100, () => now);
    const rule = { limit: 3, windowMs: 10_000 };
    const counted = [];
    for (let i = 0; i < 3; i += 1) {
      counted.push((await store.hit(A, rule)).isCounted);
      now += 1_000;
    }
    expect(counted).toEqual([true, true, true]);
    now += 1_000;
    // The oldest hit (at 1_000_000) leaves the window at 1_010_000: 6 s from now.
    expect(await store.hit(A, rule)).toEqual({ isCounted: false, retryAfterMs: 6_000 });
    expect((await store.hit(B, rule)).isCounted).toBe(true);
    now += 6_000;
    expect((await store.hit(A, rule)).isCounted).toBe(true);
    expect((await store.hit(A, rule)).isCounted).toBe(false);
  });

  it('notes events past the limit by keeping only the newest `limit`', async () => {
    let now = 0;
    const store = new MemoryAttemptStore(100, () => now);
    for (let i = 0; i < 50; i += 1) {
      now += 10;
      await store.note(A, { limit: 4, windowMs: 60_000 });
    }
    expect([...store.entries()]).toEqual([[A, 4]]);
    now += 5;
    expect(await store.count(A, 60_000)).toEqual({ count: 4, oldestAgeMs: 35, newestAgeMs: 5 });
    expect(await store.count(A, 20)).toEqual({ count: 2, oldestAgeMs: 15, newestAgeMs: 5 });
    await store.reset(A);
    expect(await store.count(A, 60_000)).toEqual({
      count: 0,
      oldestAgeMs: undefined,
      newestAgeMs: undefined,
    });
    expect(store.size).toBe(0);
  });

  it('keeps at most maxKeys keys, dropping the least recently used', async () => {
    const store = new MemoryAttemptStore(3);
    const rule = { limit: 5, windowMs: 60_000 };
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4'].map((name) => attemptKey(name));
    for (const key of keys.slice(0, 3)) await store.hit(key, rule);
    await store.hit(keys[0] as AttemptKey, rule); // k0 used again: k1 is now the oldest
    await store.hit(keys[3] as AttemptKey, rule);
    await store.note(keys[4] as AttemptKey, rule);
    expect(store.size).toBe(3);
    expect([...store.entries()].map(([key]) => key)).toEqual([keys[0], keys[3], keys[4]]);
    expect((await store.count(keys[0] as AttemptKey, 60_000)).count).toBe(2);
  });

  it('forgets idle keys', async () => {
    let now = 0;
    const store = new MemoryAttemptStore(1_000, () => now);
    for (let i = 0; i < 100; i += 1)
      await store.hit(attemptKey(`key-${i}`), { limit: 1, windowMs: 1_000 });
    now += 5_000;
    await store.hit(attemptKey('fresh'), { limit: 1, windowMs: 1_000 });
    expect(store.size).toBe(1);
  });

  it('refuses a key that is not a digest', async () => {
    const store = new MemoryAttemptStore();
    await expect(
      store.hit('someone@example.com' as AttemptKey, { limit: 1, windowMs: 1 }),
    ).rejects.toThrow(/attemptKey/);
    expect(store.size).toBe(0);
  });
});

describe('attemptKey', () => {
  it('is 43 characters whatever it is made of, and tells its parts apart', () => {
    const huge = 'x'.repeat(8 * 1024 * 1024);
    expect(attemptKey(huge)).toHaveLength(ATTEMPT_KEY_CHARS);
    expect(attemptKey('')).toHaveLength(ATTEMPT_KEY_CHARS);
    expect(attemptKey('ab', 'c')).not.toBe(attemptKey('a', 'bc'));
    expect(attemptKey('a', 'b')).toBe(attemptKey('a', 'b'));
  });
});

describe('addressScope', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s counts as %s', (ip, scope) => {
    expect(addressScope(ip)).toBe(scope);
  });
});
