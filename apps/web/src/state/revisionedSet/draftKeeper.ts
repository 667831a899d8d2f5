import type { DraftStorage } from './draftStorage.ts';
import { realTimers, type Timers } from './timers.ts';

/** Unsaved edits are written to the browser this long after the last change. */
export const DRAFT_DELAY_MS = 800;

/** What a DraftKeeper needs from the set it keeps. */
export interface DraftKeeperOptions<D extends { key: string }> {
  storage: DraftStorage<D>;
  timers?: Timers;
  /** How long after an edit the draft is written. */
  delayMs(): number;
  /**
   * The draft of every unsaved edit, or null when there is nothing to write. `inSlices`: the
   * build may yield to the page; it gives up (null) once `isStopped()` says an edit, a save or
   * another set made it stale.
   */
  compose(inSlices: boolean, isStopped: () => boolean): D | null | Promise<D | null>;
  /** Whether every unsaved edit is in the stored draft (the marker's 'kept in this browser'). */
  onKept(isKept: boolean): void;
  /** A draft from an earlier visit waits to be restored or discarded (null: none). */
  onOffer(draft: D | null): void;
}

/**
 * Keeps the unsaved edits of one set in the browser: a draft written a moment after the last
 * edit (at once on flush or after a failed save), removed once a save leaves the set clean,
 * and on opening the set a draft from an earlier visit offered back. While a draft is offered
 * nothing is written over it.
 */
export class DraftKeeper<D extends { key: string }> {
  private key: string | null = null;
  private opens = 0;
  private timer: unknown = undefined;
  /** Moves whenever a write in progress must stop (an edit, a save, another set). */
  private token = 0;
  private changes = 0;
  /** `changes` when the stored draft was written. */
  private writtenChanges = -1;
  private offered: D | null = null;
  private isKept = false;
  private readonly timers: Timers;

  constructor(private readonly options: DraftKeeperOptions<D>) {
    this.timers = options.timers ?? realTimers;
  }

  /** Whether a draft from an earlier visit is offered. */
  get hasOffer(): boolean {
    return this.offered !== null;
  }

  /**
   * Keeps drafts of the set under `key` from now on; answers the draft stored for it, unless
   * another set was opened meanwhile. The caller offers it (`offer`) or drops it (`clean`).
   */
  async open(key: string): Promise<D | undefined> {
    this.cancel();
    const opens = (this.opens += 1);
    this.key = key;
    this.writtenChanges = -1;
    this.setOffer(null);
    this.setKept(false);
    const draft = await this.options.storage.find(key);
    return opens === this.opens ? draft : undefined;
  }

  /** Stops keeping drafts (flush first to keep the edits). */
  close(): void {
    this.cancel();
    this.opens += 1;
    this.key = null;
    this.setOffer(null);
    this.setKept(false);
  }

  /** Offers a draft found by `open`. */
  offer(draft: D): void {
    this.setOffer(draft);
  }

  /**
   * Offers a draft found by `open`, unless it holds exactly what was loaded (`isSameAsLoaded`:
   * written while a save was on its way, the page left meanwhile): then there is nothing to
   * restore and it is removed. True when it was offered.
   */
  async offerUnlessLoaded(draft: D, isSameAsLoaded: boolean): Promise<boolean> {
    if (isSameAsLoaded) {
      await this.clean();
      return false;
    }
    this.offer(draft);
    return true;
  }

  /** Takes the offered draft to restore it (then `restored`, unless it cannot be read). */
  takeOffer(): D | null {
    const draft = this.offered;
    this.setOffer(null);
    return draft;
  }

  /** The taken draft was restored: it stays stored, holding every edit, until a save. */
  restored(): void {
    this.changes += 1;
    this.writtenChanges = this.changes;
    this.setKept(true);
  }

  /** Drops the offered draft. */
  async discard(): Promise<void> {
    const key = this.key;
    this.setOffer(null);
    if (key !== null) await this.options.storage.remove(key).catch(() => undefined);
  }

  /** Notes an edit: the stored draft no longer holds it; a new one is written shortly. */
  changed(): void {
    this.changes += 1;
    this.setKept(false);
    this.schedule();
  }

  /** Writes the draft a moment from now (a big set waits longer: each write copies it). */
  schedule(): void {
    if (this.key === null || this.offered) return;
    this.cancel();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.write(true);
    }, this.options.delayMs());
  }

  /**
   * Writes the draft now, in one go (leaving the page, switching set: a page being left may
   * not run again). Nothing to do when the stored draft already holds every edit.
   */
  async flush(): Promise<void> {
    this.cancel();
    if (this.writtenChanges === this.changes) return;
    await this.write(false);
  }

  /**
   * Writes the draft now although no edit came in: what it must hold changed (a part of the
   * set was saved while other parts stay unsaved).
   */
  async rewrite(): Promise<void> {
    this.cancel();
    await this.write(false);
  }

  /** A save failed: the edits go to the browser at once. */
  saveFailed(): void {
    void this.write(true);
  }

  /**
   * A save or a loaded newer version left nothing unsaved: the draft goes (unless it is one
   * offered from an earlier visit, which waits for the person's choice).
   */
  async clean(): Promise<void> {
    const key = this.key;
    this.cancel();
    if (key !== null && !this.offered)
      await this.options.storage.remove(key).catch(() => undefined);
  }

  /** Stops the pending write and any write in progress. */
  cancel(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.token += 1;
  }

  private async write(inSlices: boolean): Promise<void> {
    const key = this.key;
    if (key === null || this.offered) return;
    const token = (this.token += 1);
    const changes = this.changes;
    const draft = await this.options.compose(
      inSlices,
      () => token !== this.token || this.key !== key,
    );
    // A save (clean) or another write that came while the draft was composed has the last word:
    // writing this one after it would leave a draft of edits that were saved.
    if (!draft || this.offered || token !== this.token) return;
    try {
      await this.options.storage.put(draft);
      this.writtenChanges = changes;
      if (this.changes === changes && this.key === key) this.setKept(true);
    } catch {
      // A browser without room or IndexedDB: the edits stay in memory and the marker shows.
    }
  }

  private setKept(isKept: boolean): void {
    if (this.isKept === isKept) return;
    this.isKept = isKept;
    this.options.onKept(isKept);
  }

  private setOffer(draft: D | null): void {
    if (this.offered === draft) return;
    this.offered = draft;
    this.options.onOffer(draft);
  }
}
