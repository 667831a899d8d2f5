import { FEED_MAX_ROWS } from '@adloom/contract';
import {
  makeUniqueName,
  newFeed,
  type Feed,
  type FeedDataType,
  type FeedRow,
} from '@adloom/engine';
import { ApiError } from '../../api/errors.ts';
import { createStore, type Store } from '../../state/store.ts';
import { draftFeeds, type DraftStorage, type FeedSetDraft } from '../drafts/drafts.ts';
import {
  RowPacker,
  rowObjectColumns,
  type PackedRows,
  type RowColumns,
} from '../drafts/packedRows.ts';
import type { FeedStore } from '../feed-grid/index.ts';
import { TrackedFeedStore } from './trackedFeedStore.ts';

/** Spec section 4 and 9: feeds (and templates) are saved every 5 minutes while unsaved. */
export const AUTOSAVE_INTERVAL_MS = 5 * 60_000;
/** Unsaved edits are written to the browser this long after the last change. */
export const DRAFT_DELAY_MS = 800;
/** Sets with more rows than this are written less often (each write copies every row). */
export const BIG_DRAFT_ROWS = 100_000;
/** Draft delay of big sets. */
export const BIG_DRAFT_DELAY_MS = 8_000;
/** A draft written in the background packs rows for this long, then lets the page run. */
const DRAFT_SLICE_MS = 8;

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** Texts of saving (spec section 8 where it names them). */
export const SAVE_MESSAGES = {
  failed: (error: string) => `There was a problem saving your data: ${error}`,
  tooManyRows: (name: string, count: number) =>
    `The feed "${name}" has ${NUMBER_FORMAT.format(count)} rows; the server keeps at most ${NUMBER_FORMAT.format(FEED_MAX_ROWS)} rows per feed. Delete rows or split the feed, then save again.`,
  conflictLoadFailed: (error: string) =>
    `This was saved elsewhere, and the newer version could not be loaded: ${error}`,
  draftUnreadable: 'The changes kept in this browser could not be read.',
} as const;

/** A feed without its rows. */
export type FeedMeta = Omit<Feed, 'rows'>;

/** A stored set as loaded or saved. */
export interface FeedSetSnapshot {
  feeds: Feed[];
  revision: number | null;
}

/** The set being edited: where it is saved and loaded, and its draft key. */
export interface FeedSetTarget {
  key: string;
  /** Client name, or '' for lists. */
  name: string;
  save(feeds: Feed[], revision: number | undefined): Promise<{ feeds: Feed[]; revision: number }>;
  load(): Promise<{ feeds: Feed[]; revision: number }>;
  /** Success notice after a save by the person (autosaves stay quiet). */
  savedMessage: string;
  /**
   * Failure notice of a save, given the error text (spec section 8 names one per screen);
   * SAVE_MESSAGES.failed when absent.
   */
  saveFailedMessage?: (error: string, isAutosave: boolean) => string;
}

/** What the editor needs from the app. */
export interface FeedSetEditorDeps {
  drafts: DraftStorage;
  notify(kind: 'success' | 'error', message: string): void;
  /** A save refused because the session ended (401): the generic handler. */
  onUnauthorized(error: ApiError): void;
  now?: () => number;
  timers?: {
    setTimeout(fn: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
    setInterval(fn: () => void, ms: number): unknown;
    clearInterval(handle: unknown): void;
  };
}

/** The editor's observable state. */
export interface FeedSetState {
  key: string | null;
  feeds: FeedMeta[];
  activeFeed: string | null;
  /** The server revision the edits are made on (null before the first save of a new set). */
  revision: number | null;
  isDirty: boolean;
  isSaving: boolean;
  /** Epoch ms of the last save that reached the server. */
  savedAt: number | null;
  /** A save met a newer revision: the newer set, to load or overwrite. */
  conflict: { revision: number; feeds: Feed[] } | null;
  /** Unsaved edits from an earlier visit wait to be restored or discarded. */
  draftOffer: { savedAt: number; isBehind: boolean } | null;
  /** Every unsaved edit is also kept in this browser (a closed tab or a crash loses none). */
  isDraftKept: boolean;
}

/** How a save ended. */
export type SaveOutcome = 'saved' | 'conflict' | 'failed' | 'refused';

const realTimers = {
  setTimeout: (fn: () => void, ms: number) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle: unknown) =>
    globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (fn: () => void, ms: number) => globalThis.setInterval(fn, ms),
  clearInterval: (handle: unknown) =>
    globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

const initialState: FeedSetState = {
  key: null,
  feeds: [],
  activeFeed: null,
  revision: null,
  isDirty: false,
  isSaving: false,
  savedAt: null,
  conflict: null,
  draftOffer: null,
  isDraftKept: false,
};

function toMeta(feed: Feed): FeedMeta {
  const { rows: _rows, ...meta } = feed;
  return meta;
}

/** The text of an error for a message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

let rowIdCounter = 0;
function makeRowId(): string {
  rowIdCounter += 1;
  return `row-${Date.now().toString(36)}-${rowIdCounter.toString(36)}`;
}

/**
 * Edits one feed set (a client's feeds or the user's lists): the feeds' names and rows, the
 * active feed's rows in a TrackedFeedStore bound to the grid, saving against the loaded
 * revision (a 409 becomes a conflict to resolve), unsaved edits written to a draft in the
 * browser, and autosave every 5 minutes. No React: pages subscribe to `state`.
 */
export class FeedSetEditor {
  /** The active feed's rows; the grid shows this store. */
  readonly store = new TrackedFeedStore();
  readonly state: Store<FeedSetState> = createStore(initialState);

  private readonly deps: FeedSetEditorDeps;
  private readonly timers: NonNullable<FeedSetEditorDeps['timers']>;
  private readonly now: () => number;
  private target: FeedSetTarget | null = null;
  private rows = new Map<string, FeedRow[]>();
  /** store.dataChanges when the active feed's rows were last loaded or saved. */
  private storeBaseline = 0;
  private lastSeenChanges = 0;
  private editSeq = 0;
  private draftTimer: unknown = undefined;
  private autosaveTimer: unknown = undefined;
  private pendingDraft: FeedSetDraft | null = null;
  /** Moves whenever a draft write in progress must stop (an edit, a save, a new set). */
  private draftToken = 0;
  /** editSeq of the edits the last written draft holds. */
  private draftSeq = -1;
  /** How many times the store was loaded (a draft write reading it stops when it moves). */
  private storeLoads = 0;
  /** Packed rows of feeds not being edited, by their row array. */
  private packedRows = new WeakMap<readonly FeedRow[], PackedRows>();
  private readonly unsubscribe: () => void;

  constructor(deps: FeedSetEditorDeps) {
    this.deps = deps;
    this.timers = deps.timers ?? realTimers;
    this.now = deps.now ?? Date.now;
    this.store.load([]);
    this.unsubscribe = this.store.subscribe(() => {
      if (this.store.dataChanges !== this.lastSeenChanges) {
        this.lastSeenChanges = this.store.dataChanges;
        this.markChanged();
      }
    });
  }

  private patch(update: Partial<FeedSetState>): void {
    this.state.set((s) => ({ ...s, ...update }));
  }

  /** The set being edited, if any. */
  get currentTarget(): FeedSetTarget | null {
    return this.target;
  }

  // ---- opening ----

  /**
   * Starts editing a set loaded from the server; `activeFeed` is shown when it exists. Looks for
   * a draft of the set and offers it (state.draftOffer).
   */
  async open(
    target: FeedSetTarget,
    snapshot: FeedSetSnapshot,
    options: { activeFeed?: string | null } = {},
  ): Promise<void> {
    this.cancelDraftTimer();
    this.target = target;
    this.pendingDraft = null;
    this.draftSeq = -1;
    this.applySnapshot(snapshot, options.activeFeed ?? null, false);
    this.patch({
      key: target.key,
      conflict: null,
      draftOffer: null,
      savedAt: null,
      isDraftKept: false,
    });
    const draft = await this.deps.drafts.find(target.key);
    if (!draft || this.target !== target || this.state.get().isDirty) return;
    this.pendingDraft = draft;
    this.patch({
      draftOffer: { savedAt: draft.savedAt, isBehind: draft.baseRevision !== snapshot.revision },
    });
  }

  /** Stops editing (the caller flushes the draft first when it wants the edits kept). */
  close(): void {
    this.cancelDraftTimer();
    this.target = null;
    this.pendingDraft = null;
    this.rows = new Map();
    this.resetStore([]);
    this.state.set(initialState);
  }

  private resetStore(rows: readonly FeedRow[]): void {
    this.storeLoads += 1;
    this.store.load(rows);
    this.store.clearHistory();
    this.storeBaseline = this.store.dataChanges;
    this.lastSeenChanges = this.store.dataChanges;
  }

  private applySnapshot(
    snapshot: FeedSetSnapshot,
    activeFeed: string | null,
    isDirty: boolean,
  ): void {
    this.rows = new Map(snapshot.feeds.map((feed) => [feed.name, feed.rows]));
    const feeds = snapshot.feeds.map(toMeta);
    const active = activeFeed !== null && this.rows.has(activeFeed) ? activeFeed : null;
    this.resetStore(active === null ? [] : (this.rows.get(active) ?? []));
    this.patch({ feeds, activeFeed: active, revision: snapshot.revision, isDirty });
  }

  // ---- feeds ----

  /** Shows another feed's rows (null: none). The active feed's edits are kept in the set. */
  selectFeed(name: string | null): void {
    const { activeFeed } = this.state.get();
    if (name === activeFeed) return;
    this.stashActiveRows();
    const next = name !== null && this.rows.has(name) ? name : null;
    this.resetStore(next === null ? [] : (this.rows.get(next) ?? []));
    this.patch({ activeFeed: next });
  }

  private stashActiveRows(): void {
    const { activeFeed } = this.state.get();
    if (activeFeed === null || this.store.dataChanges === this.storeBaseline) return;
    this.rows.set(activeFeed, this.store.toFeedRows());
    this.storeBaseline = this.store.dataChanges;
  }

  /** Adds a feed (name made unique) with one empty row and makes it active; returns its name. */
  addFeed(name: string, dataType: FeedDataType = 'table'): string {
    const unique = makeUniqueName(
      name.trim(),
      this.state.get().feeds.map((f) => f.name),
    );
    const feed = newFeed(unique, dataType, makeRowId());
    this.rows.set(unique, feed.rows);
    this.patch({ feeds: [...this.state.get().feeds, toMeta(feed)] });
    this.markChanged();
    this.selectFeed(unique);
    return unique;
  }

  /** Copies a feed: rows deep-copied with new ids, the server id dropped, name made unique. */
  copyFeed(name: string): string | null {
    const meta = this.state.get().feeds.find((f) => f.name === name);
    if (!meta) return null;
    this.stashActiveRows();
    const unique = makeUniqueName(
      name,
      this.state.get().feeds.map((f) => f.name),
    );
    const { _id: _dropped, ...rest } = meta;
    const rows = (this.rows.get(name) ?? []).map((row) => ({ ...row, id: makeRowId() }));
    this.rows.set(unique, rows);
    this.patch({ feeds: [...this.state.get().feeds, { ...rest, name: unique }] });
    this.markChanged();
    this.selectFeed(unique);
    return unique;
  }

  /** Removes a feed from the set (the caller saves); clears the rows when it was active. */
  removeFeed(name: string): void {
    const { feeds, activeFeed } = this.state.get();
    if (!feeds.some((f) => f.name === name)) return;
    if (activeFeed === name) {
      this.resetStore([]);
      this.patch({ activeFeed: null });
    }
    this.rows.delete(name);
    this.patch({ feeds: feeds.filter((f) => f.name !== name) });
    this.markChanged();
  }

  /** The rows of a feed in the set (the active one as edited). */
  getFeedRows(name: string): FeedRow[] {
    if (name === this.state.get().activeFeed) this.stashActiveRows();
    return this.rows.get(name) ?? [];
  }

  /** Appends rows to the active feed as one undoable step; returns how many (0: no feed). */
  appendRows(rows: readonly Partial<FeedRow>[]): number {
    if (this.state.get().activeFeed === null || rows.length === 0) return 0;
    return this.store.appendFeedRows(rows);
  }

  /** Every feed with its rows, as saved (feeds linked to a sheet are sent without rows). */
  collectFeeds(): Feed[] {
    this.stashActiveRows();
    return this.state.get().feeds.map((meta) => ({
      ...meta,
      rows: meta.sheetUrl ? [] : (this.rows.get(meta.name) ?? []),
    }));
  }

  private markChanged(): void {
    this.editSeq += 1;
    const { isDirty, isDraftKept } = this.state.get();
    if (!isDirty || isDraftKept) this.patch({ isDirty: true, isDraftKept: false });
    this.scheduleDraft();
  }

  // ---- saving ----

  /**
   * Saves the whole set against the loaded revision. A newer revision on the server becomes a
   * conflict; a failure keeps every edit (and the draft) and says why.
   */
  async save(options: { revision?: number; isAutosave?: boolean } = {}): Promise<SaveOutcome> {
    const target = this.target;
    const state = this.state.get();
    if (!target || state.isSaving) return 'refused';
    const feeds = this.collectFeeds();
    const tooBig = feeds.find((feed) => feed.rows.length > FEED_MAX_ROWS);
    if (tooBig) {
      this.deps.notify('error', SAVE_MESSAGES.tooManyRows(tooBig.name, tooBig.rows.length));
      return 'refused';
    }
    const seq = this.editSeq;
    this.patch({ isSaving: true });
    try {
      const answer = await target.save(feeds, options.revision ?? state.revision ?? undefined);
      if (this.target !== target) return 'saved';
      const ids = new Map(answer.feeds.map((feed) => [feed.name, feed._id]));
      const isUnchanged = this.editSeq === seq;
      this.patch({
        feeds: this.state.get().feeds.map((meta) => {
          const id = ids.get(meta.name);
          return id ? { ...meta, _id: id } : meta;
        }),
        revision: answer.revision,
        savedAt: this.now(),
        isDirty: !isUnchanged,
        conflict: null,
        isSaving: false,
      });
      if (isUnchanged) {
        this.cancelDraftTimer();
        await this.deps.drafts.remove(target.key).catch(() => undefined);
      }
      if (!options.isAutosave) this.deps.notify('success', target.savedMessage);
      return 'saved';
    } catch (error) {
      this.patch({ isSaving: false });
      if (this.target !== target) return 'failed';
      if (error instanceof ApiError && error.status === 409) {
        try {
          const current = await target.load();
          this.patch({ conflict: { revision: current.revision, feeds: current.feeds } });
          return 'conflict';
        } catch (loadError) {
          this.deps.notify('error', SAVE_MESSAGES.conflictLoadFailed(describeError(loadError)));
          return 'failed';
        }
      }
      void this.writeDraft(true);
      if (error instanceof ApiError && error.status === 401) this.deps.onUnauthorized(error);
      else {
        const message = target.saveFailedMessage ?? SAVE_MESSAGES.failed;
        this.deps.notify('error', message(describeError(error), options.isAutosave === true));
      }
      return 'failed';
    }
  }

  /** Resolves a conflict: load the newer version, or save mine over it. */
  async resolveConflict(choice: 'theirs' | 'mine'): Promise<SaveOutcome | 'loaded'> {
    const conflict = this.state.get().conflict;
    const target = this.target;
    if (!conflict || !target) return 'refused';
    if (choice === 'mine') {
      this.patch({ conflict: null });
      return this.save({ revision: conflict.revision });
    }
    this.cancelDraftTimer();
    this.applySnapshot(conflict, this.state.get().activeFeed, false);
    this.patch({ conflict: null });
    this.editSeq += 1;
    await this.deps.drafts.remove(target.key).catch(() => undefined);
    return 'loaded';
  }

  /** Closes the conflict dialog without choosing: the edits stay, unsaved. */
  dismissConflict(): void {
    this.patch({ conflict: null });
  }

  // ---- drafts ----

  /** Restores the offered draft: its feeds, rows and active feed, unsaved, on its base revision. */
  restoreDraft(): void {
    const draft = this.pendingDraft;
    this.pendingDraft = null;
    if (!draft) {
      this.patch({ draftOffer: null });
      return;
    }
    let feeds: Feed[];
    try {
      feeds = draftFeeds(draft);
    } catch {
      this.patch({ draftOffer: null });
      this.deps.notify('error', SAVE_MESSAGES.draftUnreadable);
      return;
    }
    this.applySnapshot(
      { feeds, revision: draft.baseRevision },
      draft.activeFeed ?? this.state.get().activeFeed,
      true,
    );
    this.editSeq += 1;
    // The draft it came from stays stored until a save reaches the server.
    this.patch({ draftOffer: null, isDraftKept: true });
  }

  /** Drops the offered draft. */
  async discardDraft(): Promise<void> {
    const target = this.target;
    this.pendingDraft = null;
    this.patch({ draftOffer: null });
    if (target) await this.deps.drafts.remove(target.key).catch(() => undefined);
  }

  private cancelDraftTimer(): void {
    if (this.draftTimer !== undefined) this.timers.clearTimeout(this.draftTimer);
    this.draftTimer = undefined;
    // A write in progress holds older edits (or none worth keeping): it stops.
    this.draftToken += 1;
  }

  private scheduleDraft(): void {
    if (!this.target || this.state.get().draftOffer) return;
    this.cancelDraftTimer();
    const rowCount =
      this.store.rowCount + [...this.rows.values()].reduce((sum, rows) => sum + rows.length, 0);
    const delay = rowCount > BIG_DRAFT_ROWS ? BIG_DRAFT_DELAY_MS : DRAFT_DELAY_MS;
    this.draftTimer = this.timers.setTimeout(() => {
      this.draftTimer = undefined;
      void this.writeDraft(true);
    }, delay);
  }

  /**
   * Writes unsaved edits to the browser now (before leaving, switching client, or hiding the
   * page), in one go: a page being left may not run again. Nothing to do when the last draft
   * already holds every edit.
   */
  async flushDraft(): Promise<void> {
    this.cancelDraftTimer();
    if (this.draftSeq === this.editSeq) return;
    await this.writeDraft(false);
  }

  /**
   * Writes the draft: every feed's rows packed by column (the edited feed read straight from
   * the store), then one put. `inSlices`: packing yields to the page every few milliseconds, so
   * a million rows never freeze it; an edit meanwhile stops the write (another is scheduled).
   */
  private async writeDraft(inSlices: boolean): Promise<void> {
    const target = this.target;
    if (!target || !this.state.get().isDirty || this.state.get().draftOffer) return;
    const token = (this.draftToken += 1);
    const seq = this.editSeq;
    const loads = this.storeLoads;
    const feeds = this.startPacking();
    let sliceEnd = inSlices ? this.now() + DRAFT_SLICE_MS : Number.POSITIVE_INFINITY;
    for (const { packer } of feeds) {
      while (!packer.step(sliceEnd, this.now)) {
        await yieldToPage();
        if (token !== this.draftToken || this.target !== target) return;
        if (this.storeLoads !== loads) {
          // Another feed was opened: its rows are read from the set next time.
          this.scheduleDraft();
          return;
        }
        sliceEnd = this.now() + DRAFT_SLICE_MS;
      }
    }
    const state = this.state.get();
    if (!state.isDirty || state.draftOffer) return;
    const draft: FeedSetDraft = {
      key: target.key,
      userId: target.key.split('|')[0] ?? '',
      name: target.name,
      baseRevision: state.revision,
      savedAt: this.now(),
      feeds: feeds.map(({ meta, rows, packer }) => {
        const packed = packer.result;
        if (rows) this.packedRows.set(rows, packed);
        return { ...meta, packed };
      }),
      activeFeed: state.activeFeed,
    };
    try {
      await this.deps.drafts.put(draft);
      this.draftSeq = seq;
      if (this.editSeq === seq && this.target === target) this.patch({ isDraftKept: true });
    } catch {
      // A browser without room or IndexedDB: the edits stay in memory and the marker shows.
    }
  }

  /** A packer per feed (done at once for feeds packed before), as collectFeeds would save them. */
  private startPacking(): { meta: FeedMeta; rows?: readonly FeedRow[]; packer: RowPacker }[] {
    const { feeds, activeFeed } = this.state.get();
    const isStoreAhead = this.store.dataChanges !== this.storeBaseline;
    return feeds.map((meta) => {
      if (meta.name === activeFeed && isStoreAhead && !meta.sheetUrl)
        return { meta, packer: new RowPacker(storeColumns(this.store)) };
      const rows = meta.sheetUrl ? [] : (this.rows.get(meta.name) ?? []);
      const packed = this.packedRows.get(rows);
      if (packed) return { meta, packer: RowPacker.done(packed) };
      return { meta, rows, packer: new RowPacker(rowObjectColumns(rows)) };
    });
  }

  // ---- autosave ----

  /** Saves every 5 minutes while there are unsaved edits. */
  startAutosave(): void {
    this.stopAutosave();
    this.autosaveTimer = this.timers.setInterval(() => {
      const state = this.state.get();
      if (state.isDirty && !state.isSaving && !state.conflict && !state.draftOffer && this.target)
        void this.save({ isAutosave: true });
    }, AUTOSAVE_INTERVAL_MS);
  }

  stopAutosave(): void {
    if (this.autosaveTimer !== undefined) this.timers.clearInterval(this.autosaveTimer);
    this.autosaveTimer = undefined;
  }

  /** Stops timers and listeners. */
  dispose(): void {
    this.stopAutosave();
    this.cancelDraftTimer();
    this.unsubscribe();
  }
}

/** The store's rows in feed order, by field (id first, as PACKED_FIELDS). */
function storeColumns(store: FeedStore): RowColumns {
  return {
    rowCount: store.rowCount,
    cells: (field, start, end) => store.getColumnSlice(field === 0 ? 'id' : field - 1, start, end),
  };
}

/** Lets the page handle input and paint before going on. */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel === 'undefined') {
      globalThis.setTimeout(resolve, 0);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
