import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SheetProgress } from '@adloom/contract';
import {
  SHEET_PROGRESS_DELAY_MS,
  SHEET_PROGRESS_POLL_MS,
  watchSheetProgress,
} from './sheetProgress.ts';

describe('watchSheetProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A running call as the server reports it: 10,000 more rows at each ask. */
  function runningCall(total: number) {
    let done = 0;
    const asks: number[] = [];
    const read = (): Promise<SheetProgress> => {
      asks.push(Date.now());
      done = Math.min(total, done + 10_000);
      return Promise.resolve({ phase: done === total ? 'done' : 'reading', done, total });
    };
    return { read, asks };
  }

  it('asks nothing for 2 s, then every 500 ms until the call is done', async () => {
    const call = runningCall(30_000);
    const seen: number[] = [];
    const start = Date.now();
    watchSheetProgress(call.read, (p) => seen.push(p.done));
    await vi.advanceTimersByTimeAsync(SHEET_PROGRESS_DELAY_MS - 1);
    expect(call.asks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 10 * SHEET_PROGRESS_POLL_MS);
    expect(call.asks.map((t) => t - start)).toEqual([2000, 2500, 3000]);
    expect(seen).toEqual([10_000, 20_000, 30_000]);
  });

  it('stops asking when stopped, before or during the polling', async () => {
    const early = runningCall(100_000);
    watchSheetProgress(early.read, () => {})();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(early.asks).toEqual([]);

    const late = runningCall(100_000);
    const seen: number[] = [];
    const stop = watchSheetProgress(late.read, (p) => seen.push(p.done));
    await vi.advanceTimersByTimeAsync(SHEET_PROGRESS_DELAY_MS + SHEET_PROGRESS_POLL_MS);
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(late.asks).toHaveLength(2);
    expect(seen).toEqual([10_000, 20_000]);
  });

  it('keeps asking after a failed ask (the call may not have started on the server yet)', async () => {
    let asks = 0;
    const seen: SheetProgress[] = [];
    watchSheetProgress(
      () => {
        asks += 1;
        return asks === 1
          ? Promise.reject(new Error('404'))
          : Promise.resolve({ phase: 'done', done: 5, total: 5 });
      },
      (p) => seen.push(p),
    );
    await vi.advanceTimersByTimeAsync(SHEET_PROGRESS_DELAY_MS + 5 * SHEET_PROGRESS_POLL_MS);
    expect(asks).toBe(2);
    expect(seen).toEqual([{ phase: 'done', done: 5, total: 5 }]);
  });
});
