/**
 * The rate-limit rules, all in one place: which attempts count under which keys, and how many
 * are allowed (numbers from config.rateLimit). Every key is a digest of a value that has already
 * been validated and normalised; the counting itself is the AttemptStore's (rate-limit.ts).
 *
 * Login is limited three ways, so that guessing stops without locking the owner out:
 * - per address, every attempt (even a malformed body): one address cannot spray many accounts;
 * - per address and account, tightly: one address gets a few tries at one account; a successful
 *   login clears them;
 * - per account, loosely: beyond a number of attempts in the window, the account's next attempt
 *   must wait a delay that doubles with every further attempt, up to a cap. An address that
 *   signed in to the account recently (a known address) neither waits nor counts here, so the
 *   owner still gets in while guesses from everywhere else slow down to one per delay. A
 *   password reset or "log out everywhere" (a sign the account was taken) forgets the account's
 *   known addresses: only sign-ins after it make an address known again.
 * Attempts are counted before the password is checked, so that a burst of parallel guesses
 * cannot all pass a check meant for one of them. The in-memory store runs a check and its count
 * with no I/O in between; a store shared by several processes must run them in one transaction.
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
export function rateLimitedError(
  retryAfterMs: number,
  describe: (retryAfterSeconds: number) => string = () => RATE_LIMITED_MESSAGE,
): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    'rate_limited',
    describe(retryAfterSeconds),
    { retryAfterSeconds },
    { retryAfterSeconds },
  );
}

/** The window of the AI helper's limit (AI_SUGGESTIONS_PER_USER_PER_HOUR). */
export const AI_SUGGESTIONS_WINDOW_MS = 60 * 60 * 1000;

/** The answer beyond the AI helper's hourly limit. */
export function describeAiSuggestionsLimit(limit: number, retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `You have asked the AI helper for suggestions ${limit} times in the last hour, the most this server allows. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The delay the account's next login must wait after `attempts` in the window (0: none). */
export function accountLoginDelayMs(attempts: number, limits: RateLimitConfig): number {
  const beyond = attempts - limits.loginAccountAttemptsBeforeDelay;
  if (beyond <= 0) return 0;
  // 2 ** 40 ms is 35 years: larger exponents change nothing but risk Infinity.
  const delay = limits.loginAccountDelayBaseMs * 2 ** Math.min(beyond - 1, 40);
  return Math.min(delay, limits.loginAccountDelayMaxMs);
}

/** Attempts per account worth keeping: enough to reach the longest delay. */
function accountAttemptsKept(limits: RateLimitConfig): number {
  let kept = limits.loginAccountAttemptsBeforeDelay + 1;
  while (accountLoginDelayMs(kept, limits) < limits.loginAccountDelayMaxMs) kept += 1;
  return kept;
}

/** Counts one attempt under a limit; 429 when the limit is reached. */
async function hitOrThrow(
  store: AttemptStore,
  key: AttemptKey,
  rule: WindowLimit,
  describe?: (retryAfterSeconds: number) => string,
): Promise<void> {
  const verdict = await store.hit(key, rule);
  if (!verdict.isCounted) throw rateLimitedError(verdict.retryAfterMs, describe);
}

/** What to do once the password of a login attempt has been checked. */
export interface LoginAttempt {
  /** A wrong password or an unknown email. */
  failed(): Promise<void>;
  /** Clears the address's tries at the account and makes the address known to it. */
  succeeded(): Promise<void>;
}

/** The limits of every call that has one. Methods throw AppError 'rate_limited' (429). */
export interface AttemptLimits {
  login: {
    /** Counts an attempt from `ip`, before the body is validated. */
    countAttempt(ip: string): Promise<void>;
    /** Counts an attempt on (valid) `email` from `ip`, before the password is checked. */
    beginAttempt(ip: string, email: string): Promise<LoginAttempt>;
    /** Forgets every address known to the account of `email` (after a reset, or log out everywhere). */
    forgetKnownAddresses(email: string): Promise<void>;
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
    /** Counts a password check before it is made (a right password deletes the account). */
    countPasswordCheck(userId: string): Promise<void>;
  };
  /** AI helper suggestion requests per user per hour. */
  aiSuggestions: { countAttempt(userId: string): Promise<void> };
  /**
   * Verification mails per user: sent again, or for a changed address (counted before its
   * password is checked, so it also bounds guesses of the password).
   */
  verifyMail: { countAttempt(userId: string): Promise<void> };
}

/**
 * The limits of one app. `stores` makes one store per rule: the app passes the database's
 * (db-attempt-store.ts), which every server process on it shares; in memory by default.
 */
export function createAttemptLimits(
  limits: RateLimitConfig,
  stores: AttemptStoreFactory = createMemoryAttemptStores(),
): AttemptLimits {
  const { windowMs } = limits;
  const loginPerIp = stores('login-ip');
  const loginPairTries = stores('login-ip-account');
  const loginAccountTries = stores('login-account');
  const loginKnownAddresses = stores('login-known-address');
  // When the account last forgot its known addresses: a sign-in noted before then no longer counts.
  const loginKnownSince = stores('login-known-since');
  const forgotPerIp = stores('forgot-ip');
  const forgotPerEmail = stores('forgot-email');
  const registerPerIp = stores('register-ip');
  const waitingListPerIp = stores('waiting-list-ip');
  const feedbackPerUser = stores('feedback-user');
  const deleteChecks = stores('delete-account-password');
  const aiSuggestionsPerUser = stores('ai-suggestions-user');
  const verifyMailPerUser = stores('verify-mail-user');

  const pairRule = { limit: limits.loginPerIpAccount, windowMs };
  const accountRule = { limit: accountAttemptsKept(limits), windowMs };
  const knownRule = { limit: 1, windowMs: limits.loginKnownAddressMs };
  const addressKey = (ip: string) => attemptKey('address', addressScope(ip));
  const accountKey = (email: string) => attemptKey('account', normalizeEmail(email));
  const pairKey = (ip: string, email: string) =>
    attemptKey('address+account', addressScope(ip), normalizeEmail(email));
  const userKey = (userId: string) => attemptKey('user', userId);

  return {
    login: {
      countAttempt: (ip) =>
        hitOrThrow(loginPerIp, addressKey(ip), { limit: limits.loginPerIp, windowMs }),
      async beginAttempt(ip, email) {
        const pair = pairKey(ip, email);
        const account = accountKey(email);
        const tries = await loginPairTries.count(pair, windowMs);
        if (tries.count >= pairRule.limit)
          throw rateLimitedError(windowMs - (tries.oldestAgeMs ?? 0));
        const known = await loginKnownAddresses.count(pair, knownRule.windowMs);
        const forgotten = await loginKnownSince.count(account, knownRule.windowMs);
        const isKnown =
          known.newestAgeMs !== undefined &&
          (forgotten.newestAgeMs === undefined || known.newestAgeMs < forgotten.newestAgeMs);
        if (!isKnown) {
          const accountTries = await loginAccountTries.count(account, windowMs);
          const delayMs = accountLoginDelayMs(accountTries.count, limits);
          if (accountTries.newestAgeMs !== undefined && accountTries.newestAgeMs < delayMs)
            throw rateLimitedError(delayMs - accountTries.newestAgeMs);
          await loginAccountTries.note(account, accountRule);
        }
        await loginPairTries.note(pair, pairRule);
        return {
          // A known address does not wait, but its failures slow the account down for others.
          failed: async () => {
            if (isKnown) await loginAccountTries.note(account, accountRule);
          },
          succeeded: async () => {
            await loginPairTries.reset(pair);
            await loginKnownAddresses.note(pair, knownRule);
          },
        };
      },
      forgetKnownAddresses: (email) => loginKnownSince.note(accountKey(email), knownRule),
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
      countPasswordCheck: (userId) =>
        hitOrThrow(deleteChecks, userKey(userId), {
          limit: limits.deletePasswordChecksPerUser,
          windowMs,
        }),
    },
    aiSuggestions: {
      countAttempt: (userId) =>
        hitOrThrow(
          aiSuggestionsPerUser,
          userKey(userId),
          { limit: limits.aiSuggestionsPerUserPerHour, windowMs: AI_SUGGESTIONS_WINDOW_MS },
          (retryAfterSeconds) =>
            describeAiSuggestionsLimit(limits.aiSuggestionsPerUserPerHour, retryAfterSeconds),
        ),
    },
    verifyMail: {
      countAttempt: (userId) =>
        hitOrThrow(verifyMailPerUser, userKey(userId), {
          limit: limits.verifyMailPerUser,
          windowMs,
        }),
    },
  };
}
