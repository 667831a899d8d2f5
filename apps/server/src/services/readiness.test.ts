import { afterEach, describe, expect, it, vi } from 'vitest';
import { createReadiness } from './readiness.ts';

/** A ping that ends when told to. */
function heldPing() {
  const pings: { resolve(): void; reject(error: Error): void }[] = [];
  const ping = () =>
    new Promise<void>((resolve, reject) => {
      pings.push({ resolve, reject });
    });
  return { ping, pings };
}

/** Whether `promise` has settled once the microtasks queued so far have run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return settled;
}

describe('createReadiness', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a ping that ends within the wait', async () => {
    const up = createReadiness(() => Promise.resolve(), 25);
    expect(await up()).toBe(true);
    const down = createReadiness(() => Promise.reject(new Error('refused')), 25);
    expect(await down()).toBe(false);
  });

  it('waits for a slow ping at most the wait, and does not wait again while it runs', async () => {
    vi.useFakeTimers();
    const { ping, pings } = heldPing();
    const isReady = createReadiness(ping, 25);
    const first = isReady();
    expect(await isSettled(first)).toBe(false);
    await vi.advanceTimersByTimeAsync(25);
    expect(await first).toBe(true);
    // The ping is still on its way: the next call answers the last state at once.
    const second = isReady();
    expect(await isSettled(second)).toBe(true);
    expect(await second).toBe(true);
    expect(pings).toHaveLength(1);
    // It fails (the database cannot be reached): the next call starts a ping and says so.
    pings[0]!.reject(new Error('timeout'));
    await vi.advanceTimersByTimeAsync(0);
    const third = isReady();
    pings[1]!.reject(new Error('refused'));
    expect(await third).toBe(false);
    expect(pings).toHaveLength(2);
  });
});
