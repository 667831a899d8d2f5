/**
 * Progress of running sheet calls, kept in memory for GET /api/google/progress/:id: per user and
 * the progress id the client chose, dropped a minute after the call ends. A user only ever
 * reads their own.
 */
import type { SheetProgress } from '@adloom/contract';

/** How long a finished call's progress stays readable. */
const SHEET_PROGRESS_KEEP_MS = 60_000;
/** Most progress reports kept at once; beyond, the oldest is dropped. */
const SHEET_PROGRESS_MAX_ENTRIES = 10_000;

/** Reports one call's progress. */
export interface SheetProgressReporter {
  report(phase: 'reading' | 'writing', done: number, total: number): void;
  /** The call ended (well or not): its progress reads 'done' for a while, then goes. */
  finish(): void;
}

/** Running and recently finished sheet calls' progress. */
export class SheetProgressRegistry {
  private readonly entries = new Map<string, { progress: SheetProgress; timer?: NodeJS.Timeout }>();

  constructor(private readonly keepMs: number = SHEET_PROGRESS_KEEP_MS) {}

  /** Starts reporting a call of the user; without a progress id nothing is kept. */
  start(userId: string, progressId: string | undefined): SheetProgressReporter {
    if (progressId === undefined) return { report: () => undefined, finish: () => undefined };
    const key = `${userId}:${progressId}`;
    this.drop(key);
    const entry: { progress: SheetProgress; timer?: NodeJS.Timeout } = {
      progress: { phase: 'reading', done: 0, total: 0 },
    };
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= SHEET_PROGRESS_MAX_ENTRIES) break;
      this.drop(oldest);
    }
    return {
      report: (phase, done, total) => {
        entry.progress = { phase, done, total };
      },
      finish: () => {
        entry.progress = { phase: 'done', done: entry.progress.total, total: entry.progress.total };
        entry.timer = setTimeout(() => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
        }, this.keepMs);
        entry.timer.unref();
      },
    };
  }

  /** The progress of the user's call with that id, if it is running or just ended. */
  find(userId: string, progressId: string): SheetProgress | undefined {
    return this.entries.get(`${userId}:${progressId}`)?.progress;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry?.timer) clearTimeout(entry.timer);
    this.entries.delete(key);
  }
}
