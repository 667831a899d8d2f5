/**
 * Progress of running sheet calls for GET /api/google/progress/:id, per user and the progress id
 * the client chose, dropped a minute after the call ends. The server running a call keeps it in
 * memory and writes its latest count to the database, so a poll that reaches another server on
 * the same database answers it too. A user only ever reads their own.
 */
import type { SheetProgress } from '@adloom/contract';
import type { Db } from '../db/index.ts';
import {
  deleteOldSheetProgress,
  findSheetProgress,
  saveSheetProgress,
} from '../db/sheet-progress.ts';

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

  constructor(
    private readonly db: Db,
    private readonly keepMs: number = SHEET_PROGRESS_KEEP_MS,
  ) {}

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
    const store = this.startStoring(userId, progressId, entry);
    store(false);
    return {
      report: (phase, done, total) => {
        entry.progress = { phase, done, total };
        store(false);
      },
      finish: () => {
        entry.progress = { phase: 'done', done: entry.progress.total, total: entry.progress.total };
        store(true);
        entry.timer = setTimeout(() => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
        }, this.keepMs);
        entry.timer.unref();
      },
    };
  }

  /**
   * The progress of the user's call with that id, if it is running or just ended: from memory
   * when this server runs it, else as another server last stored it.
   */
  async find(userId: string, progressId: string): Promise<SheetProgress | undefined> {
    const kept = this.entries.get(`${userId}:${progressId}`)?.progress;
    if (kept) return kept;
    return findSheetProgress(this.db, { userId, progressId, keepMs: this.keepMs });
  }

  /**
   * Writes an entry's progress to the database one write at a time, always its latest (reports
   * made while a write runs are folded into the next). A failed write is only a stale progress
   * bar elsewhere: the call goes on.
   */
  private startStoring(
    userId: string,
    progressId: string,
    entry: { progress: SheetProgress },
  ): (isFinished: boolean) => void {
    let isWriting = false;
    let isDirty = false;
    let isFinished = false;
    let isFirst = true;
    const write = async () => {
      isWriting = true;
      try {
        while (isDirty) {
          isDirty = false;
          if (isFirst) await deleteOldSheetProgress(this.db, this.keepMs);
          isFirst = false;
          await saveSheetProgress(this.db, {
            userId,
            progressId,
            progress: entry.progress,
            isFinished,
          });
        }
      } catch {
        // The database is away: this server still answers from memory.
      } finally {
        isWriting = false;
      }
    };
    return (finished) => {
      isFinished ||= finished;
      isDirty = true;
      if (!isWriting) void write();
    };
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry?.timer) clearTimeout(entry.timer);
    this.entries.delete(key);
  }
}
