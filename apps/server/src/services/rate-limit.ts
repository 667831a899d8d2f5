/** The verdict for one attempt. */
export interface RateLimitVerdict {
  isAllowed: boolean;
  /** Seconds until the oldest counted attempt leaves the window. */
  retryAfterSeconds: number;
}

/**
 * In-memory sliding-window limiter: at most `limit` attempts per key within `windowMs`.
 * One process serves the app, so memory is the right place; counts reset on restart.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts an attempt for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitVerdict {
    const now = this.now();
    this.sweep(now);
    const since = now - this.windowMs;
    const times = (this.hits.get(key) ?? []).filter((time) => time > since);
    if (times.length >= this.limit) {
      this.hits.set(key, times);
      const oldest = times[0] ?? now;
      return {
        isAllowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
      };
    }
    times.push(now);
    this.hits.set(key, times);
    return { isAllowed: true, retryAfterSeconds: 0 };
  }

  /** Number of keys tracked (for tests). */
  get size(): number {
    return this.hits.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const since = now - this.windowMs;
    for (const [key, times] of this.hits) {
      if (!times.some((time) => time > since)) this.hits.delete(key);
    }
  }
}
