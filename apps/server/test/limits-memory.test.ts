/**
 * The review's probe: 30 logins and 30 forgot-password requests with 8 MB emails held 204 MB for
 * 15 minutes, because the raw email was a rate-limit key. Now a key is a 43-character digest of
 * a validated value, so what such requests leave behind is a few hundred bytes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT_BYTES, readRateLimits } from '../src/config.ts';
import { createAttemptLimits } from '../src/services/attempt-limits.ts';
import {
  ATTEMPT_KEY_CHARS,
  MemoryAttemptStore,
  attemptKey,
  type AttemptStoreFactory,
} from '../src/services/rate-limit.ts';
import { startTestApp, type TestApp } from './helpers.ts';

const EMAIL_BYTES = 8 * 1024 * 1024;
const REQUESTS = 30;
/** What may remain after GC: a few MB of noise, far below one 8 MB email. */
const LASTING_BYTES_MAX = 4 * 1024 * 1024;
/** Half a gigabyte goes through each test: slow on a busy machine. */
const HEAVY_TEST = { timeout: 300_000 };

/** V8's gc(), exposed at run time when the process was not started with --expose-gc. */
function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Heap and off-heap memory (request buffers) once garbage has been collected. */
function memoryAfterGc(gc: () => void): number {
  for (let i = 0; i < 3; i += 1) gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** The i-th 8 MB email: each one different, as a probe that dodges a per-email key would send. */
function hugeEmail(i: number): string {
  return `${i}-${'a'.repeat(EMAIL_BYTES)}@example.com`;
}

/** A store factory that keeps the stores it makes, to look at what they hold. */
function recordingStores(
  maxKeys?: number,
  now?: () => number,
): {
  factory: AttemptStoreFactory;
  stores: Map<string, MemoryAttemptStore>;
} {
  const stores = new Map<string, MemoryAttemptStore>();
  return {
    stores,
    factory: (scope) => {
      const store = new MemoryAttemptStore(maxKeys, now);
      stores.set(scope, store);
      return store;
    },
  };
}

/** A small login and a small (malformed) forgot request. */
async function warmUp(t: TestApp): Promise<void> {
  await t.request('POST', '/api/users/login', {
    body: { email: 'warm-up@example.com', password: 'wrong password' },
  });
  await t.request('POST', '/api/users/forgot', { body: { email: 'x'.repeat(300) } });
}

function expectOnlyDigests(stores: Map<string, MemoryAttemptStore>): void {
  for (const [scope, store] of stores)
    for (const [key] of store.entries())
      expect({ scope, keyLength: key.length }).toEqual({ scope, keyLength: ATTEMPT_KEY_CHARS });
}

describe('8 MB emails cost no lasting memory', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('through the app: 30 logins and 30 forgot requests', HEAVY_TEST, async () => {
    const gc = exposeGc();
    const { factory, stores } = recordingStores();
    // The small body limit raised to the large one, so that the bodies are read and reach the
    // routes as in the review's probe (the default limit would refuse them unread, with 413).
    t = await startTestApp(
      { smallBodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES },
      { attemptStores: factory },
    );
    // Warm up the code paths so that compiled code is not counted as held memory.
    await warmUp(t);
    const before = memoryAfterGc(gc);

    const statuses = new Set<number>();
    for (let i = 0; i < REQUESTS; i += 1) {
      const login = await t.request('POST', '/api/users/login', {
        body: { email: hugeEmail(i), password: 'whatever' },
      });
      const forgot = await t.request('POST', '/api/users/forgot', {
        body: { email: hugeEmail(REQUESTS + i) },
      });
      statuses.add(login.status).add(forgot.status);
    }
    // The test's side of app.inject (light-my-request, this function's last frame) holds the
    // last payloads until the next requests replace them (seen in a heap snapshot): send two.
    await warmUp(t);
    const after = memoryAfterGc(gc);

    // Read, then refused as too long (400) or too many (429): never stored.
    expect([...statuses].filter((status) => ![400, 429].includes(status))).toEqual([]);
    expect(after - before).toBeLessThan(LASTING_BYTES_MAX);
    expectOnlyDigests(stores);
    // Only the address was counted: no email of these requests became a key (the one account
    // key is the warm-up login's).
    expect({
      forgot: stores.get('forgot-email')?.size,
      account: stores.get('login-account')?.size,
      pair: stores.get('login-ip-account')?.size,
    }).toEqual({ forgot: 0, account: 1, pair: 1 });
    expect(stores.get('login-ip')?.size).toBeLessThanOrEqual(1);
    expect(stores.get('forgot-ip')?.size).toBeLessThanOrEqual(1);
  });

  it('in the rules themselves, even if an 8 MB email reached them', HEAVY_TEST, async () => {
    // Whatever a route's body limit, the rules must not keep what they are given.
    const gc = exposeGc();
    const { factory, stores } = recordingStores();
    const limits = createAttemptLimits(readRateLimits({}), factory);
    await (await limits.login.beginAttempt('203.0.113.1', 'warm-up@example.com')).failed();
    await limits.forgot.countEmail('warm-up@example.com');
    const before = memoryAfterGc(gc);

    for (let i = 0; i < REQUESTS; i += 1) {
      await (await limits.login.beginAttempt('203.0.113.1', hugeEmail(i))).failed();
      await limits.forgot.countEmail(hugeEmail(REQUESTS + i)).catch(() => undefined);
    }
    const after = memoryAfterGc(gc);

    expect(after - before).toBeLessThan(LASTING_BYTES_MAX);
    expectOnlyDigests(stores);
    expect(stores.get('login-account')?.size).toBe(REQUESTS + 1);
    expect(stores.get('forgot-email')?.size).toBe(REQUESTS + 1);
  });

  it('with at most maxKeys keys per in-memory limit, each with at most its limit of times', async () => {
    let now = 0;
    const { factory, stores } = recordingStores(100, () => now);
    const limits = createAttemptLimits(
      {
        ...readRateLimits({}),
        loginAccountDelayBaseMs: 1_000,
        loginAccountDelayMaxMs: 1_000,
      },
      factory,
    );
    for (let i = 0; i < 500; i += 1) {
      now += 1_000;
      const address = `10.1.${i >> 8}.${i & 255}`;
      await (await limits.login.beginAttempt(address, 'target@example.com')).failed();
      await (await limits.login.beginAttempt(address, `user-${i}@example.com`)).failed();
      await limits.forgot.countAttempt(address);
    }
    expect(stores.get('login-ip-account')?.size).toBe(100);
    expect(stores.get('login-account')?.size).toBe(100);
    expect(stores.get('forgot-ip')?.size).toBe(100);
    // The target account, tried 500 times within the window, is kept (it is the most recently
    // used) with only enough times to reach the longest delay: 10 free tries and 1 more.
    const target = attemptKey('account', 'target@example.com');
    const kept = new Map(stores.get('login-account')?.entries());
    expect(kept.get(target)).toBe(11);
  });
});
