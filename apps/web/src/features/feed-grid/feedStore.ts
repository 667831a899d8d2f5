import type { FeedRow } from '@adloom/engine';
import { FEED_COLUMNS } from '@adloom/engine';
import { yieldToPage } from '../../state/yieldToPage.ts';
import type { ColumnChunk } from './columnChunk.ts';
import type { FeedGridNotice } from './gridLayout.ts';
import { FeedHistory, type HistoryEntry, type OrderSnapshot } from './feedHistory.ts';
import { RowSelection } from './rowSelection.ts';
import { FEED_COLUMN_COUNT, feedRowAt, getColumnMaxChars, normalizeCell } from './feedColumns.ts';

/** Filters over more rows than this run in time slices so the page never freezes. */
const SYNC_FILTER_MAX_ROWS = 50_000;
const FILTER_SLICE_MS = 8;
/** Rows appended while a filter is on stay shown when up to this many; more re-run the filter. */
const PIN_APPENDED_MAX_ROWS = 1_000;

/** What a paste did: cells changed, rows added, existing rows whose values it replaced. */
export interface PasteResult {
  changedCells: number;
  addedRows: number;
  replacedRows: number;
}

/** What an undo or redo step did, for the grid to say so or move focus. */
export type HistoryKind = 'edit' | 'rows';

/** Options for FeedStore. */
export interface FeedStoreOptions {
  /** Makes ids for rows created in the grid (rows loaded with an id keep it). */
  makeId?: () => string;
}

/** Adds rows to a store in pieces (for imports and combines); nothing shows until commit. */
export interface BulkAppend {
  addChunk(chunk: ColumnChunk): void;
  addRows(rows: readonly (readonly string[])[]): void;
  readonly count: number;
  /** Shows the rows as one undoable step. `replaceBlankFeed`: a feed of only blank rows is replaced. */
  commit(options?: { replaceBlankFeed?: boolean }): number;
  abort(): void;
}

/**
 * The feed grid's row state, kept outside React: six columns of strings indexed by slot, the
 * row order as a Uint32Array of slots, a version counter, the selection ("all except these" or
 * "these"), the filter index and the undo/redo history. Deleted slots keep their data so undo
 * is a swap of order arrays, whatever the row count.
 */
export class FeedStore {
  private readonly columns: string[][] = FEED_COLUMNS.map(() => []);
  /** Row ids by slot, dense (never a gap: a sparse array this big would turn slow in V8). */
  private ids: (string | undefined)[] = [];
  private order: Uint32Array = new Uint32Array(64);
  private orderLength = 0;
  private alive = new Uint8Array(64);
  private version = 0;
  private readonly listeners = new Set<() => void>();
  private readonly makeId: () => string;
  private idCounter = 0;

  private readonly history = new FeedHistory();

  private readonly selection = new RowSelection();
  private allShownCache = { version: -1, value: false };

  // Filter: when a query is set, view holds the matching slots in feed order.
  private filterQuery = '';
  private view: Uint32Array | null = null;
  private viewLength = 0;
  private readonly pinned = new Set<number>();
  private filterToken = 0;
  private filterPending: Promise<void> = Promise.resolve();
  private filtering = false;

  private statusNotice: FeedGridNotice | null = null;

  constructor(options: FeedStoreOptions = {}) {
    // One time-and-random prefix per store and a counter: ids of a million rows are made in a
    // fraction of a second (Date.now() per id costs a second per million).
    const prefix = `row-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}-`;
    this.makeId = options.makeId ?? (() => prefix + (this.idCounter += 1).toString(36));
  }

  // ---- subscription ----

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A number that changes whenever anything shown changes. */
  getVersion = (): number => this.version;

  private changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  // ---- reading ----

  /** Rows in the feed. */
  get rowCount(): number {
    return this.orderLength;
  }

  /** Rows the grid shows (the filter's matches, or every row). */
  get viewCount(): number {
    return this.view ? this.viewLength : this.orderLength;
  }

  /** The slot (stable row key) of the row shown at `viewIndex`. */
  getViewSlot(viewIndex: number): number {
    if (viewIndex < 0 || viewIndex >= this.viewCount)
      throw new RangeError(`No row shown at ${viewIndex}`);
    return (this.view ?? this.order)[viewIndex]!;
  }

  /**
   * The feed's own number (1-based position) of the row shown at `viewIndex`, filtered or not.
   * Slots are handed out in increasing order and every order keeps them so (rows are only
   * appended, deleted or restored), so a binary search over the order finds a slot.
   */
  getRowNumber(viewIndex: number): number {
    if (!this.view) return viewIndex + 1;
    const slot = this.getViewSlot(viewIndex);
    let low = 0;
    let high = this.orderLength - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.order[middle]! < slot) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  }

  /** The grid's status line: the last notice, until the rows are replaced or history moves. */
  get notice(): FeedGridNotice | null {
    return this.statusNotice;
  }

  /** Shows a notice in the grid's status line. */
  announce(notice: FeedGridNotice): void {
    this.statusNotice = notice;
    this.changed();
  }

  /** The slot of the row at feed position `position`. */
  getSlotAt(position: number): number {
    if (position < 0 || position >= this.orderLength) throw new RangeError(`No row at ${position}`);
    return this.order[position]!;
  }

  /** The cell of a row (by slot) and column index. */
  getCell(slot: number, column: number): string {
    return this.columns[column]![slot] ?? '';
  }

  /** The row's id: the one it was loaded with, or one made for it on first ask. */
  getRowId(slot: number): string {
    let id = this.ids[slot];
    if (id === undefined) {
      id = this.makeId();
      this.setRowId(slot, id);
    }
    return id;
  }

  private setRowId(slot: number, id: string): void {
    const ids = this.ids;
    while (ids.length < slot) ids.push(undefined);
    ids[slot] = id;
  }

  /** Whether every cell of the row is empty. */
  isRowBlank(slot: number): boolean {
    for (let c = 0; c < FEED_COLUMN_COUNT; c += 1) if (this.columns[c]![slot] !== '') return false;
    return true;
  }

  /** The cells of the row at a slot, in column order. */
  getRowCells(slot: number): string[] {
    return this.columns.map((column) => column[slot] ?? '');
  }

  /** Every row as FeedRow objects, in feed order (for saving). */
  toFeedRows(): FeedRow[] {
    const rows: FeedRow[] = new Array<FeedRow>(this.orderLength);
    for (let i = 0; i < this.orderLength; i += 1) {
      const slot = this.order[i]!;
      rows[i] = feedRowAt(this.getRowId(slot), this.columns, slot);
    }
    return rows;
  }

  /**
   * One column's cells (a column index) or the row ids ('id') of the rows at feed positions
   * [start, end), in feed order: for writers that work by column, such as drafts.
   */
  getColumnSlice(column: number | 'id', start: number, end: number): string[] {
    const last = Math.min(end, this.orderLength);
    const out = new Array<string>(Math.max(0, last - start));
    if (column === 'id') {
      for (let i = start; i < last; i += 1) out[i - start] = this.getRowId(this.order[i]!);
    } else {
      const cells = this.columns[column]!;
      for (let i = start; i < last; i += 1) out[i - start] = cells[this.order[i]!] ?? '';
    }
    return out;
  }

  // ---- loading ----

  /** Replaces everything with these rows (cells normalized); clears history, selection and filter. */
  load(rows: readonly Partial<FeedRow>[]): void {
    this.reset();
    const start = this.columns[0]!.length;
    const count = rows.length;
    // Column by column, no per-row arrays: a saved feed of 250k rows loads in one short task.
    FEED_COLUMNS.forEach((name, c) => {
      const cells = this.columns[c]!;
      for (let i = 0; i < count; i += 1) cells.push(loadCell(rows[i]![name], c));
    });
    for (let i = 0; i < count; i += 1) {
      const id = rows[i]!.id;
      if (id) this.setRowId(start + i, id);
    }
    this.appendOrder(start, count);
    this.changed();
  }

  /** Empties the store (history, selection and filter too). */
  reset(): void {
    for (const column of this.columns) column.length = 0;
    this.ids = [];
    this.order = new Uint32Array(64);
    this.orderLength = 0;
    this.alive = new Uint8Array(64);
    this.history.clear();
    this.selection.clear();
    this.filterQuery = '';
    this.view = null;
    this.viewLength = 0;
    this.pinned.clear();
    this.filterToken += 1;
    this.filtering = false;
    this.statusNotice = null;
    this.changed();
  }

  /** Starts adding many rows (see BulkAppend). Cells are expected already normalized. */
  beginBulkAppend(): BulkAppend {
    const start = this.columns[0]!.length;
    let count = 0;
    let isOpen = true;
    const ensureOpen = () => {
      if (!isOpen) throw new Error('This bulk append is already finished');
    };
    return {
      get count() {
        return count;
      },
      addChunk: (chunk: ColumnChunk) => {
        ensureOpen();
        for (let c = 0; c < FEED_COLUMN_COUNT; c += 1) {
          const column = this.columns[c]!;
          const codes = chunk.codes[c];
          const dict = chunk.dicts[c];
          // push, never `length = n`: growing an array's length by a big gap turns it into a
          // slow dictionary-mode array in V8.
          if (!codes || codes.length === 0 || !dict) {
            for (let r = 0; r < chunk.rowCount; r += 1) column.push('');
          } else {
            for (let r = 0; r < chunk.rowCount; r += 1) column.push(dict[codes[r]!] ?? '');
          }
        }
        count += chunk.rowCount;
      },
      addRows: (rows) => {
        ensureOpen();
        for (const row of rows) this.pushSlot(FEED_COLUMNS.map((_, c) => row[c] ?? ''));
        count += rows.length;
      },
      commit: (options = {}) => {
        ensureOpen();
        isOpen = false;
        if (count === 0) return 0;
        const isBlankFeed = options.replaceBlankFeed === true && this.isFeedBlank();
        if (isBlankFeed && this.orderLength > 0) {
          const before = this.snapshotOrder();
          const order = new Uint32Array(Math.max(64, count));
          for (let i = 0; i < count; i += 1) order[i] = start + i;
          this.applyOrder({ order, length: count });
          this.history.record({ kind: 'order', before, after: { order, length: count } });
        } else {
          this.appendOrder(start, count);
          this.history.record({ kind: 'append', start: this.orderLength - count, count });
        }
        this.afterAppend(start, count);
        this.changed();
        return count;
      },
      abort: () => {
        if (!isOpen) return;
        isOpen = false;
        for (const column of this.columns) column.length = start;
        if (this.ids.length > start) this.ids.length = start;
      },
    };
  }

  private isFeedBlank(): boolean {
    if (this.orderLength > 1000) return false;
    for (let i = 0; i < this.orderLength; i += 1)
      if (!this.isRowBlank(this.order[i]!)) return false;
    return true;
  }

  private pushSlot(cells: readonly string[]): number {
    const slot = this.columns[0]!.length;
    for (let c = 0; c < FEED_COLUMN_COUNT; c += 1) this.columns[c]!.push(cells[c] ?? '');
    return slot;
  }

  private ensureCapacity(length: number): void {
    if (length > this.order.length) {
      const next = new Uint32Array(Math.max(length, this.order.length * 2));
      next.set(this.order.subarray(0, this.orderLength));
      this.order = next;
    }
    const slots = this.columns[0]!.length;
    if (slots > this.alive.length) {
      const next = new Uint8Array(Math.max(slots, this.alive.length * 2));
      next.set(this.alive);
      this.alive = next;
    }
  }

  /** Appends slots start..start+count-1 to the order. */
  private appendOrder(start: number, count: number): void {
    this.ensureCapacity(this.orderLength + count);
    for (let i = 0; i < count; i += 1) {
      this.order[this.orderLength + i] = start + i;
      this.alive[start + i] = 1;
    }
    this.orderLength += count;
  }

  private afterAppend(firstSlot: number, count: number): void {
    this.selection.appended(firstSlot, count);
    if (this.filterQuery === '') return;
    if (count <= PIN_APPENDED_MAX_ROWS) {
      for (let i = 0; i < count; i += 1) this.pinned.add(firstSlot + i);
      this.rebuildViewFromAlive(true);
    } else {
      this.rebuildViewFromAlive(false);
      void this.runFilter();
    }
  }

  private snapshotOrder(): OrderSnapshot {
    return { order: this.order, length: this.orderLength };
  }

  private applyOrder(snapshot: OrderSnapshot): void {
    this.alive.fill(0);
    this.order = snapshot.order;
    this.orderLength = snapshot.length;
    this.ensureCapacity(this.orderLength);
    for (let i = 0; i < this.orderLength; i += 1) this.alive[this.order[i]!] = 1;
  }

  // ---- editing ----

  /** Sets one cell (trimmed and cut to its limit) as an undoable step. Returns the stored value. */
  setCell(slot: number, column: number, value: string): string {
    const next = normalizeCell(value, column);
    const before = this.getCell(slot, column);
    if (next === before) return before;
    this.columns[column]![slot] = next;
    this.history.record({
      kind: 'cells',
      slots: Uint32Array.of(slot),
      columns: Uint8Array.of(column),
      before: [before],
      after: [next],
    });
    this.changed();
    return next;
  }

  /** Adds an empty row at the end; returns its view index. */
  addRow(): number {
    const slot = this.pushSlot(FEED_COLUMNS.map(() => ''));
    this.appendOrder(slot, 1);
    this.history.record({ kind: 'append', start: this.orderLength - 1, count: 1 });
    this.afterAppend(slot, 1);
    this.changed();
    return this.viewCount - 1;
  }

  /**
   * Pastes lines of cells at (viewIndex, column): line i goes to the i-th shown row from there,
   * adding rows at the end as needed; cells past Final URL are dropped. One undoable step.
   * Returns how many cells changed, how many rows were added and how many existing rows lost a
   * value they held (replaced).
   */
  paste(viewIndex: number, column: number, lines: readonly (readonly string[])[]): PasteResult {
    const slots: number[] = [];
    const cols: number[] = [];
    const before: string[] = [];
    const after: string[] = [];
    const startSlot = this.columns[0]!.length;
    let added = 0;
    let replaced = 0;
    const shown = this.viewCount;
    lines.forEach((cells, i) => {
      const target = viewIndex + i;
      let slot: number;
      if (target < shown) {
        slot = this.getViewSlot(target);
      } else {
        slot = this.pushSlot(FEED_COLUMNS.map(() => ''));
        added += 1;
      }
      let isReplaced = false;
      cells.forEach((cell, j) => {
        const c = column + j;
        if (c >= FEED_COLUMN_COUNT) return;
        const next = normalizeCell(cell, c);
        const previous = this.getCell(slot, c);
        if (next === previous) return;
        this.columns[c]![slot] = next;
        if (previous !== '') isReplaced = true;
        if (slot < startSlot) {
          slots.push(slot);
          cols.push(c);
          before.push(previous);
          after.push(next);
        }
      });
      if (isReplaced) replaced += 1;
    });
    const entries: HistoryEntry[] = [];
    if (slots.length > 0) {
      entries.push({
        kind: 'cells',
        slots: Uint32Array.from(slots),
        columns: Uint8Array.from(cols),
        before,
        after,
      });
    }
    if (added > 0) {
      this.appendOrder(startSlot, added);
      entries.push({ kind: 'append', start: this.orderLength - added, count: added });
      this.afterAppend(startSlot, added);
    }
    if (entries.length === 0) return { changedCells: 0, addedRows: 0, replacedRows: 0 };
    this.history.record(entries.length === 1 ? entries[0]! : { kind: 'batch', entries });
    this.changed();
    return { changedCells: slots.length, addedRows: added, replacedRows: replaced };
  }

  /** Deletes one row (by slot) as an undoable step. */
  deleteRow(slot: number): void {
    if (!this.alive[slot]) return;
    this.deleteWhere((s) => s === slot, 1);
  }

  /** Deletes the selected rows as one undoable step; returns how many. O(1) when every row goes. */
  deleteSelected(): number {
    const count = this.selectedCount;
    if (count === 0) return 0;
    if (count === this.orderLength) {
      const before = this.snapshotOrder();
      const after: OrderSnapshot = { order: new Uint32Array(64), length: 0 };
      this.alive.fill(0);
      this.order = after.order;
      this.orderLength = 0;
      this.history.record({ kind: 'order', before, after });
      this.afterDelete();
      return count;
    }
    this.deleteWhere((slot) => this.isSelected(slot), count);
    return count;
  }

  private deleteWhere(isRemoved: (slot: number) => boolean, removedCount: number): void {
    const before = this.snapshotOrder();
    const next = new Uint32Array(Math.max(64, this.orderLength - removedCount));
    let n = 0;
    for (let i = 0; i < this.orderLength; i += 1) {
      const slot = this.order[i]!;
      if (isRemoved(slot)) this.alive[slot] = 0;
      else next[n++] = slot;
    }
    this.order = next;
    this.orderLength = n;
    this.history.record({ kind: 'order', before, after: { order: next, length: n } });
    this.afterDelete();
  }

  private afterDelete(): void {
    // A per-row delete leaves the other rows selected.
    this.selection.removeDeleted(this.alive, this.orderLength);
    if (this.view) this.rebuildViewFromAlive(true);
    this.changed();
  }

  // ---- history ----

  /** Forgets every undo and redo step (after loading a feed). */
  clearHistory(): void {
    this.history.clear();
    this.changed();
  }

  /** Whether there is a step to undo. */
  get canUndo(): boolean {
    return this.history.canUndo;
  }

  /** Whether there is a step to redo. */
  get canRedo(): boolean {
    return this.history.canRedo;
  }

  /** Undoes the last edit, paste, import or delete. Returns what kind of step it was, or null. */
  undo(): HistoryKind | null {
    const entry = this.history.takeUndo();
    if (!entry) return null;
    this.apply(entry, 'undo');
    return this.afterHistory(entry);
  }

  /** Redoes the last undone step. */
  redo(): HistoryKind | null {
    const entry = this.history.takeRedo();
    if (!entry) return null;
    this.apply(entry, 'redo');
    return this.afterHistory(entry);
  }

  private afterHistory(entry: HistoryEntry): HistoryKind {
    const isCells = entry.kind === 'cells';
    // What the status line said (rows imported, pasted, deleted) is no longer so.
    this.statusNotice = null;
    if (!isCells) {
      this.selection.clear();
      if (this.view) {
        this.rebuildViewFromAlive(true);
        void this.runFilter();
      }
    }
    this.changed();
    return isCells ? 'edit' : 'rows';
  }

  private apply(entry: HistoryEntry, direction: 'undo' | 'redo'): void {
    switch (entry.kind) {
      case 'cells': {
        const values = direction === 'undo' ? entry.before : entry.after;
        for (let i = 0; i < entry.slots.length; i += 1)
          this.columns[entry.columns[i]!]![entry.slots[i]!] = values[i]!;
        return;
      }
      case 'append': {
        if (direction === 'undo') {
          for (let i = 0; i < entry.count; i += 1) this.alive[this.order[entry.start + i]!] = 0;
          this.orderLength = entry.start;
        } else {
          this.ensureCapacity(entry.start + entry.count);
          this.orderLength = entry.start + entry.count;
          for (let i = 0; i < entry.count; i += 1) this.alive[this.order[entry.start + i]!] = 1;
        }
        return;
      }
      case 'order':
        this.applyOrder(direction === 'undo' ? entry.before : entry.after);
        return;
      case 'batch': {
        const entries = direction === 'undo' ? [...entry.entries].reverse() : entry.entries;
        for (const inner of entries) this.apply(inner, direction);
        return;
      }
    }
  }

  // ---- selection ----

  /** Whether the row (by slot) is selected. */
  isSelected(slot: number): boolean {
    return this.selection.has(slot);
  }

  /** Selects or deselects one row. */
  setSelected(slot: number, isSelected: boolean): void {
    if (this.selection.has(slot) === isSelected || !this.alive[slot]) return;
    this.selection.flip(slot);
    this.changed();
  }

  /**
   * Selects or deselects the shown rows `from`..`to` (view indexes, either order, inclusive):
   * one change, O(rows in the range).
   */
  setRangeSelected(from: number, to: number, isSelected: boolean): void {
    const end = Math.min(this.viewCount - 1, Math.max(from, to));
    let isChanged = false;
    for (let index = Math.max(0, Math.min(from, to)); index <= end; index += 1) {
      const slot = this.getViewSlot(index);
      if (this.selection.has(slot) === isSelected) continue;
      this.selection.flip(slot);
      isChanged = true;
    }
    if (isChanged) this.changed();
  }

  /** How many rows are selected. */
  get selectedCount(): number {
    return this.selection.count(this.orderLength);
  }

  /** Whether every shown row is selected (the select-all box is checked). */
  get isAllShownSelected(): boolean {
    const shown = this.viewCount;
    if (shown === 0) return false;
    if (!this.view) return this.selectedCount === this.orderLength;
    if (this.selection.isEveryRow) return true;
    if (this.allShownCache.version === this.version) return this.allShownCache.value;
    let value = true;
    for (let i = 0; i < this.viewLength; i += 1) {
      if (!this.selection.has(this.view[i]!)) {
        value = false;
        break;
      }
    }
    this.allShownCache = { version: this.version, value };
    return value;
  }

  /** Selects every shown row: O(1) without a filter, O(matches) with one. */
  selectAllShown(): void {
    if (!this.view) this.selection.selectAll();
    else this.selection.selectSlots(this.view, this.viewLength, this.columns[0]!.length);
    this.changed();
  }

  /** Deselects every row. */
  clearSelection(): void {
    this.selection.clear();
    this.changed();
  }

  /** The selected rows' cells in feed order. */
  *selectedRows(): Generator<string[]> {
    for (let i = 0; i < this.orderLength; i += 1) {
      const slot = this.order[i]!;
      if (this.isSelected(slot)) yield this.getRowCells(slot);
    }
  }

  // ---- filter ----

  /** The current filter text ('' when none). */
  get filter(): string {
    return this.filterQuery;
  }

  /** Whether a filter is being computed in the background. */
  get isFiltering(): boolean {
    return this.filtering;
  }

  /** Resolves when the latest filter has been applied. */
  whenFiltered(): Promise<void> {
    return this.filterPending;
  }

  /**
   * Shows only rows where some cell contains `query` (case-insensitive). Small feeds filter at
   * once; big ones in time slices, keeping the previous view until done.
   */
  setFilter(query: string): Promise<void> {
    const next = query.trim().toLowerCase();
    if (next === this.filterQuery) return this.filterPending;
    this.filterQuery = next;
    this.pinned.clear();
    if (next === '') {
      this.filterToken += 1;
      this.filtering = false;
      this.view = null;
      this.viewLength = 0;
      this.filterPending = Promise.resolve();
      this.changed();
      return this.filterPending;
    }
    return this.runFilter();
  }

  private rowMatches(slot: number, query: string): boolean {
    for (let c = 0; c < FEED_COLUMN_COUNT; c += 1) {
      const cell = this.columns[c]![slot]!;
      if (cell.length >= query.length && cell.toLowerCase().includes(query)) return true;
    }
    return false;
  }

  private runFilter(): Promise<void> {
    const token = (this.filterToken += 1);
    const query = this.filterQuery;
    const result = new Uint32Array(Math.max(1, this.orderLength));
    let found = 0;
    let position = 0;
    const scan = (deadline: number): boolean => {
      while (position < this.orderLength) {
        const slot = this.order[position]!;
        if (this.pinned.has(slot) || this.rowMatches(slot, query)) result[found++] = slot;
        position += 1;
        if ((position & 1023) === 0 && performance.now() > deadline) return false;
      }
      return true;
    };
    const finish = () => {
      this.view = result;
      this.viewLength = found;
      this.filtering = false;
      this.changed();
    };
    if (this.orderLength <= SYNC_FILTER_MAX_ROWS) {
      scan(Number.POSITIVE_INFINITY);
      finish();
      this.filterPending = Promise.resolve();
      return this.filterPending;
    }
    this.filtering = true;
    if (!this.view) {
      // Until the first result, show nothing rather than rows that may not match.
      this.view = new Uint32Array(0);
      this.viewLength = 0;
    }
    this.changed();
    this.filterPending = new Promise<void>((resolve) => {
      const step = () => {
        if (token !== this.filterToken) return resolve();
        if (scan(performance.now() + FILTER_SLICE_MS)) {
          finish();
          resolve();
        } else {
          void yieldToPage().then(step);
        }
      };
      void yieldToPage().then(step);
    });
    return this.filterPending;
  }

  /** Keeps the shown rows that still exist (and appends pinned new rows), without re-matching. */
  private rebuildViewFromAlive(includePinned: boolean): void {
    if (!this.view) return;
    const seen = new Set<number>();
    const next = new Uint32Array(
      Math.max(1, this.viewLength + (includePinned ? this.pinned.size : 0)),
    );
    let n = 0;
    for (let i = 0; i < this.viewLength; i += 1) {
      const slot = this.view[i]!;
      if (this.alive[slot]) {
        next[n++] = slot;
        if (this.pinned.has(slot)) seen.add(slot);
      }
    }
    if (includePinned) {
      for (const slot of this.pinned) if (this.alive[slot] && !seen.has(slot)) next[n++] = slot;
    }
    this.view = next;
    this.viewLength = n;
  }
}

/** A loaded cell as the store keeps it (see normalizeCell), without work for tidy values. */
function loadCell(raw: unknown, column: number): string {
  const value = typeof raw === 'string' ? raw : String(raw ?? '');
  return isTidyCell(value, getColumnMaxChars(column)) ? value : normalizeCell(value, column);
}

/** Whether a cell is already as normalizeCell leaves it (short enough, no space at either end). */
function isTidyCell(value: string, max: number): boolean {
  const length = value.length;
  if (length === 0) return true;
  if (length > max) return false;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(length - 1);
  // Printable ASCII at both ends is never trimmed; anything else takes the full rule.
  return first > 32 && first < 127 && last > 32 && last < 127;
}
