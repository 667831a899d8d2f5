/**
 * The rate-limit rules, all in one place: which attempts count under which keys, and how many
 * are allowed (numbers from config.rateLimit). Every key is a digest of a value that has already
 * been validated and normalised; the counting itself is the AttemptStore's (rate-limit.ts).
 *
 * Login is limited three ways, so that guessing stops without locking the owner out:
 * - per address, every attempt (even a malformed body): one address cannot spray many accounts;
 * - per address and account, failures only: one address gets a few guesses at one account;
 * - per account, failures only, loosely: beyond a number of failures in the window, the account's
 *   next attempt must wait a delay that doubles with every further failure, up to a cap. An
 *   address that signed in to the account recently (a known address) does not wait, so the owner
 *   still gets in while guesses from everywhere else slow to one per delay.
 * A successful login clears that address's failures for the account and makes it known.
 */
import type { RateLimitConfig } from '../config.ts';
import { normalizeEmail } from '../db/users.ts';
import { AppError } from '../errors.ts';
import {
  addressScope,
  attemptKey,
  createMemoryAttemptStores,
  type AttemptKey,
  type AttemptStore,
  type AttemptStoreFactory,
  type WindowLimit,
} from './rate-limit.ts';

/** The answer beyond a limit (with Retry-After). */
export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a while and try again.';

/** An AppError 'rate_limited' (429) telling when to try again. */
export function rateLimitedError(retryAfterMs: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    'rate_limited',
    RATE_LIMITED_MESSAGE,
    { retryAfterSeconds },
    { retryAfterSeconds },
  );
}

/** The delay the account's next login must wait after `failures` in the window (0: none). */
export function accountLoginDelayMs(failures: number, limits: RateLimitConfig): number {
  const beyond = failures - limits.loginAccountFailuresBeforeDelay;
  if (beyond <= 0) return 0;
  // 2 ** 40 ms is 35 years: larger exponents change nothing but risk Infinity.
  const delay = limits.loginAccountDelayBaseMs * 2 ** Math.min(beyond - 1, 40);
  return Math.min(delay, limits.loginAccountDelayMaxMs);
}

/** Failures per account worth keeping: enough to reach the longest delay. */
function accountFailuresKept(limits: RateLimitConfig): number {
  let kept = limits.loginAccountFailuresBeforeDelay + 1;
  while (accountLoginDelayMs(kept, limits) < limits.loginAccountDelayMaxMs) kept += 1;
  return kept;
}

/** Counts one attempt under a limit; 429 when the limit is reached. */
async function hitOrThrow(store: AttemptStore, key: AttemptKey, rule: WindowLimit): Promise<void> {
  const verdict = await store.hit(key, rule);
  if (!verdict.isCounted) throw rateLimitedError(verdict.retryAfterMs);
}

/** The limits of every call that has one. Methods throw AppError 'rate_limited' (429). */
export interface AttemptLimits {
  login: {
    /** Counts an attempt from `ip`, before the body is validated. */
    countAttempt(ip: string): Promise<void>;
    /** Refuses an attempt on `email` from `ip` while over the pair's or the account's limit. */
    checkAccount(ip: string, email: string): Promise<void>;
    /** A wrong password (or an unknown email) from `ip`. */
    recordFailure(ip: string, email: string): Promise<void>;
    /** A successful login: clears the pair's failures and makes `ip` known to the account. */
    recordSuccess(ip: string, email: string): Promise<void>;
  };
  forgot: {
    countAttempt(ip: string): Promise<void>;
    /** Counts a request for a valid `email`. */
    countEmail(email: string): Promise<void>;
  };
  register: { countAttempt(ip: string): Promise<void> };
  waitingList: { countAttempt(ip: string): Promise<void> };
  feedback: { countAttempt(userId: string): Promise<void> };
  deleteAccount: {
    /** Refuses the password check while the user is over its failure limit. */
    checkPassword(userId: string): Promise<void>;
    recordFailure(userId: string): Promise<void>;
  };
}

/**
 * The limits of one app. `stores` makes one store per rule (in memory by default); a store in
 * PostgreSQL would let every server process see the same counts.
 */
export function createAttemptLimits(
  limits: RateLimitConfig,
  stores: AttemptStoreFactory = createMemoryAttemptStores(limits.maxKeysPerStore),
): AttemptLimits {
  const { windowMs } = limits;
  const loginPerIp = stores('login-ip');
  const loginPairFailures = stores('login-ip-account-failures');
  const loginAccountFailures = stores('login-account-failures');
  const loginKnownAddresses = stores('login-known-address');
  const forgotPerIp = stores('forgot-ip');
  const forgotPerEmail = stores('forgot-email');
  const registerPerIp = stores('register-ip');
  const waitingListPerIp = stores('waiting-list-ip');
  const feedbackPerUser = stores('feedback-user');
  const deleteFailures = stores('delete-account-failures');

  const pairRule = { limit: limits.loginPerIpAccount, windowMs };
  const accountRule = { limit: accountFailuresKept(limits), windowMs };
  const knownRule = { limit: 1, windowMs: limits.loginKnownAddressMs };
  const deleteRule = { limit: limits.deleteFailuresPerUser, windowMs };
  const addressKey = (ip: string) => attemptKey('address', addressScope(ip));
  const accountKey = (email: string) => attemptKey('account', normalizeEmail(email));
  const pairKey = (ip: string, email: string) =>
    attemptKey('address+account', addressScope(ip), normalizeEmail(email));
  const userKey = (userId: string) => attemptKey('user', userId);

  return {
    login: {
      countAttempt: (ip) =>
        hitOrThrow(loginPerIp, addressKey(ip), { limit: limits.loginPerIp, windowMs }),
      async checkAccount(ip, email) {
        const pair = await loginPairFailures.count(pairKey(ip, email), windowMs);
        if (pair.count >= pairRule.limit)
          throw rateLimitedError(windowMs - (pair.oldestAgeMs ?? 0));
        const account = await loginAccountFailures.count(accountKey(email), windowMs);
        const delayMs = accountLoginDelayMs(account.count, limits);
        if (delayMs === 0 || account.newestAgeMs === undefined || account.newestAgeMs >= delayMs)
          return;
        const known = await loginKnownAddresses.count(pairKey(ip, email), knownRule.windowMs);
        if (known.count > 0) return;
        throw rateLimitedError(delayMs - account.newestAgeMs);
      },
      async recordFailure(ip, email) {
        await loginPairFailures.note(pairKey(ip, email), pairRule);
        await loginAccountFailures.note(accountKey(email), accountRule);
      },
      async recordSuccess(ip, email) {
        await loginPairFailures.reset(pairKey(ip, email));
        await loginKnownAddresses.note(pairKey(ip, email), knownRule);
      },
    },
    forgot: {
      countAttempt: (ip) =>
        hitOrThrow(forgotPerIp, addressKey(ip), { limit: limits.forgotPerIp, windowMs }),
      countEmail: (email) =>
        hitOrThrow(forgotPerEmail, accountKey(email), { limit: limits.forgotPerEmail, windowMs }),
    },
    register: {
      countAttempt: (ip) =>
        hitOrThrow(registerPerIp, addressKey(ip), { limit: limits.registerPerIp, windowMs }),
    },
    waitingList: {
      countAttempt: (ip) =>
        hitOrThrow(waitingListPerIp, addressKey(ip), { limit: limits.waitingListPerIp, windowMs }),
    },
    feedback: {
      countAttempt: (userId) =>
        hitOrThrow(feedbackPerUser, userKey(userId), { limit: limits.feedbackPerUser, windowMs }),
    },
    deleteAccount: {
      async checkPassword(userId) {
        const failures = await deleteFailures.count(userKey(userId), windowMs);
        if (failures.count >= deleteRule.limit)
          throw rateLimitedError(windowMs - (failures.oldestAgeMs ?? 0));
      },
      recordFailure: (userId) => deleteFailures.note(userKey(userId), deleteRule),
    },
  };
}
