/**
 * Attempt counting for rate limits: fixed-size keys, a store interface, and the in-memory store.
 * Which keys and which limits apply to which call is decided in attempt-limits.ts; a store only
 * counts. The app counts in the database (db-attempt-store.ts), shared by every server on it.
 */
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/** A rate-limit key: a digest, never the value it was made from (see `attemptKey`). */
export type AttemptKey = string & { readonly __brand: 'AttemptKey' };

/** Length of every AttemptKey: sha256 in base64url. */
export const ATTEMPT_KEY_CHARS = 43;

/**
 * The key of already-validated, normalised parts (an address, an email, a user id): their
 * sha256 in base64url, 43 characters whatever the parts' size.
 */
export function attemptKey(...parts: string[]): AttemptKey {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest('base64url') as AttemptKey;
}

/**
 * The part of a client address that limits count by: an IPv4 address as it is (also when
 * IPv4-mapped), an IPv6 address by its /64 network, since one subscriber usually holds a whole
 * /64 and could otherwise take a fresh address for every attempt.
 */
export function addressScope(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  const bare = ip.replace(/%.*$/, '');
  if (!isIPv6(bare)) return ip.slice(0, 64);
  const [head = '', tail = ''] = bare.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = bare.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = bare.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** At most `limit` attempts within `windowMs`. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/** The outcome of `AttemptStore.hit`. */
export interface HitResult {
  /** False when `limit` attempts were already in the window (this one was not counted). */
  isCounted: boolean;
  /** Milliseconds until the oldest counted attempt leaves the window (0 when counted). */
  retryAfterMs: number;
}

/** What a store holds for one key within a window. */
export interface AttemptCount {
  count: number;
  /** Milliseconds since the oldest attempt in the window; undefined when there is none. */
  oldestAgeMs: number | undefined;
  /** Milliseconds since the newest attempt in the window; undefined when there is none. */
  newestAgeMs: number | undefined;
}

/**
 * Where attempts are counted, per key within a sliding window. The in-memory store below serves
 * one process; the database's (db-attempt-store.ts) serves every process on the database.
 * Every method keeps at most `limit` attempts per key.
 */
export interface AttemptStore {
  /** Counts an attempt unless `limit` attempts are already in the window (then says when to retry). */
  hit(key: AttemptKey, rule: WindowLimit): Promise<HitResult>;
  /** Notes an event (a failure) whatever the count, keeping the newest `limit` in the window. */
  note(key: AttemptKey, rule: WindowLimit): Promise<void>;
  /** The attempts of `key` within the window. */
  count(key: AttemptKey, windowMs: number): Promise<AttemptCount>;
  /** Forgets every attempt of `key`. */
  reset(key: AttemptKey): Promise<void>;
}

/** What a store tells of `times` (within the window, oldest first) at `now`. */
export function countAttempts(times: readonly number[], now: number): AttemptCount {
  const oldest = times[0];
  const newest = times.at(-1);
  return {
    count: times.length,
    oldestAgeMs: oldest === undefined ? undefined : now - oldest,
    newestAgeMs: newest === undefined ? undefined : now - newest,
  };
}

/** Makes the store of one scope (one rule: "login per address", "feedback per user", ...). */
export type AttemptStoreFactory = (scope: string) => AttemptStore;

/** Default most keys one in-memory store keeps. */
export const DEFAULT_MAX_KEYS_PER_STORE = 10_000;

/**
 * The in-memory AttemptStore of one scope. Memory is bounded whatever clients send: keys are
 * 43-character digests, at most `maxKeys` of them (the least recently used is dropped first),
 * each with at most `limit` timestamps. Counts reset when the process restarts.
 */
export class MemoryAttemptStore implements AttemptStore {
  /** Key → attempt times, oldest first. Map order is least recently used first. */
  private readonly times = new Map<AttemptKey, number[]>();
  private lastSweep = 0;
  private longestWindowMs = 0;

  constructor(
    private readonly maxKeys: number = DEFAULT_MAX_KEYS_PER_STORE,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: AttemptKey, rule: WindowLimit): Promise<HitResult> {
    const now = this.now();
    const times = this.take(key, rule.windowMs, now);
    if (times.length >= rule.limit) {
      this.put(key, times.slice(-rule.limit));
      const oldest = times[times.length - rule.limit] ?? now;
      return { isCounted: false, retryAfterMs: Math.max(1, oldest + rule.windowMs - now) };
    }
    times.push(now);
    this.put(key, times);
    return { isCounted: true, retryAfterMs: 0 };
  }

  async note(key: AttemptKey, rule: WindowLimit): Promise<void> {
    const now = this.now();
    const times = this.take(key, rule.windowMs, now);
    times.push(now);
    this.put(key, times.slice(-rule.limit));
  }

  async count(key: AttemptKey, windowMs: number): Promise<AttemptCount> {
    const now = this.now();
    const since = now - windowMs;
    return countAttempts(
      (this.times.get(key) ?? []).filter((time) => time > since),
      now,
    );
  }

  async reset(key: AttemptKey): Promise<void> {
    this.times.delete(key);
  }

  /** Number of keys held. */
  get size(): number {
    return this.times.size;
  }

  /** The keys held and how many attempt times each keeps (to check what memory holds). */
  *entries(): IterableIterator<[key: string, attempts: number]> {
    for (const [key, times] of this.times) yield [key, times.length];
  }

  /** The key's attempts within the window, removed from the map (put() puts them back last). */
  private take(key: AttemptKey, windowMs: number, now: number): number[] {
    // A raw value must never become a key: this is what keeps memory bounded per key.
    if (key.length !== ATTEMPT_KEY_CHARS)
      throw new Error('AttemptStore keys come from attemptKey()');
    this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
    this.sweep(now);
    const since = now - windowMs;
    const times = (this.times.get(key) ?? []).filter((time) => time > since);
    this.times.delete(key);
    return times;
  }

  private put(key: AttemptKey, times: number[]): void {
    if (times.length === 0) return;
    this.times.set(key, times);
    while (this.times.size > this.maxKeys) {
      const oldest = this.times.keys().next();
      if (oldest.done) break;
      this.times.delete(oldest.value);
    }
  }

  /** Drops keys with nothing left in the longest window used, at most once per that window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.longestWindowMs) return;
    this.lastSweep = now;
    const since = now - this.longestWindowMs;
    for (const [key, times] of this.times) {
      if (!times.some((time) => time > since)) this.times.delete(key);
    }
  }
}

/** A factory of in-memory stores, one per scope, sharing the key cap and the clock. */
export function createMemoryAttemptStores(
  maxKeysPerStore: number = DEFAULT_MAX_KEYS_PER_STORE,
  now: () => number = Date.now,
): AttemptStoreFactory {
  return () => new MemoryAttemptStore(maxKeysPerStore, now);
}
