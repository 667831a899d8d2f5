import type { SheetProgress } from '@adloom/contract';
import type { Timers } from '../../state/notifications.ts';

/** A sheet call shows its progress once it has run this long (the issue: "over two seconds"). */
export const SHEET_PROGRESS_DELAY_MS = 2_000;
/** How often a running sheet call's progress is asked for. */
export const SHEET_PROGRESS_POLL_MS = 500;

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Follows a running sheet call: after 2 s, asks for its progress every 500 ms (one request at a
 * time) and hands each answer on. A failed ask is skipped: the call itself reports failures.
 * Returns the function that stops following.
 */
export function watchSheetProgress(
  read: () => Promise<SheetProgress>,
  onProgress: (progress: SheetProgress) => void,
  timers: Timers = realTimers,
): () => void {
  let isStopped = false;
  let timer: unknown = timers.setTimeout(poll, SHEET_PROGRESS_DELAY_MS);

  async function poll(): Promise<void> {
    timer = undefined;
    try {
      const progress = await read();
      if (isStopped) return;
      onProgress(progress);
      if (progress.phase === 'done') return;
    } catch {
      if (isStopped) return;
    }
    timer = timers.setTimeout(() => void poll(), SHEET_PROGRESS_POLL_MS);
  }

  return () => {
    isStopped = true;
    if (timer !== undefined) timers.clearTimeout(timer);
  };
}

/** A fresh id for a sheet call's progress (letters, digits and '-', as the contract takes). */
export function newProgressId(): string {
  return crypto.randomUUID();
}
