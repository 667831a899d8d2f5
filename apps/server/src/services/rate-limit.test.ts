import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from './rate-limit.ts';

describe('SlidingWindowLimiter', () => {
  it('allows `limit` hits per window and frees slots as old hits leave it', () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter(3, 10_000, () => now);
    const verdicts = [];
    for (let i = 0; i < 3; i += 1) {
      verdicts.push(limiter.hit('a').isAllowed);
      now += 1_000;
    }
    expect(verdicts).toEqual([true, true, true]);
    now += 1_000;
    expect(limiter.hit('a')).toEqual({ isAllowed: false, retryAfterSeconds: 6 });
    expect(limiter.hit('b').isAllowed).toBe(true);
    now += 6_000;
    expect(limiter.hit('a').isAllowed).toBe(true);
    expect(limiter.hit('a').isAllowed).toBe(false);
  });

  it('forgets idle keys', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(1, 1_000, () => now);
    for (let i = 0; i < 100; i += 1) limiter.hit(`key-${i}`);
    now += 5_000;
    limiter.hit('fresh');
    expect(limiter.size).toBe(1);
  });
});
