import { FEED_MAX_ROWS, type SheetSync, type StoredFeed } from '@adloom/contract';
import {
  completeFeedRow,
  FEED_COLUMNS,
  type Feed,
  type FeedDataType,
  type FeedRow,
  makeUniqueName,
  newFeed,
} from '@adloom/engine';
import type { ApiError } from '../../api/errors.ts';
import {
  Autosave,
  DRAFT_DELAY_MS,
  DraftKeeper,
  REVISIONED_SET_MESSAGES,
  RevisionedSaver,
  realTimers,
  type DraftStorage,
  type SaveOutcome,
  type Timers,
} from '../../state/revisionedSet/index.ts';
import { createStore, type Store } from '../../state/store.ts';
import { yieldToPage } from '../../state/yieldToPage.ts';
import { draftFeeds, type FeedSetDraft } from '../drafts/drafts.ts';
import {
  RowPacker,
  rowObjectColumns,
  type PackedRows,
  type RowColumns,
} from '../drafts/packedRows.ts';
import type { FeedStore } from '../feed-grid/index.ts';
import { TrackedFeedStore } from './trackedFeedStore.ts';
import { keptForPage } from '../../state/pageState.ts';

export { type SaveOutcome } from '../../state/revisionedSet/index.ts';

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
} as const;

/** A feed without its rows (with its last sheet sync when it is linked to a sheet). */
export type FeedMeta = Omit<StoredFeed, 'rows'>;

/**
 * Whether a save sends a feed's rows (spec section 7: linked feeds are stored with empty
 * rows). An unlinked feed's rows always; a linked feed's only before its first sync, so the
 * server keeps them as the sheet's copy. After that the copy changes only by Download Data and
 * Upload Data, and a save can never send it away.
 */
export function isRowsSaved(feed: Pick<FeedMeta, 'sheetUrl' | 'sheetSync'>): boolean {
  return !feed.sheetUrl || feed.sheetSync === undefined;
}

/**
 * Whether a draft holds exactly the feeds of a loaded set: the same feeds in the same order,
 * with the same kind and link, and (where a draft keeps rows) the same cells in every row.
 * Row ids and the server's ids are not compared: a draft's rows get new ids when read.
 */
function isDraftOfFeeds(draft: FeedSetDraft, feeds: readonly StoredFeed[]): boolean {
  let drafted: StoredFeed[];
  try {
    drafted = draftFeeds(draft);
  } catch {
    return false;
  }
  if (drafted.length !== feeds.length) return false;
  return drafted.every((feed, i) => {
    const loaded = feeds[i]!;
    const isSameMeta =
      feed.name === loaded.name &&
      feed.dataType === loaded.dataType &&
      (feed.sheetUrl ?? '') === (loaded.sheetUrl ?? '') &&
      (feed.sheetName ?? '') === (loaded.sheetName ?? '');
    if (!isSameMeta) return false;
    // A synced linked feed's rows are the server's copy, never a draft's.
    if (!isRowsSaved(feed)) return true;
    if (feed.rows.length !== loaded.rows.length) return false;
    return feed.rows.every((row, r) => {
      const other = loaded.rows[r]!;
      return FEED_COLUMNS.every((column) => (row[column] ?? '') === (other[column] ?? ''));
    });
  });
}

/** A feed's link to a sheet: '' URL and name when it has none. */
export interface SheetLink {
  sheetUrl: string;
  sheetName: string;
  sheetSync?: SheetSync;
}

/** A stored set as loaded or saved. */
export interface FeedSetSnapshot {
  feeds: StoredFeed[];
  revision: number | null;
}

/** The set being edited: where it is saved and loaded, and its draft key. */
export interface FeedSetTarget {
  key: string;
  /** Client name, or '' for lists. */
  name: string;
  save(
    feeds: Feed[],
    revision: number | undefined,
  ): Promise<{ feeds: StoredFeed[]; revision: number }>;
  load(): Promise<{ feeds: StoredFeed[]; revision: number }>;
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
  drafts: DraftStorage<FeedSetDraft>;
  notify(kind: 'success' | 'error', message: string, status?: number): void;
  /** A save refused because the session ended (401): the generic handler. */
  onUnauthorized(error: ApiError): void;
  now?: () => number;
  timers?: Timers;
}

/** A save met a newer revision: the newer set, to load or overwrite. */
export interface FeedSetConflict {
  revision: number;
  feeds: StoredFeed[];
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
  conflict: FeedSetConflict | null;
  /** Unsaved edits from an earlier visit wait to be restored or discarded. */
  draftOffer: { savedAt: number; isBehind: boolean } | null;
  /** Every unsaved edit is also kept in this browser (a closed tab or a crash loses none). */
  isDraftKept: boolean;
}

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

function toMeta(feed: StoredFeed): FeedMeta {
  const { rows: _rows, ...meta } = feed;
  return meta;
}

let rowIdCounter = 0;
keptForPage(() => {
  rowIdCounter = 0;
});
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
  private readonly now: () => number;
  private target: FeedSetTarget | null = null;
  private rows = new Map<string, FeedRow[]>();
  /** Feeds whose rows were edited here since they were loaded or last moved to or from a sheet. */
  private editedFeeds = new Set<string>();
  /** store.dataChanges when the active feed's rows were last loaded or saved. */
  private storeBaseline = 0;
  private lastSeenChanges = 0;
  /** How many times the store was loaded (a draft write reading it stops when it moves). */
  private storeLoads = 0;
  /** Packed rows of feeds not being edited, by their row array. */
  private packedRows = new WeakMap<readonly FeedRow[], PackedRows>();
  private readonly saver: RevisionedSaver<
    FeedSetTarget,
    Feed[],
    { feeds: StoredFeed[]; revision: number },
    FeedSetConflict,
    FeedSetState
  >;
  private readonly drafts: DraftKeeper<FeedSetDraft>;
  private readonly autosave: Autosave;
  private readonly unsubscribe: () => void;

  constructor(deps: FeedSetEditorDeps) {
    const timers = deps.timers ?? realTimers;
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    this.saver = new RevisionedSaver(
      this.state,
      {
        target: () => this.target,
        collect: () => this.collectSavable(),
        send: (target, feeds, revision) => target.save(feeds, revision),
        loadTheirs: async (target) => {
          const current = await target.load();
          return { revision: current.revision, feeds: current.feeds };
        },
        savedState: (answer) => {
          const saved = new Map(answer.feeds.map((feed) => [feed.name, feed]));
          return {
            // The server's id, and the sync it records when a linked feed's rows became its copy.
            feeds: this.state.get().feeds.map((meta) => {
              const feed = saved.get(meta.name);
              if (!feed) return meta;
              const next = feed._id ? { ...meta, _id: feed._id } : meta;
              return feed.sheetSync && meta.sheetUrl && feed.sheetUrl === meta.sheetUrl
                ? { ...next, sheetSync: feed.sheetSync }
                : next;
            }),
          };
        },
        applyTheirs: (conflict) => {
          this.drafts.cancel();
          this.applySnapshot(conflict, this.state.get().activeFeed, false);
        },
        afterSaved: async (isClean) => {
          if (isClean) await this.drafts.clean();
        },
        afterFailed: () => this.drafts.saveFailed(),
        savedMessage: (target) => target.savedMessage,
        failedMessage: (target, error, isAutosave) =>
          (target.saveFailedMessage ?? SAVE_MESSAGES.failed)(error, isAutosave),
      },
      deps,
    );
    this.drafts = new DraftKeeper<FeedSetDraft>({
      storage: deps.drafts,
      timers,
      delayMs: () => (this.countRows() > BIG_DRAFT_ROWS ? BIG_DRAFT_DELAY_MS : DRAFT_DELAY_MS),
      compose: (inSlices, isStopped) => this.composeDraft(inSlices, isStopped),
      onKept: (isDraftKept) => this.patch({ isDraftKept }),
      onOffer: (draft) =>
        this.patch({
          draftOffer: draft
            ? { savedAt: draft.savedAt, isBehind: draft.baseRevision !== this.state.get().revision }
            : null,
        }),
    });
    this.autosave = new Autosave(timers, () => {
      if (this.saver.isAutosaveDue() && !this.drafts.hasOffer) void this.save({ isAutosave: true });
    });
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
    this.target = target;
    const finding = this.drafts.open(target.key);
    this.applySnapshot(snapshot, options.activeFeed ?? null, false);
    this.patch({ key: target.key, conflict: null, savedAt: null });
    const draft = await finding;
    if (!draft || this.target !== target || this.state.get().isDirty) return;
    await this.drafts.offerUnlessLoaded(draft, isDraftOfFeeds(draft, snapshot.feeds));
  }

  /** Stops editing (the caller flushes the draft first when it wants the edits kept). */
  close(): void {
    this.drafts.close();
    this.target = null;
    this.rows = new Map();
    this.editedFeeds = new Set();
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
    this.editedFeeds = new Set();
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
    this.editedFeeds.add(activeFeed);
  }

  /** Adds a feed (name made unique) with one empty row and makes it active; returns its name. */
  addFeed(name: string, dataType: FeedDataType = 'table'): string {
    return this.addFeedWithRows(name, [{}], dataType);
  }

  /**
   * Adds a feed (name made unique) holding `rows` and makes it active, as New Feed does (a geo
   * feed is made this way); each row gets a new id, cells it does not give are empty. Returns
   * the feed's name.
   */
  addFeedWithRows(
    name: string,
    rows: readonly Partial<Omit<FeedRow, 'id' | 'selected'>>[],
    dataType: FeedDataType = 'table',
  ): string {
    const unique = makeUniqueName(
      name.trim(),
      this.state.get().feeds.map((f) => f.name),
    );
    this.rows.set(
      unique,
      rows.map((row) => completeFeedRow(makeRowId(), row)),
    );
    this.patch({ feeds: [...this.state.get().feeds, toMeta(newFeed(unique, dataType))] });
    this.markChanged();
    this.selectFeed(unique);
    return unique;
  }

  /**
   * Copies a feed: rows deep-copied with new ids, the server id and the sheet sync dropped, name
   * made unique.
   */
  copyFeed(name: string): string | null {
    const meta = this.state.get().feeds.find((f) => f.name === name);
    if (!meta) return null;
    this.stashActiveRows();
    const unique = makeUniqueName(
      name,
      this.state.get().feeds.map((f) => f.name),
    );
    // The copy is a new feed: its rows are saved as its own (the server keeps them as the
    // sheet's copy when it is linked) until it first syncs.
    const { _id: _dropped, sheetSync: _notSynced, ...rest } = meta;
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
    this.editedFeeds.delete(name);
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

  /** Every feed as a save sends it (see isRowsSaved: synced linked feeds go without rows). */
  collectFeeds(): Feed[] {
    this.stashActiveRows();
    return this.state.get().feeds.map(({ sheetSync: _sync, ...meta }) => ({
      ...meta,
      rows: isRowsSaved({ sheetUrl: meta.sheetUrl, sheetSync: _sync })
        ? (this.rows.get(meta.name) ?? [])
        : [],
    }));
  }

  // ---- sheets ----

  /** The feed's name, link and id as last saved or loaded (undefined when it is gone). */
  findFeed(name: string): FeedMeta | undefined {
    return this.state.get().feeds.find((feed) => feed.name === name);
  }

  /**
   * True when a feed's rows were edited here since they were loaded or last read from or written
   * to its sheet (a download would replace those edits).
   */
  hasEditedRows(name: string): boolean {
    if (name === this.state.get().activeFeed && this.store.dataChanges !== this.storeBaseline)
      return true;
    return this.editedFeeds.has(name);
  }

  /**
   * Links a feed to a sheet or clears its link (empty URL and name): an edit of the set, saved
   * with it. A cleared link keeps the rows, which become the feed's own.
   */
  setSheetLink(name: string, link: SheetLink): void {
    if (!this.findFeed(name)) return;
    if (name === this.state.get().activeFeed) this.stashActiveRows();
    this.patch({
      feeds: this.state.get().feeds.map((meta) => {
        if (meta.name !== name) return meta;
        const { sheetSync: _old, ...rest } = meta;
        const next: FeedMeta = { ...rest, sheetUrl: link.sheetUrl, sheetName: link.sheetName };
        return link.sheetSync ? { ...next, sheetSync: link.sheetSync } : next;
      }),
    });
    this.markChanged();
  }

  /**
   * Takes rows that were just read from or written to a linked feed's sheet: they are the
   * server's copy now, so the set does not become unsaved; the sheet's name and the sync are
   * recorded. The feed's grid shows them when it is the active one.
   */
  applySheetSync(
    name: string,
    sync: { sheetName: string; sheetSync: SheetSync },
    rows?: FeedRow[],
  ): void {
    if (!this.findFeed(name)) return;
    if (rows) {
      this.rows.set(name, rows);
      if (name === this.state.get().activeFeed) this.resetStore(rows);
    } else if (name === this.state.get().activeFeed) {
      this.stashActiveRows();
    }
    this.editedFeeds.delete(name);
    this.patch({
      feeds: this.state
        .get()
        .feeds.map((meta) =>
          meta.name === name
            ? { ...meta, sheetName: sync.sheetName, sheetSync: sync.sheetSync }
            : meta,
        ),
    });
  }

  private markChanged(): void {
    this.saver.edited();
    if (!this.state.get().isDirty) this.patch({ isDirty: true });
    this.drafts.changed();
  }

  private countRows(): number {
    return (
      this.store.rowCount + [...this.rows.values()].reduce((sum, rows) => sum + rows.length, 0)
    );
  }

  // ---- saving ----

  /** The feeds a save sends, or null (and a notice) when one is over the server's row limit. */
  private collectSavable(): Feed[] | null {
    const feeds = this.collectFeeds();
    const tooBig = feeds.find((feed) => feed.rows.length > FEED_MAX_ROWS);
    if (!tooBig) return feeds;
    this.deps.notify('error', SAVE_MESSAGES.tooManyRows(tooBig.name, tooBig.rows.length));
    return null;
  }

  /**
   * Saves the whole set against the loaded revision. A newer revision on the server becomes a
   * conflict; a failure keeps every edit (and the draft) and says why.
   */
  save(options: { revision?: number; isAutosave?: boolean } = {}): Promise<SaveOutcome> {
    return this.saver.save(options);
  }

  /** Resolves a conflict: load the newer version, or save mine over it. */
  resolveConflict(choice: 'theirs' | 'mine'): Promise<SaveOutcome | 'loaded'> {
    return this.saver.resolveConflict(choice);
  }

  /** Closes the conflict dialog without choosing: the edits stay, unsaved. */
  dismissConflict(): void {
    this.saver.dismissConflict();
  }

  // ---- drafts ----

  /** Restores the offered draft: its feeds, rows and active feed, unsaved, on its base revision. */
  restoreDraft(): void {
    const draft = this.drafts.takeOffer();
    if (!draft) return;
    let feeds: StoredFeed[];
    try {
      // A draft holds no rows of synced linked feeds (as a save): they keep their copy.
      feeds = draftFeeds(draft).map((feed) =>
        isRowsSaved(feed) ? feed : { ...feed, rows: this.getFeedRows(feed.name) },
      );
    } catch {
      this.deps.notify('error', REVISIONED_SET_MESSAGES.draftUnreadable);
      return;
    }
    this.applySnapshot(
      { feeds, revision: draft.baseRevision },
      draft.activeFeed ?? this.state.get().activeFeed,
      true,
    );
    this.saver.edited();
    this.drafts.restored();
  }

  /** Drops the offered draft. */
  discardDraft(): Promise<void> {
    return this.drafts.discard();
  }

  /**
   * Writes unsaved edits to the browser now (before leaving, switching client, or hiding the
   * page), in one go: a page being left may not run again. Nothing to do when the last draft
   * already holds every edit.
   */
  flushDraft(): Promise<void> {
    return this.drafts.flush();
  }

  /**
   * The draft: every feed's rows packed by column (the edited feed read straight from the
   * store). `inSlices`: packing yields to the page every few milliseconds, so a million rows
   * never freeze it; an edit meanwhile stops it (another write is scheduled).
   */
  private async composeDraft(
    inSlices: boolean,
    isStopped: () => boolean,
  ): Promise<FeedSetDraft | null> {
    const target = this.target;
    if (!target || !this.state.get().isDirty) return null;
    const loads = this.storeLoads;
    const feeds = this.startPacking();
    let sliceEnd = inSlices ? this.now() + DRAFT_SLICE_MS : Number.POSITIVE_INFINITY;
    for (const { packer } of feeds) {
      while (!packer.step(sliceEnd, this.now)) {
        await yieldToPage();
        if (isStopped() || this.target !== target) return null;
        if (this.storeLoads !== loads) {
          // Another feed was opened: its rows are read from the set next time.
          this.drafts.schedule();
          return null;
        }
        sliceEnd = this.now() + DRAFT_SLICE_MS;
      }
    }
    const state = this.state.get();
    if (!state.isDirty) return null;
    return {
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
  }

  /** A packer per feed (done at once for feeds packed before), as collectFeeds would save them. */
  private startPacking(): { meta: FeedMeta; rows?: readonly FeedRow[]; packer: RowPacker }[] {
    const { feeds, activeFeed } = this.state.get();
    const isStoreAhead = this.store.dataChanges !== this.storeBaseline;
    return feeds.map((meta) => {
      const isSaved = isRowsSaved(meta);
      if (meta.name === activeFeed && isStoreAhead && isSaved)
        return { meta, packer: new RowPacker(storeColumns(this.store)) };
      const rows = isSaved ? (this.rows.get(meta.name) ?? []) : [];
      const packed = this.packedRows.get(rows);
      if (packed) return { meta, packer: RowPacker.done(packed) };
      return { meta, rows, packer: new RowPacker(rowObjectColumns(rows)) };
    });
  }

  // ---- autosave ----

  /** Saves every 5 minutes while there are unsaved edits. */
  startAutosave(): void {
    this.autosave.start();
  }

  stopAutosave(): void {
    this.autosave.stop();
  }

  /** Stops timers and listeners. */
  dispose(): void {
    this.autosave.stop();
    this.drafts.cancel();
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
